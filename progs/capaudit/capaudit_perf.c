/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The perf events capaudit reads: one per CPU (and per thread of an
 * attached process, and per probe), inherited by every child the target
 * creates, written into as few ring buffers as the kernel allows
 * (capaudit_ring.c), and read back in time order (capaudit_decode.c).
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capaudit_counting.h"
#include "capaudit_decode.h"
#include "capaudit_launch.h"
#include "capaudit_perf.h"
#include "capaudit_privilege.h"
#include "capaudit_ring.h"
#include "capaudit_source.h"
#include "capaudit_table.h"

struct sentinel {
	int fd, cpu;
};

struct tracer {
	const struct source *src;
	struct counter *counter; /* counting in the kernel, or NULL */
	struct table watched;	 /* with a counter: tid -> perf watches it */
	struct sentinel *sentinels;
	size_t nsentinels;
	int *fds;
	uint64_t *ids;
	int *idx;
	long *thread; /* the watch set's thread of each fd; -1: capaudit's */
	size_t nfds, fds_size;
	uint64_t *dropped; /* ids of the events of threads left out */
	size_t ndropped, dropped_size;
	size_t left_out;      /* threads left out (tracer_open()) */
	uint64_t *sorted_ids; /* ids ascending, for record_decode() */
	int *sorted_idx;
	struct record *recs; /* recs[off..nrecs): read, not yet delivered */
	size_t off, nrecs, recs_size, seq;
	uint64_t seen; /* the latest time stamp read by earlier drains */
	int wake_fd; /* a pidfd that ends the wait when its process ends, or -1 */
	unsigned char run[256]; /* take_record(): the latest sample of a run */
	struct rings rings;	/* the buffers the events write into */
};

static uint64_t sample_type_of(const struct source *src)
{
	uint64_t t =
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

	return t | (src->kind == SOURCE_KPROBE_PMU ? PERF_SAMPLE_REGS_INTR
						   : PERF_SAMPLE_RAW);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = reallocarray(*p, n, elem);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/*
 * Counting in the kernel: the checks never pass through the buffers,
 * which only carry names, forks, exits and mappings, from an event that
 * never samples. Their times are CLOCK_MONOTONIC, the programs' clock,
 * so the counted runs fall in order among them. capaudit's own sentinel
 * maps an anonymous page at the end instead of making a check: that is
 * the record which carries a loss (open_sentinels()).
 */
static void side_band_only(struct perf_event_attr *a, int sentinel)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->config1 = 0;
	a->sample_type =
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a->sample_regs_intr = 0;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	if (sentinel)
		a->mmap = a->mmap2 = a->mmap_data = 1;
}

/*
 * first: this event also reports names, forks and exits. tid 0 opens
 * capaudit's own sentinel: disabled, not inherited, no side-band.
 */
static int open_event(const struct tracer *t, int spec, pid_t tid, int cpu,
		      int first)
{
	const struct event_spec *ev = &t->src->ev[spec];
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config;
	a.config1 = ev->config1;
	a.sample_period = 1;
	a.sample_type = sample_type_of(t->src);
	a.sample_regs_intr = ev->regs;
	a.inherit = 1;
	a.sample_id_all = 1;
	/*
	 * Names, forks and exits once per thread and CPU: the first event of
	 * each pair is enough (the kernel delivers a side-band record to
	 * every event that asks for it).
	 */
	a.comm = a.task = first;
	a.comm_exec = first;
	/*
	 * Executable mappings with the file's device and inode: the first
	 * after an exec names the file the process runs.
	 */
	a.mmap = a.mmap2 = first;
	if (tid == 0) {
		a.inherit = 0;
		a.disabled = 1;
	}
	if (t->src->counting.usable)
		side_band_only(&a, tid == 0);
	/* Only the event that maps a buffer sets its watermark. */
	a.watermark = 1;
	a.wakeup_watermark = rings_watermark(&t->rings);
	return (int)syscall(SYS_perf_event_open, &a, tid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/*
 * Keeps fd with its id and the watch set's thread it watches (-1:
 * capaudit itself); the ring of its CPU takes its output.
 */
static int add_fd(struct tracer *t, int fd, int spec, long thread)
{
	uint64_t id = 0;

	if (grow((void **)&t->fds, &t->fds_size, t->nfds + 1, sizeof(int)) < 0)
		return -1;
	/* ids, idx and thread grow with fds: same capacity. */
	{
		uint64_t *ids = reallocarray(t->ids, t->fds_size, sizeof(*ids));
		long *th;
		int *idx;

		if (ids == NULL)
			return -1;
		t->ids = ids;
		idx = reallocarray(t->idx, t->fds_size, sizeof(*idx));
		if (idx == NULL)
			return -1;
		t->idx = idx;
		th = reallocarray(t->thread, t->fds_size, sizeof(*th));
		if (th == NULL)
			return -1;
		t->thread = th;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -1;
	t->fds[t->nfds] = fd;
	t->ids[t->nfds] = id;
	t->idx[t->nfds] = spec;
	t->thread[t->nfds] = thread;
	t->nfds++;
	return 0;
}

/*
 * The kernel says it lost records (PERF_RECORD_LOST) only in the next
 * record it manages to write into that buffer. After the command's last
 * check there may be no next record: a loss at the end would go unsaid.
 * So each CPU's buffer also takes the same event on capaudit itself,
 * disabled until tracer_finish() makes one check on every CPU; and
 * tracer_calibrate() uses it for the check that tells capaudit which
 * user namespace pointer is its own.
 */
static int open_sentinels(struct tracer *t, int ncpu)
{
	size_t r;
	int cpu;

	t->sentinels = calloc((size_t)ncpu, sizeof(*t->sentinels));
	if (t->sentinels == NULL)
		return -1;
	for (cpu = 0; cpu < ncpu; cpu++) {
		int fd = open_event(t, 0, 0, cpu, 0);

		if (fd < 0 && errno == ENODEV)
			continue;
		if (fd < 0)
			return -1;
		/* The ring of that CPU is the one that takes it. */
		for (r = 0; r < t->rings.n; r++)
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
				  t->rings.ring[r].fd) == 0)
				break;
		if (r == t->rings.n) {
			close(fd);
			continue; /* no buffer on that CPU: nothing to lose */
		}
		/* Its id is known, so its samples (the calibration) are read. */
		if (add_fd(t, fd, 0, -1) < 0) {
			close(fd);
			return -1;
		}
		t->sentinels[t->nsentinels].fd = fd;
		t->sentinels[t->nsentinels].cpu = cpu;
		t->nsentinels++;
	}
	return 0;
}

/*
 * Runs what() on each CPU with capaudit's sentinel there enabled, so the
 * checks it makes land in that CPU's buffer.
 */
static void on_each_sentinel(struct tracer *t, void (*what)(void))
{
	cpu_set_t old, one;
	size_t i;

	if (sched_getaffinity(0, sizeof(old), &old) < 0)
		return;
	for (i = 0; i < t->nsentinels; i++) {
		CPU_ZERO(&one);
		CPU_SET(t->sentinels[i].cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0)
			continue;
		ioctl(t->sentinels[i].fd, PERF_EVENT_IOC_ENABLE, 0);
		what();
		ioctl(t->sentinels[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * A private writable mapping is accounted, and accounting always asks
 * cap_capable() about cap_sys_admin (the overcommit reserve): one check,
 * and so one record.
 */
static void one_check(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		munmap(p, (size_t)page);
}

/*
 * setuid(2) asks ns_capable_setid(current_user_ns(), CAP_SETUID) first,
 * whatever the answer; with the real uid it sets the effective and saved
 * ones to it, which they already are (main() refuses to run set-id).
 * The raw system call: only this thread, no libc broadcast.
 */
void setuid_check(void)
{
	syscall(SYS_setuid, getuid());
}

void tracer_wake_on(struct tracer *t, pid_t pid)
{
	if (t->wake_fd >= 0)
		close(t->wake_fd);
	/* pidfd_open(2), Linux 5.3; without it the wait ends at its timeout. */
	t->wake_fd = (int)syscall(SYS_pidfd_open, pid, 0);
}

void tracer_calibrate(struct tracer *t)
{
	size_t i;

	if (t->counter != NULL) {
		char why[COUNTER_WHY_MAX];

		if (counter_calibrate(t->counter, setuid_check, why,
				      sizeof(why)) < 0)
			warnx("eBPF: the calibration check was not counted as expected (%s): no check can be judged the command's own",
			      why);
		return;
	}
	/*
	 * One check is enough, on whatever CPU this thread runs: every
	 * sentinel is enabled at once rather than the thread moved to each
	 * CPU in turn (a move waits for a busy CPU to take it).
	 */
	for (i = 0; i < t->nsentinels; i++)
		ioctl(t->sentinels[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	setuid_check();
	for (i = 0; i < t->nsentinels; i++)
		ioctl(t->sentinels[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* The ids ascending with their specs, so a sample finds its event in log n. */
static int sort_ids(struct tracer *t)
{
	size_t i, j;

	t->sorted_ids = calloc(t->nfds ? t->nfds : 1, sizeof(*t->sorted_ids));
	t->sorted_idx = calloc(t->nfds ? t->nfds : 1, sizeof(*t->sorted_idx));
	if (t->sorted_ids == NULL || t->sorted_idx == NULL)
		return -1;
	/* Insertion sort: the kernel hands out ids in increasing order. */
	for (i = 0; i < t->nfds; i++) {
		for (j = i; j > 0 && t->sorted_ids[j - 1] > t->ids[i]; j--) {
			t->sorted_ids[j] = t->sorted_ids[j - 1];
			t->sorted_idx[j] = t->sorted_idx[j - 1];
		}
		t->sorted_ids[j] = t->ids[i];
		t->sorted_idx[j] = t->idx[i];
	}
	return 0;
}

static struct tracer *tracer_new(const struct source *src, size_t ring_pages)
{
	struct tracer *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->src = src;
	t->wake_fd = -1;
	rings_init(&t->rings, (size_t)sysconf(_SC_PAGESIZE), ring_pages);
	return t;
}

/* What the steps of tracer_open() return besides 0 and -1 (said why). */
#define SMALLER_RINGS 1

/*
 * The first event on a CPU maps that CPU's buffer. A buffer the
 * locked-memory limit refuses asks for smaller ones on every CPU: the
 * limit is the user's, so a first CPU that kept shrinking alone would
 * leave nothing for the others.
 */
static int map_first(struct tracer *t, int fd)
{
	if (rings_map(&t->rings, fd) == 0)
		return 0;
	if ((errno == EPERM || errno == ENOMEM) && rings_can_shrink(&t->rings))
		return SMALLER_RINGS;
	warn("mmap of the perf ring buffer");
	return -1;
}

/*
 * Writes fd's records where the others of its CPU go. One buffer for
 * everything would do; the kernel refuses a buffer of another CPU
 * (EINVAL), so each CPU gets its own, merged by time when read.
 */
static int share_ring(struct tracer *t, int fd, int *cpu_ring)
{
	int rc;

	if (t->rings.n > 0 &&
	    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, t->rings.ring[0].fd) == 0)
		return 0;
	if (*cpu_ring >= 0 &&
	    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *cpu_ring) == 0)
		return 0;
	rc = map_first(t, fd);
	if (rc == 0)
		*cpu_ring = fd;
	return rc;
}

/*
 * Where each thread of the watch set stands: its events to open, or
 * ended before anything was opened on its id (nothing to watch, nothing
 * to say), or left out (tracer_open()).
 */
enum thread_state {
	THREAD_OPEN,
	THREAD_ENDED,
	THREAD_LEFT_OUT,
};

/* Whether the watch set still vouches for thread i's id. */
static int still_held(const struct watch_set *ws, size_t i)
{
	return ws->held == NULL || ws->held(ws, i);
}

/*
 * Every spec's event for each thread on one CPU. 0, SMALLER_RINGS, or
 * -1 after a message; *opened counts the events kept.
 */
static int open_on_cpu(struct tracer *t, const struct watch_set *ws,
		       const unsigned char *state, int cpu, int *opened)
{
	int cpu_ring = -1, spec, rc;
	size_t i;

	for (i = 0; i < ws->n; i++) {
		if (state[i] != THREAD_OPEN)
			continue;
		for (spec = 0; spec < t->src->nevents; spec++) {
			int fd =
				open_event(t, spec, ws->tid[i], cpu, spec == 0);

			if (fd < 0 && errno == ENODEV)
				return 0; /* this CPU is offline */
			/* That thread ended: tracer_open() sees its id go. */
			if (fd < 0 && errno == ESRCH && ws->held != NULL)
				break;
			if (fd < 0) {
				warn("perf_event_open (pid %ld, cpu %d)",
				     (long)ws->tid[i], cpu);
				return -1;
			}
			if ((rc = share_ring(t, fd, &cpu_ring)) != 0) {
				close(fd);
				return rc;
			}
			if (add_fd(t, fd, spec, (long)i) < 0) {
				warn("perf event");
				close(fd);
				return -1;
			}
			(*opened)++;
		}
	}
	return 0;
}

/* Every event of every thread on every CPU: 0, SMALLER_RINGS, or -1 after a message. */
static int open_all(struct tracer *t, const struct watch_set *ws,
		    const unsigned char *state, long ncpu)
{
	int cpu, opened = 0, rc;

	for (cpu = 0; cpu < ncpu; cpu++)
		if ((rc = open_on_cpu(t, ws, state, cpu, &opened)) != 0)
			return rc;
	if (opened == 0 && ws->held != NULL) {
		warnx("every thread listed ended while capaudit attached: nothing was watched");
		return -1;
	}
	if (opened == 0) {
		warnx("no CPU to open perf events on");
		return -1;
	}
	if (open_sentinels(t, (int)ncpu) < 0) {
		warn("perf_event_open (capaudit itself)");
		return -1;
	}
	if (sort_ids(t) < 0) {
		warn(NULL);
		return -1;
	}
	return 0;
}

/*
 * The programs loaded and attached, then the threads followed; NULL
 * after a message. A seed whose id the watch set no longer vouches for
 * right after is followed no more at once (and left out): it may have
 * been another process's.
 */
static struct counter *start_counting(const struct source *src,
				      const struct watch_set *ws,
				      unsigned char *state)
{
	char why[COUNTER_WHY_MAX];
	struct counter *c;
	size_t i;

	c = counter_open(&src->counting, why, sizeof(why));
	if (c == NULL) {
		warnx("eBPF: %s", why);
		return NULL;
	}
	for (i = 0; i < ws->n; i++) {
		if (state[i] != THREAD_OPEN)
			continue;
		if (counter_follow(c, ws->tid[i]) < 0) {
			warn("eBPF: following thread %ld", (long)ws->tid[i]);
			counter_close(c);
			return NULL;
		}
		if (still_held(ws, i))
			continue;
		state[i] = THREAD_LEFT_OUT;
		if (counter_unfollow(c, ws->tid[i]) < 0) {
			warn("eBPF: unfollowing thread %ld", (long)ws->tid[i]);
			counter_close(c);
			return NULL;
		}
	}
	return c;
}

/* The seeds are watched from the start (release_watched()). */
static int watch_seeds(struct tracer *t, const struct watch_set *ws,
		       const unsigned char *state)
{
	size_t i;

	table_init(&t->watched, sizeof(pid_t), sizeof(int));
	for (i = 0; i < ws->n; i++) {
		int *w;

		if (state[i] != THREAD_OPEN)
			continue;
		w = table_get(&t->watched, &ws->tid[i], 1);
		if (w == NULL) {
			warn(NULL);
			return -1;
		}
		*w = 1;
	}
	return 0;
}

/*
 * Thread i's events are disabled (their children's with them) and what
 * they wrote is never read: their ids, which every record of theirs and
 * of what they were inherited into carries, are dropped. 0, or -1 after
 * a message.
 */
static int drop_thread_events(struct tracer *t, size_t i, pid_t tid)
{
	size_t j;

	for (j = 0; j < t->nfds; j++) {
		if (t->thread[j] != (long)i)
			continue;
		if (ioctl(t->fds[j], PERF_EVENT_IOC_DISABLE, 0) < 0) {
			warn("perf event of thread %ld: disabling it",
			     (long)tid);
			return -1;
		}
		if (grow((void **)&t->dropped, &t->dropped_size,
			 t->ndropped + 1, sizeof(*t->dropped)) < 0) {
			warn(NULL);
			return -1;
		}
		t->dropped[t->ndropped++] = t->ids[j];
	}
	return 0;
}

/*
 * Once everything is open, each thread's id is asked about again: one
 * the watch set no longer vouches for may have ended before its events
 * (or its follow entry) were opened, and its id gone to another process
 * meanwhile, whose checks would then be reported as the command's. Its
 * events, its follow entry and everything they saw are left out: the
 * thread's own checks since the attach are lost with them, and the
 * report says so. 0, or -1 after a message.
 */
static int leave_out_replaced(struct tracer *t, const struct watch_set *ws,
			      unsigned char *state, struct counter *counter)
{
	size_t i;

	for (i = 0; i < ws->n; i++) {
		if (state[i] == THREAD_OPEN && !still_held(ws, i)) {
			state[i] = THREAD_LEFT_OUT;
			if (counter != NULL &&
			    counter_unfollow(counter, ws->tid[i]) < 0) {
				warn("eBPF: unfollowing thread %ld",
				     (long)ws->tid[i]);
				return -1;
			}
			if (drop_thread_events(t, i, ws->tid[i]) < 0)
				return -1;
		}
		if (state[i] != THREAD_LEFT_OUT)
			continue;
		t->left_out++;
		warnx("thread %ld ended while capaudit attached, and its id may have gone to another process since: nothing of it is counted",
		      (long)ws->tid[i]);
	}
	return 0;
}

/* 1 when the record at rec (size bytes) comes from an event left out. */
static int from_dropped(const struct tracer *t, const unsigned char *rec,
			size_t size)
{
	struct perf_event_header h;
	uint64_t id;
	size_t i;

	memcpy(&h, rec, sizeof(h));
	/* A loss is the buffer's, whoever's records it lost. */
	if (h.type == PERF_RECORD_LOST || size < sizeof(h) + 8)
		return 0;
	/*
	 * PERF_SAMPLE_IDENTIFIER: first in a sample, last in the sample_id
	 * that every other record carries (sample_id_all).
	 */
	if (h.type == PERF_RECORD_SAMPLE)
		memcpy(&id, rec + sizeof(h), 8);
	else
		memcpy(&id, rec + size - 8, 8);
	for (i = 0; i < t->ndropped; i++)
		if (t->dropped[i] == id)
			return 1;
	return 0;
}

/*
 * CAPAUDIT_ATTACH_WAIT names a FIFO that --pid reads to its end twice:
 * after the threads are listed and before anything is opened on their
 * ids, and again once everything is open, before each id is asked about
 * again. For tests, which end a thread and give its id to another
 * process at the first, and let that process's checks reach the buffers
 * at the second. Ignored with privileges capaudit was not started with
 * (caller_getenv()).
 */
static void attach_test_wait(void)
{
	const char *path = caller_getenv("CAPAUDIT_ATTACH_WAIT");
	char buf[64];
	ssize_t n;
	int fd;

	if (path == NULL || *path == '\0')
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn("CAPAUDIT_ATTACH_WAIT: %s", path);
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR && !launch_stop))
		;
	close(fd);
}

/* The threads still there before anything is opened: 0, or -1 for none. */
static int mark_ended(const struct watch_set *ws, unsigned char *state)
{
	size_t i, open = 0;

	for (i = 0; i < ws->n; i++) {
		state[i] = still_held(ws, i) ? THREAD_OPEN : THREAD_ENDED;
		open += state[i] == THREAD_OPEN;
	}
	return open > 0 ? 0 : -1;
}

struct tracer *tracer_open(const struct source *src, const struct watch_set *ws)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t pages = ring_pages_for(ncpu > 0 ? (size_t)ncpu : 1,
				      (size_t)sysconf(_SC_PAGESIZE),
				      src->counting.usable);
	struct counter *counter = NULL;
	struct tracer *t = NULL;
	unsigned char *state;
	int rc;

	state = calloc(ws->n ? ws->n : 1, sizeof(*state));
	if (state == NULL) {
		warn(NULL);
		return NULL;
	}
	if (mark_ended(ws, state) < 0) {
		warnx("every thread listed ended before capaudit could watch it");
		free(state);
		return NULL;
	}
	if (ws->held != NULL)
		attach_test_wait();
	/*
	 * Followed in the kernel before perf's events are opened: what a
	 * running process (--pid) starts meanwhile is then followed by the
	 * programs as well as watched by perf, and what perf did not watch
	 * is dropped at the end (release_watched()). The other way round,
	 * what it started between its events and its follow entries was
	 * watched by perf and never counted.
	 */
	if (src->counting.usable &&
	    (counter = start_counting(src, ws, state)) == NULL) {
		free(state);
		return NULL;
	}
	/* Everything again with buffers half the size, until they fit. */
	for (rc = SMALLER_RINGS; rc == SMALLER_RINGS; pages /= 2) {
		tracer_close(t);
		t = tracer_new(src, pages);
		if (t == NULL) {
			warn(NULL);
			break;
		}
		rc = open_all(t, ws, state, ncpu);
	}
	if (rc == 0 && ws->held != NULL)
		attach_test_wait();
	if (rc == 0)
		rc = leave_out_replaced(t, ws, state, counter);
	if (rc == 0 && counter != NULL) {
		t->counter = counter;
		counter = NULL;
		rc = watch_seeds(t, ws, state);
	}
	counter_close(counter);
	free(state);
	if (rc != 0) {
		tracer_close(t);
		return NULL;
	}
	return t;
}

size_t tracer_left_out(const struct tracer *t)
{
	return t->left_out;
}

static int push_record(struct tracer *t, const struct record *r)
{
	/* Delivered ones make room before the array grows. */
	if (t->nrecs == t->recs_size && t->off > 0) {
		memmove(t->recs, t->recs + t->off,
			(t->nrecs - t->off) * sizeof(*r));
		t->nrecs -= t->off;
		t->off = 0;
	}
	if (grow((void **)&t->recs, &t->recs_size, t->nrecs + 1, sizeof(*r)) <
	    0)
		return -1;
	t->recs[t->nrecs] = *r;
	t->recs[t->nrecs].seq = t->seq++;
	t->nrecs++;
	return 0;
}

/*
 * What read_ring() knows of the last record it kept: a sample may join
 * it only when it came from this ring in this read (mine). The bytes of
 * a run's latest sample are kept (len of them): the same bytes again but
 * for the time are the same check, known without decoding it.
 */
struct run_state {
	int mine;
	size_t len;
};

/* One record: added to the run before it, left out, or kept. -1: ENOMEM. */
static int take_record(struct tracer *t, const unsigned char *rec, size_t size,
		       uint64_t horizon, struct run_state *run)
{
	struct record r;
	uint64_t time;

	if (t->ndropped > 0 && from_dropped(t, rec, size)) {
		run->mine = 0; /* nothing joins a run across it */
		run->len = 0;
		return 0;
	}
	if (run->len == size && sample_again(t->run, rec, size, &time) &&
	    record_extend_run(&t->recs[t->nrecs - 1], time, horizon))
		return 0;
	if (record_decode(rec, size, t->src, t->sorted_ids, t->sorted_idx,
			  t->nfds, &r) < 0 ||
	    r.kind == REC_OTHER) {
		record_release(&r);
		return 0;
	}
	if (!(run->mine &&
	      record_merge_repeat(&t->recs[t->nrecs - 1], &r, horizon))) {
		if (push_record(t, &r) < 0) {
			record_release(&r);
			run->mine = 0;
			run->len = 0;
			return -1;
		}
		run->mine = 1;
	}
	run->len = record_whole_check(&r) && size <= sizeof(t->run) ? size : 0;
	if (run->len)
		memcpy(t->run, rec, run->len);
	return 0;
}

/* A read of one ring: the tracer, the drain's horizon, the run so far. */
struct ring_read {
	struct tracer *t;
	uint64_t horizon;
	struct run_state run;
};

static int take_read(const unsigned char *rec, size_t size, void *arg)
{
	struct ring_read *rd = arg;

	return take_record(rd->t, rec, size, rd->horizon, &rd->run);
}

/* Reads every complete record of ring i; the kernel may write on. */
static int read_ring(struct tracer *t, size_t i, uint64_t horizon)
{
	struct ring_read rd = { t, horizon, { 0, 0 } };

	return rings_read(&t->rings, i, take_read, &rd);
}

int tracer_drain(struct tracer *t, int timeout_ms,
		 void (*fn)(const struct record *, void *), void *arg)
{
	uint64_t horizon = t->seen;
	size_t i, before;
	int rc = 0;

	/*
	 * Counting in the kernel, the buffers carry the side band alone, and
	 * nothing in them is delivered before the end. Watched, they would
	 * wake capaudit at every exit of a thread the command made: perf
	 * wakes whoever polls the buffer of an inherited event's parent
	 * whenever one of its copies goes (so that poll() can say POLLHUP),
	 * and the exiting thread pays for that wake-up (capaudit woke 1,015
	 * times for the 977 threads of bench/capaudit_loop --mixed; a thread
	 * made and joined cost 3.6 us less of the 11 it cost above the
	 * floor without them). So they are read every few milliseconds
	 * instead, unless records came fast enough to fill a quarter of one
	 * since the last read (rings_busy()): then they are watched as the
	 * samples' are.
	 */
	if (timeout_ms > 0 && t->counter != NULL && !rings_busy(&t->rings)) {
		if (rings_wait_unwatched(&t->rings, t->wake_fd, timeout_ms) < 0)
			return -1;
	} else if (timeout_ms > 0 &&
		   rings_wait(&t->rings, t->wake_fd, timeout_ms) < 0) {
		return -1;
	}
	if (t->off == t->nrecs)
		t->off = t->nrecs = 0; /* all delivered: start afresh */
	before = t->nrecs;
	for (i = 0; i < t->rings.n; i++)
		if (read_ring(t, i, horizon) < 0)
			rc = -1;
	for (i = before; i < t->nrecs; i++) {
		const struct sample *s = &t->recs[i].s;
		uint64_t latest = s->more ? s->last : s->time;

		if (latest > t->seen)
			t->seen = latest;
	}
	/*
	 * Each CPU writes its own buffer, read one after the other: a record
	 * missed by this drain was written after an earlier drain had read
	 * its buffer, so it is later than everything that drain saw (the
	 * kernel stamps a record as it writes it, preemption off). So what
	 * is no later than the earlier drains' latest goes now, in time
	 * order, and the rest waits: a child's first check never comes
	 * before the fork that made it, whatever CPU it ran on.
	 */
	/*
	 * Counting in the kernel, the checks come at the end, each run at
	 * its first check's time: nothing goes before them.
	 */
	if (t->counter != NULL)
		return rc;
	t->off += records_release(t->recs + t->off, t->nrecs - t->off, horizon,
				  fn, arg);
	return rc;
}

static int push_counted(const struct record *r, void *tracer)
{
	return push_record(tracer, r);
}

/* The kernel's counts join the records, with what it could not count. */
static void collect_counted(struct tracer *t)
{
	struct counter_losses lost;
	struct record r;

	if (counter_collect(t->counter, push_counted, t, &lost) < 0)
		warnx("out of memory: some checks were not counted");
	memset(&r, 0, sizeof(r));
	r.kind = REC_LOST;
	r.lost = lost.checks;
	r.unfollowed = lost.threads;
	r.signals = lost.signals;
	if ((r.lost || r.unfollowed || r.signals) && push_record(t, &r) < 0)
		warnx("out of memory: %llu lost checks not reported",
		      (unsigned long long)r.lost);
}

/*
 * The kernel's programs see more than perf shows: perf stops watching a
 * thread at a set-user-ID or file-capability exec (an EXIT record while
 * it runs on) and never watches what it starts later, where the
 * programs go on counting. A counted run is kept only while perf would
 * have watched its thread (a seed, or since its FORK or exec COMM, until
 * its EXIT), so both ways of counting report the same checks, and
 * neither shows an unprivileged watcher more than perf allows.
 */
struct watch_filter {
	struct table *watched;
	void (*fn)(const struct record *, void *);
	void *arg;
};

static void set_watched(struct table *watched, pid_t tid, int on)
{
	int *w = table_get(watched, &tid, 1);

	if (w != NULL)
		*w = on;
}

static void release_watched(const struct record *r, void *arg)
{
	struct watch_filter *f = arg;
	int *w;

	switch (r->kind) {
	case REC_FORK:
		set_watched(f->watched, r->tid, 1);
		break;
	case REC_COMM:
		if (r->exec)
			set_watched(f->watched, r->tid, 1);
		break;
	case REC_EXIT:
		set_watched(f->watched, r->tid, 0);
		break;
	case REC_SAMPLE:
		if (!r->s.counted || r->s.pid == getpid())
			break;
		w = table_get(f->watched, &r->s.tid, 0);
		if (w == NULL || !*w)
			return;
		break;
	default:
		break;
	}
	f->fn(r, f->arg);
}

void tracer_finish(struct tracer *t, void (*fn)(const struct record *, void *),
		   void *arg)
{
	struct watch_filter filter = { &t->watched, fn, arg };
	size_t i;

	/* A loss at the very end is said in one more record (open_sentinels()). */
	on_each_sentinel(t, one_check);
	for (i = 0; i < t->rings.n; i++)
		read_ring(t, i, UINT64_MAX);
	if (t->counter != NULL) {
		collect_counted(t);
		fn = release_watched;
		arg = &filter;
	}
	records_release(t->recs + t->off, t->nrecs - t->off, UINT64_MAX, fn,
			arg);
	t->off = t->nrecs = 0;
}

void tracer_close(struct tracer *t)
{
	size_t i;

	if (t == NULL)
		return;
	if (t->counter != NULL)
		table_free(&t->watched);
	counter_close(t->counter);
	rings_free(&t->rings);
	free(t->sentinels); /* their fds are in fds */
	if (t->wake_fd >= 0)
		close(t->wake_fd);
	for (i = 0; i < t->nfds; i++)
		close(t->fds[i]);
	free(t->fds);
	free(t->ids);
	free(t->idx);
	free(t->thread);
	free(t->dropped);
	free(t->sorted_ids);
	free(t->sorted_idx);
	for (i = t->off; i < t->nrecs; i++)
		record_release(&t->recs[i]);
	free(t->recs);
	free(t);
}
