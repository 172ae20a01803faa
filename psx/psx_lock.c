/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The broadcast lock: one broadcast at a time, and none inherited by a child. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "lpsx.h"

/*
 * A pthread mutex held while a process forks stays held in the child by
 * a thread the child does not have. fork() is covered by the atfork
 * handlers (psx.c), but glibc's _Fork(), made for forking where those
 * handlers are unsafe, and a raw clone() run none, and the child's first
 * broadcast waited for ever. So the owner is recorded as its pid and
 * thread id: a lock held in another process (the parent) is stale, and so
 * is one held by a thread that has died (a seccomp filter that kills the
 * caller in the middle of a broadcast); either is taken over.
 *
 * lock_owner is 0 when free. Waiters sleep on lock_seq, bumped at each
 * release, and look again every WAIT_NS in case an owner died.
 *
 * A thread that finds itself the owner has been interrupted in the middle
 * of a broadcast by a signal whose handler broadcasts (or forks) again.
 * Waiting would wait for itself for ever, so that is refused (EDEADLK):
 * the broadcast in progress goes on once the handler returns.
 */
#define WAIT_NS (10u * 1000000u)

static uint64_t lock_owner; /* atomic: pid << 32 | tid, or 0 */
static uint32_t lock_seq;   /* atomic futex word */

static uint64_t me(void)
{
	return (uint64_t)(uint32_t)getpid() << 32 | (uint32_t)lpsx_gettid();
}

/* The owner is gone: another process's, or a thread of ours that died. */
static int stale(uint64_t owner)
{
	pid_t pid = getpid();

	if ((pid_t)(owner >> 32) != pid)
		return 1;
	return syscall(SYS_tgkill, pid, (pid_t)(uint32_t)owner, 0) < 0 &&
	       errno == ESRCH;
}

int lpsx_lock(void)
{
	uint64_t mine = me();
	int saved = errno;

	if (__atomic_load_n(&lock_owner, __ATOMIC_ACQUIRE) == mine) {
		errno = EDEADLK;
		return -1;
	}
	for (;;) {
		uint32_t seq = __atomic_load_n(&lock_seq, __ATOMIC_ACQUIRE);
		uint64_t owner = 0;
		struct timespec wait = { 0, WAIT_NS };

		if (__atomic_compare_exchange_n(&lock_owner, &owner, mine, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			errno = saved;
			return 0;
		}
		if (stale(owner) &&
		    __atomic_compare_exchange_n(&lock_owner, &owner, mine, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			errno = saved;
			return 1;
		}
		syscall(SYS_futex, &lock_seq, FUTEX_WAIT_PRIVATE, seq, &wait,
			NULL, 0);
	}
}

void lpsx_unlock(void)
{
	__atomic_store_n(&lock_owner, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&lock_seq, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &lock_seq, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
