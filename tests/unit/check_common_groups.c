/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/groups.c: group lists of any length. As root the test sets 300
 * supplementary groups (Check runs it in a forked child, so they do not
 * outlive it): a fixed array of 256 once lost them all.
 */
#define _GNU_SOURCE /* setgroups */
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <unistd.h>

#include "check_run.h"
#include "groups.h"

START_TEST(process_groups_past_256)
{
	gid_t want[300], *got = NULL;
	int n, i;

	if (geteuid() != 0)
		return; /* setgroups() needs CAP_SETGID */
	for (i = 0; i < 300; i++)
		want[i] = (gid_t)(70000 + i);
	ck_assert_int_eq(setgroups(300, want), 0);
	n = groups_of_process(&got);
	ck_assert_int_eq(n, 300);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(got[i], want[i]);
	free(got);
	ck_assert_int_eq(setgroups(0, NULL), 0);
	n = groups_of_process(&got);
	ck_assert_int_eq(n, 0);
	ck_assert_ptr_nonnull(got); /* a list, even an empty one */
	free(got);
}
END_TEST

START_TEST(process_groups_match_getgroups)
{
	gid_t *got = NULL, mine[512];
	int n = groups_of_process(&got), m = getgroups(512, mine), i;

	ck_assert_int_eq(n, m);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(got[i], mine[i]);
	free(got);
}
END_TEST

START_TEST(have)
{
	gid_t g[] = { 5, 7, 9 };

	ck_assert_int_eq(groups_have(g, 3, 7), 1);
	ck_assert_int_eq(groups_have(g, 3, 8), 0);
	ck_assert_int_eq(groups_have(g, 2, 9), 0);
	ck_assert_int_eq(groups_have(NULL, 0, 0), 0);
}
END_TEST

static Suite *groups_suite(void)
{
	Suite *s = suite_create("common_groups");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, process_groups_past_256);
	tcase_add_test(tc, process_groups_match_getgroups);
	tcase_add_test(tc, have);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(groups_suite)
