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
#define CHUNK0		64u
#define NCHUNKS		26

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

	for (k = 0; k < NCHUNKS && (uint64_t)CHUNK0 * ((1ull << k) - 1) < count; k++) {
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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- tid -> slot, for the broadcaster only -------------------------- */

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

static int hash_has(const struct lpsx_run *run, pid_t tid)
{
	uint32_t h = hash_tid(tid, run->hash_size);

	while (run->hash[h] != 0) {
		if (lpsx_slot_at(run->hash[h] - 1)->tid == tid)
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
		hash_put(hash, size, lpsx_slot_at(i)->tid, i);
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
 * Calls fn(run, tid) for every thread listed, from the start of the
 * directory. Raw getdents64() on the descriptor opened before the call:
 * no allocation, and it keeps working after a chroot(2) or a change of
 * mount namespace by the very call we broadcast.
 */
static int each_task(struct lpsx_run *run, int (*fn)(struct lpsx_run *, pid_t))
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
			const struct linux_dirent64 *d = (const void *)(buf + off);
			pid_t tid = parse_tid(d->d_name);

			off += d->d_reclen;
			if (tid > 0 && fn(run, tid) < 0)
				return -1;
		}
	}
}

static int count_task(struct lpsx_run *run, pid_t tid)
{
	(void)tid;
	run->nslots++;
	return 0;
}

/*
 * Opens /proc/self/task and sizes the table for twice the threads there
 * now, before the caller makes its call: a process we cannot list, or
 * cannot afford to track, is refused before anything changes.
 */
int lpsx_run_open(struct lpsx_run *run)
{
	uint32_t threads;
	int saved;

	run->pid = getpid();
	run->self = lpsx_gettid();
	run->nslots = 0;
	run->dirfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (run->dirfd < 0)
		return -1;
	if (each_task(run, count_task) < 0)
		goto fail;
	threads = run->nslots;
	run->nslots = 0;	/* count_task counted in it; no slot is in use */
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

	__atomic_compare_exchange_n(&slot->ticket, &expected, LPSX_TICKET(gen, to),
				    0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static int add_task(struct lpsx_run *run, pid_t tid)
{
	struct lpsx_slot *slot;
	uint32_t index;

	if (tid == run->self || hash_has(run, tid))
		return 0;
	if (run->nslots == UINT32_MAX) {
		errno = ENOMEM;
		return -1;
	}
	index = run->nslots;
	if (reserve_slots((uint64_t)index + 1) < 0 || hash_fit(run, index + 1) < 0)
		return -1;
	slot = lpsx_slot_at(index);
	__atomic_store_n(&slot->tid, tid, __ATOMIC_RELAXED);
	slot->result = 0;
	slot->sent_ns = now_ns();
	__atomic_store_n(&slot->ticket, LPSX_TICKET(run->gen, LPSX_PENDING),
			 __ATOMIC_RELEASE);
	run->nslots++;
	hash_put(run->hash, run->hash_size, tid, index);
	if (lpsx_signal_send(run->pid, tid, run->gen, index) < 0) {
		if (errno != ESRCH)
			return -1;
		settle(slot, run->gen, LPSX_PENDING, LPSX_GONE);
	}
	return 1;
}

static int sweep_one(struct lpsx_run *run, pid_t tid)
{
	int r = add_task(run, tid);

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
	if (each_task(run, sweep_one) < 0)
		return -1;
	return (int)run->found;
}

/*
 * True when a thread can never run its handler: it has exited (tgkill
 * finds nothing, or its directory is gone) or it is a zombie, as the main
 * thread is after pthread_exit() while others run on.
 */
static int thread_gone(const struct lpsx_run *run, pid_t tid)
{
	char name[32], buf[512], *paren;
	ssize_t n;
	int fd;

	if (syscall(SYS_tgkill, run->pid, tid, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(name, sizeof(name), "%d/stat", (int)tid);
	fd = openat(run->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n == 0 || errno == ESRCH;
	buf[n] = '\0';
	/* "tid (comm) S ...": the state follows the last ')'. */
	paren = strrchr(buf, ')');
	if (paren == NULL || paren[1] != ' ')
		return 0;
	return paren[2] == 'Z' || paren[2] == 'X' || paren[2] == 'x';
}

/*
 * A thread still pending after LAG_NS is checked: gone threads are
 * settled, live ones signalled again (the first signal may have been
 * merged with a foreign pending SIGSYS, or the thread blocks SIGSYS for a
 * while, in which case it runs the call once it unblocks it).
 */
#define LAG_NS		(20u * 1000000u)
#define WAIT_NS		(10u * 1000000u)

static void check_laggard(struct lpsx_run *run, struct lpsx_slot *slot,
			  uint32_t index, enum lpsx_phase phase, uint64_t now)
{
	pid_t tid = __atomic_load_n(&slot->tid, __ATOMIC_RELAXED);

	slot->sent_ns = now;
	if (thread_gone(run, tid)) {
		settle(slot, run->gen, phase, LPSX_GONE);
		return;
	}
	if (phase == LPSX_PENDING &&
	    lpsx_signal_send(run->pid, tid, run->gen, index) < 0 && errno == ESRCH)
		settle(slot, run->gen, LPSX_PENDING, LPSX_GONE);
}

static int settled(const struct lpsx_slot *slot)
{
	enum lpsx_phase phase =
		LPSX_PHASE(__atomic_load_n(&slot->ticket, __ATOMIC_ACQUIRE));

	return phase == LPSX_DONE || phase == LPSX_GONE;
}

/*
 * Returns once every slot of this broadcast is DONE or GONE. Slots settle
 * roughly in the order they were signalled, so the scan starts past the
 * settled ones: a broadcast to n threads costs about n checks, not n².
 */
void lpsx_run_wait(struct lpsx_run *run)
{
	struct timespec tick = { 0, WAIT_NS };
	uint32_t first = 0;

	for (;;) {
		uint32_t seen = __atomic_load_n(&lpsx_acks, __ATOMIC_ACQUIRE);
		uint64_t now = now_ns();
		uint32_t i, pending = 0;
		int reclaimed = 0;

		while (first < run->nslots && settled(lpsx_slot_at(first)))
			first++;
		for (i = first; i < run->nslots; i++) {
			struct lpsx_slot *slot = lpsx_slot_at(i);
			enum lpsx_phase phase = LPSX_PHASE(
				__atomic_load_n(&slot->ticket, __ATOMIC_ACQUIRE));

			if (phase == LPSX_DONE || phase == LPSX_GONE)
				continue;
			if (now - slot->sent_ns >= LAG_NS) {
				/*
				 * Before signalling again, make sure the signal
				 * still reaches our handler: a program that set
				 * its own, or SIG_IGN, meanwhile would swallow
				 * every copy.
				 */
				if (!reclaimed) {
					lpsx_signal_claim();
					reclaimed = 1;
				}
				check_laggard(run, slot, i, phase, now);
				phase = LPSX_PHASE(__atomic_load_n(&slot->ticket,
								   __ATOMIC_ACQUIRE));
				if (phase == LPSX_DONE || phase == LPSX_GONE)
					continue;
			}
			pending++;
		}
		if (pending == 0)
			return;
		syscall(SYS_futex, &lpsx_acks, FUTEX_WAIT_PRIVATE, seen, &tick,
			NULL, 0);
	}
}
