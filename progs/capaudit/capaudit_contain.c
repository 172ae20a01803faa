/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A trial's processes end with it. A trial's command runs with the
 * capabilities under test; a daemon it starts would keep them, and the
 * capable copies with them (they live on in the trial's mount namespace
 * for as long as a process of it does), after capaudit is done. So the
 * launched child, already in a new PID namespace for its children, forks
 * a small init of its own there, which forks the command and, once the
 * command has ended, ends too: the kernel then kills every process left
 * in the namespace and waits for them (zap_pid_ns_processes()) before
 * the init is reaped. The launched child waits for the init and ends as
 * the command did, so capaudit sees the command's wait status.
 *
 * Only async-signal-safe calls: this runs in the child of a threaded
 * program, before its execve (cap_launch(3)'s rule).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capaudit.h"

/* Closes the descriptors first..last; close_range(2) is Linux 5.9. */
static void close_fds(unsigned first, unsigned last)
{
	struct rlimit rl;
	unsigned fd;

	if (first > last)
		return;
	if (syscall(SYS_close_range, first, last, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur > 1U << 20)
		rl.rlim_cur = 1U << 20;
	for (fd = first; fd <= last && fd < rl.rlim_cur; fd++)
		close((int)fd);
}

/*
 * Every descriptor but 0, 1, 2 and keep: cap_launch(3)'s pipe among them,
 * whose end-of-file tells capaudit the command has exec'd, so neither
 * the launched child nor the init may keep it open.
 */
static void close_all_but(int keep)
{
	close_fds(3, (unsigned)keep - 1);
	close_fds((unsigned)keep + 1, ~0U);
}

/* Ends this process as status says: the same exit status, or signal. */
static void end_as(int status)
{
	struct sigaction sa;
	sigset_t set;
	int sig;

	if (!WIFSIGNALED(status))
		_exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	/* Its signal, not a core dump of ours in capaudit's directory. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);	/* a signal that does not end a process */
}

/* The launched child: waits for the init, then ends as the command did. */
static void launched_child(pid_t init, int from_init)
{
	ssize_t n;
	int status = 0, reported;

	close_all_but(from_init);
	while (waitpid(init, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	do
		n = read(from_init, &reported, sizeof(reported));
	while (n < 0 && errno == EINTR);
	/* Nothing said: the init failed, or was killed; that is the trial's end. */
	end_as(n == (ssize_t)sizeof(reported) ? reported : status);
}

/*
 * The init, pid 1 of the namespace: it reaps whatever is orphaned onto
 * it until the command ends, hands its status on, and ends, which ends
 * the namespace.
 */
static void init_process(pid_t command, int to_child)
{
	int status = 0, s;
	pid_t w;

	close_all_but(to_child);
	for (;;) {
		w = waitpid(-1, &s, __WALL);
		if (w == command) {
			status = s;
			break;
		}
		if (w < 0 && errno != EINTR) {
			status = 127 << 8;
			break;
		}
	}
	while (write(to_child, &status, sizeof(status)) < 0 && errno == EINTR)
		;
	_exit(0);
}

#define FAIL(what) do { *step = (what); return -1; } while (0)

int trial_contain(const char **step)
{
	int pipefd[2];
	pid_t init, command;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		FAIL("a pipe to the trial's init");
	init = fork();	/* pid 1 of the namespace plan_apply() made */
	if (init < 0)
		FAIL("starting the trial's init");
	if (init > 0) {
		close(pipefd[1]);
		launched_child(init, pipefd[0]);	/* does not return */
	}
	close(pipefd[0]);
	/*
	 * If the launched child dies (capaudit kills it), the init goes,
	 * and the namespace with it; the kernel delivers this SIGKILL to a
	 * namespace's init, as it comes from outside the namespace.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/*
	 * A /proc of the namespace: the command's pids are the
	 * namespace's, and /proc/PID must name them (a shell's /proc/$$).
	 * The mount namespace is the trial's own.
	 */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		FAIL("mounting /proc for the trial's PID namespace");
	command = fork();
	if (command < 0)
		FAIL("starting the command in the trial's PID namespace");
	if (command > 0)
		init_process(command, pipefd[1]);	/* does not return */
	close(pipefd[1]);
	return 0;
}
