/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_iouring FILE N: opens FILE N times through io_uring, each
 * open forced to the ring's worker threads (IOSQE_ASYNC), so its
 * permission check is made by a kernel-created worker thread of this
 * process (create_io_thread()), not by this thread. Prints how many
 * opens succeeded; exit 0 when all did.
 *
 * Raw system calls: no liburing needed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct ring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_open(struct ring *r)
{
	struct io_uring_params p;
	unsigned char *sq, *cq;
	size_t sqlen, cqlen;

	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return -1;
	sqlen = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cqlen = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sqlen, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, cqlen, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		  IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		       IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* One openat in a worker thread: its result (a descriptor or -errno). */
static int open_async(struct ring *r, const char *path)
{
	unsigned tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	struct io_uring_sqe *sqe = &r->sqes[idx];
	int res;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->open_flags = O_RDONLY | O_CLOEXEC;
	sqe->flags = IOSQE_ASYNC;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0)
		return -1;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -1;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

int main(int argc, char **argv)
{
	struct ring r;
	int i, n, ok = 0;

	if (argc != 3 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: capaudit_iouring FILE N\n");
		return 2;
	}
	if (ring_open(&r) < 0) {
		perror("io_uring_setup");
		return 2;
	}
	for (i = 0; i < n; i++) {
		int fd = open_async(&r, argv[1]);

		if (fd >= 0) {
			close(fd);
			ok++;
		}
	}
	printf("%d\n", ok);
	return ok == n ? 0 : 1;
}
