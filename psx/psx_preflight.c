/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Before the caller's call: can every thread be reached at all? */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "lpsx.h"

/*
 * Once the caller has made its call, a thread that never answers leaves
 * the process half changed, which libpsx can only end by killing it. So
 * what can be seen in advance is checked in advance, while refusing still
 * changes nothing:
 *
 *  - a thread that keeps LPSX_SIGNAL blocked (SigBlk). glibc and musl keep
 *    programs from blocking it, so this is a raw rt_sigprocmask(), or a
 *    moment inside the C library (pthread_create() blocks every signal
 *    around clone(), a new thread starts with all blocked);
 *  - a thread that stays stopped (State t or T): held by a debugger or a
 *    tracer, it takes no signal until released.
 *
 * Either may be a moment's state (a thread still returning from our
 * handler after the previous call has the signal blocked too), so a
 * thread found so is looked at again, after 20 us at first and then less
 * often, up to every PREFLIGHT_POLL_NS, and passes the first time it is
 * seen reachable.
 * Only one that stays unreachable for LPSX_PREFLIGHT_NS refuses the call:
 * -1 with EDEADLK (waiting for it would never end). The check cannot see
 * the future: a thread that blocks the signal right after it, or one
 * created meanwhile, is left to the time-out after the call.
 *
 * A process whose RLIMIT_SIGPENDING is 0 can queue no real-time signal at
 * all, so with other threads to reach, it is refused with EAGAIN.
 *
 * An io_uring worker keeps every signal blocked for its whole life, and
 * needs no call (psx_ioworker.c): it is neither waited for nor counted.
 * Only a thread found unreachable is asked whether it is one, so the
 * common case costs nothing more. What each listed thread turned out to
 * be is noted (run->listed), so that after the call only the threads
 * this check did not see, and those it found to be workers, are asked
 * again before they are signalled (lpsx_preflight_listed).
 */
#define PREFLIGHT_POLL_NS (2u * 1000000u)

static int unreachable(const struct lpsx_task *task)
{
	if (task->state == 'Z' || task->state == 'X')
		return 0; /* a zombie: never runs again, never waited for */
	return task->blocked || task->state == 't' || task->state == 'T';
}

static int note_waiting(struct lpsx_run *run, pid_t ptid)
{
	if (run->nwaiting == run->waiting_size) {
		uint32_t size = run->waiting_size ? run->waiting_size * 2 : 16;
		pid_t *bigger;

		if (size < run->waiting_size) {
			errno = ENOMEM;
			return -1;
		}
		bigger = realloc(run->waiting, size * sizeof(*bigger));
		if (bigger == NULL)
			return -1;
		run->waiting = bigger;
		run->waiting_size = size;
	}
	run->waiting[run->nwaiting++] = ptid;
	return 0;
}

/* ---- listed id -> io worker or not, open addressing ---------------- */

static uint32_t listed_slot(uint32_t ptid, uint32_t size)
{
	return (ptid * 2654435761u) & (size - 1);
}

/* Doubles the set once it is half full; -1 (ENOMEM) when it cannot. */
static int listed_grow(struct lpsx_run *run)
{
	uint32_t size = run->listed_size ? run->listed_size * 2 : 256, i;
	uint32_t *bigger;

	if (run->listed_size > UINT32_MAX / 4) {
		errno = ENOMEM;
		return -1;
	}
	bigger = calloc(size, sizeof(*bigger));
	if (bigger == NULL)
		return -1;
	for (i = 0; i < run->listed_size; i++) {
		uint32_t entry = run->listed[i], h;

		if (entry == 0)
			continue;
		for (h = listed_slot(entry >> 1, size); bigger[h] != 0;)
			h = (h + 1) & (size - 1);
		bigger[h] = entry;
	}
	free(run->listed);
	run->listed = bigger;
	run->listed_size = size;
	return 0;
}

/* Ids are below 2^27 (parse_tid), so id << 1 | io fits and is never 0. */
static int note_listed(struct lpsx_run *run, pid_t ptid, int io)
{
	uint32_t h;

	if ((run->nlisted + 1) * 2 > run->listed_size && listed_grow(run) < 0)
		return -1;
	for (h = listed_slot((uint32_t)ptid, run->listed_size);
	     run->listed[h] != 0; h = (h + 1) & (run->listed_size - 1))
		if (run->listed[h] >> 1 == (uint32_t)ptid)
			return 0; /* listed twice by one walk: seen already */
	run->listed[h] = (uint32_t)ptid << 1 | (io ? 1u : 0u);
	run->nlisted++;
	return 0;
}

/*
 * What the last pre-flight check found a listed id to be: 0 an ordinary
 * thread, 1 an io_uring worker, -1 not seen (created since, or gone
 * before it could be read). By the time of the call an id may name
 * another thread, so only a 0 is taken as it is; psx_threads.c asks the
 * others again.
 */
int lpsx_preflight_listed(const struct lpsx_run *run, pid_t ptid)
{
	uint32_t h;

	if (run->listed_size == 0)
		return -1;
	for (h = listed_slot((uint32_t)ptid, run->listed_size);
	     run->listed[h] != 0; h = (h + 1) & (run->listed_size - 1))
		if (run->listed[h] >> 1 == (uint32_t)ptid)
			return (int)(run->listed[h] & 1);
	return -1;
}

static int check_one(struct lpsx_run *run, pid_t ptid)
{
	struct lpsx_task task;
	int io = 0;

	if (ptid == run->self_ptid)
		return 0;
	if (lpsx_proc_task(run->dirfd, ptid, &task) < 0)
		return lpsx_proc_gone(errno) ? 0 : -1;
	if (unreachable(&task)) {
		io = lpsx_proc_io_worker(run->dirfd, ptid);
		if (io < 0)
			return lpsx_proc_gone(errno) ? 0 : -1;
	}
	if (note_listed(run, ptid, io) < 0)
		return -1;
	if (io)
		return 0;
	run->others++;
	return unreachable(&task) ? note_waiting(run, ptid) : 0;
}

/* Looks at the waiting threads again; keeps those still unreachable. */
static int recheck(struct lpsx_run *run)
{
	uint32_t i, kept = 0;

	for (i = 0; i < run->nwaiting; i++) {
		struct lpsx_task task;

		if (lpsx_proc_task(run->dirfd, run->waiting[i], &task) < 0) {
			if (lpsx_proc_gone(errno))
				continue;
			return -1;
		}
		if (unreachable(&task))
			run->waiting[kept++] = run->waiting[i];
	}
	run->nwaiting = kept;
	return 0;
}

/* 0 when every thread listed now can be reached; -1 with errno if not. */
int lpsx_run_preflight(struct lpsx_run *run)
{
	struct timespec poll = { 0, 20 * 1000 };
	struct rlimit limit;
	uint64_t start;

	run->nwaiting = 0;
	run->others = 0;
	run->nlisted = 0;
	if (run->listed_size > 0)
		memset(run->listed, 0, run->listed_size * sizeof(*run->listed));
	if (lpsx_run_each(run, check_one) < 0)
		return -1;
	if (run->others > 0 && getrlimit(RLIMIT_SIGPENDING, &limit) == 0 &&
	    limit.rlim_cur == 0) {
		errno = EAGAIN;
		return -1;
	}
	start = lpsx_now_ns();
	while (run->nwaiting > 0) {
		if (lpsx_now_ns() - start >= LPSX_PREFLIGHT_NS) {
			errno = EDEADLK;
			return -1;
		}
		nanosleep(&poll, NULL);
		if (poll.tv_nsec < PREFLIGHT_POLL_NS)
			poll.tv_nsec *= 2;
		if (recheck(run) < 0)
			return -1;
	}
	return 0;
}
