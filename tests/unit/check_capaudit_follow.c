/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The follow table from capaudit's side (progs/capaudit/bpf/
 * capaudit_follow.c), on a direct table that is a shared mapping of a
 * memfd, laid out as the kernel's array: its room, a power of two no
 * larger than it was given; a thread taken into its entry at its id's
 * low bits, filled in afresh; an entry another thread holds, or one held
 * for none, never taken (the spill table is asked instead: here a
 * descriptor that is none, so the fall is seen as EBADF); a thread that
 * may still be counting keeps its entry held for none, the caller's own
 * is freed; only threads' entries are read back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capaudit_follow.h"
#include "check_run.h"

#define ENTRIES 8U

/* A direct table of ENTRIES in a memfd; the spill table and stats: none. */
static int open_table(struct follow_table *ft)
{
	int fd = memfd_create("direct", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, ENTRIES * sizeof(struct follow_val)), 0);
	ck_assert_int_eq(follow_table_open(ft, fd, ENTRIES, -1, -1), 0);
	return fd;
}

static int visits;
static uint32_t visited[ENTRIES];

static int visit(const struct follow_val *v, void *arg)
{
	(void)arg;
	ck_assert_int_lt(visits, (int)ENTRIES);
	visited[visits++] = v->owner - 1;
	return 0;
}

START_TEST(room_is_a_power_of_two_no_larger_than_given)
{
	ck_assert_uint_eq(follow_direct_entries(0), 1);
	ck_assert_uint_eq(follow_direct_entries(1), 1);
	ck_assert_uint_eq(follow_direct_entries(3), 2);
	ck_assert_uint_eq(follow_direct_entries(4), 4);
	ck_assert_uint_eq(follow_direct_entries(32768), 32768);
	ck_assert_uint_eq(follow_direct_entries(100000), 65536);
	ck_assert_uint_eq(follow_direct_entries(4194304), DIRECT_TABLE_MAX);
}
END_TEST

START_TEST(a_room_not_a_power_of_two_is_refused)
{
	struct follow_table ft;

	errno = 0;
	ck_assert_int_eq(follow_table_open(&ft, -1, 6, -1, -1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(ft.direct);
}
END_TEST

START_TEST(a_thread_takes_its_entry_filled_in_afresh)
{
	struct follow_table ft;
	struct follow_val v;
	int fd = open_table(&ft);

	/* What a thread that had the entry before left there. */
	ft.direct[5].run[0].count = 7;
	ft.direct[5].run[1].count = 9;
	ft.direct[5].latest = 0;
	ck_assert_int_eq(follow_table_add(&ft, 5, 42), 0);
	ck_assert_uint_eq(ft.direct[5].owner, 6);
	ck_assert_uint_eq(ft.direct[5].epoch, 42);
	ck_assert_uint_eq(ft.direct[5].latest, FOLLOW_RUNS - 1);
	ck_assert_uint_eq(ft.direct[5].run[0].count, 0);
	ck_assert_uint_eq(ft.direct[5].run[1].count, 0);
	/* Followed again: its runs stay, it may be counting. */
	ft.direct[5].run[0].count = 3;
	ck_assert_int_eq(follow_table_add(&ft, 5, 43), 0);
	ck_assert_uint_eq(ft.direct[5].run[0].count, 3);
	ck_assert_uint_eq(ft.direct[5].epoch, 42);
	ck_assert_int_eq(follow_table_read(&ft, 5, &v), 0);
	ck_assert_uint_eq(v.owner, 6);
	ck_assert_uint_eq(v.run[0].count, 3);
	follow_table_close(&ft);
	close(fd);
}
END_TEST

START_TEST(an_entry_another_holds_sends_a_thread_to_the_spill_table)
{
	struct follow_table ft;
	struct follow_val v;
	int fd = open_table(&ft);

	ck_assert_int_eq(follow_table_add(&ft, 5, 1), 0);
	/* 13 & 7 is 5: the entry is thread 5's, untouched. */
	errno = 0;
	ck_assert_int_eq(follow_table_add(&ft, 5 + ENTRIES, 2), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(ft.direct[5].owner, 6);
	ck_assert_uint_eq(ft.direct[5].epoch, 1);
	errno = 0;
	ck_assert_int_eq(follow_table_read(&ft, 5 + ENTRIES, &v), -1);
	ck_assert_int_eq(errno, EBADF);
	follow_table_close(&ft);
	close(fd);
}
END_TEST

START_TEST(a_thread_that_may_run_keeps_its_entry_held_for_none)
{
	struct follow_table ft;
	int fd = open_table(&ft);

	ck_assert_int_eq(follow_table_add(&ft, 3, 1), 0);
	ck_assert_int_eq(follow_table_add(&ft, 4, 1), 0);
	ck_assert_int_eq(follow_table_drop(&ft, 3, 0), 0);
	ck_assert_uint_eq(ft.direct[3].owner, FOLLOW_HELD);
	/* Never taken again in the run, not even by the same id. */
	errno = 0;
	ck_assert_int_eq(follow_table_add(&ft, 3, 2), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(ft.direct[3].owner, FOLLOW_HELD);
	/* The caller's own entry is free again, and taken anew. */
	ck_assert_int_eq(follow_table_drop(&ft, 4, 1), 0);
	ck_assert_uint_eq(ft.direct[4].owner, FOLLOW_FREE);
	ck_assert_int_eq(follow_table_add(&ft, 4 + ENTRIES, 3), 0);
	ck_assert_uint_eq(ft.direct[4].owner, 4 + ENTRIES + 1);
	/* Dropping one whose entry is another's asks the spill table. */
	errno = 0;
	ck_assert_int_eq(follow_table_drop(&ft, 4, 1), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(ft.direct[4].owner, 4 + ENTRIES + 1);
	follow_table_close(&ft);
	close(fd);
}
END_TEST

START_TEST(only_threads_entries_are_read_back)
{
	struct follow_table ft;
	int fd = open_table(&ft);

	ck_assert_int_eq(follow_table_add(&ft, 1, 1), 0);
	ck_assert_int_eq(follow_table_add(&ft, 2, 1), 0);
	ck_assert_int_eq(follow_table_add(&ft, 7, 1), 0);
	ck_assert_int_eq(follow_table_drop(&ft, 2, 0), 0);
	ft.direct[6].owner = FOLLOW_HELD; /* being filled in */
	visits = 0;
	ck_assert_int_eq(follow_table_each(&ft, visit, NULL), 0);
	ck_assert_int_eq(visits, 2);
	ck_assert_uint_eq(visited[0], 1);
	ck_assert_uint_eq(visited[1], 7);
	follow_table_close(&ft);
	close(fd);
}
END_TEST

static Suite *follow_suite(void)
{
	Suite *s = suite_create("capaudit_follow");
	TCase *tc = tcase_create("direct");

	tcase_add_test(tc, room_is_a_power_of_two_no_larger_than_given);
	tcase_add_test(tc, a_room_not_a_power_of_two_is_refused);
	tcase_add_test(tc, a_thread_takes_its_entry_filled_in_afresh);
	tcase_add_test(
		tc, an_entry_another_holds_sends_a_thread_to_the_spill_table);
	tcase_add_test(tc, a_thread_that_may_run_keeps_its_entry_held_for_none);
	tcase_add_test(tc, only_threads_entries_are_read_back);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(follow_suite)
