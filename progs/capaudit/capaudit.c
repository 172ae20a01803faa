/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: runs a command (or attaches to a process) and reports every
 * capability check the kernel made for it and its descendants, granted
 * or refused, per process; --suggest turns the command's own checks into
 * the least grant, file by file, and proves it by running the command
 * again with each grant. Exit status: the command's own; 1 when capaudit
 * fails, 2 on a usage error, 127 when the command is not found.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capaudit.h"
#include "capaudit_advice.h"
#include "capaudit_attach.h"
#include "capaudit_json.h"
#include "capaudit_counting.h"
#include "capaudit_launch.h"
#include "capaudit_privilege.h"
#include "capaudit_runner.h"
#include "capaudit_report.h"
#include "capaudit_source.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_verdict.h"
#include "say.h"
#include "number.h"
#include "opts.h"
#include "path.h"
#include "suggest.h"
#include "version.h"

extern char **environ;

struct opts {
	char *user; /* --user: the name from the user database */
	uid_t uid;
	gid_t gid;
	char *home, *shell;
	cap_iab_t iab; /* --iab, or NULL */
	pid_t pid;     /* --pid, or 0 */
	unsigned long long duration;
	unsigned long long trial_timeout; /* --trial-timeout, or 0 */
	struct success success;		  /* --success */
	int json, suggest, no_minimize, no_container, check, no_bpf;
	const char *output;
};

static void opts_free(struct opts *o)
{
	free(o->user);
	free(o->home);
	free(o->shell);
	cap_free(o->iab);
	o->user = o->home = o->shell = NULL;
	o->iab = NULL;
}

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
		say(stderr, PROG ": ", "--user=%s: no such user", v);
		return 2;
	}
	free(o->user);
	free(o->home);
	free(o->shell);
	/* The database's name: a uid given as digits is named as it is known. */
	o->user = strdup(pw->pw_name);
	o->home = strdup(pw->pw_dir != NULL ? pw->pw_dir : "");
	o->shell = strdup(pw->pw_shell != NULL ? pw->pw_shell : "");
	if (o->user == NULL || o->home == NULL || o->shell == NULL) {
		warn(NULL);
		return 1;
	}
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
		say(stderr, PROG ": ", "--iab=%s: %s", v, strerror(errno));
		suggest_cap_text(stderr, PROG, v);
		return 2;
	}
	return OPTS_NEXT;
}

static int opt_pid(void *p, const char *v)
{
	unsigned long long n;

	if (number_parse(v, 10, INT_MAX, &n) != 0 || n == 0) {
		say(stderr, PROG ": ", "--pid=%s: not a process id", v);
		return 2;
	}
	((struct opts *)p)->pid = (pid_t)n;
	return OPTS_NEXT;
}

static int opt_duration(void *p, const char *v)
{
	if (number_parse(v, 10, 31536000, &((struct opts *)p)->duration) != 0 ||
	    ((struct opts *)p)->duration == 0) {
		say(stderr, PROG ": ",
		    "--duration=%s: not a number of seconds (1 to 31536000)",
		    v);
		return 2;
	}
	return OPTS_NEXT;
}

static int opt_trial_timeout(void *p, const char *v)
{
	unsigned long long *n = &((struct opts *)p)->trial_timeout;

	if (number_parse(v, 10, 31536000, n) != 0 || *n == 0) {
		say(stderr, PROG ": ",
		    "--trial-timeout=%s: not a number of seconds (1 to 31536000)",
		    v);
		return 2;
	}
	return OPTS_NEXT;
}

/* --success=0,124: exit statuses, each 0 to 255. */
static int opt_success(void *p, const char *v)
{
	struct success *s = &((struct opts *)p)->success;
	const char *w = v;

	s->n = 0;
	for (;;) {
		size_t len = strcspn(w, ",");
		unsigned long long n;
		char word[16];

		if (len == 0 || len >= sizeof(word) || s->n == SUCCESS_MAX)
			goto bad;
		memcpy(word, w, len);
		word[len] = '\0';
		if (number_parse(word, 10, 255, &n) != 0)
			goto bad;
		s->status[s->n++] = (int)n;
		if (w[len] == '\0')
			return OPTS_NEXT;
		w += len + 1;
	}
bad:
	say(stderr, PROG ": ",
	    "--success=%s: not a list of exit statuses (0 to 255, at most %d, comma-separated)",
	    v, SUCCESS_MAX);
	return 2;
}

static int opt_output(void *p, const char *v)
{
	((struct opts *)p)->output = v;
	return OPTS_NEXT;
}

/*
 * --version: every program's line, then whether counting in the kernel
 * is built in (a build without the BPF tool chain leaves it out, and
 * capaudit reads every check as a perf sample).
 */
static int opt_version(void *p, const char *v)
{
	const char *missing = counter_not_built();

	(void)p;
	(void)v;
	if (version_print(PROG) != 0)
		return 1;
	printf("counting in the kernel: %s\n",
	       missing != NULL ? missing : "built in");
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("writing --version");
		return 1;
	}
	return 0;
}

/* One table: getopt's options, the usage text and the hints come from it. */
static const struct opt options[] = {
	{ .name = "user",
	  .arg = required_argument,
	  .handle = opt_user,
	  .value = "USER",
	  .help = "run COMMAND as USER (name or uid), with USER's groups\n"
		  "and HOME, USER, LOGNAME, SHELL, PATH" },
	{ .name = "iab",
	  .arg = required_argument,
	  .handle = opt_iab,
	  .value = "IAB",
	  .help = "run COMMAND with this IAB, e.g. '^cap_net_bind_service'" },
	{ .name = "pid",
	  .arg = required_argument,
	  .handle = opt_pid,
	  .value = "PID",
	  .help = "watch the running process PID (all its threads) instead" },
	{ .name = "duration",
	  .arg = required_argument,
	  .handle = opt_duration,
	  .value = "SECONDS",
	  .help = "with --pid: how long to watch (default 10)" },
	{ .name = "json",
	  .help = "one JSON object per line",
	  .flag = OPTS_FLAG(struct opts, json) },
	{ .name = "suggest",
	  .help = "add the least grant, file by file; as root, proven by\n"
		  "running COMMAND again with each grant",
	  .flag = OPTS_FLAG(struct opts, suggest) },
	{ .name = "no-minimize",
	  .help = "with --suggest: run COMMAND only once (the grant is unproven)",
	  .flag = OPTS_FLAG(struct opts, no_minimize) },
	{ .name = "no-container",
	  .help = "with --suggest: no container lines, and none of their runs",
	  .flag = OPTS_FLAG(struct opts, no_container) },
	{ .name = "success",
	  .arg = required_argument,
	  .handle = opt_success,
	  .value = "STATUS,...",
	  .help = "with --suggest: the exit statuses that mean success\n"
		  "(default: the status with every candidate granted)" },
	{ .name = "trial-timeout",
	  .arg = required_argument,
	  .handle = opt_trial_timeout,
	  .value = "SECONDS",
	  .help = "with --suggest: end a trial that runs longer, unproven\n"
		  "(default: 10 times the first run, at least 30)" },
	{ .name = "output",
	  .arg = required_argument,
	  .handle = opt_output,
	  .value = "FILE",
	  .help = "write the report to FILE instead of stdout" },
	{ .name = "check",
	  .help = "say which event source would be used, or what is missing",
	  .flag = OPTS_FLAG(struct opts, check) },
	{ .name = "no-bpf",
	  .help = "read every check as a perf sample, even where eBPF\n"
		  "could count them in the kernel",
	  .flag = OPTS_FLAG(struct opts, no_bpf) },
	{ OPTS_HELP_ROW("help", 0), .help = "print this text (also -h)" },
	{ OPTS_HELP_ROW(NULL, 'h') },
	{ .name = "version",
	  .arg = no_argument,
	  .handle = opt_version,
	  .help = "print the version, and whether counting in the kernel\n"
		  "is built in" },
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
	fprintf(out,
		"  Exit status: COMMAND's; 1 when capaudit fails, 2 for a usage error,\n"
		"  127 when COMMAND is not found.\n");
}

/* --help: the usage text on stdout; 1 when it could not be written. */
static int help(void *p)
{
	(void)p;
	usage(stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}

static const struct opts_prog prog = { PROG, help, 1 };

/*
 * Returns 1 when the run ends here with *status (--help, --version, a
 * usage error), else 0.
 */
static int parse_options(int argc, char **argv, struct opts *o, int *status)
{
	struct opts_getopt g;

	opts_build(&g, &prog, options, sizeof(options) / sizeof(options[0]), 0);
	/* The command's own options are its, not ours. */
	opts_stop_at_operand(&g);
	switch (opts_parse(&g, argc, argv, o, status)) {
	case 1:
		return 1;
	case -1:
		fprintf(stderr, "%s: try 'capaudit --help'\n", PROG);
		opts_suggest_getopt(stderr, &g, argv[optind - 1]);
		*status = 2;
		return 1;
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
		found = path_search(
			dirs != NULL ? dirs : "/usr/local/bin:/usr/bin:/bin",
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

static void on_signal(int sig)
{
	(void)sig;
	launch_stop = 1;
}

/*
 * capaudit runs the command as the user who runs capaudit (or --user):
 * installed set-user-ID or set-group-ID, it would run it with the
 * file's ids instead, root's for a set-user-ID root file. The supported
 * installs are root's own use and file capabilities (cap_perfmon=ep),
 * whose ids are the user's.
 */
static int refuse_set_id(void)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0) {
		warn("cannot read its own ids");
		return 1;
	}
	if (ru == eu && ru == su && rg == eg && rg == sg)
		return 0;
	warnx("refusing to run set-user-ID or set-group-ID (uids %u %u %u, gids %u %u %u): it would run the command with the file's ids; give it file capabilities instead (setcap cap_perfmon=ep), or run it as root",
	      (unsigned)ru, (unsigned)eu, (unsigned)su, (unsigned)rg,
	      (unsigned)eg, (unsigned)sg);
	return 1;
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
		warnx("%s", o->pid ? "--pid takes no COMMAND"
				   : "no COMMAND to run (or --pid=PID)");
		usage(stderr);
		return 2;
	}
	if ((o->duration && !o->pid) || (o->pid && (o->user || o->iab))) {
		warnx("%s",
		      o->duration
			      ? "--duration goes with --pid"
			      : "--user and --iab go with a COMMAND, not --pid");
		return 2;
	}
	if ((o->no_minimize || o->success.n || o->trial_timeout) &&
	    !o->suggest) {
		warnx("--no-minimize, --success and --trial-timeout go with --suggest");
		return 2;
	}
	if (o->no_container && !o->suggest) {
		warnx("--no-container goes with --suggest");
		return 2;
	}
	return 0;
}

/* --suggest, as the options ask, with trials for real (capaudit_runner.c). */
static void make_suggestion(const struct opts *o, const struct launch *l,
			    const struct source *src, const struct tally *t,
			    const struct run_result *rr, struct suggestion *sg)
{
	struct suggest_request rq = { .user = o->user,
				      .uid = o->uid,
				      .gid = o->gid,
				      .euid = geteuid(),
				      .egid = getegid(),
				      .attached = o->pid != 0,
				      .no_minimize = o->no_minimize,
				      .no_container = o->no_container,
				      .trial_timeout = o->trial_timeout,
				      .success = &o->success,
				      .path = l->path };
	struct trial_ops ops;
	struct trials tr;

	trials_ops_init(&ops, &tr, l, src);
	suggest_make(&rq, t, rr, &ops, sg);
}

/* What a finished run prints: the table or JSON, the suggestion, losses. */
static void print_report(const struct opts *o, const struct launch *l,
			 struct tally *t, const struct source *src,
			 const struct run_result *rr, FILE *out)
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
		make_suggestion(o, l, src, t, rr, &sg);
		if (o->json) {
			suggest_json(&sg, t, o->pid ? NULL : l->path, out);
		} else {
			fputc('\n', out);
			suggest_print(&sg, t, rr, o->pid ? NULL : l->path, user,
				      out);
		}
		suggest_free(&sg);
	}
	if (t->lost)
		warnx("%llu samples were lost; the counts are lower bounds",
		      (unsigned long long)t->lost);
	if (t->unfollowed)
		warnx("%llu threads the command started were not followed; the counts are lower bounds",
		      (unsigned long long)t->unfollowed);
	if (t->nomem)
		warnx("out of memory: some checks were not counted");
}

/* Everything after the options: the run or the watch, then the report. */
static int audit(struct opts *o, char **argv, const char *path,
		 const struct source *src, FILE *out)
{
	struct launch l = { .argv = argv,
			    .path = path,
			    .user = o->user,
			    .uid = o->uid,
			    .gid = o->gid,
			    .iab = o->iab,
			    .envp = environ };
	struct run_result rr = { 0 };
	struct tally t;
	int rc;

	if (o->user != NULL) {
		l.envp = env_for_user((const char *const *)environ, o->user,
				      o->uid, o->home, o->shell);
		if (l.envp == NULL) {
			warn(NULL);
			return 1;
		}
	}
	if (o->pid)
		rc = attach_run(o->pid, o->duration, src, &t, &rr);
	else
		rc = launch_run(&l, src, &t, &rr);
	if (rc == 0) {
		print_report(o, &l, &t, src, &rr, out);
		rc = exit_code(&rr);
		tally_free(&t);
	}
	if (l.envp != environ)
		env_free(l.envp);
	return rc;
}

/*
 * The command's file capabilities must not become its own: the launcher
 * applies --iab and --user in a child that still holds capaudit's
 * permitted set, so with file capabilities --iab '^cap_perfmon' would
 * hand that privilege to any command. Then the options that make no
 * sense together. Returns 0, or the exit status after saying why.
 */
static int check_options(const struct opts *o, int argc)
{
	if (privileged_by_own_file() && (o->iab != NULL || o->user != NULL)) {
		warnx("--iab and --user are refused when capaudit runs with file capabilities (they would pass its own privilege to the command); run it as root for them");
		return 2;
	}
	return check_combinations(o, argc);
}

/* The command as execvp(3) would find it, into path; 0, or 127 after saying why. */
static int find_command(const char *cmd, char *path, size_t size)
{
	if (resolve_command(cmd, path, size) == 0)
		return 0;
	say(stderr, PROG ": ", "%s: %s", cmd,
	    errno == ENOENT ? "command not found" : strerror(errno));
	return 127;
}

/*
 * ^C goes to the command too; we report after it ends (with --pid, at
 * once; during trials, no further trial starts). A handler, not SIG_IGN:
 * execve() keeps ignored signals ignored, but resets handled ones for the
 * command.
 */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

/* --check: the source that would be used. */
static int describe_source(const struct source *src)
{
	printf("%s: would use ", PROG);
	source_describe(src, stdout);
	printf("%s: counting: ", PROG);
	counting_describe(src, stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* The audit, its report written to --output or stdout. */
static int audit_into_output(struct opts *o, char **argv, const char *path,
			     const struct source *src)
{
	FILE *out = stdout;
	int rc;

	if (o->output != NULL && (out = fopen(o->output, "we")) == NULL) {
		say(stderr, PROG ": ", "%s: %s", o->output, strerror(errno));
		return 1;
	}
	catch_signals();
	rc = audit(o, argv, path, src, out);
	if ((out != stdout ? fclose(out) : fflush(out)) != 0) {
		say(stderr, PROG ": ", "%s: %s",
		    o->output ? o->output : "stdout", strerror(errno));
		if (rc == 0)
			rc = 1;
	}
	return rc;
}

/* With the event source found (or made): --check, or the audit. */
static int with_source(struct opts *o, char **argv, const char *path)
{
	const char *root = caller_getenv("CAPAUDIT_SYSROOT");
	struct sysview sv = { "" };
	struct source src;
	int rc;

	if (root != NULL)
		sv.root = root;
	if (source_find(&sv, &src, o->check, !o->no_bpf, stderr) < 0)
		return 1;
	if (o->check)
		rc = describe_source(&src);
	else
		rc = audit_into_output(o, argv, path, &src);
	source_release(&sv, &src);
	return rc;
}

/* After the options: their checks, the command, then --check or the audit. */
static int run(struct opts *o, int argc, char **argv)
{
	char path[PATH_MAX] = "";
	int rc;

	if ((rc = check_options(o, argc)) != 0)
		return rc;
	if (!o->check && !o->pid &&
	    (rc = find_command(argv[optind], path, sizeof(path))) != 0)
		return rc;
	return with_source(o, argv + optind, path);
}

int main(int argc, char **argv)
{
	/* warn(3) names the program: PROG, as every other message does. */
	static char name[] = PROG;
	struct opts o = { .user = NULL };
	int rc;

	program_invocation_short_name = name;
	launch_keep_children();
	/* parse_options(): 1 when the run ends there (--help, --version, a usage error). */
	rc = refuse_set_id();
	if (rc == 0 && parse_options(argc, argv, &o, &rc) == 0)
		rc = run(&o, argc, argv);
	opts_free(&o);
	return rc;
}
