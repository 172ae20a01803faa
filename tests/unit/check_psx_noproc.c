/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libpsx without a thread list, on the real kernel: with /proc taken
 * away (as root, unmounted in a mount namespace of our own; otherwise a
 * tmpfs over it in a user namespace of our own, as anyone can do), a
 * process whose only thread is the caller has the call made, as
 * libcap's libpsx did: the kernel proves there is no other thread. One
 * with other threads is refused (ENOENT) with nothing changed, and so is
 * one whose seccomp filter answers unshare(2) in the kernel's place,
 * with EPERM or with a 0 it never checked. The state broadcast is the
 * thread name, which any user may set, read back through a task
 * directory opened before /proc went away. tools/psxnoproc and
 * root/libpsx_noproc.sh do the same with capabilities, libpsx.a, and
 * the races.
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>

#include "check_run.h"
#include "check_psx.h"
#include "psx_noproc.h"

static int taskfd = -1; /* the real /proc's, opened before it went */

static int enter_world(void)
{
	char why[160];

	taskfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (taskfd < 0)
		FAIL("/proc/self/task: %s", strerror(errno));
	if (noproc_world(geteuid() == 0 ? "unmounted" : "fake", why,
			 sizeof(why)) < 0)
		FAIL("taking /proc away: %s", why);
	return 0;
}

static int named(pid_t tid, const char *want)
{
	char comm[32];

	task_comm_at(taskfd, tid, comm, sizeof(comm));
	if (strcmp(comm, want) != 0)
		FAIL("thread %d is named \"%s\", not \"%s\"", (int)tid, comm,
		     want);
	return 0;
}

static int rename_all(const char *name, long want, int want_errno)
{
	long r;

	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)name);
	if (r != want || (want == -1 && errno != want_errno))
		FAIL("renaming to %s: %ld (%s), expected %ld (%s)", name, r,
		     strerror(errno), want,
		     strerror(want == -1 ? want_errno : 0));
	return 0;
}

/* ---- one thread: made ------------------------------------------------ */

static void *brief(void *arg)
{
	return arg;
}

static int alone_then_joined(void)
{
	pthread_t t[3];
	int i;

	if (enter_world() || rename_all("psx-alone", 0, 0) ||
	    named(my_tid(), "psx-alone"))
		return 1;
	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, brief, NULL) != 0)
			FAIL("pthread_create failed");
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	if (rename_all("psx-joined", 0, 0) || named(my_tid(), "psx-joined"))
		return 1;
	printf("without /proc, one thread: made, before and after others came and went\n");
	return 0;
}

START_TEST(one_thread_is_changed_without_proc)
{
	ck_assert_int_eq(run_child(alone_then_joined), 0);
}
END_TEST

/*
 * rt_sigprocmask(2) through libpsx changes and reports the caller's own
 * mask, as it does with /proc, although libpsx blocks signals around the
 * call it makes alone.
 */
static int sigmask_alone(void)
{
	unsigned long add = 1ul << (SIGUSR2 - 1), before = 0, old = 0, now = 0;
	long r;

	if (enter_world() ||
	    syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &before,
		    sizeof(before)) < 0 ||
	    (before & add))
		FAIL("set-up: mask %#lx", before);
	r = psx_syscall(SYS_rt_sigprocmask, SIG_BLOCK, (long)&add, (long)&old,
			sizeof(add));
	if (r != 0)
		FAIL("rt_sigprocmask through libpsx: %ld (%s)", r,
		     strerror(errno));
	if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &now, sizeof(now)) < 0)
		FAIL("rt_sigprocmask: %s", strerror(errno));
	if (now != (before | add) || old != before)
		FAIL("mask %#lx, reported as %#lx before the call; expected %#lx and %#lx",
		     now, old, before | add, before);
	return 0;
}

START_TEST(signal_mask_call_is_the_callers)
{
	ck_assert_int_eq(run_child(sigmask_alone), 0);
}
END_TEST

/* ---- more threads, or no proof: refused ------------------------------ */

static int raw_stop; /* atomic futex word */

static int raw_thread(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&raw_stop, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &raw_stop, FUTEX_WAIT, 0, NULL, NULL, 0);
	return 0;
}

/* Each thread still has the name it had before the refused calls. */
static int nothing_renamed(const struct worker *w, int n, pid_t raw)
{
	int i;

	if (named(my_tid(), "psx-before") || named(raw, "psx-before"))
		return 1;
	for (i = 0; i < n; i++)
		if (named(w[i].tid, "psx-before"))
			return 1;
	return 0;
}

/*
 * answer: 0 (the kernel answers unshare(2)), or what a seccomp filter
 * answers every unshare(2) with instead.
 */
static int refused_with_threads(unsigned answer)
{
	struct worker w[2];
	pid_t raw;

	memset(w, 0, sizeof(w));
	if (prctl(PR_SET_NAME, (long)"psx-before", 0, 0, 0) != 0 ||
	    enter_world() || start_workers(w, 2))
		return 1;
	raw = noproc_raw_thread(raw_thread, NULL);
	if (raw < 0)
		FAIL("clone: %s", strerror(errno));
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 3)
		usleep(1000);
	if (answer != 0 && noproc_filter(answer, 0, 0) < 0)
		FAIL("seccomp: %s", strerror(errno));
	if (rename_all("psx-after", -1, ENOENT) || nothing_renamed(w, 2, raw))
		return 1;
	__atomic_store_n(&raw_stop, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &raw_stop, FUTEX_WAKE, 1, NULL, NULL, 0);
	return stop_workers(w, 2);
}

static int refused_threads(void)
{
	return refused_with_threads(0);
}

START_TEST(more_threads_are_refused_without_proc)
{
	ck_assert_int_eq(run_child(refused_threads), 0);
}
END_TEST

static int refused_fake_answer(void)
{
	return refused_with_threads(SECCOMP_RET_ERRNO | 0);
}

START_TEST(a_filter_answering_for_the_kernel_is_not_believed)
{
	ck_assert_int_eq(run_child(refused_fake_answer), 0);
}
END_TEST

static int refused_eperm(void)
{
	if (prctl(PR_SET_NAME, (long)"psx-before", 0, 0, 0) != 0 ||
	    enter_world())
		return 1;
	if (noproc_filter(SECCOMP_RET_ERRNO | EPERM, 0, 0) < 0)
		FAIL("seccomp: %s", strerror(errno));
	return rename_all("psx-after", -1, ENOENT) ||
	       named(my_tid(), "psx-before");
}

START_TEST(no_proof_when_a_filter_refuses_unshare)
{
	ck_assert_int_eq(run_child(refused_eperm), 0);
}
END_TEST

static Suite *psx_noproc_suite(void)
{
	Suite *s = suite_create("psx_noproc");
	TCase *tc = tcase_create("noproc");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, one_thread_is_changed_without_proc);
	tcase_add_test(tc, signal_mask_call_is_the_callers);
	tcase_add_test(tc, more_threads_are_refused_without_proc);
	tcase_add_test(tc, a_filter_answering_for_the_kernel_is_not_believed);
	tcase_add_test(tc, no_proof_when_a_filter_refuses_unshare);
	suite_add_tcase(s, tc);
	return s;
}

/* Whether this user can take /proc away at all (root, or a user namespace). */
static int world_possible(void)
{
	char why[160];

	if (noproc_world(geteuid() == 0 ? "unmounted" : "fake", why,
			 sizeof(why)) < 0) {
		printf("skipped: cannot take /proc away here (%s)\n", why);
		return 1;
	}
	return 0;
}

int main(void)
{
	if (!noproc_is_procfs("/proc/self/task")) {
		printf("skipped: no /proc to read the threads' names back through (root/libpsx_noproc.sh runs without one)\n");
		return 77;
	}
	if (run_child(world_possible) != 0)
		return 77;
	return run_psx_suite(psx_noproc_suite);
}
