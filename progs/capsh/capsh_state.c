/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh options on process state: modes, securebits, prctl, chroot, child. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capsh.h"

/* --mode=<NAME>: names are exactly those --modes lists (case matters). */
int capsh_set_mode(const char *name)
{
	cap_mode_t m;

	for (m = CAP_MODE_NOPRIV; m <= CAP_MODE_HYBRID; m++)
		if (strcmp(cap_mode_name(m), name) == 0)
			break;
	if (m > CAP_MODE_HYBRID) {
		printf("unsupported mode: %s\n", name);
		return 1;
	}
	if (cap_set_mode(m) != 0) {
		printf("failed to set mode [%s]: %s\n", name, strerror(errno));
		return 1;
	}
	return 0;
}

int capsh_secbits(const char *text)
{
	unsigned bits;

	if (capsh_parse_uint(text, "invalid --secbits value", &bits) != 0)
		return 1;
	if (cap_set_secbits(bits) != 0) {
		fprintf(stderr, "failed to set securebits to 0%o/0x%x\n", bits,
			bits);
		return 1;
	}
	return 0;
}

int capsh_keep(const char *text)
{
	unsigned keep;

	if (capsh_parse_uint(text, "invalid --keep value", &keep) != 0)
		return 1;
	if (cap_prctlw(PR_SET_KEEPCAPS, (long)keep, 0, 0, 0, 0) != 0) {
		fprintf(stderr, "prctl(PR_SET_KEEPCAPS, %u) failed: %s\n", keep,
			strerror(errno));
		return 1;
	}
	return 0;
}

int capsh_no_new_privs(void)
{
	if (cap_prctlw(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0) != 0) {
		capsh_perror("unable to set no-new-privs");
		return 1;
	}
	return 0;
}

/*
 * --chroot=<path>: chroot(2) needs CAP_SYS_CHROOT in E. Raise it for the
 * call whatever --strict says (libcap does too), then chdir("/") so no
 * directory outside the new root stays reachable through ".", and finally
 * put E back the way it was.
 */
int capsh_chroot(const char *path)
{
	static const cap_value_t sys_chroot = CAP_SYS_CHROOT;
	cap_t saved, raised;
	int status = 0;

	saved = cap_get_proc();
	if (saved == NULL) {
		capsh_perror("Capabilities not available");
		return 1;
	}
	raised = cap_dup(saved);
	if (raised == NULL) {
		fprintf(stderr, "Unable to duplicate capabilities\n");
		cap_free(saved);
		return 1;
	}
	if (cap_set_flag(raised, CAP_EFFECTIVE, 1, &sys_chroot, CAP_SET) != 0) {
		fprintf(stderr, "unable to select CAP_SET_SYS_CHROOT\n");
		status = 1;
	} else if (cap_set_proc(raised) != 0) {
		capsh_perror("unable to raise CAP_SYS_CHROOT");
		status = 1;
	} else if (chroot(path) != 0 || chdir("/") != 0) {
		/* libcap's message has no newline; kept byte for byte. */
		fprintf(stderr, "Unable to chroot/chdir to [%s]", path);
		status = 1;
	} else if (cap_set_proc(saved) != 0) {
		capsh_perror("unable to lower CAP_SYS_CHROOT");
		status = 1;
	}
	cap_free(raised);
	cap_free(saved);
	return status;
}

/*
 * --forkfor=<sec>: a child that just sleeps, so later options can be
 * tested against a live process (and --killit can check signal delivery).
 */
int capsh_forkfor(struct opts *o, const char *text)
{
	unsigned secs;
	pid_t pid;

	if (o->child != 0) {
		fprintf(stderr, "already forked\n");
		return 1;
	}
	if (capsh_parse_uint(text, "invalid --forkfor value", &secs) != 0)
		return 1;
	if (secs == 0) {
		fprintf(stderr, "require non-zero --forkfor value\n");
		capsh_usage(o, o->usage_status);
	}
	/* Nothing buffered may be written twice, by the child's exit too. */
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "unable to fork()\n");
		return 1;
	}
	if (pid == 0) {
		sleep(secs);
		_exit(0);
	}
	o->child = pid;
	return 0;
}

/* --killit=<sig>: signal the --forkfor child and check that sig ended it. */
int capsh_killit(struct opts *o, const char *text)
{
	unsigned sig;
	int status = 0;
	pid_t got;

	if (capsh_parse_uint(text, "invalid --killit signo value", &sig) != 0)
		return 1;
	if (o->child == 0) {
		fprintf(stderr, "no forked process to kill\n");
		return 1;
	}
	if (kill(o->child, (int)sig) != 0) {
		capsh_perror("Unable to kill child process");
		return 1;
	}
	do
		got = waitpid(o->child, &status, 0);
	while (got < 0 && errno == EINTR);
	if (got != o->child) {
		fprintf(stderr, "waitpid didn't match child: %u != %u\n",
			(unsigned)got, (unsigned)o->child);
		return 1;
	}
	o->child = 0;
	/* A child that exited normally reads as signal 0 (--killit=0 passes). */
	if ((int)sig != WTERMSIG(status)) {
		fprintf(stderr, "child terminated with odd signal (%d != %d)\n",
			(int)sig, WTERMSIG(status));
		return 1;
	}
	return 0;
}
