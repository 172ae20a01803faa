/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* cap_get_flag, cap_set_flag, cap_clear(_flag), cap_fill(_flag), cap_compare. */
#include <errno.h>
#include <sys/capability.h>

#include "check_run.h"

static cap_flag_value_t flag_of(cap_t caps, cap_value_t cap, cap_flag_t flag)
{
	cap_flag_value_t v = (cap_flag_value_t)-1;

	ck_assert_int_eq(cap_get_flag(caps, cap, flag, &v), 0);
	return v;
}

START_TEST(set_and_get_every_bit)
{
	cap_t caps = cap_init();
	cap_value_t cap;

	/* 0..63: names up to 40, and numbers beyond that work everywhere. */
	for (cap = 0; cap < 64; cap++) {
		ck_assert_int_eq(flag_of(caps, cap, CAP_PERMITTED), CAP_CLEAR);
		ck_assert_int_eq(
			cap_set_flag(caps, CAP_PERMITTED, 1, &cap, CAP_SET), 0);
		ck_assert_int_eq(flag_of(caps, cap, CAP_PERMITTED), CAP_SET);
		ck_assert_int_eq(flag_of(caps, cap, CAP_EFFECTIVE), CAP_CLEAR);
		ck_assert_int_eq(flag_of(caps, cap, CAP_INHERITABLE),
				 CAP_CLEAR);
	}
	cap_free(caps);
}
END_TEST

START_TEST(get_flag_rejects_bad_arguments)
{
	cap_t caps = cap_init();
	cap_flag_value_t v;

	errno = 0;
	ck_assert_int_eq(cap_get_flag(caps, 64, CAP_EFFECTIVE, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_get_flag(caps, -1, CAP_EFFECTIVE, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_get_flag(caps, 0, (cap_flag_t)3, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_get_flag(caps, 0, CAP_EFFECTIVE, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_get_flag(NULL, 0, CAP_EFFECTIVE, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	cap_free(caps);
}
END_TEST

START_TEST(set_flag_count_limits)
{
	cap_t caps = cap_init();
	cap_value_t list[64];
	int n;

	for (n = 0; n < 64; n++)
		list[n] = n;
	/* libcap accepts 0 < n < 64: both 0 and 64 are EINVAL. */
	errno = 0;
	ck_assert_int_eq(cap_set_flag(caps, CAP_PERMITTED, 64, list, CAP_SET),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_flag(caps, CAP_PERMITTED, 0, list, CAP_SET),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(
		cap_set_flag(caps, CAP_PERMITTED, 1, list, (cap_flag_value_t)2),
		-1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(cap_set_flag(caps, CAP_PERMITTED, 63, list, CAP_SET),
			 0);
	ck_assert_int_eq(flag_of(caps, 62, CAP_PERMITTED), CAP_SET);
	ck_assert_int_eq(flag_of(caps, 63, CAP_PERMITTED), CAP_CLEAR);
	cap_free(caps);
}
END_TEST

START_TEST(set_flag_skips_out_of_range_entries)
{
	cap_t caps = cap_init();
	cap_value_t list[] = { -5, CAP_PERFMON, 64, 1000, CAP_BPF };
	char *text;

	ck_assert_int_eq(cap_set_flag(caps, CAP_EFFECTIVE, 5, list, CAP_SET),
			 0);
	text = cap_to_text(caps, NULL);
	ck_assert_str_eq(text, "cap_perfmon,cap_bpf=e");
	cap_free(text);
	ck_assert_int_eq(cap_set_flag(caps, CAP_EFFECTIVE, 5, list, CAP_CLEAR),
			 0);
	text = cap_to_text(caps, NULL);
	ck_assert_str_eq(text, "=");
	cap_free(text);
	cap_free(caps);
}
END_TEST

START_TEST(clear_fill_and_compare)
{
	cap_t a = cap_from_text("cap_perfmon=ep cap_kill+i 63+p");
	cap_t b = cap_init();
	int r;

	r = cap_compare(a, b);
	ck_assert(CAP_DIFFERS(r, CAP_EFFECTIVE));
	ck_assert(CAP_DIFFERS(r, CAP_PERMITTED));
	ck_assert(CAP_DIFFERS(r, CAP_INHERITABLE));

	ck_assert_int_eq(cap_fill_flag(b, CAP_PERMITTED, a, CAP_PERMITTED), 0);
	ck_assert_int_eq(cap_compare(a, b),
			 (1 << CAP_EFFECTIVE) | (1 << CAP_INHERITABLE));
	ck_assert_int_eq(flag_of(b, 63, CAP_PERMITTED), CAP_SET);

	ck_assert_int_eq(cap_fill(b, CAP_EFFECTIVE, CAP_PERMITTED), 0);
	ck_assert_int_eq(flag_of(b, 63, CAP_EFFECTIVE), CAP_SET);

	ck_assert_int_eq(cap_clear_flag(b, CAP_PERMITTED), 0);
	ck_assert_int_eq(flag_of(b, CAP_PERFMON, CAP_PERMITTED), CAP_CLEAR);
	ck_assert_int_eq(flag_of(b, CAP_PERFMON, CAP_EFFECTIVE), CAP_SET);

	ck_assert_int_eq(cap_clear(a), 0);
	ck_assert_int_eq(flag_of(a, CAP_KILL, CAP_INHERITABLE), CAP_CLEAR);

	errno = 0;
	ck_assert_int_eq(cap_clear_flag(a, (cap_flag_t)7), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_fill(a, CAP_EFFECTIVE, (cap_flag_t)-1), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_compare(a, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_clear(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	cap_free(a);
	cap_free(b);
}
END_TEST

static Suite *flag_suite(void)
{
	Suite *s = suite_create("flag");
	TCase *tc = tcase_create("flag");

	tcase_add_test(tc, set_and_get_every_bit);
	tcase_add_test(tc, get_flag_rejects_bad_arguments);
	tcase_add_test(tc, set_flag_count_limits);
	tcase_add_test(tc, set_flag_skips_out_of_range_entries);
	tcase_add_test(tc, clear_fill_and_compare);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(flag_suite)
