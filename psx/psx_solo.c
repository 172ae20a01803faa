/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A call made without the thread list, once the kernel proves the caller is alone. */
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>

#include "lpsx.h"

/*
 * Without a thread list (no /proc in this root, a /proc of a PID
 * namespace we are not in, or one we cannot open) libpsx cannot reach
 * the other threads; but a process that has none needs no broadcast, and
 * the caller's own call is then the whole change. The kernel itself says
 * whether there are others: unshare(CLONE_THREAD) asks to leave the
 * thread group, which Linux cannot do, so it answers 0 when there is
 * nothing to leave (the caller leads the group and is its only member:
 * thread_group_empty() in kernel/fork.c's check_unshare_flags()) and
 * EINVAL otherwise. Either way nothing changes: CLONE_THREAD alone implies
 * no other flag, so no namespace, file table or fs_struct is touched.
 * /proc plays no part, so a /proc that lies (another namespace's, a
 * tmpfs with a made-up task list) cannot make the answer wrong.
 *
 * Any other answer proves nothing: EPERM or ENOSYS from a seccomp filter
 * is "unproven", and so is a 0 that a filter gave without the kernel's
 * check (SECCOMP_RET_ERRNO with the value 0, a supervisor's reply to a
 * user notification). That one is caught by first asking with a flag
 * unshare(2) never takes: the kernel refuses it with EINVAL before it
 * looks at anything else, so any other answer means something besides
 * the kernel answers unshare(2). A filter that fakes only the exact call
 * made here could as well fake capset(2) itself, which no library can
 * detect.
 *
 * The proof must still hold when the call is made. Only a member of the
 * group can add a thread to it, and the caller is the only one; between
 * the question and the call it runs nothing of the program's except a
 * signal handler, so every signal is blocked from before the question to
 * after the call, SIGSYS excepted: the kernel forces a blocked SIGSYS
 * from a seccomp filter's SECCOMP_RET_TRAP to its default action, which
 * would kill a process whose handler emulates the call, and libpsx leaves
 * SIGSYS to the program (psx_syscall(3)); so a SIGSYS handler that
 * starts a thread, run for a SIGSYS sent at that very moment, is the one
 * gap left. The one thread the kernel adds on its own is an io_uring
 * worker, created as task work on the caller's way back to user space:
 * it runs no code of the program's, and runs each request under the
 * credentials the request was submitted with, never its own.
 *
 * rt_sigprocmask(2) itself is made with the caller's own mask back in
 * place, or it would report and change the mask blocked here, which the
 * restore then undoes. It changes the calling thread alone, as it does in
 * a broadcast (each handler's mask is restored when it returns), so a
 * thread started in between does not matter to it.
 *
 * A thread that has just exited can still be a member for a moment (it
 * clears its id, which wakes pthread_join(), before it is released), so
 * an EINVAL is asked again, less often each time, for up to
 * SOLO_WAIT_NS. A process that keeps another thread gets no call.
 */
#define SOLO_WAIT_NS	 (200u * 1000000u)
#define SOLO_POLL_MAX_NS (5u * 1000000u)

/* Never an unshare(2) flag: the kernel's first check refuses it (EINVAL). */
#define NOT_AN_UNSHARE_FLAG CLONE_VFORK

static int kernel_answers_unshare(void)
{
	return syscall(SYS_unshare, CLONE_THREAD | NOT_AN_UNSHARE_FLAG) == -1 &&
	       errno == EINVAL;
}

/* Every signal but SIGSYS (SIGKILL and SIGSTOP the kernel leaves out). */
static void all_but_sigsys(struct lpsx_kset *set)
{
	int sig;

	for (sig = 1; sig <= 64; sig++)
		if (sig != SIGSYS)
			lpsx_kset_add(set, sig);
}

int lpsx_solo_call(long nr, const long arg[6], long *ret)
{
	struct lpsx_kset block = { { 0 } }, saved;
	struct timespec poll = { 0, 20 * 1000 };
	uint64_t start = lpsx_now_ns();
	int caller_errno = errno;

	if (!kernel_answers_unshare()) {
		errno = caller_errno;
		return 0;
	}
	all_but_sigsys(&block);
	for (;;) {
		int err;

		if (lpsx_ksig_mask(SIG_BLOCK, &block, &saved) < 0)
			break;
		if (syscall(SYS_unshare, CLONE_THREAD) == 0) {
			int of_mask = nr == SYS_rt_sigprocmask;

			if (of_mask)
				lpsx_ksig_mask(SIG_SETMASK, &saved, NULL);
			*ret = syscall(nr, arg[0], arg[1], arg[2], arg[3],
				       arg[4], arg[5]);
			err = errno;
			if (!of_mask)
				lpsx_ksig_mask(SIG_SETMASK, &saved, NULL);
			errno = *ret == -1 ? err : caller_errno;
			return 1;
		}
		err = errno;
		lpsx_ksig_mask(SIG_SETMASK, &saved, NULL);
		if (err != EINVAL || lpsx_now_ns() - start >= SOLO_WAIT_NS)
			break;
		nanosleep(&poll, NULL);
		if (poll.tv_nsec < (long)SOLO_POLL_MAX_NS)
			poll.tv_nsec *= 2;
	}
	errno = caller_errno;
	return 0;
}
