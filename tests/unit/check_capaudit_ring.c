/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's perf ring buffers (progs/capaudit/capaudit_ring.c), on a
 * buffer laid out in memory as the kernel lays out a mapped one: records
 * handed over whole and in order, also where one (or its header) wraps
 * around the end; reading stops at a header that cannot be one and at a
 * record the kernel is still writing; what is read is given back to the
 * kernel. Then the buffers' sizes, the wait that stops polling a
 * buffer whose task is gone, and the wait that does not watch the
 * buffers (counting in the kernel) unless the last read found one a
 * quarter full.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "capaudit_ring.h"
#include "check_run.h"

#define DATA 4096 /* the data pages of the fake buffer, in bytes */

/* One fake buffer in rs: its metadata page, then DATA bytes of data. */
static void fake_ring(struct rings *rs, uint64_t tail)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *base;
	struct ring *r;

	ck_assert_int_ge(page, (long)sizeof(struct perf_event_mmap_page));
	base = mmap(NULL, (size_t)page + DATA, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(base, MAP_FAILED);
	rings_init(rs, (size_t)page, 1);
	rs->ring = calloc(1, sizeof(*rs->ring));
	ck_assert_ptr_nonnull(rs->ring);
	rs->n = rs->ring_size = 1;
	r = &rs->ring[0];
	r->fd = -1;
	r->meta = (struct perf_event_mmap_page *)base;
	r->data = base + page;
	r->size = DATA;
	r->map_len = (size_t)page + DATA;
	r->meta->data_tail = r->meta->data_head = tail;
}

/*
 * Writes a record of size bytes (its header, then bytes of fill) at the
 * head; a size shorter than a header still takes a whole header.
 */
static void put_record(struct rings *rs, uint32_t type, uint16_t size,
		       unsigned char fill)
{
	struct ring *r = &rs->ring[0];
	unsigned char rec[512];
	struct perf_event_header h = { type, 0, size };
	uint64_t head = r->meta->data_head;
	size_t len = size < sizeof(h) ? sizeof(h) : size, i;

	ck_assert_uint_le(len, sizeof(rec));
	memset(rec, fill, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	for (i = 0; i < len; i++)
		r->data[(head + i) & (DATA - 1)] = rec[i];
	r->meta->data_head = head + len;
}

struct seen {
	int n;
	int fail_at; /* take fails for this record (0: none) */
	uint32_t type[8];
	size_t size[8];
	int whole[8]; /* every byte after the header is the fill */
};

static int take(const unsigned char *rec, size_t size, void *arg)
{
	struct seen *s = arg;
	struct perf_event_header h;
	size_t i;

	ck_assert_int_lt(s->n, 8);
	memcpy(&h, rec, sizeof(h));
	s->type[s->n] = h.type;
	s->size[s->n] = size;
	s->whole[s->n] = 1;
	for (i = sizeof(h); i < size; i++)
		if (rec[i] != (unsigned char)(0xa0 + h.type))
			s->whole[s->n] = 0;
	s->n++;
	return s->n == s->fail_at ? -1 : 0;
}

START_TEST(records_come_whole_and_in_order_across_the_end)
{
	struct rings rs;
	struct seen s = { 0 };
	uint64_t start =
		7 * (uint64_t)DATA - 24; /* a buffer read 6 times over */
	int i;

	fake_ring(&rs, start);
	put_record(&rs, 1, 16, 0xa1); /* ends 8 bytes before the end */
	put_record(&rs, 2, 40,
		   0xa2); /* its header fills those 8, its data wraps */
	put_record(&rs, 3, 20, 0xa3);
	put_record(&rs, 4, 28, 0xa4);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(s.n, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(s.type[i], (uint32_t)i + 1);
		ck_assert_int_eq(s.whole[i], 1);
	}
	ck_assert_uint_eq(s.size[1], 40);
	/* Everything read is the kernel's to write over again. */
	ck_assert_uint_eq(rs.ring[0].meta->data_tail,
			  start + 16 + 40 + 20 + 28);
	rings_free(&rs);
}
END_TEST

START_TEST(a_header_cut_by_the_end_is_put_together)
{
	struct rings rs;
	struct seen s = { 0 };
	uint64_t start = (uint64_t)DATA - 20;

	fake_ring(&rs, start);
	put_record(&rs, 1, 16, 0xa1); /* leaves 4 bytes: half a header */
	put_record(&rs, 2, 48, 0xa2);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(s.type[1], 2);
	ck_assert_uint_eq(s.size[1], 48);
	ck_assert_int_eq(s.whole[1], 1);
	ck_assert_uint_eq(rs.ring[0].meta->data_tail, start + 64);
	rings_free(&rs);
}
END_TEST

/*
 * A header shorter than a header would be read for ever in place: the
 * reading stops there, and what follows is not handed over as records.
 */
START_TEST(a_header_that_cannot_be_one_stops_the_reading)
{
	struct rings rs;
	struct seen s = { 0 };

	fake_ring(&rs, 100);
	put_record(&rs, 1, 16, 0xa1);
	put_record(&rs, 2, 4, 0xa2);
	put_record(&rs, 3, 16, 0xa3);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(rs.ring[0].meta->data_tail, 116);
	/* Read again, it still stops there. */
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(s.n, 1);
	rings_free(&rs);
}
END_TEST

/* A record longer than what the kernel has published waits for the next read. */
START_TEST(a_record_still_being_written_waits)
{
	struct rings rs;
	struct seen s = { 0 };
	struct ring *r;

	fake_ring(&rs, 0);
	r = &rs.ring[0];
	put_record(&rs, 1, 16, 0xa1);
	put_record(&rs, 2, 64, 0xa2);
	r->meta->data_head -= 8; /* its last 8 bytes not yet published */
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(r->meta->data_tail, 16);
	r->meta->data_head += 8;
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(s.type[1], 2);
	ck_assert_uint_eq(r->meta->data_tail, 80);
	rings_free(&rs);
}
END_TEST

/* A record take() could not keep is said, and the others are still read. */
START_TEST(a_failed_take_is_said_and_the_rest_read)
{
	struct rings rs;
	struct seen s = { .fail_at = 2 };

	fake_ring(&rs, 0);
	put_record(&rs, 1, 16, 0xa1);
	put_record(&rs, 2, 16, 0xa2);
	put_record(&rs, 3, 16, 0xa3);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), -1);
	ck_assert_int_eq(s.n, 3);
	ck_assert_uint_eq(rs.ring[0].meta->data_tail, 48);
	rings_free(&rs);
}
END_TEST

START_TEST(buffer_sizes)
{
	struct rings rs;

	/* 8 MiB each, a power of two of pages, within 64 MiB in all. */
	ck_assert_uint_eq(ring_pages_for(2, 4096, 0), 2048);
	ck_assert_uint_eq(ring_pages_for(0, 4096, 0), 2048);
	ck_assert_uint_eq(ring_pages_for(24, 4096, 0), 512);
	/* Never below 1 MiB, however many CPUs share the budget. */
	ck_assert_uint_eq(ring_pages_for(1000, 4096, 0), 256);
	/* Never below 8 pages, however large a page. */
	ck_assert_uint_eq(ring_pages_for(2, 2UL << 20, 0), 8);
	/* No check in them (counted in the kernel): 2 MiB at most. */
	ck_assert_uint_eq(ring_pages_for(2, 4096, 1), 512);
	ck_assert_uint_eq(ring_pages_for(24, 4096, 1), 512);
	ck_assert_uint_eq(ring_pages_for(1000, 4096, 1), 256);
	ck_assert_uint_eq(ring_pages_for(2, 2UL << 20, 1), 8);
	rings_init(&rs, 4096, 16);
	ck_assert_int_eq(rings_can_shrink(&rs), 1);
	ck_assert_uint_eq(rings_watermark(&rs), 16 * 4096 / 4);
	rings_init(&rs, 4096, 8);
	ck_assert_int_eq(rings_can_shrink(&rs), 0);
	ck_assert_uint_eq(rs.n, 0);
	rings_free(&rs);
}
END_TEST

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A buffer whose event says POLLHUP (its task is gone) is polled no
 * more: polled again it would end every wait at once. The wake fd ends
 * a wait as soon as it is readable.
 */
START_TEST(a_hung_up_buffer_is_polled_no_more)
{
	struct rings rs;
	struct ring r;
	int gone[2], wake[2];
	double t0;

	ck_assert_int_eq(pipe(gone), 0);
	ck_assert_int_eq(pipe(wake), 0);
	close(gone[1]); /* its reader now says POLLHUP for ever */
	memset(&r, 0, sizeof(r));
	r.fd = gone[0];
	rings_init(&rs, 4096, 8);
	rs.ring = &r;
	rs.n = rs.ring_size = 1;
	ck_assert_int_eq(rings_wait(&rs, -1, 5000), 0);
	ck_assert_int_eq(r.hup, 1);
	t0 = now();
	ck_assert_int_eq(rings_wait(&rs, -1, 200), 0);
	ck_assert_double_ge(now() - t0, 0.15);
	ck_assert_int_eq(write(wake[1], "x", 1), 1);
	t0 = now();
	ck_assert_int_eq(rings_wait(&rs, wake[0], 5000), 0);
	ck_assert_double_lt(now() - t0, 2.0);
	close(gone[0]);
	close(wake[0]);
	close(wake[1]);
}
END_TEST

/*
 * A read that found more than a quarter of a buffer written (the
 * watermark) says the buffers are busy, until a read finds less.
 */
START_TEST(a_buffer_read_a_quarter_full_is_busy)
{
	struct rings rs;
	struct seen s = { 0 };

	fake_ring(&rs, 0);
	ck_assert_int_eq(rings_busy(&rs), 0);
	put_record(&rs, 1, 512, 0xa1);
	put_record(&rs, 2, 512, 0xa2);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(rings_busy(&rs), 0); /* DATA / 4 exactly */
	put_record(&rs, 1, 512, 0xa1);
	put_record(&rs, 2, 512, 0xa2);
	put_record(&rs, 3, 8, 0xa3);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(rings_busy(&rs), 1);
	ck_assert_int_eq(rings_read(&rs, 0, take, &s), 0);
	ck_assert_int_eq(rings_busy(&rs), 0);
	ck_assert_int_eq(s.n, 5);
	rings_free(&rs);
}
END_TEST

/*
 * The unwatched wait ignores a buffer with data (its fd readable), ends
 * after a period the buffers' size sets (RING_SIDE_BAND's: 8 ms), even
 * under a longer timeout, and at once when the wake fd is readable.
 */
START_TEST(an_unwatched_wait_ends_with_its_period_or_the_wake_fd)
{
	struct rings rs;
	struct ring r;
	int data[2], wake[2];
	double t0, took;

	ck_assert_int_eq(pipe(data), 0);
	ck_assert_int_eq(pipe(wake), 0);
	ck_assert_int_eq(write(data[1], "x", 1), 1);
	memset(&r, 0, sizeof(r));
	r.fd = data[0];
	r.size = 2UL << 20;
	rings_init(&rs, 4096, 512);
	rs.ring = &r;
	rs.n = rs.ring_size = 1;
	t0 = now();
	ck_assert_int_eq(rings_wait_unwatched(&rs, wake[0], 5000), 0);
	took = now() - t0;
	ck_assert_double_ge(took, 0.007);
	ck_assert_double_lt(took, 2.0);
	/* A buffer too large to fill: the timeout bounds the wait. */
	r.size = 1UL << 40;
	ck_assert_int_eq(write(wake[1], "x", 1), 1);
	t0 = now();
	ck_assert_int_eq(rings_wait_unwatched(&rs, wake[0], 5000), 0);
	ck_assert_double_lt(now() - t0, 2.0);
	close(data[0]);
	close(data[1]);
	close(wake[0]);
	close(wake[1]);
}
END_TEST

static Suite *ring_suite(void)
{
	Suite *s = suite_create("capaudit_ring");
	TCase *tc = tcase_create("read");
	TCase *tw = tcase_create("wait");

	tcase_add_test(tc, records_come_whole_and_in_order_across_the_end);
	tcase_add_test(tc, a_header_cut_by_the_end_is_put_together);
	tcase_add_test(tc, a_header_that_cannot_be_one_stops_the_reading);
	tcase_add_test(tc, a_record_still_being_written_waits);
	tcase_add_test(tc, a_failed_take_is_said_and_the_rest_read);
	tcase_add_test(tc, buffer_sizes);
	suite_add_tcase(s, tc);
	tcase_add_test(tw, a_hung_up_buffer_is_polled_no_more);
	tcase_add_test(tw, a_buffer_read_a_quarter_full_is_busy);
	tcase_add_test(tw,
		       an_unwatched_wait_ends_with_its_period_or_the_wake_fd);
	suite_add_tcase(s, tw);
	return s;
}

CHECK_MAIN(ring_suite)
