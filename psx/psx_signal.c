/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The signal handler that makes each thread run a broadcast system call. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>

#include "lpsx.h"

/*
 * Sharing signal 33 (LPSX_SIGNAL, see lpsx.h) with the C library: glibc
 * installs its SIGSETXID handler on 33 at the process's first
 * pthread_create() (once: glibc 2.36 never installs it again) and sends
 * it with tgkill() (SI_TKILL, our pid) whenever setuid(), setgroups() and
 * the like must reach every thread. Our handler runs first and takes only
 * signals that carry our mark; any other goes to the disposition that was
 * in place before ours: glibc's handler (which ignores what is not its
 * own), another runtime's, SIG_IGN, or the default, which ends the
 * process as it would have without us.
 *
 * glibc may replace our handler after we installed it (its first
 * pthread_create() comes later), and so may anything that uses the raw
 * system call. So before every broadcast, and again whenever a thread is
 * slow to answer, lpsx_signal_claim() puts ours back, keeping what it
 * replaced as the disposition to chain to.
 */

/* Written by the broadcaster before the generation is published. */
struct lpsx_command lpsx_command;
uint32_t lpsx_active_gen;
uint32_t lpsx_acks;

/*
 * The dispositions we chain to, under a sequence lock: odd while the
 * broadcaster rewrites them (lpsx_signal_claim). A handler reading them
 * in another thread waits for an even count; the broadcaster blocks the
 * signal while the count is odd, so its own thread never waits on itself.
 * next is the one we replaced last; prev the one next replaced, kept
 * for when next leads back to us (see forward).
 */
struct chain {
	struct lpsx_ksigaction next;
	struct lpsx_ksigaction prev;
	unsigned long has_next, has_prev;
};
static struct chain chained;
static uint32_t chained_seq;

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

_Static_assert(sizeof(struct lpsx_ksigaction) % sizeof(unsigned long) == 0 &&
		       sizeof(struct chain) % sizeof(unsigned long) == 0,
	       "copy_words copies whole words");

static void copy_words(void *dst, const void *src, size_t size)
{
	unsigned long *d = dst;
	const unsigned long *s = src;
	size_t i;

	for (i = 0; i < size / sizeof(unsigned long); i++)
		__atomic_store_n(&d[i],
				 __atomic_load_n(&s[i], __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
}

/* A consistent copy of the chained dispositions; safe in a handler. */
static void read_chained(struct chain *out)
{
	for (;;) {
		uint32_t before =
			__atomic_load_n(&chained_seq, __ATOMIC_ACQUIRE);

		if (before & 1) {
			syscall(SYS_sched_yield);
			continue;
		}
		copy_words(out, &chained, sizeof(*out));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&chained_seq, __ATOMIC_RELAXED) == before)
			return;
	}
}

/* Lock held: a handler that installed itself over ours becomes next. */
static void write_chained(const struct lpsx_ksigaction *act)
{
	struct chain now;

	copy_words(&now, &chained, sizeof(now));
	if (now.has_next && memcmp(&now.next, act, sizeof(*act)) == 0)
		return;
	if (now.has_next) {
		copy_words(&chained.prev, &now.next, sizeof(now.next));
		__atomic_store_n(&chained.has_prev, 1ul, __ATOMIC_RELAXED);
	}
	copy_words(&chained.next, act, sizeof(*act));
	__atomic_store_n(&chained.has_next, 1ul, __ATOMIC_RELAXED);
}

/* The default action of a real-time signal (the process ends), by hand. */
static void die_by_default(int sig)
{
	struct lpsx_ksigaction dfl;
	struct lpsx_kset set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.handler = (void *)SIG_DFL;
	lpsx_ksig_action(sig, &dfl, NULL);
	memset(&set, 0, sizeof(set));
	lpsx_kset_add(&set, sig);
	lpsx_ksig_mask(SIG_UNBLOCK, &set, NULL);
	syscall(SYS_tgkill, getpid(), lpsx_gettid(), sig);
}

/*
 * How many handlers a signal has been passed through, kept in the last
 * word of the siginfo the kernel gave the first one (padding, zero for
 * every kind of signal; every handler in a chain is handed the same one).
 * Two copies of libpsx that each took the signal back from the other
 * chain to each other, and a handler that chains to whatever it replaced
 * can point back at us too: without a count, a signal that neither takes
 * would be passed round until the stack ran out. Past HOPS_NEXT passes,
 * each copy hands it to prev instead, the disposition it had chained to
 * before the one that leads back: following those ends at the handler
 * installed before any of us (glibc's, or the program's). Past HOPS_MAX
 * it is dropped.
 */
#define HOPS_MAGIC 0x70730000u
#define HOPS_NEXT  8u
#define HOPS_MAX   16u

static uint32_t *hops_word(siginfo_t *info)
{
	return (uint32_t *)(void *)((char *)info + sizeof(*info) -
				    sizeof(uint32_t));
}

/*
 * Somebody else's signal 33. The chained handler runs with its own
 * sa_mask added, as the kernel would have done; SA_RESETHAND and
 * SA_NODEFER of a chained handler are not emulated.
 */
static void forward(int sig, siginfo_t *info, void *context)
{
	uint32_t *word = hops_word(info), before = *word, hops;
	struct lpsx_ksigaction next;
	struct lpsx_kset saved;
	struct chain chain;

	hops = (before & 0xffff0000u) == HOPS_MAGIC ? before & 0xffffu : 0;
	if (hops >= HOPS_MAX)
		return;
	read_chained(&chain);
	next = hops >= HOPS_NEXT && chain.has_prev ? chain.prev : chain.next;
	/* Whatever the flags say: SA_SIGINFO with SIG_DFL is still the default. */
	if (next.handler == (void *)SIG_IGN)
		return;
	if (next.handler == (void *)SIG_DFL) {
		die_by_default(sig);
		return;
	}
	lpsx_ksig_mask(SIG_BLOCK, &next.mask, &saved);
	*word = HOPS_MAGIC | (hops + 1);
	if (next.flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))next.handler)(sig, info,
								   context);
	else
		((void (*)(int))next.handler)(sig);
	*word = before; /* the siginfo is the kernel's again */
	lpsx_ksig_mask(SIG_SETMASK, &saved, NULL);
}

/*
 * Runs in any thread at any point, so it only uses atomics and system
 * calls, and leaves errno as it found it.
 */
static void on_signal(int sig, siginfo_t *info, void *context)
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
	if (gen == 0 ||
	    gen != __atomic_load_n(&lpsx_active_gen, __ATOMIC_ACQUIRE))
		goto out;
	slot = lpsx_slot_at(index);
	if (slot == NULL ||
	    __atomic_load_n(&slot->tid, __ATOMIC_RELAXED) != lpsx_gettid())
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
	__atomic_store_n(&slot->ticket, LPSX_TICKET(gen, LPSX_DONE),
			 __ATOMIC_RELEASE);
	__atomic_add_fetch(&lpsx_acks, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &lpsx_acks, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
out:
	errno = saved_errno;
}

/*
 * Makes sure our handler is the one installed, chaining to whatever was
 * there before (first call, glibc's first pthread_create(), or a program
 * that has since replaced ours). Called by the broadcaster, under its
 * lock, before every broadcast and whenever a thread is slow to answer.
 *
 * The exchange is one rt_sigaction() call, which reads the old
 * disposition and installs ours atomically: a handler glibc installs
 * concurrently is either the one we replace, and so chain to, or comes
 * after ours and is found by the next claim. Never lost, which would
 * leave glibc's setuid() waiting for ever on threads it cannot reach.
 */
int lpsx_signal_claim(void)
{
	struct lpsx_ksigaction now, ours, old;
	struct lpsx_kset block, saved;
	int rc = 0, err = 0;

	memset(&block, 0, sizeof(block));
	lpsx_kset_add(&block, LPSX_SIGNAL);
	if (lpsx_ksig_mask(SIG_BLOCK, &block, &saved) < 0)
		return -1;
	if (lpsx_ksig_action(LPSX_SIGNAL, NULL, &now) < 0) {
		rc = -1;
		err = errno;
		goto out;
	}
	if (now.handler == (void *)on_signal)
		goto out;
	lpsx_ksig_set_handler(&ours, on_signal);
	__atomic_add_fetch(&chained_seq, 1, __ATOMIC_RELAXED); /* odd */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	write_chained(&now);
	if (lpsx_ksig_action(LPSX_SIGNAL, &ours, &old) < 0) {
		rc = -1;
		err = errno;
	} else if (old.handler != (void *)on_signal) {
		write_chained(&old); /* changed between our two calls */
	}
	__atomic_add_fetch(&chained_seq, 1, __ATOMIC_RELEASE); /* even */
out:
	lpsx_ksig_mask(SIG_SETMASK, &saved, NULL);
	if (rc < 0)
		errno = err;
	return rc;
}

/*
 * Queues our signal for one thread; -1 with errno: ESRCH when it has
 * exited, EAGAIN when the real-time signal queue of our real uid is full
 * (RLIMIT_SIGPENDING; the broadcaster tries again later).
 */
int lpsx_signal_send(pid_t pid, pid_t tid, uint32_t gen, uint32_t index)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	info.si_signo = LPSX_SIGNAL;
	info.si_code = SI_QUEUE;
	info.si_errno = LPSX_MARK;
	info.si_pid = pid;
	info.si_uid = getuid();
	info.si_value.sival_ptr =
		(void *)(uintptr_t)(((uint64_t)gen << 32) | index);
	return (int)syscall(SYS_rt_tgsigqueueinfo, pid, tid, LPSX_SIGNAL,
			    &info);
}
