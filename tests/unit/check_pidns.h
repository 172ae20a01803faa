/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * For suites whose cases ask what every process's mounts let through (a
 * read-only mount's seal, common/writeseal.h): check_as_init() runs such
 * a case as pid 1 of a pid namespace of its own, with its own /proc, so
 * that the processes, namespaces and held directories searched are the
 * case's alone, never those of whatever else runs on the host. The
 * includer defines _GNU_SOURCE (unshare) before its first include, and
 * includes check_run.h.
 */
#ifndef CHECK_PIDNS_H
#define CHECK_PIDNS_H

#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

static void (*check_init_fn)(void);

static void check_unshare_pid_ns(void)
{
	int status;
	pid_t pid;

	ck_assert_int_eq(unshare(CLONE_NEWPID), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* its /proc in a copy of the mount namespace: the test's
		 * process keeps seeing itself in its own */
		ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
		ck_assert_int_eq(mount("proc", "/proc", "proc", 0, NULL), 0);
		check_init_fn();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the test's pid 1 failed (status %d)", status);
}

/*
 * Runs fn as pid 1 of a new pid namespace, with its own /proc; from a
 * child, so that the test's process, which exits through the sanitizers'
 * leak check, never leaves the pid namespace its /proc shows.
 */
static void check_as_init(void (*fn)(void))
{
	check_init_fn = fn;
	check_in_child(check_unshare_pid_ns);
}

#endif
