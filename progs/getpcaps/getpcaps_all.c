/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all / --tree: the judgement of each process (what is shown,
 * what is flagged) and the exit status. getpcaps.c reads the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "getpcaps.h"

/*
 * Command names of interactive shells. A process counts as an interactive
 * shell when its comm is one of these and it has a controlling terminal:
 * a person typing commands whose every program inherits the ambient set.
 * comm is whatever the process last executed (or named itself with
 * prctl), so a renamed shell escapes this and a renamed program is a
 * false alarm; both are the process's own doing.
 */
static const char *const shells[] = {
	"ash",	 "bash",  "busybox", "csh",   "dash",  "elvish", "fish",
	"ksh",	 "ksh93", "mksh",    "nu",    "pdksh", "posh",	 "pwsh",
	"rbash", "sh",	  "tcsh",    "xonsh", "yash",  "zsh",
};

/*
 * Parents that make a terminal-less child a daemon, besides pid 1: service
 * managers and supervisors (a user's systemd instance, runit, s6,
 * daemontools, dinit, supervisord) and container shims.
 */
static const char *const managers[] = {
	"conmon",	"containerd-shim", "dinit",	  "runsv",
	"s6-supervise", "supervise",	   "supervisord", "systemd",
};

static int in_list(const char *name, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return 1;
	return 0;
}

#define IN_LIST(name, list) in_list(name, list, sizeof(list) / sizeof(list[0]))

/*
 * Without no_new_privs, a set-user-ID-root or file-capability program a
 * capable process can be made to run hands it more: for a non-root one
 * root's uid at least (it owns most of the system's files), for a root
 * one whatever its bounding set allows beyond its permitted set. A root
 * process already holding its whole bounding set has nothing to gain.
 */
static int capable_without_nnp(const struct scan *s, const struct proc *p)
{
	/* An unknown no_new_privs (before Linux 4.10) is shown as such. */
	if (p->c.nnp != 0 || (p->c.prm | p->c.amb) == 0)
		return 0;
	return p->c.uid[1] != 0 || (p->c.bnd & s->full & ~p->c.prm) != 0;
}

/*
 * Such a process as a daemon: no controlling terminal, started by pid 1
 * or by a service manager.
 */
static int daemon_without_nnp(const struct scan *s, const struct proc *p)
{
	const struct proc *parent;

	if (p->tty || !capable_without_nnp(s, p))
		return 0;
	if (p->ppid == 1)
		return 1;
	parent = scan_parent(s, p);
	return parent != NULL && IN_LIST(parent->comm, managers);
}

/* A shell with ambient capabilities: every program it starts gets them. */
static int shell_with_ambient(const struct proc *p)
{
	return p->c.amb != 0 && IN_LIST(p->comm, shells);
}

int judge_needs_stat(const struct scan *s, const struct proc *p)
{
	/* the terminal: is it interactive, or a daemon? */
	if (shell_with_ambient(p) || capable_without_nnp(s, p))
		return 1;
	/* the start time of a daemon's parent, to know it is its parent */
	return IN_LIST(p->comm, managers);
}

void judge_all(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct proc *p = &s->procs[i];

		/*
		 * All threads together: whatever one holds, the process does.
		 * A uid 0 is shown whatever its sets: emptied, they come back
		 * with the next execve() (creds_uid0()).
		 */
		p->shown = (p->c.inh | p->c.prm | p->c.eff | p->c.amb) != 0 ||
			   (p->c.bnd & s->full) != s->full || creds_uid0(&p->c);
		p->flags = 0;
		if (creds_uid0(&p->c) && (p->c.bnd & s->full & ~p->c.prm) != 0)
			p->flags |= FLAG_ROOT_REGAINS;
		if (p->tty && shell_with_ambient(p))
			p->flags |= FLAG_AMBIENT_SHELL;
		if (p->exe_state == EXE_WRITABLE)
			p->flags |= FLAG_WRITABLE_EXE;
		if (daemon_without_nnp(s, p))
			p->flags |= FLAG_NO_NNP_DAEMON;
		if (p->nsets > 1 || p->threads_untold > 0)
			p->flags |= FLAG_THREADS_DIFFER;
	}
}

int all_main(const struct print_opts *po)
{
	struct scan_opts so = { 0 };
	struct scan s;
	int status = EXIT_SUCCESS;

	so.cmdline = po->verbose;
	/* --json shows every process's terminal; --tree needs start times */
	so.stat = po->json || po->tree;
	if (scan_run(&s, "/proc", &so) < 0) {
		fprintf(stderr, "getpcaps: /proc: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	judge_all(&s);
	if (print_all(&s, po) < 0) {
		fprintf(stderr, "getpcaps: %s\n", strerror(ENOMEM));
		status = EXIT_FAILURE;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "getpcaps: standard output: %s\n",
			strerror(errno));
		status = EXIT_FAILURE;
	}
	if (s.counts.not_examined) {
		fprintf(stderr,
			"getpcaps: %zu processes not examined: %s (a complete audit needs root)\n",
			s.counts.not_examined,
			strerror(s.counts.not_examined_errno));
		status = EXIT_FAILURE;
	}
	if (s.counts.hidden) {
		fprintf(stderr,
			"getpcaps: /proc: %s (a complete audit needs root)\n",
			s.counts.hidden_why);
		status = EXIT_FAILURE;
	}
	if (s.counts.exe_unchecked) {
		fprintf(stderr,
			"getpcaps: the executables of %zu capable processes not examined: %s\n",
			s.counts.exe_unchecked, strerror(s.counts.exe_errno));
		status = EXIT_FAILURE;
	}
	scan_free(&s);
	return status;
}
