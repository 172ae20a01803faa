/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The threads of a broadcast: the slot table and the walk over /proc/self/task. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "lpsx.h"

/*
 * The slot table. Signal handlers find their slot by index, at any time,
 * even after the broadcast that sent them has ended, so slots never move
 * and are never freed: the table is a list of chunks, chunk k holding
 * CHUNK0 << k slots, allocated by the broadcaster (under its lock) and
 * published with a release store. 26 chunks cover every 32-bit index.
 * The memory stays with the process; it is bounded by the largest number
 * of threads one broadcast has met.
 */
#define CHUNK0	64u
#define NCHUNKS 26

static struct lpsx_slot *chunks[NCHUNKS];

/* Chunk k starts at index CHUNK0 * (2^k - 1). */
static unsigned chunk_of(uint32_t index, uint32_t *offset)
{
	uint64_t scaled = (uint64_t)index / CHUNK0 + 1;
	unsigned k = 63u - (unsigned)__builtin_clzll(scaled);

	*offset = (uint32_t)(index - (uint64_t)CHUNK0 * ((1ull << k) - 1));
	return k;
}

/* Safe in a signal handler: NULL when that slot was never allocated. */
struct lpsx_slot *lpsx_slot_at(uint32_t index)
{
	uint32_t offset;
	unsigned k = chunk_of(index, &offset);
	struct lpsx_slot *chunk;

	if (k >= NCHUNKS)
		return NULL;
	chunk = __atomic_load_n(&chunks[k], __ATOMIC_ACQUIRE);
	return chunk == NULL ? NULL : &chunk[offset];
}

/* Makes slots 0 .. count-1 exist; -1 (ENOMEM) if that cannot be. */
static int reserve_slots(uint64_t count)
{
	unsigned k;

	for (k = 0; k < NCHUNKS && (uint64_t)CHUNK0 * ((1ull << k) - 1) < count;
	     k++) {
		struct lpsx_slot *chunk;

		if (__atomic_load_n(&chunks[k], __ATOMIC_RELAXED) != NULL)
			continue;
		chunk = calloc((size_t)CHUNK0 << k, sizeof(*chunk));
		if (chunk == NULL)
			return -1;
		__atomic_store_n(&chunks[k], chunk, __ATOMIC_RELEASE);
	}
	if (k == NCHUNKS && (uint64_t)CHUNK0 * ((1ull << k) - 1) < count) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

uint64_t lpsx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- listed id -> slot, for the broadcaster only -------------------- */

static uint32_t hash_tid(pid_t tid, uint32_t size)
{
	return ((uint32_t)tid * 2654435761u) & (size - 1);
}

static void hash_put(uint32_t *hash, uint32_t size, pid_t tid, uint32_t index)
{
	uint32_t h = hash_tid(tid, size);

	while (hash[h] != 0)
		h = (h + 1) & (size - 1);
	hash[h] = index + 1;
}

/* Whether this thread (this id, naming this inode) already has a slot. */
static int hash_has(const struct lpsx_run *run, pid_t ptid, uint64_t ino)
{
	uint32_t h = hash_tid(ptid, run->hash_size);

	while (run->hash[h] != 0) {
		const struct lpsx_slot *slot = lpsx_slot_at(run->hash[h] - 1);

		if (slot->ptid == ptid && slot->ino == ino)
			return 1;
		h = (h + 1) & (run->hash_size - 1);
	}
	return 0;
}

/* Sizes the hash for at least want entries at half load; -1 on ENOMEM. */
static int hash_fit(struct lpsx_run *run, uint32_t want)
{
	uint32_t size = run->hash_size ? run->hash_size : 256, i;
	uint32_t *hash;

	while (size / 2 < want + 1) {
		if (size > UINT32_MAX / 4) {
			errno = ENOMEM;
			return -1;
		}
		size *= 2;
	}
	if (size == run->hash_size)
		return 0;
	hash = calloc(size, sizeof(*hash));
	if (hash == NULL)
		return -1;
	for (i = 0; i < run->nslots; i++)
		hash_put(hash, size, lpsx_slot_at(i)->ptid, i);
	free(run->hash);
	run->hash = hash;
	run->hash_size = size;
	return 0;
}

/* ---- /proc/self/task ------------------------------------------------ */

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* A thread id from a directory entry name; 0 for anything else. */
static pid_t parse_tid(const char *name)
{
	long v = 0;

	if (*name == '\0')
		return 0;
	for (; *name != '\0'; name++) {
		if (*name < '0' || *name > '9' || v > 99999999)
			return 0;
		v = v * 10 + (*name - '0');
	}
	return (pid_t)v;
}

/*
 * Calls fn(run, ptid) for every thread listed, from the start of the
 * directory; ptid is the id /proc lists (see psx_proc.c). Raw
 * getdents64() on the descriptor opened before the call: no allocation,
 * and it keeps working after a chroot(2) or a change of mount namespace
 * by the very call we broadcast.
 */
int lpsx_run_each(struct lpsx_run *run, int (*fn)(struct lpsx_run *, pid_t))
{
	char buf[4096] __attribute__((aligned(8)));
	long n, off;

	if (lseek(run->dirfd, 0, SEEK_SET) < 0)
		return -1;
	for (;;) {
		n = syscall(SYS_getdents64, run->dirfd, buf, sizeof(buf));
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		for (off = 0; off < n;) {
			const struct linux_dirent64 *d =
				(const void *)(buf + off);
			pid_t ptid = parse_tid(d->d_name);

			off += d->d_reclen;
			if (ptid > 0 && fn(run, ptid) < 0)
				return -1;
		}
	}
}

static int count_task(struct lpsx_run *run, pid_t ptid)
{
	(void)ptid;
	run->nslots++;
	return 0;
}

/*
 * Opens our task directory and sizes the table for twice the threads
 * there now, before the caller makes its call: for a process we cannot
 * list, whose ids we cannot map, or that we cannot afford to track, this
 * fails before anything changes, and the call is made only if the caller
 * is proven alone (psx_solo.c).
 */
int lpsx_run_open(struct lpsx_run *run)
{
	uint32_t threads;
	int saved;

	run->pid = getpid();
	run->self = lpsx_gettid();
	run->nslots = 0;
	run->dirfd = lpsx_proc_open(&run->self_ptid, &run->translate);
	if (run->dirfd < 0)
		return -1;
	if (lpsx_run_each(run, count_task) < 0)
		goto fail;
	threads = run->nslots;
	run->nslots = 0; /* count_task counted in it; no slot is in use */
	if (reserve_slots((uint64_t)threads * 2 + CHUNK0) < 0 ||
	    hash_fit(run, threads * 2 + CHUNK0) < 0)
		goto fail;
	memset(run->hash, 0, run->hash_size * sizeof(*run->hash));
	return 0;
fail:
	saved = errno;
	close(run->dirfd);
	run->dirfd = -1;
	errno = saved;
	return -1;
}

/* The hash is kept for the next broadcast; only the descriptor goes. */
void lpsx_run_close(struct lpsx_run *run)
{
	if (run->dirfd >= 0)
		close(run->dirfd);
	run->dirfd = -1;
}

static void settle(struct lpsx_slot *slot, uint32_t gen, enum lpsx_phase from,
		   enum lpsx_phase to)
{
	uint64_t expected = LPSX_TICKET(gen, from);

	__atomic_compare_exchange_n(&slot->ticket, &expected,
				    LPSX_TICKET(gen, to), 0, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

/*
 * The id our own system calls know a listed thread by: the same, unless
 * /proc is an ancestor namespace's. 0 when the thread has gone; -1 with
 * errno when its status cannot be read.
 */
static pid_t our_tid(const struct lpsx_run *run, pid_t ptid)
{
	struct lpsx_task task;

	if (!run->translate)
		return ptid;
	if (lpsx_proc_task(run->dirfd, ptid, &task) < 0)
		return lpsx_proc_gone(errno) ? 0 : -1;
	if (task.levels < 2) { /* it was there for the caller: not gone */
		errno = EPROTO;
		return -1;
	}
	return task.tid;
}

/*
 * Whether a thread about to get a slot is an io_uring worker, to be left
 * out (psx_ioworker.c). One the pre-flight check saw as an ordinary
 * thread is taken as one, which costs nothing (should its id have passed
 * to a new worker since, the wait finds that out: check_laggard). The
 * others are asked, whatever the check said, as the id may name another
 * thread by now: one created since, or given the id of one that has
 * exited. 1 yes, 0 no, -1 with errno.
 */
static int is_io_worker(const struct lpsx_run *run, pid_t ptid)
{
	if (lpsx_preflight_listed(run, ptid) == 0)
		return 0;
	return lpsx_proc_io_worker(run->dirfd, ptid);
}

/*
 * A listed id that has a slot may name another thread by now (see
 * lpsx_proc_ino): that one gets a slot of its own. The cost is one
 * lookup per listed thread per sweep; a thread whose inode was evicted
 * from the cache between two sweeps looks new and makes the call twice,
 * which is the safe side.
 */
static int add_task(struct lpsx_run *run, pid_t ptid)
{
	struct lpsx_slot *slot;
	uint32_t index;
	uint64_t ino;
	pid_t tid;
	int io;

	if (ptid == run->self_ptid)
		return 0;
	if (lpsx_proc_ino(run->dirfd, ptid, &ino) < 0)
		return lpsx_proc_gone(errno) ? 0 : -1;
	if (hash_has(run, ptid, ino))
		return 0;
	io = is_io_worker(run, ptid);
	if (io < 0)
		return lpsx_proc_gone(errno) ? 0 : -1;
	tid = our_tid(run, ptid);
	if (tid <= 0)
		return tid; /* gone (0), or -1 with errno */
	if (run->nslots == UINT32_MAX) {
		errno = ENOMEM;
		return -1;
	}
	index = run->nslots;
	if (reserve_slots((uint64_t)index + 1) < 0 ||
	    hash_fit(run, index + 1) < 0)
		return -1;
	slot = lpsx_slot_at(index);
	__atomic_store_n(&slot->tid, tid, __ATOMIC_RELAXED);
	slot->ptid = ptid;
	slot->ino = ino;
	slot->result = 0;
	slot->sent_ns = lpsx_now_ns();
	/* A worker's slot counts it in the census; it is never signalled. */
	__atomic_store_n(&slot->ticket,
			 LPSX_TICKET(run->gen, io ? LPSX_GONE : LPSX_PENDING),
			 __ATOMIC_RELEASE);
	run->nslots++;
	hash_put(run->hash, run->hash_size, ptid, index);
	if (io)
		return 1;
	/*
	 * ESRCH: it has exited. EAGAIN: our real uid's queue of real-time
	 * signals is full (RLIMIT_SIGPENDING); the wait sends again once it
	 * finds the signal is not pending. Anything else (EPERM, EINVAL)
	 * means nothing can reach it.
	 */
	if (lpsx_signal_send(run->pid, tid, run->gen, index) < 0) {
		if (errno == ESRCH)
			settle(slot, run->gen, LPSX_PENDING, LPSX_GONE);
		else if (errno != EAGAIN)
			return -1;
	}
	return 1;
}

static int sweep_one(struct lpsx_run *run, pid_t ptid)
{
	int r = add_task(run, ptid);

	if (r > 0)
		run->found++;
	return r < 0 ? -1 : 0;
}

/*
 * Gives every thread listed now, and not met before in this broadcast, a
 * slot and a signal. Returns how many were new, or -1 with errno.
 */
int lpsx_run_sweep(struct lpsx_run *run)
{
	run->found = 0;
	if (lpsx_run_each(run, sweep_one) < 0)
		return -1;
	return (int)run->found;
}

/*
 * Whether a listing that found nobody new missed no live thread either.
 * procfs hands out a task directory a batch at a time and resumes by the
 * id of the next thread, or, once that one has gone, by position: when a
 * thread listed before has exited too, the position now lies past a live
 * thread, which that listing never shows (and a walk cut short by the
 * exit of the thread it stood on resumes by position as well). The
 * thread skipped may be one created, with the old state, by a thread
 * that had not yet made the call.
 *
 * So the end is proven by counting instead. Called only when every slot
 * has settled (DONE: made the call; GONE: exited or a zombie, neither of
 * which creates threads). First the kernel's count of our threads, N,
 * is read (Threads:, the same count the zombie main thread and threads
 * still exiting are in); then each slot's thread is looked up again by
 * its id and inode. Every slot was made before N was read, and a thread
 * that has exited never comes back under the same inode, so each found
 * alive now was alive when N was read: if these plus the caller make N,
 * every thread alive at that moment had settled, and since a thread that
 * has made the call creates only threads that have made it too, no
 * thread with the old state exists or can appear. Otherwise (a thread
 * was skipped, or one met has exited since N was read) the caller lists
 * again. Each slot is a different thread (hash_has), so none is counted
 * twice; one whose inode was evicted and renewed is counted as gone, and
 * the next listing gives it a slot of its own.
 *
 * Returns 1 when proven, 0 when not, -1 with errno when our own status
 * cannot be read or shows no count.
 */
int lpsx_run_census(struct lpsx_run *run)
{
	struct lpsx_task me;
	uint64_t alive = 1; /* the caller */
	uint32_t i;

	if (lpsx_proc_task(run->dirfd, run->self_ptid, &me) < 0)
		return -1;
	if (me.threads <= 0) {
		errno = EPROTO;
		return -1;
	}
	for (i = 0; i < run->nslots; i++) {
		const struct lpsx_slot *slot = lpsx_slot_at(i);
		uint64_t ino;

		if (lpsx_proc_ino(run->dirfd, slot->ptid, &ino) < 0) {
			if (lpsx_proc_gone(errno))
				continue;
			return -1;
		}
		if (ino == slot->ino)
			alive++;
	}
	return alive == (uint64_t)me.threads;
}

/*
 * A thread still pending after LAG_NS is looked at again. One that has
 * exited, is a zombie (the main thread after pthread_exit(), which never
 * runs again), or is an io_uring worker, is settled GONE. One whose copy
 * of our signal is still queued is left alone: it runs the call as soon
 * as it can (it is busy, in an uninterruptible sleep, or keeps the signal
 * blocked for now), and signalling it again would only queue more copies
 * of a real-time signal, which are never merged. One whose copy has vanished gets
 * another, after our handler is put back: a program or glibc that
 * installed its own meanwhile took it, SIG_IGN discarded it, or the queue
 * was full when we sent it.
 */
#define LAG_NS	(20u * 1000000u)
#define WAIT_NS (10u * 1000000u)

static void check_laggard(struct lpsx_run *run, struct lpsx_slot *slot,
			  uint32_t index, enum lpsx_phase phase, uint64_t now,
			  int *reclaimed)
{
	pid_t tid = __atomic_load_n(&slot->tid, __ATOMIC_RELAXED);
	struct lpsx_task task;

	slot->sent_ns = now;
	if (syscall(SYS_tgkill, run->pid, tid, 0) < 0 && errno == ESRCH) {
		settle(slot, run->gen, phase, LPSX_GONE);
		return;
	}
	if (lpsx_proc_task(run->dirfd, slot->ptid, &task) < 0) {
		if (lpsx_proc_gone(errno))
			settle(slot, run->gen, phase, LPSX_GONE);
		return; /* unreadable for now: looked at again later */
	}
	if (task.state == 'Z' || task.state == 'X') {
		settle(slot, run->gen, phase, LPSX_GONE);
		return;
	}
	/*
	 * An io_uring worker that was signalled all the same (it took the
	 * id of a thread the pre-flight check saw as an ordinary one) will
	 * never take the signal: it is left out like any other worker. The
	 * copy queued on it goes when it exits.
	 */
	if (phase == LPSX_PENDING && task.blocked &&
	    lpsx_proc_io_worker(run->dirfd, slot->ptid) > 0) {
		settle(slot, run->gen, LPSX_PENDING, LPSX_GONE);
		return;
	}
	if (phase != LPSX_PENDING || task.pending)
		return;
	if (!*reclaimed) {
		lpsx_signal_claim();
		*reclaimed = 1;
	}
	if (lpsx_signal_send(run->pid, tid, run->gen, index) < 0 &&
	    errno == ESRCH)
		settle(slot, run->gen, LPSX_PENDING, LPSX_GONE);
}

static int settled(const struct lpsx_slot *slot)
{
	enum lpsx_phase phase =
		LPSX_PHASE(__atomic_load_n(&slot->ticket, __ATOMIC_ACQUIRE));

	return phase == LPSX_DONE || phase == LPSX_GONE;
}

/*
 * Returns 0 once every slot of this broadcast is DONE or GONE, or -1
 * (ETIMEDOUT) when LPSX_STALL_NS pass without any of them settling; the
 * slots still PENDING or RUNNING are then the threads that did not make
 * the call. Slots settle roughly in the order they were signalled, so
 * the scan starts past the settled ones: a broadcast to n threads costs
 * about n checks, not n².
 */
int lpsx_run_wait(struct lpsx_run *run)
{
	struct timespec tick = { 0, WAIT_NS };
	uint32_t first = 0, fewest = UINT32_MAX;
	uint64_t progress = lpsx_now_ns();

	for (;;) {
		uint32_t seen = __atomic_load_n(&lpsx_acks, __ATOMIC_ACQUIRE);
		uint64_t now = lpsx_now_ns();
		uint32_t i, pending = 0;
		int reclaimed = 0;

		while (first < run->nslots && settled(lpsx_slot_at(first)))
			first++;
		for (i = first; i < run->nslots; i++) {
			struct lpsx_slot *slot = lpsx_slot_at(i);
			enum lpsx_phase phase = LPSX_PHASE(__atomic_load_n(
				&slot->ticket, __ATOMIC_ACQUIRE));

			if (phase == LPSX_DONE || phase == LPSX_GONE)
				continue;
			if (now - slot->sent_ns >= LAG_NS) {
				check_laggard(run, slot, i, phase, now,
					      &reclaimed);
				if (settled(slot))
					continue;
			}
			pending++;
		}
		if (pending == 0)
			return 0;
		if (pending < fewest) {
			fewest = pending;
			progress = now;
		} else if (now - progress >= LPSX_STALL_NS) {
			errno = ETIMEDOUT;
			return -1;
		}
		syscall(SYS_futex, &lpsx_acks, FUTEX_WAIT_PRIVATE, seen, &tick,
			NULL, 0);
	}
}
