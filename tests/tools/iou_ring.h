/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A raw io_uring ring for the libpsx tools (psxiouring, psxnoproc): set
 * up with io_uring_setup(2), requests queued and submitted, results
 * collected by the user_data each was given (0 to IOU_REQUESTS - 1).
 * No liburing: the tests need nothing the host may lack.
 */
#ifndef IOU_RING_H
#define IOU_RING_H

#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IOU_REQUESTS 16
#define IOU_NONE     (-1000000L) /* no result yet */

struct iou_ring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *sq_flags;
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	int sqpoll;
	long results[IOU_REQUESTS];
};

/* 0, or -1 with errno. An SQPOLL thread stays 10 s without work. */
static inline int iou_setup(struct iou_ring *r, unsigned flags)
{
	struct io_uring_params p;
	unsigned char *sq, *cq;
	int i;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.sq_thread_idle = 10000;
	r->fd = (int)syscall(SYS_io_uring_setup, 8, &p);
	if (r->fd < 0)
		return -1;
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(*r->cqes),
		  PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		  IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p.sq_entries * sizeof(*r->sqes),
		       PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		       IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->sq_flags = (unsigned *)(sq + p.sq_off.flags);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	r->sqpoll = (flags & IORING_SETUP_SQPOLL) != 0;
	for (i = 0; i < IOU_REQUESTS; i++)
		r->results[i] = IOU_NONE;
	return 0;
}

/* Queues one request named ud; iou_submit() hands it to the kernel. */
static inline struct io_uring_sqe *iou_push(struct iou_ring *r, int ud,
					    int opcode, unsigned char flags)
{
	unsigned tail = *r->sq_tail, idx = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = (unsigned char)opcode;
	sqe->flags = flags;
	sqe->user_data = (unsigned long long)ud;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	return sqe;
}

/* An open of path for reading; the request, for more fields to set. */
static inline struct io_uring_sqe *
iou_push_open(struct iou_ring *r, int ud, const char *path, unsigned char flags)
{
	struct io_uring_sqe *sqe = iou_push(r, ud, IORING_OP_OPENAT, flags);

	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->open_flags = O_RDONLY | O_CLOEXEC;
	return sqe;
}

/* A one-byte read into buf. */
static inline void iou_push_read(struct iou_ring *r, int ud, int fd, char *buf,
				 unsigned char flags)
{
	struct io_uring_sqe *sqe = iou_push(r, ud, IORING_OP_READ, flags);

	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = 1;
}

/*
 * Hands the n requests queued to the kernel: io_uring_enter(2), or for
 * an SQPOLL ring, a wake-up of its thread if it sleeps. 0 or -1 (errno).
 */
static inline int iou_submit(struct iou_ring *r, unsigned n)
{
	if (r->sqpoll) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if ((__atomic_load_n(r->sq_flags, __ATOMIC_ACQUIRE) &
		     IORING_SQ_NEED_WAKEUP) &&
		    syscall(SYS_io_uring_enter, r->fd, 0, 0,
			    IORING_ENTER_SQ_WAKEUP, NULL, 0) < 0)
			return -1;
		return 0;
	}
	if (syscall(SYS_io_uring_enter, r->fd, n, 0, 0, NULL, 0) != (long)n)
		return -1;
	return 0;
}

/* Waits for request ud: *res is its result (-errno on failure). */
static inline int iou_wait(struct iou_ring *r, int ud, long *res)
{
	while (r->results[ud] == IOU_NONE) {
		unsigned head = *r->cq_head;

		while (head != __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
			const struct io_uring_cqe *cqe =
				&r->cqes[head & *r->cq_mask];

			if (cqe->user_data < IOU_REQUESTS)
				r->results[cqe->user_data] = cqe->res;
			head++;
		}
		__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
		if (r->results[ud] != IOU_NONE)
			break;
		if (syscall(SYS_io_uring_enter, r->fd, 0, 1,
			    IORING_ENTER_GETEVENTS, NULL, 0) < 0 &&
		    errno != EINTR)
			return -1;
	}
	*res = r->results[ud];
	return 0;
}

#endif
