/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/names.c: a capability's name for a message, as the programs
 * print it (capaudit's report and suggestion, capcheck's, getpcaps's and
 * perfdoctor's risk lines), never overrunning the caller's buffer.
 */
#include <string.h>
#include <sys/capability.h>

#include "check_run.h"
#include "names.h"

START_TEST(cap_is_named_as_cap_to_name_names_it)
{
	char buf[64];

	ck_assert_str_eq(names_cap(CAP_CHOWN, buf, sizeof(buf)), "cap_chown");
	ck_assert_ptr_eq(names_cap(CAP_PERFMON, buf, sizeof(buf)), buf);
	ck_assert_str_eq(buf, "cap_perfmon");
	ck_assert_str_eq(names_cap(CAP_CHECKPOINT_RESTORE, buf, sizeof(buf)),
			 "cap_checkpoint_restore");
}
END_TEST

/* A value past the library's names is its number, as cap_to_name() says it. */
START_TEST(cap_without_a_name_is_its_number)
{
	char buf[64];

	ck_assert_str_eq(names_cap(63, buf, sizeof(buf)), "63");
}
END_TEST

START_TEST(cap_name_is_cut_to_the_buffer)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	ck_assert_str_eq(names_cap(CAP_PERFMON, buf, sizeof(buf)), "cap_per");
	ck_assert_str_eq(names_cap(CAP_PERFMON, buf, 1), "");
}
END_TEST

static Suite *names_suite(void)
{
	Suite *s = suite_create("common_names");
	TCase *tc = tcase_create("cap");

	tcase_add_test(tc, cap_is_named_as_cap_to_name_names_it);
	tcase_add_test(tc, cap_without_a_name_is_its_number);
	tcase_add_test(tc, cap_name_is_cut_to_the_buffer);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(names_suite)
