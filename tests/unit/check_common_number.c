/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/number.c: whole-text numbers that never wrap. */
#include <errno.h>
#include <limits.h>

#include "check_run.h"
#include "number.h"

static int parse(const char *text, int base, unsigned long long max,
		 unsigned long long *out)
{
	*out = 12345;
	return number_parse(text, base, max, out);
}

START_TEST(accepts_what_strtoul_reads_whole)
{
	unsigned long long v;

	ck_assert_int_eq(parse("0", 0, UINT_MAX, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse("4294967295", 0, UINT_MAX, &v), 0);
	ck_assert_uint_eq(v, 4294967295ULL);
	ck_assert_int_eq(parse("0x10", 0, UINT_MAX, &v), 0);
	ck_assert_uint_eq(v, 16);
	ck_assert_int_eq(parse("010", 0, UINT_MAX, &v), 0);
	ck_assert_uint_eq(v, 8);
	ck_assert_int_eq(parse(" +7", 0, UINT_MAX, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(parse("ffffffffffffffff", 16, ULLONG_MAX, &v), 0);
	ck_assert_uint_eq(v, ULLONG_MAX);
	ck_assert_int_eq(parse("0X4000000001", 16, ULLONG_MAX, &v), 0);
	ck_assert_uint_eq(v, 0x4000000001ULL);
}
END_TEST

START_TEST(refuses_wraps_signs_and_junk)
{
	static const char *const junk[] = {
		"",   " ",     "-1", " -1", "-0",  "+-1", "+ 1",
		"1x", "12abc", "5 ", "0x",  "x10", "1.5", "--1",
	};
	unsigned long long v;
	size_t n;

	for (n = 0; n < sizeof(junk) / sizeof(junk[0]); n++) {
		ck_assert_msg(parse(junk[n], 0, UINT_MAX, &v) == EINVAL,
			      "'%s' accepted", junk[n]);
		ck_assert_uint_eq(v, 12345); /* untouched */
	}
	ck_assert_int_eq(parse("4294967296", 0, UINT_MAX, &v), ERANGE);
	ck_assert_int_eq(parse("99999999999", 0, UINT_MAX, &v), ERANGE);
	ck_assert_int_eq(parse("18446744073709551616", 0, ULLONG_MAX, &v),
			 ERANGE);
	ck_assert_int_eq(parse("11111111111111111111", 16, ULLONG_MAX, &v),
			 ERANGE);
	ck_assert_int_eq(parse("64", 0, 63, &v), ERANGE);
	ck_assert_int_eq(parse("-1", 16, ULLONG_MAX, &v), EINVAL);
	ck_assert_uint_eq(v, 12345);
	errno = 42;
	parse("4294967296", 0, UINT_MAX, &v);
	ck_assert_int_eq(errno, 42);
}
END_TEST

static Suite *number_suite(void)
{
	Suite *s = suite_create("common_number");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, accepts_what_strtoul_reads_whole);
	tcase_add_test(tc, refuses_wraps_signs_and_junk);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(number_suite)
