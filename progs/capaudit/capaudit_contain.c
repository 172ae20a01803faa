/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * No process of a trial outlives capaudit, whatever ends capaudit: the
 * kernel ends them, not capaudit's good health. A trial's command runs
 * with the capabilities under test; run on after capaudit (killed by
 * the OOM killer, or by kill -9), it and every daemon it started would
 * keep them, and the capable copies with them, with no time limit.
 *
 *   capaudit (the thread that launched it, alive until it is reaped)
 *     launched child: in capaudit's PID namespace, never execs
 *       init: pid 1 of the trial's PID namespace, never execs
 *         the command: pid 2, and whatever it starts
 *
 * Each link is the kernel's. The launched child gets SIGKILL when the
 * thread that forked it dies (PR_SET_PDEATHSIG, set before anything of
 * the trial is made: trial_tie()); the init gets SIGKILL when the
 * launched child dies; and when the init dies the kernel kills every
 * process of its namespace, and lets the init be reaped only once they
 * are all gone (zap_pid_ns_processes()). No process can leave a PID
 * namespace, and from inside it none can kill its init (the kernel drops
 * every signal without a handler there, SIGKILL too) or see capaudit. A
 * parent-death signal would not hold on the command itself: the kernel
 * clears it at the exec of a file with capabilities, and at every
 * change of ids. Neither of capaudit's own processes execs or changes
 * its ids after setting it.
 *
 * The race at the start: each sets the signal first, then checks that
 * its parent is still there (capaudit by pid; the launched child, whose
 * pid the init cannot name from inside its namespace, by a pipe only it
 * holds open), so a parent that died in between is seen as well.
 *
 * The command sees its namespace: getpid() is 2, /proc is the
 * namespace's (capaudit_nsproc.c), and no process outside the trial is
 * there to signal, trace or renice (capaudit_prove.c says so when the
 * command's own run asked for a capability over one). capaudit's tracer
 * follows the threads by their ids in the initial namespace, as before.
 *
 * Only async-signal-safe calls: this runs in the child of a threaded
 * program, before its execve (cap_launch(3)'s rule).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capaudit_contain.h"
#include "capaudit_fds.h"
#include "capaudit_nsproc.h"

#define FAIL(what)              \
	do {                    \
		*step = (what); \
		return -1;      \
	} while (0)

/* The signals capaudit handles: its processes here take them as a kill. */
static void default_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGQUIT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int trial_tie(pid_t capaudit)
{
	default_handlers();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return -1;
	/* Dead before that: this process was handed to another already. */
	if (getppid() != capaudit) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

/* Ends this process as status says: the same exit status, or signal. */
static void end_as(int status)
{
	struct sigaction sa;
	struct rlimit none = { 0, 0 };
	sigset_t set;
	int sig;

	if (!WIFSIGNALED(status))
		_exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	/* Its signal, not a core dump of capaudit's memory. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	setrlimit(RLIMIT_CORE, &none);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	_exit(128 + sig); /* a signal that does not end a process */
}

static ssize_t read_all(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * The launched child: waits for the init, hands capaudit how the
 * command ended, and ends as it did, so the trials compare the
 * command's own ends. It holds lifeline open, for the init to see it.
 */
static void launched_child(pid_t init, int from_init, int lifeline, int report)
{
	int keep[] = { from_init, lifeline, report };
	struct trial_end e;
	int status = 0;

	/*
	 * 0, 1, 2 (/dev/null in a trial) and keep alone: cap_launch(3)'s
	 * pipe goes, whose end-of-file tells capaudit the command has
	 * exec'd, and so do the tracer's descriptors.
	 */
	fds_close_except(keep, 3);
	while (waitpid(init, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	/* Nothing said: the init failed, or was killed; that is the trial's end. */
	if (read_all(from_init, &e, sizeof(e)) != (ssize_t)sizeof(e))
		end_as(status);
	while (write(report, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	end_as(e.status);
}

/*
 * The init keeps uid 0, as a kill(2) of pid 1 by the command then asks
 * for cap_kill as it does outside, and only cap_kill, to end what the
 * command leaves; not dumpable, so the command may not trace it with
 * less than cap_sys_ptrace. The raw system call: libcap's objects are
 * made with malloc(), not safe here.
 */
static int keep_only_kill(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3,
						 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	data[0].effective = data[0].permitted = 1U << CAP_KILL;
	if (syscall(SYS_capset, &head, data) < 0)
		return -1;
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Whether the launched child, lifeline's only writer, is gone. */
static int launched_child_gone(int lifeline)
{
	struct pollfd p = { .fd = lifeline, .events = POLLIN };

	return poll(&p, 1, 0) != 0; /* POLLHUP; or poll failed: gone, then */
}

/*
 * Once the command has ended, what it left: the init kills every other
 * process of the namespace (kill(-1) from pid 1 spares only itself) and
 * reaps them all, orphans handed to it as their parents die included,
 * until it has no child left. How many it reaped.
 */
static unsigned end_the_rest(void)
{
	unsigned n = 0;

	kill(-1, SIGKILL);
	for (;;) {
		if (waitpid(-1, NULL, __WALL) > 0)
			n++;
		else if (errno != EINTR)
			return n; /* ECHILD: nothing of the trial is left */
	}
}

/*
 * The init, pid 1 of the namespace: it reaps whatever is orphaned onto
 * it until the command ends, ends the rest, tells the launched child,
 * and exits, and its namespace with it.
 */
static void init_process(pid_t command, int to_launched)
{
	struct trial_end e = { 127 << 8, 0 };
	int s;
	pid_t w;

	/* 0, 1, 2 and the pipe to the launched child alone, as there. */
	fds_close_except(&to_launched, 1);
	/*
	 * A drop, which leaves the parent-death signal set (the kernel
	 * clears it at a change of ids or a gain of capabilities only).
	 */
	if (keep_only_kill() < 0)
		_exit(127); /* the namespace, the command in it, goes with us */
	for (;;) {
		w = waitpid(-1, &s, __WALL);
		if (w == command) {
			e.status = s;
			break;
		}
		if (w < 0 && errno != EINTR)
			break;
	}
	e.left = end_the_rest();
	while (write(to_launched, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(0);
}

int trial_contain(int report, int sigchld_ignored, const char **step)
{
	int lifeline[2], ends[2];
	pid_t init, command;

	if (pipe2(lifeline, O_CLOEXEC) < 0 || pipe2(ends, O_CLOEXEC) < 0)
		FAIL("pipes to the trial's init");
	if (unshare(CLONE_NEWPID) < 0)
		FAIL("unshare(CLONE_NEWPID)");
	init = fork(); /* pid 1 of the new namespace */
	if (init < 0)
		FAIL("starting the trial's init");
	if (init > 0)
		launched_child(init, ends[0], lifeline[1], report);
	close(ends[0]);
	close(lifeline[1]);
	/* Before the command exists: the namespace dies with the launched child. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		FAIL("tying the trial's init to its launched child");
	if (launched_child_gone(lifeline[0]))
		_exit(127);
	close(lifeline[0]);
	/*
	 * Still root, and before the command exists: its /proc. A failure
	 * here goes the way of any failed set-up step (the launched child
	 * then ends as this process does).
	 */
	if (nsproc_mount(step) < 0)
		return -1;
	command = fork();
	if (command < 0)
		FAIL("starting the command in the trial's PID namespace");
	if (command > 0)
		init_process(command, ends[1]);
	close(ends[1]);
	if (sigchld_ignored) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_IGN;
		if (sigaction(SIGCHLD, &sa, NULL) < 0)
			FAIL("ignoring SIGCHLD again");
	}
	return 0; /* the command's process: the launcher execs it */
}
