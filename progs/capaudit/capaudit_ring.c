/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The perf ring buffers capaudit's events write into (capaudit_perf.c
 * opens the events and decides which writes into which): their size,
 * the mapping, the wait for data, and the reading of whole records in
 * the order the kernel wrote them, which the kernel may go on writing
 * after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "capaudit_ring.h"

/*
 * Each CPU's buffer holds what the command checks while capaudit is not
 * reading it; a record the kernel finds no room for is lost. A check
 * takes 80 bytes and a tight loop makes about a million a second, so
 * 8 MiB keeps a tenth of a second of them: a busy machine may leave
 * capaudit that long without a CPU. The kernel wakes capaudit when a
 * quarter is full (wakeup_watermark): a wake-up for every few thousand
 * checks rather than for every few hundred. On many CPUs the buffers
 * share RING_BUDGET, but none starts below RING_FLOOR; where the
 * locked-memory limit refuses a buffer (perf_event_mlock_kb and
 * RLIMIT_MEMLOCK bind a user without CAP_IPC_LOCK), all are halved, down
 * to RING_MIN_PAGES: more records may then be lost, and are counted as
 * lost.
 *
 * When the checks are counted in the kernel, the buffers carry only
 * names, forks, exits and mappings: about a kilobyte for a process that
 * execs a program and its libraries, so RING_SIDE_BAND keeps some two
 * thousand such processes while capaudit is not reading. No more: the
 * kernel allocates and maps every page of a buffer when capaudit maps
 * it, some 2 to 4 ms for 8 MiB, which every audit waited for on every
 * CPU.
 */
#define RING_MAX       (8UL << 20)
#define RING_BUDGET    (64UL << 20)
#define RING_FLOOR     (1UL << 20)
#define RING_SIDE_BAND (2UL << 20)
#define RING_MIN_PAGES 8UL

void rings_init(struct rings *rs, size_t page, size_t pages)
{
	rs->ring = NULL;
	rs->n = rs->ring_size = 0;
	rs->page = page;
	rs->pages = pages;
}

int rings_can_shrink(const struct rings *rs)
{
	return rs->pages > RING_MIN_PAGES;
}

/* A quarter of a buffer (the sizes above). */
uint32_t rings_watermark(const struct rings *rs)
{
	return (uint32_t)(rs->pages * rs->page / 4);
}

/* The largest power of two no greater than n (n >= 1). */
static size_t floor_pow2(size_t n)
{
	size_t p = 1;

	while (p <= n / 2)
		p *= 2;
	return p;
}

/* The size of the first buffer tried, in data pages (RING_MAX above). */
size_t ring_pages_for(size_t ncpu, size_t page, int side_band)
{
	size_t bytes = RING_BUDGET / (ncpu ? ncpu : 1);

	if (bytes > RING_MAX)
		bytes = RING_MAX;
	if (bytes < RING_FLOOR)
		bytes = RING_FLOOR;
	if (side_band && bytes > RING_SIDE_BAND)
		bytes = RING_SIDE_BAND;
	if (bytes / page < RING_MIN_PAGES)
		return RING_MIN_PAGES;
	return floor_pow2(bytes / page);
}

int rings_map(struct rings *rs, int fd)
{
	size_t len = (rs->pages + 1) * rs->page;
	struct ring *r;
	void *base;

	if (rs->n == rs->ring_size) {
		size_t more = rs->ring_size ? 2 * rs->ring_size : 16;
		struct ring *grown = reallocarray(rs->ring, more, sizeof(*r));

		if (grown == NULL)
			return -1;
		rs->ring = grown;
		rs->ring_size = more;
	}
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -1;
	r = &rs->ring[rs->n++];
	r->fd = fd;
	r->hup = 0;
	r->meta = base;
	r->data = (unsigned char *)base + rs->page;
	r->size = rs->pages * rs->page;
	r->map_len = len;
	r->found = 0;
	return 0;
}

/*
 * The record at tail, whole: in place, or copied into tmp when it
 * wraps around the end of the buffer; its size in *size. NULL when its
 * header cannot be one (never loop on it).
 */
static const unsigned char *record_at(unsigned char *tmp,
				      const struct ring *ring, uint64_t tail,
				      uint64_t head, size_t *size)
{
	size_t off = (size_t)(tail & (ring->size - 1));
	struct perf_event_header h;
	size_t first = ring->size - off;

	if (sizeof(h) <= first) {
		memcpy(&h, ring->data + off, sizeof(h));
	} else {
		memcpy(&h, ring->data + off, first);
		memcpy((unsigned char *)&h + first, ring->data,
		       sizeof(h) - first);
	}
	if (h.size < sizeof(h) || h.size > head - tail)
		return NULL;
	*size = h.size;
	if (h.size <= first)
		return ring->data + off;
	memcpy(tmp, ring->data + off, first);
	memcpy(tmp + first, ring->data, h.size - first);
	return tmp;
}

int rings_read(struct rings *rs, size_t i,
	       int (*take)(const unsigned char *rec, size_t size, void *arg),
	       void *arg)
{
	struct ring *ring = &rs->ring[i];
	uint64_t head =
		__atomic_load_n(&ring->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ring->meta->data_tail;
	const unsigned char *rec;
	size_t size;
	int rc = 0;

	ring->found = head - tail;
	while (tail < head &&
	       (rec = record_at(rs->tmp, ring, tail, head, &size)) != NULL) {
		if (take(rec, size, arg) < 0)
			rc = -1;
		tail += size;
	}
	__atomic_store_n(&ring->meta->data_tail, tail, __ATOMIC_RELEASE);
	return rc;
}

/*
 * Waits for data on the buffers whose events still have a task. An
 * event whose thread has exited (a watched process's thread) says
 * POLLHUP for ever: polled again, it would make every poll return at
 * once and the watch spin on the CPU, so it is polled no more; its
 * buffer is still read, as other events write into it too.
 */
int rings_wait(struct rings *rs, int wake_fd, int timeout_ms)
{
	struct pollfd pfd[65];
	size_t which[65], i, n = 0;
	int rc;

	/*
	 * The watched process's end (a pidfd: tracer_wake_on()): its
	 * events say POLLHUP before it can be reaped, and with them no
	 * longer polled, only this fd tells.
	 */
	if (wake_fd >= 0) {
		pfd[n].fd = wake_fd;
		pfd[n].events = POLLIN;
		which[n++] = SIZE_MAX;
	}
	for (i = 0; i < rs->n && n < 65; i++) {
		if (rs->ring[i].hup)
			continue;
		pfd[n].fd = rs->ring[i].fd;
		pfd[n].events = POLLIN;
		which[n++] = i;
	}
	rc = poll(n ? pfd : NULL, (nfds_t)n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -1;
	for (i = 0; i < n; i++)
		if (which[i] != SIZE_MAX &&
		    (pfd[i].revents & (POLLHUP | POLLERR | POLLNVAL)))
			rs->ring[which[i]].hup = 1;
	return 0;
}

int rings_busy(const struct rings *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (rs->ring[i].found > rs->ring[i].size / 4)
			return 1;
	return 0;
}

/*
 * The longest wait without watching the buffers: a millisecond for every
 * RING_UNWATCHED_RATE bytes of the smallest (1 ms at least: 8 ms for
 * RING_SIDE_BAND). A CPU would have to write records at 256 MB/s, one of
 * the smallest (56 bytes) every 220 ns, to fill its buffer before it is
 * read, where each record also costs a system call (a rename, a mapping)
 * or a task made or gone; and one that writes a quarter of a buffer
 * between two reads has the buffers watched again (rings_busy()).
 */
#define RING_UNWATCHED_RATE (256UL << 10)

int rings_wait_unwatched(const struct rings *rs, int wake_fd, int timeout_ms)
{
	struct pollfd pfd = { wake_fd, POLLIN, 0 };
	size_t i, period = (size_t)timeout_ms;

	for (i = 0; i < rs->n; i++)
		if (rs->ring[i].size / RING_UNWATCHED_RATE < period)
			period = rs->ring[i].size / RING_UNWATCHED_RATE;
	if (period < 1)
		period = 1;
	if (poll(wake_fd >= 0 ? &pfd : NULL, wake_fd >= 0, (int)period) < 0)
		return errno == EINTR ? 0 : -1;
	return 0;
}

void rings_free(struct rings *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		munmap(rs->ring[i].meta, rs->ring[i].map_len);
	free(rs->ring);
	rs->ring = NULL;
	rs->n = rs->ring_size = 0;
}
