/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The SIGSYS handler that makes each thread run a broadcast system call. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>

#include "lpsx.h"

/*
 * Why SIGSYS: libcap's libpsx uses it (libcap 2.66 as shipped by Debian
 * does), so a program written against libcap's documentation already
 * treats SIGSYS as libpsx's. It is not a real-time signal, so it is
 * coalesced while pending; a lost duplicate is harmless because the
 * broadcaster re-sends to any thread that stays pending (psx_threads.c).
 *
 * Sharing SIGSYS with the program (seccomp's SECCOMP_RET_TRAP, or its own
 * handler): our handler runs first and takes only signals that carry our
 * mark; any other SIGSYS goes to the disposition that was in place when
 * we installed ours (a handler, SIG_IGN, or the default, which still
 * kills the process with a core). A program that installs its own handler
 * after ours has it noticed and chained at the next broadcast.
 */

/*
 * The signal. Only the valgrind pass of the test suite builds with another
 * (tests/unit/check_psx_valgrind.c): valgrind 3.19 aborts as soon as a
 * SIGSYS is sent to another thread, Debian's own libpsx included.
 */
#ifndef LPSX_SIGNAL
#define LPSX_SIGNAL SIGSYS
#endif

/* Written by the broadcaster before the generation is published. */
struct lpsx_command lpsx_command;
uint32_t lpsx_active_gen;
uint32_t lpsx_acks;

/*
 * The disposition we chain to. The broadcaster writes the copy not in use
 * and then flips the index, so a handler never reads a half-written one.
 */
static struct sigaction chained[2];
static unsigned chained_index;

pid_t lpsx_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Our signals: queued by our own process, with our mark. */
static int is_ours(const siginfo_t *info)
{
	return info->si_code == SI_QUEUE && info->si_errno == LPSX_MARK &&
	       info->si_pid == getpid();
}

/* The signal's default action (for SIGSYS: a core dump), done by hand. */
static void die_by_default(void)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(LPSX_SIGNAL, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, LPSX_SIGNAL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	syscall(SYS_tgkill, getpid(), lpsx_gettid(), LPSX_SIGNAL);
}

/*
 * Somebody else's SIGSYS. The chained handler runs with its own sa_mask
 * added, as the kernel would have done; SA_RESETHAND and SA_NODEFER of a
 * chained handler are not emulated.
 */
static void forward(int sig, siginfo_t *info, void *context)
{
	const struct sigaction *next =
		&chained[__atomic_load_n(&chained_index, __ATOMIC_ACQUIRE)];
	sigset_t saved;

	if (!(next->sa_flags & SA_SIGINFO)) {
		if (next->sa_handler == SIG_IGN)
			return;
		if (next->sa_handler == SIG_DFL) {
			die_by_default();
			return;
		}
	}
	sigprocmask(SIG_BLOCK, &next->sa_mask, &saved);
	if (next->sa_flags & SA_SIGINFO)
		next->sa_sigaction(sig, info, context);
	else
		next->sa_handler(sig);
	sigprocmask(SIG_SETMASK, &saved, NULL);
}

/*
 * Runs in any thread at any point, so it only uses atomics and system
 * calls, and leaves errno as it found it.
 */
static void on_sigsys(int sig, siginfo_t *info, void *context)
{
	int saved_errno = errno;
	uint64_t value, expected;
	uint32_t gen, index;
	struct lpsx_slot *slot;
	const struct lpsx_command *cmd = &lpsx_command;
	long result;

	if (!is_ours(info)) {
		forward(sig, info, context);
		errno = saved_errno;
		return;
	}
	value = (uint64_t)(uintptr_t)info->si_value.sival_ptr;
	gen = (uint32_t)(value >> 32);
	index = (uint32_t)value;
	/* A signal of a broadcast that has already ended: nothing to do. */
	if (gen == 0 || gen != __atomic_load_n(&lpsx_active_gen, __ATOMIC_ACQUIRE))
		goto out;
	slot = lpsx_slot_at(index);
	if (slot == NULL || __atomic_load_n(&slot->tid, __ATOMIC_RELAXED) != lpsx_gettid())
		goto out;
	/*
	 * Claiming the slot also pins the generation: the broadcaster cannot
	 * finish, and so cannot rewrite the command, while a slot is RUNNING.
	 * A second copy of the signal finds the slot claimed and does nothing.
	 */
	expected = LPSX_TICKET(gen, LPSX_PENDING);
	if (!__atomic_compare_exchange_n(&slot->ticket, &expected,
					 LPSX_TICKET(gen, LPSX_RUNNING), 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		goto out;
	result = syscall(cmd->nr, cmd->arg[0], cmd->arg[1], cmd->arg[2],
			 cmd->arg[3], cmd->arg[4], cmd->arg[5]);
	if (result == -1)
		result = -errno;
	slot->result = result;
	__atomic_store_n(&slot->ticket, LPSX_TICKET(gen, LPSX_DONE), __ATOMIC_RELEASE);
	__atomic_add_fetch(&lpsx_acks, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &lpsx_acks, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
out:
	errno = saved_errno;
}

/*
 * Makes sure our handler is the one installed, chaining to whatever was
 * there before (first call, or a program that has since replaced ours).
 * Called by the broadcaster, under its lock, before every broadcast.
 * SA_RESTART: a thread blocked in read(2) and the like carries on after
 * the handler; calls the kernel never restarts after a handler
 * (nanosleep(2), poll(2), ...) return EINTR, as with any handled signal.
 */
int lpsx_signal_claim(void)
{
	struct sigaction now, ours;
	unsigned next;

	if (sigaction(LPSX_SIGNAL, NULL, &now) < 0)
		return -1;
	if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigsys)
		return 0;
	next = 1 - __atomic_load_n(&chained_index, __ATOMIC_RELAXED);
	chained[next] = now;
	__atomic_store_n(&chained_index, next, __ATOMIC_RELEASE);
	memset(&ours, 0, sizeof(ours));
	ours.sa_sigaction = on_sigsys;
	ours.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&ours.sa_mask);
	return sigaction(LPSX_SIGNAL, &ours, NULL);
}

/* Queues our SIGSYS for one thread; -1 with errno (ESRCH: it has exited). */
int lpsx_signal_send(pid_t pid, pid_t tid, uint32_t gen, uint32_t index)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	info.si_signo = LPSX_SIGNAL;
	info.si_code = SI_QUEUE;
	info.si_errno = LPSX_MARK;
	info.si_pid = pid;
	info.si_uid = getuid();
	info.si_value.sival_ptr = (void *)(uintptr_t)(((uint64_t)gen << 32) | index);
	return (int)syscall(SYS_rt_tgsigqueueinfo, pid, tid, LPSX_SIGNAL, &info);
}
