/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Running the command under the tracer: a cap_launch(3) launcher whose
 * child stops before anything else happens until every event is open,
 * then (for a trial) sets up its grant, takes on --user's identity and
 * environment and execs; capaudit reads the checks until it exits.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.h"
#include "capaudit_ambient.h"
#include "capaudit_contain.h"
#include "capaudit_launch.h"
#include "capaudit_perf.h"
#include "capaudit_reap.h"
#include "capaudit_tally.h"
#include "capaudit_trial.h"
#include "capaudit_tty.h"
#include "capaudit_why_start.h"
#include "say.h"
#include "groups.h"

volatile sig_atomic_t launch_stop;

/* The caller left SIGCHLD ignored: the command gets it so again. */
static int sigchld_was_ignored;

void launch_keep_children(void)
{
	struct sigaction sa;

	/*
	 * Ignored, SIGCHLD has the kernel reap every child at once:
	 * waitpid() then fails (no status, no report), and a trial's
	 * leftover that ended loses its pid to the next process before
	 * capaudit kills it by that number.
	 */
	if (sigaction(SIGCHLD, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
		sigchld_was_ignored = 1;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(SIGCHLD, &sa, NULL);
	}
}

static int is_dropped(const char *entry)
{
	static const char *const names[] = {
		"HOME=",
		"USER=",
		"LOGNAME=",
		"SHELL=",
		"PATH=",
		/*
		 * root's, where the user may not go: a program would probe
		 * them, be refused, and its refused DAC checks would look
		 * like needs (root's TMPDIR made mktemp "need"
		 * cap_dac_read_search).
		 */
		"XDG_RUNTIME_DIR=",
		"MAIL=",
		"XAUTHORITY=",
		"TMP=",
		"TEMP=",
		"TEMPDIR=",
		"XDG_CONFIG_HOME=",
		"XDG_CACHE_HOME=",
		"XDG_DATA_HOME=",
		"XDG_STATE_HOME=",
		"DBUS_SESSION_BUS_ADDRESS=",
		"SSH_AUTH_SOCK=",
		"KRB5CCNAME=",
		/*
		 * What the C library ignores in a program that gained
		 * capabilities (glibc's unsecure variables): a trial's copy
		 * with a file capability runs without them, the same copy
		 * without one runs with them, and that difference, not the
		 * capability, would decide the trial. Nor are root's loader
		 * settings the user's.
		 */
		"GCONV_PATH=",
		"GETCONF_DIR=",
		"GLIBC_TUNABLES=",
		"HOSTALIASES=",
		"LD_",
		"LOCALDOMAIN=",
		"LOCPATH=",
		"MALLOC_TRACE=",
		"NIS_PATH=",
		"NLSPATH=",
		"RESOLV_HOST_CONF=",
		"RES_OPTIONS=",
		"TMPDIR=",
		"TZDIR=",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strncmp(entry, names[i], strlen(names[i])) == 0)
			return 1;
	return 0;
}

static char *joined(const char *name, const char *value)
{
	char *s;

	return asprintf(&s, "%s=%s", name, value) < 0 ? NULL : s;
}

char **env_for_user(const char *const *environ_, const char *name, uid_t uid,
		    const char *home, const char *shell)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (environ_ != NULL && environ_[n] != NULL)
		n++;
	env = calloc(n + 6, sizeof(*env));
	if (env == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (is_dropped(environ_[i]))
			continue;
		if ((env[k++] = strdup(environ_[i])) == NULL)
			goto nomem;
	}
	/* As login(1) and su(1) --login set them. */
	if ((env[k++] = joined("HOME", home[0] ? home : "/")) == NULL ||
	    (env[k++] = joined("USER", name)) == NULL ||
	    (env[k++] = joined("LOGNAME", name)) == NULL ||
	    (env[k++] = joined("SHELL", shell[0] ? shell : "/bin/sh")) ==
		    NULL ||
	    (env[k++] = joined(
		     "PATH",
		     uid == 0
			     ? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
			     : "/usr/local/bin:/usr/bin:/bin")) == NULL)
		goto nomem;
	return env;
nomem:
	env_free(env);
	errno = ENOMEM;
	return NULL;
}

void env_free(char **env)
{
	size_t i;

	for (i = 0; env != NULL && env[i] != NULL; i++)
		free(env[i]);
	free(env);
}

/*
 * The child stops in the launcher's callback before anything else
 * happens: it sends its pid, then waits for the go-ahead byte, which we
 * send once every event is open, so not one check is missed. Only
 * async-signal-safe calls here (the launcher's rule).
 */
struct handshake {
	int ready[2], go[2], fail[2];
	/*
	 * end: a trial's struct trial_end, from its launched child; result:
	 * the launcher's thread says how the launch went (struct
	 * launch_result), and lives until release is closed.
	 */
	int end[2], result[2], release[2];
	cap_launch_t attr;
	const struct grant_plan *plan;
	int guard_tty;	/* --user: tty_guard() */
	pid_t capaudit; /* getpid(): a trial's launched child dies with us */
};

/* What the launcher's thread says once cap_launch(3) has returned. */
struct launch_result {
	pid_t pid;
	int err;
};

/* What a trial's child says when its set-up fails. */
struct child_failure {
	const char *step; /* a string literal: the same address after fork */
	int err;
};

static int wait_for_go(void *arg)
{
	struct handshake *h = arg;
	struct child_failure f;
	pid_t me = getpid();
	char byte;
	ssize_t n;

	/* Before anything of a trial is made: it must not outlive us. */
	if (h->plan != NULL && trial_tie(h->capaudit) < 0)
		return -1;
	close(h->go[1]); /* else a dead capaudit leaves us blocked */
	close(h->ready[0]);
	close(h->fail[0]);
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
	/* A trial's init and launched child wait for theirs: trial_contain(). */
	if (sigchld_was_ignored && h->plan == NULL) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_IGN;
		if (sigaction(SIGCHLD, &sa, NULL) < 0)
			return -1;
	}
	if (write(h->ready[1], &me, sizeof(me)) != (ssize_t)sizeof(me))
		return -1;
	do
		n = read(h->go[0], &byte, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	/* Before the trial's set-up forks: its init and command inherit it. */
	if (h->guard_tty && tty_guard() < 0) {
		f.step = "keeping it from typing into the terminal";
		f.err = errno;
		if (write(h->fail[1], &f, sizeof(f)) < 0)
			return -1;
		return -1;
	}
	/*
	 * The command's process alone returns from trial_contain(); the
	 * ambient run's confinement comes after the namespace's mounts.
	 */
	if (h->plan != NULL &&
	    (plan_apply(h->plan, &f.step) < 0 ||
	     trial_contain(h->end[1], sigchld_was_ignored, &f.step) < 0 ||
	     ambient_confine(h->plan, &f.step) < 0)) {
		f.err = errno;
		if (write(h->fail[1], &f, sizeof(f)) < 0)
			return -1;
		return -1;
	}
	return 0;
}

/*
 * Runs the launcher, says how it went, and then waits for release: a
 * trial's launched child gets SIGKILL when this thread ends
 * (trial_tie()), so it ends only once that child has been reaped.
 */
static void *launch_thread(void *arg)
{
	struct handshake *h = arg;
	struct launch_result got;
	char byte;

	got.pid = cap_launch(h->attr, h);
	got.err = errno;
	close(h->ready[1]); /* the child's copy went with its exec */
	close(h->fail[1]);
	close(h->end[1]);
	h->ready[1] = h->fail[1] = h->end[1] = -1;
	while (write(h->result[1], &got, sizeof(got)) < 0 && errno == EINTR)
		;
	while (read(h->release[0], &byte, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* How the launch went, from the launcher's thread. */
static void await_launch(const struct handshake *h, struct launch_result *got)
{
	ssize_t n;

	do
		n = read(h->result[0], got, sizeof(*got));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*got)) {
		got->pid = -1;
		got->err = n < 0 ? errno : EPIPE;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The launcher with --user's groups and ids and the IAB; NULL after a message. */
static cap_launch_t make_launcher(const struct launch *l)
{
	cap_launch_t attr;
	gid_t *groups = NULL;
	int n;

	attr = cap_new_launcher(l->path, (const char *const *)l->argv,
				(const char *const *)l->envp);
	if (attr == NULL || cap_launcher_callback(attr, wait_for_go) < 0)
		goto fail;
	if (l->user != NULL) {
		n = groups_of_user(l->user, l->gid, &groups);
		if (n < 0) {
			say(stderr, PROG ": ", "--user=%s: its groups: %s",
			    l->user, strerror(errno));
			cap_free(attr);
			return NULL;
		}
		if (cap_launcher_setgroups(attr, l->gid, n, groups) < 0 ||
		    cap_launcher_setuid(attr, l->uid) < 0) {
			free(groups);
			goto fail;
		}
		free(groups);
	}
	if (l->iab != NULL) {
		cap_iab_t copy = cap_iab_dup(l->iab);

		if (copy == NULL)
			goto fail;
		cap_launcher_set_iab(attr, copy); /* the launcher frees it */
	}
	return attr;
fail:
	warn("launcher");
	cap_free(attr);
	return NULL;
}

static void say_failed_start(const struct launch *l, struct handshake *h,
			     int launch_err, int traced)
{
	struct child_failure f;
	char denied[PATH_MAX];
	ssize_t n;
	int err;

	do
		n = read(h->fail[0], &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(f) && !traced)
		return; /* tracer_open() has said why */
	if (n == (ssize_t)sizeof(f))
		say(stderr, PROG ": ", "%s: not started: %s: %s", l->path,
		    f.step, strerror(f.err));
	else if (launch_err != ECHILD)
		say(stderr, PROG ": ", "%s: cannot start it: %s", l->path,
		    strerror(launch_err));
	else if ((err = why_not_started(l, denied, sizeof(denied))) > 0)
		say(stderr, PROG ": ",
		    "%s: the launcher could not start it%s%s: %s: %s", l->path,
		    l->user ? " as " : "", l->user ? l->user : "", denied,
		    strerror(err));
	else if (err < 0)
		say(stderr, PROG ": ",
		    "%s: the launcher could not start it%s%s (the look for why, as that user, did not end: a file system on the way does not answer?)",
		    l->path, l->user ? " as " : "", l->user ? l->user : "");
	else
		say(stderr, PROG ": ",
		    "%s: the launcher could not start it (%sexecve failed)",
		    l->path,
		    l->user || l->iab
			    ? "the change of user or IAB was refused, or "
			    : "");
}

/* The launcher's pipes and the thread that runs it; -1 after a message. */
static int start_launcher(struct handshake *h, pthread_t *thread)
{
	/* The end is read once the launched child is reaped: never blocks. */
	if (pipe2(h->ready, O_CLOEXEC) < 0 || pipe2(h->go, O_CLOEXEC) < 0 ||
	    pipe2(h->fail, O_CLOEXEC) < 0 || pipe2(h->end, O_CLOEXEC) < 0 ||
	    fcntl(h->end[0], F_SETFL, O_NONBLOCK) < 0 ||
	    pipe2(h->result, O_CLOEXEC) < 0 ||
	    pipe2(h->release, O_CLOEXEC) < 0) {
		warn("pipe");
		return -1;
	}
	if ((errno = pthread_create(thread, NULL, launch_thread, h)) != 0) {
		warn("thread");
		return -1;
	}
	return 0;
}

/*
 * Once the child has said its pid (*said): every event opened on it,
 * then the go-ahead. NULL when it never said it, or after a message when
 * the events could not be opened: then no go-ahead is sent, and the
 * command never runs untraced.
 */
static struct tracer *trace_child(struct handshake *h, const struct source *src,
				  struct tally *t, int *said)
{
	struct watch_set ws = { NULL, 1, NULL, NULL };
	struct tracer *tr;
	pid_t child = 0;
	ssize_t n;

	do
		n = read(h->ready[0], &child, sizeof(child));
	while (n < 0 && errno == EINTR);
	*said = n == (ssize_t)sizeof(child);
	if (!*said)
		return NULL;
	tally_free(t);
	tally_init(t, child, NULL);
	/* Ours until reaped: its id cannot go to another process (no held). */
	ws.tid = &child;
	tr = tracer_open(src, &ws);
	if (tr == NULL)
		return NULL;
	tracer_wake_on(tr, child);
	tracer_calibrate(tr);
	if (write(h->go[1], "g", 1) != 1)
		warn("pipe");
	return tr;
}

/*
 * Reads the checks until the command (pid, ours until reaped) exits;
 * its wait status goes into rr. -1 after a message.
 */
static int wait_for_exit(const struct launch *l, pid_t pid, struct tracer *tr,
			 struct tally *t, struct run_result *rr, double start)
{
	for (;;) {
		int status;
		pid_t w;

		tracer_drain(tr, 100, tally_record, t);
		/*
		 * A trial's output goes to /dev/null and nobody watches it:
		 * one that does not end (a server the grant let start) would
		 * hold capaudit for ever. The command is ours until reaped,
		 * so its pid is still its own; what it started is ended
		 * after it (end_leftovers()).
		 */
		if (l->plan != NULL && rr->cut == CUT_NONE &&
		    (launch_stop ||
		     (l->limit > 0 && now() - start > l->limit))) {
			rr->cut = launch_stop ? CUT_STOP : CUT_TIME;
			kill(pid, SIGKILL);
		}
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid) {
			rr->status = status;
			return 0;
		}
		if (w < 0 && errno != EINTR) {
			warn("waitpid");
			return -1;
		}
	}
}

/*
 * Whatever a trial left running would keep its grant: its init said
 * how many it ended; capaudit ends what is left of a trial it cut.
 */
static void end_leftovers(const struct launch *l, int from_trial,
			  struct run_result *rr)
{
	struct trial_end e;
	size_t ended = 0;
	int rc;

	if (l->plan == NULL)
		return;
	if (read(from_trial, &e, sizeof(e)) == (ssize_t)sizeof(e))
		rr->left = e.left;
	rc = trial_end_leftovers(&ended);
	rr->left += ended;
	if (rc == 0)
		return;
	rr->left_running = 1;
	warnx("WARNING: a trial left processes running that capaudit could not end (%s): they hold that trial's capabilities",
	      strerror(errno));
}

static void close_handshake(struct handshake *h)
{
	int *pipes[] = {
		h->ready, h->go, h->fail, h->end, h->result, h->release
	};
	size_t i, j;

	cap_free(h->attr);
	h->attr = NULL;
	for (i = 0; i < sizeof(pipes) / sizeof(pipes[0]); i++)
		for (j = 0; j < 2; j++) {
			if (pipes[i][j] >= 0)
				close(pipes[i][j]);
			pipes[i][j] = -1;
		}
}

int launch_run(const struct launch *l, const struct source *src,
	       struct tally *t, struct run_result *rr)
{
	struct handshake h = { .ready = { -1, -1 },
			       .go = { -1, -1 },
			       .fail = { -1, -1 },
			       .end = { -1, -1 },
			       .result = { -1, -1 },
			       .release = { -1, -1 } };
	struct tracer *tr = NULL;
	struct launch_result got;
	pthread_t thread;
	double start;
	int rc = 1, said = 0, threaded = 0;

	tally_init(t, 0, NULL);
	h.plan = l->plan;
	h.guard_tty = l->user != NULL;
	h.capaudit = getpid();
	h.attr = make_launcher(l);
	if (h.attr == NULL || start_launcher(&h, &thread) < 0)
		goto out;
	threaded = 1;
	tr = trace_child(&h, src, t, &said);
	start = now();
	close(h.go[1]); /* without the byte, the launch fails */
	h.go[1] = -1;
	await_launch(&h, &got);
	if (got.pid < 0) {
		say_failed_start(l, &h, got.err, tr != NULL || !said);
		goto out;
	}
	if (wait_for_exit(l, got.pid, tr, t, rr, start) < 0)
		goto out;
	rr->seconds = now() - start;
	end_leftovers(l, h.end[0], rr);
	tracer_finish(tr, tally_record, t);
	if (tally_finish(t) < 0)
		warnx("out of memory: some checks were not counted");
	rc = 0;
out:
	if (threaded) {
		/* Reaped (or never started): the thread may go now. */
		close(h.release[1]);
		h.release[1] = -1;
		pthread_join(thread, NULL);
	}
	tracer_close(tr);
	close_handshake(&h);
	if (rc != 0)
		tally_free(t);
	return rc;
}
