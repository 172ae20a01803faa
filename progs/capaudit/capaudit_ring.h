/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: the perf ring buffers its events write into, mapped, waited
 * on and read back record by record.
 */
#ifndef CAPAUDIT_RING_H
#define CAPAUDIT_RING_H

#include <stddef.h>
#include <stdint.h>

struct perf_event_mmap_page;

/* One mapped buffer: the event that maps it, and what others it takes. */
struct ring {
	int fd;
	int hup; /* the event's task is gone: not polled again */
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t size; /* of data, a power of two */
	size_t map_len;
	uint64_t found; /* bytes written and unread when last read */
};

/* Every buffer of one tracer, each of the same size. */
struct rings {
	struct ring *ring;
	size_t n, ring_size;
	size_t page, pages; /* data pages of each new buffer, a power of two */
	unsigned char tmp[65536]; /* a record that wraps the buffer */
};

/*
 * The data pages of the first buffers tried (rings_init()) on ncpu CPUs:
 * enough to keep a tight loop's checks while capaudit has no CPU, within
 * a budget shared by all; side_band: less, for buffers that carry no
 * check (counted in the kernel), only names, forks, exits and mappings.
 */
size_t ring_pages_for(size_t ncpu, size_t page, int side_band);
/* No buffer yet; each will have pages data pages of page bytes. */
void rings_init(struct rings *rs, size_t page, size_t pages);
/*
 * 1 when buffers of half the size may still be tried after one the
 * locked-memory limit refused.
 */
int rings_can_shrink(const struct rings *rs);
/* The wakeup_watermark of the event that maps a buffer, in bytes. */
uint32_t rings_watermark(const struct rings *rs);
/*
 * Maps the buffer of the perf event fd as rs->ring[rs->n - 1]. 0, or -1
 * with errno (EPERM or ENOMEM: the locked-memory limit).
 */
int rings_map(struct rings *rs, int fd);
/*
 * Hands each complete record of buffer i to take, in the order the
 * kernel wrote them, whole (a record that wraps around the end is
 * copied into rs->tmp first), then lets the kernel write over them.
 * Reading stops at a header that cannot be one. -1 when take returned
 * -1 for some record (the others are still read), else 0.
 */
int rings_read(struct rings *rs, size_t i,
	       int (*take)(const unsigned char *rec, size_t size, void *arg),
	       void *arg);
/*
 * Waits up to timeout_ms for data in a buffer, or for wake_fd (unless -1)
 * to be readable. 0 (also when a signal ended the wait), or -1 with errno.
 */
int rings_wait(struct rings *rs, int wake_fd, int timeout_ms);
/*
 * 1 when the last read of some buffer found it more than a quarter full
 * (the wakeup_watermark): records come fast enough there that a wait
 * that does not watch the buffers could let one overflow.
 */
int rings_busy(const struct rings *rs);
/*
 * Waits up to timeout_ms, but at most a period short enough for the
 * buffers to take what any CPU writes meanwhile, for wake_fd (unless -1)
 * alone: the buffers are not watched, so that nothing but its end and
 * the period wakes the waiter. 0 (also when a signal ended the wait), or
 * -1 with errno.
 */
int rings_wait_unwatched(const struct rings *rs, int wake_fd, int timeout_ms);
/* Unmaps every buffer (their fds are the caller's to close). */
void rings_free(struct rings *rs);

#endif
