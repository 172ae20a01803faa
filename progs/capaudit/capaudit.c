/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: runs a command (or attaches to a process) and reports every
 * capability check the kernel made for it and its descendants, granted
 * or refused, per process; --suggest turns that into the least grant.
 * Exit status: the command's own; 1 when capaudit fails, 2 on a usage
 * error, 127 when the command is not found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.h"
#include "escape.h"
#include "mask.h"
#include "number.h"
#include "opts.h"
#include "path.h"
#include "procstatus.h"
#include "suggest.h"
#include "version.h"

extern char **environ;

struct opts {
	const char *user;	/* --user, or NULL */
	uid_t uid;
	gid_t gid;
	cap_iab_t iab;		/* --iab, or NULL */
	pid_t pid;		/* --pid, or 0 */
	unsigned long long duration;
	int json, suggest, check, help, version;
	const char *output;
};

/*
 * Each handler returns OPTS_NEXT, or the exit status of a bad value; the
 * plain switches are OPTS_FLAG rows.
 */
static int opt_user(void *p, const char *v)
{
	struct opts *o = p;
	unsigned long long n;
	struct passwd *pw = getpwnam(v);

	if (pw == NULL && number_parse(v, 10, UINT_MAX - 1, &n) == 0)
		pw = getpwuid((uid_t)n);
	if (pw == NULL) {
		escape_line(stderr, PROG ": ", "--user=%s: no such user", v);
		return 2;
	}
	o->user = v;
	o->uid = pw->pw_uid;
	o->gid = pw->pw_gid;
	return OPTS_NEXT;
}

static int opt_iab(void *p, const char *v)
{
	struct opts *o = p;

	cap_free(o->iab);
	o->iab = cap_iab_from_text(v);
	if (o->iab == NULL) {
		escape_line(stderr, PROG ": ", "--iab=%s: %s", v, strerror(errno));
		suggest_cap_text(stderr, PROG, v);
		return 2;
	}
	return OPTS_NEXT;
}

static int opt_pid(void *p, const char *v)
{
	unsigned long long n;

	if (number_parse(v, 10, INT_MAX, &n) != 0 || n == 0) {
		escape_line(stderr, PROG ": ", "--pid=%s: not a process id", v);
		return 2;
	}
	((struct opts *)p)->pid = (pid_t)n;
	return OPTS_NEXT;
}

static int opt_duration(void *p, const char *v)
{
	if (number_parse(v, 10, 31536000, &((struct opts *)p)->duration) != 0 ||
	    ((struct opts *)p)->duration == 0) {
		escape_line(stderr, PROG ": ", "--duration=%s: not a number of seconds (1 to 31536000)", v);
		return 2;
	}
	return OPTS_NEXT;
}

static int opt_output(void *p, const char *v)
{
	((struct opts *)p)->output = v;
	return OPTS_NEXT;
}

/* One table: getopt's options and the usage text both come from it. */
static const struct opt options[] = {
	{ "user", 0, required_argument, opt_user, "USER",
	  "run COMMAND as USER (name or uid), with USER's groups", 0 },
	{ "iab", 0, required_argument, opt_iab, "IAB",
	  "run COMMAND with this IAB, e.g. '^cap_net_bind_service'", 0 },
	{ "pid", 0, required_argument, opt_pid, "PID",
	  "watch the running process PID (all its threads) instead", 0 },
	{ "duration", 0, required_argument, opt_duration, "SECONDS",
	  "with --pid: how long to watch (default 10)", 0 },
	{ "json", 0, no_argument, NULL, NULL, "one JSON object per line",
	  OPTS_FLAG(struct opts, json) },
	{ "suggest", 0, no_argument, NULL, NULL,
	  "add the least grant that let the run succeed",
	  OPTS_FLAG(struct opts, suggest) },
	{ "output", 0, required_argument, opt_output, "FILE",
	  "write the report to FILE instead of stdout", 0 },
	{ "check", 0, no_argument, NULL, NULL,
	  "say which event source would be used, or what is missing",
	  OPTS_FLAG(struct opts, check) },
	{ "help", 0, no_argument, NULL, NULL, "print this text (also -h)",
	  OPTS_FLAG(struct opts, help) },
	{ NULL, 'h', no_argument, NULL, NULL, NULL, OPTS_FLAG(struct opts, help) },
	{ "version", 0, no_argument, NULL, NULL, "print the version",
	  OPTS_FLAG(struct opts, version) },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capaudit [options] [--] COMMAND [ARG...]\n"
		"       capaudit [options] --pid=PID [--duration=SECONDS]\n"
		"       capaudit --check\n"
		"  Reports the capabilities COMMAND and every process it starts ask\n"
		"  the kernel for: how often, granted or refused, in which process.\n");
	opts_help(out, options, sizeof(options) / sizeof(options[0]), "  ", 21);
	fprintf(out, "  Exit status: COMMAND's; 1 when capaudit fails, 2 for a usage error,\n"
		"  127 when COMMAND is not found.\n");
}

static int parse_options(int argc, char **argv, struct opts *o)
{
	struct opts_getopt g;
	int status;

	opts_build(&g, options, sizeof(options) / sizeof(options[0]));
	/* The command's own options are its, not ours. */
	opts_stop_at_operand(&g);
	switch (opts_parse(&g, argc, argv, o, &status)) {
	case 1:
		return status;
	case -1:
		suggest_getopt(stderr, PROG, argv[optind - 1], g.longopts);
		fprintf(stderr, "%s: try 'capaudit --help'\n", PROG);
		return 2;
	}
	return 0;
}

/* execvp's search, done first: the launcher runs a path, and --suggest names it. */
static int resolve_command(const char *cmd, char *path, size_t size)
{
	const char *dirs = getenv("PATH");
	char *found = NULL;
	const char *use = cmd;

	if (strchr(cmd, '/') == NULL) {
		found = path_search(dirs != NULL ? dirs : "/usr/local/bin:/usr/bin:/bin",
				    cmd, X_OK);
		if (found == NULL)
			return -1;
		use = found;
	} else if (access(cmd, X_OK) < 0) {
		return -1;
	}
	if (realpath(use, path) == NULL)
		snprintf(path, size, "%s", use);
	free(found);
	return 0;
}

/*
 * The child stops in the launcher's callback before anything else
 * happens: it sends its pid, then waits for the go-ahead byte, which we
 * send once every event is open, so not one check is missed. Only
 * async-signal-safe calls here (the launcher's rule).
 */
struct handshake {
	int ready[2], go[2];
	cap_launch_t attr;
	pid_t pid;
	int err;
};

static int wait_for_go(void *arg)
{
	struct handshake *h = arg;
	pid_t me = getpid();
	char byte;
	ssize_t n;

	close(h->go[1]);	/* else a dead capaudit leaves us blocked */
	close(h->ready[0]);
	/*
	 * A capaudit holding cap_perfmon as a file capability runs
	 * non-dumpable, and so would this child until its exec: the
	 * kernel's ptrace_may_access() check in perf_event_open(2) would
	 * refuse us our own child. Dumpable is safe here: another process
	 * of the user may still not trace it, as its permitted set is not
	 * a subset of theirs (cap_ptrace_access_check()), and the exec
	 * below decides afresh.
	 */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return -1;
	if (write(h->ready[1], &me, sizeof(me)) != (ssize_t)sizeof(me))
		return -1;
	do
		n = read(h->go[0], &byte, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

static void *launch_thread(void *arg)
{
	struct handshake *h = arg;

	h->pid = cap_launch(h->attr, h);
	h->err = errno;
	close(h->ready[1]);	/* the child's copy went with its exec */
	return NULL;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int set_identity(cap_launch_t attr, const struct opts *o)
{
	gid_t groups[256];
	int n = 256;

	if (o->user == NULL)
		return 0;
	if (getgrouplist(o->user, o->gid, groups, &n) < 0)
		n = 0;	/* a uid without a name, or too many groups: its gid */
	if (cap_launcher_setgroups(attr, o->gid, n, groups) < 0 ||
	    cap_launcher_setuid(attr, o->uid) < 0)
		return -1;
	return 0;
}

/* Runs argv under the tracer; 0, or the exit status for main() after a message. */
static int run_command(char **argv, const char *path, struct opts *o,
		       const struct source *src, struct tally *t,
		       struct run_result *rr)
{
	struct handshake h = { .ready = { -1, -1 }, .go = { -1, -1 } };
	struct tracer *tr = NULL;
	pthread_t thread;
	pid_t child = 0;
	double start;
	ssize_t n;
	int rc = 1;

	h.attr = cap_new_launcher(path, (const char *const *)argv,
				  (const char *const *)environ);
	if (h.attr == NULL || set_identity(h.attr, o) < 0 ||
	    cap_launcher_callback(h.attr, wait_for_go) < 0) {
		fprintf(stderr, "%s: launcher: %s\n", PROG, strerror(errno));
		cap_free(h.attr);
		return 1;
	}
	if (o->iab != NULL) {
		cap_launcher_set_iab(h.attr, o->iab);
		o->iab = NULL;	/* the launcher frees it now */
	}
	if (pipe2(h.ready, O_CLOEXEC) < 0 || pipe2(h.go, O_CLOEXEC) < 0) {
		fprintf(stderr, "%s: pipe: %s\n", PROG, strerror(errno));
		goto out;
	}
	if ((errno = pthread_create(&thread, NULL, launch_thread, &h)) != 0) {
		fprintf(stderr, "%s: thread: %s\n", PROG, strerror(errno));
		goto out;
	}
	do
		n = read(h.ready[0], &child, sizeof(child));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(child)) {
		tally_init(t, child, NULL);
		tr = tracer_open(src, child, 0, stderr);
		if (tr != NULL && write(h.go[1], "g", 1) != 1)
			fprintf(stderr, "%s: pipe: %s\n", PROG, strerror(errno));
	}
	start = now();
	close(h.go[1]);	/* without the byte, the launch fails */
	h.go[1] = -1;
	pthread_join(thread, NULL);
	if (h.pid < 0) {
		/* Without tracer, tracer_open() has said why; else say it here. */
		if (tr != NULL || n != (ssize_t)sizeof(child)) {
			fprintf(stderr, "%s: ", PROG);
			escape_fputs(path, stderr);
			if (h.err != ECHILD)
				fprintf(stderr, ": cannot start it: %s\n", strerror(h.err));
			else
				fprintf(stderr, ": the launcher could not start it (%sexecve failed)\n",
					o->user || o->iab ? "the change of user or IAB was refused, or " : "");
		}
		goto out;
	}
	for (;;) {
		int status;
		pid_t w;

		tracer_drain(tr, 100, tally_record, t);
		w = waitpid(h.pid, &status, WNOHANG);
		if (w == h.pid) {
			rr->status = status;
			break;
		}
		if (w < 0 && errno != EINTR) {
			fprintf(stderr, "%s: waitpid: %s\n", PROG, strerror(errno));
			goto out;
		}
	}
	rr->seconds = now() - start;
	tracer_drain(tr, 0, tally_record, t);
	tracer_flush(tr);
	tracer_drain(tr, 0, tally_record, t);
	rc = 0;
out:
	tracer_close(tr);
	cap_free(h.attr);
	if (h.ready[0] >= 0)
		close(h.ready[0]);
	if (h.go[0] >= 0)
		close(h.go[0]);
	if (h.go[1] >= 0)
		close(h.go[1]);
	return rc;
}

/*
 * With file capabilities (AT_SECURE), capaudit's cap_perfmon would let
 * perf watch any process on the system. The rule is ptrace's instead:
 * every user and group id of the process is ours, and it holds no
 * capability we lack. dfd is its /proc directory, tied to the process
 * and not to the number, so asking again after the attach finds out
 * whether the pid still names the process that was judged. 1 allowed,
 * 0 not, -1 with errno when the process cannot be read (gone).
 */
static int watch_allowed(int dfd)
{
	struct proc_status ps;
	char *bad = NULL;
	uint64_t ours;
	cap_t self;
	int ok, i;

	if (proc_status_read(dfd, &ps, &bad) < 0) {
		free(bad);
		proc_status_release(&ps);
		return -1;
	}
	self = cap_get_proc();
	ours = self != NULL ? mask_of_flag(self, CAP_PERMITTED) : 0;
	cap_free(self);
	ok = (ps.seen & (PROC_STATUS_UID | PROC_STATUS_GID | PROC_STATUS_CAPPRM)) ==
	     (PROC_STATUS_UID | PROC_STATUS_GID | PROC_STATUS_CAPPRM) &&
	     (ps.permitted & ~ours) == 0;
	for (i = 0; i < 4; i++)
		ok = ok && ps.uid[i] == getuid() && ps.gid[i] == getgid();
	proc_status_release(&ps);
	return ok;
}

static int attach(const struct opts *o, const struct source *src,
		  struct tally *t, struct run_result *rr)
{
	char path[64], comm[64] = "";
	struct tracer *tr;
	double start, end;
	int dfd = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)o->pid);
	f = fopen(path, "re");
	if (f != NULL) {
		if (fgets(comm, sizeof(comm), f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	tally_init(t, o->pid, comm);
	if (getauxval(AT_SECURE)) {
		snprintf(path, sizeof(path), "/proc/%ld", (long)o->pid);
		dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0 || watch_allowed(dfd) != 1) {
			fprintf(stderr, "%s: --pid=%ld: not a process of yours "
				"(capaudit runs with file capabilities: it watches "
				"only what ptrace would let you trace)\n",
				PROG, (long)o->pid);
			if (dfd >= 0)
				close(dfd);
			return 1;
		}
	}
	tr = tracer_open(src, o->pid, 1, stderr);
	if (tr == NULL) {
		if (dfd >= 0)
			close(dfd);
		return 1;
	}
	/* Still the process judged above, not a new one with its pid? */
	if (dfd >= 0) {
		int again = watch_allowed(dfd);

		close(dfd);
		if (again != 1) {
			fprintf(stderr, "%s: --pid=%ld: the process changed while "
				"capaudit attached; nothing was watched\n",
				PROG, (long)o->pid);
			tracer_close(tr);
			return 1;
		}
	}
	start = now();
	end = start + (double)(o->duration ? o->duration : 10);
	while (!stop && now() < end) {
		tracer_drain(tr, 100, tally_record, t);
		if (kill(o->pid, 0) < 0 && errno == ESRCH)
			break;
	}
	tracer_drain(tr, 0, tally_record, t);
	tracer_flush(tr);
	tracer_drain(tr, 0, tally_record, t);
	rr->attached = 1;
	rr->seconds = now() - start;
	tracer_close(tr);
	return 0;
}

static int exit_code(const struct run_result *rr)
{
	if (rr->attached)
		return 0;
	if (WIFSIGNALED(rr->status))
		return 128 + WTERMSIG(rr->status);
	return WEXITSTATUS(rr->status);
}

/*
 * The options parse one by one; these are the combinations that make no
 * sense together. Returns 0, or the exit status after saying why.
 */
static int check_combinations(const struct opts *o, int argc)
{
	if (!o->check && (o->pid != 0) == (optind < argc)) {
		fprintf(stderr, "%s: %s\n", PROG, o->pid ? "--pid takes no COMMAND"
			: "no COMMAND to run (or --pid=PID)");
		usage(stderr);
		return 2;
	}
	if ((o->duration && !o->pid) || (o->pid && (o->user || o->iab))) {
		fprintf(stderr, "%s: %s\n", PROG, o->duration ?
			"--duration goes with --pid" : "--user and --iab go with a COMMAND, not --pid");
		return 2;
	}
	return 0;
}

/* What a finished run prints: the table or JSON, the suggestion, losses. */
static void print_report(const struct opts *o, struct tally *t,
			 const struct source *src, const struct run_result *rr,
			 const char *path, FILE *out)
{
	struct suggestion sg;
	const char *user = o->user;
	struct passwd *pw;

	if (user == NULL)
		user = (pw = getpwuid(getuid())) != NULL ? pw->pw_name : "USER";
	if (o->json)
		report_json(t, src, rr, out);
	else
		report_table(t, src, rr, out);
	if (o->suggest) {
		suggest_build(t, rr, &sg);
		if (o->json)
			suggest_json(&sg, o->pid ? "" : path, out);
		else {
			fputc('\n', out);
			suggest_print(&sg, t, rr, o->pid ? "FILE" : path, user, out);
		}
	}
	if (t->lost)
		fprintf(stderr, "%s: %llu samples were lost; the counts are lower bounds\n",
			PROG, (unsigned long long)t->lost);
	if (t->nomem)
		fprintf(stderr, "%s: out of memory: some checks were not counted\n", PROG);
}

int main(int argc, char **argv)
{
	struct opts o = { .user = NULL };
	struct sysview sv = { "" };
	struct run_result rr = { 0 };
	char path[PATH_MAX] = "";
	struct source src;
	struct sigaction sa;
	struct tally t;
	FILE *out = stdout;
	const char *root = secure_getenv("CAPAUDIT_SYSROOT");
	int rc;

	rc = parse_options(argc, argv, &o);
	if (rc != 0 || o.help || o.version) {
		cap_free(o.iab);
		if (rc != 0)
			return rc;
		if (o.help) {
			usage(stdout);
			return fflush(stdout) == 0 ? 0 : 1;
		}
		return version_print(PROG);
	}
	if (root != NULL)
		sv.root = root;
	/*
	 * The launcher applies --iab and --user in a child that still holds
	 * capaudit's own permitted set: with file capabilities, --iab
	 * '^cap_perfmon' would hand that privilege to any command.
	 */
	if (getauxval(AT_SECURE) && (o.iab != NULL || o.user != NULL)) {
		fprintf(stderr, "%s: --iab and --user are refused when capaudit "
			"runs with file capabilities (they would pass its own "
			"privilege to the command); run it as root for them\n", PROG);
		cap_free(o.iab);
		return 2;
	}
	if ((rc = check_combinations(&o, argc)) != 0) {
		cap_free(o.iab);
		return rc;
	}
	if (!o.check && !o.pid && resolve_command(argv[optind], path, sizeof(path)) < 0) {
		escape_line(stderr, PROG ": ", "%s: %s", argv[optind],
			    errno == ENOENT ? "command not found" : strerror(errno));
		cap_free(o.iab);
		return 127;
	}
	if (source_find(&sv, &src, o.check, stderr) < 0) {
		cap_free(o.iab);
		return 1;
	}
	if (o.check) {
		printf("%s: would use ", PROG);
		source_describe(&src, stdout);
		source_release(&sv, &src);
		cap_free(o.iab);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (o.output != NULL && (out = fopen(o.output, "we")) == NULL) {
		escape_line(stderr, PROG ": ", "%s: %s", o.output, strerror(errno));
		source_release(&sv, &src);
		cap_free(o.iab);
		return 1;
	}
	/*
	 * ^C goes to the command too; we report after it ends (with --pid,
	 * at once). A handler, not SIG_IGN: execve() keeps ignored signals
	 * ignored, but resets handled ones for the command.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	memset(&t, 0, sizeof(t));
	if (o.pid)
		rc = attach(&o, &src, &t, &rr);
	else
		rc = run_command(argv + optind, path, &o, &src, &t, &rr);
	source_release(&sv, &src);
	cap_free(o.iab);
	if (rc == 0) {
		print_report(&o, &t, &src, &rr, path, out);
		rc = exit_code(&rr);
	}
	tally_free(&t);
	if ((out != stdout ? fclose(out) : fflush(out)) != 0) {
		fprintf(stderr, "%s: %s: %s\n", PROG, o.output ? o.output : "stdout",
			strerror(errno));
		if (rc == 0)
			rc = 1;
	}
	return rc;
}
