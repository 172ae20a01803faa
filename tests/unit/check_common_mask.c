/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/mask.c: capability sets as 64-bit masks. */
#include <string.h>

#include "check_run.h"
#include "mask.h"

START_TEST(next_walks_set_bits_in_order)
{
	uint64_t m = MASK_BIT(0) | MASK_BIT(5) | MASK_BIT(63);
	cap_value_t seen[4], cap;
	int n = 0;

	ck_assert_int_eq(mask_next(m, 0), 0);
	ck_assert_int_eq(mask_next(m, 1), 5);
	ck_assert_int_eq(mask_next(m, 6), 63);
	ck_assert_int_eq(mask_next(m, 64), -1);
	ck_assert_int_eq(mask_next(m, -3), 0);
	ck_assert_int_eq(mask_next(0, 0), -1);
	for (MASK_EACH(cap, m))
		seen[n++] = cap;
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(seen[0], 0);
	ck_assert_int_eq(seen[1], 5);
	ck_assert_int_eq(seen[2], 63);
}
END_TEST

START_TEST(below_covers_the_range)
{
	ck_assert_uint_eq(mask_below(0), 0);
	ck_assert_uint_eq(mask_below(-1), 0);
	ck_assert_uint_eq(mask_below(1), 1);
	ck_assert_uint_eq(mask_below(41), (UINT64_C(1) << 41) - 1);
	ck_assert_uint_eq(mask_below(64), UINT64_MAX);
	ck_assert_uint_eq(mask_below(99), UINT64_MAX);
}
END_TEST

START_TEST(flags_read_every_bit)
{
	cap_t caps = cap_from_text("cap_chown=ep cap_kill+i");
	cap_value_t high = 63;

	ck_assert_ptr_nonnull(caps);
	ck_assert_int_eq(cap_set_flag(caps, CAP_PERMITTED, 1, &high, CAP_SET),
			 0);
	ck_assert_uint_eq(mask_of_flag(caps, CAP_EFFECTIVE),
			  MASK_BIT(CAP_CHOWN));
	ck_assert_uint_eq(mask_of_flag(caps, CAP_PERMITTED),
			  MASK_BIT(CAP_CHOWN) | MASK_BIT(63));
	ck_assert_uint_eq(mask_of_flag(caps, CAP_INHERITABLE),
			  MASK_BIT(CAP_KILL));
	ck_assert_uint_eq(mask_of_flags(caps, (1u << CAP_INHERITABLE) |
						      (1u << CAP_EFFECTIVE)),
			  MASK_BIT(CAP_CHOWN) | MASK_BIT(CAP_KILL));
	ck_assert_uint_eq(mask_of_flags(caps, 0), 0);
	ck_assert_uint_eq(mask_of_flag(NULL, CAP_PERMITTED), 0);
	cap_free(caps);
}
END_TEST

START_TEST(iab_vectors)
{
	cap_iab_t iab = cap_iab_from_text("cap_chown,^cap_kill,!cap_setuid");

	ck_assert_ptr_nonnull(iab);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_INH),
			  MASK_BIT(CAP_CHOWN) | MASK_BIT(CAP_KILL));
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_AMB), MASK_BIT(CAP_KILL));
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_BOUND),
			  MASK_BIT(CAP_SETUID));
	ck_assert_uint_eq(mask_of_iab(NULL, CAP_IAB_INH), 0);
	cap_free(iab);
}
END_TEST

/* A fake process vector: bits 1 and 3 set, the kernel knows 5 bits. */
static int five_bits(cap_value_t cap)
{
	return cap >= 5 ? -1 : cap == 1 || cap == 3;
}

static int unsupported(cap_value_t cap)
{
	(void)cap;
	return -1;
}

START_TEST(vector_stops_at_the_kernel_end)
{
	cap_value_t bits = 99;

	ck_assert_uint_eq(mask_of_vector(five_bits, &bits),
			  MASK_BIT(1) | MASK_BIT(3));
	ck_assert_int_eq(bits, 5);
	ck_assert_uint_eq(mask_of_vector(unsupported, &bits), 0);
	ck_assert_int_eq(bits, 0);
	ck_assert_uint_eq(mask_of_vector(five_bits, NULL),
			  MASK_BIT(1) | MASK_BIT(3));
}
END_TEST

START_TEST(names_limit_and_truncate)
{
	char buf[160];
	uint64_t six = MASK_BIT(CAP_CHOWN) | MASK_BIT(CAP_KILL) |
		       MASK_BIT(CAP_SETGID) | MASK_BIT(CAP_SETUID) |
		       MASK_BIT(CAP_NET_RAW) | MASK_BIT(CAP_SYS_ADMIN);

	ck_assert_int_eq(mask_names(buf, sizeof(buf), 0, 0), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(mask_names(buf, sizeof(buf),
				    MASK_BIT(CAP_CHOWN) | MASK_BIT(CAP_KILL),
				    0),
			 2);
	ck_assert_str_eq(buf, "cap_chown,cap_kill");
	ck_assert_int_eq(mask_names(buf, sizeof(buf), six, 4), 6);
	ck_assert_str_eq(buf,
			 "cap_chown,cap_kill,cap_setgid,cap_setuid and 2 more");
	ck_assert_int_eq(mask_names(buf, sizeof(buf), MASK_BIT(63), 0), 1);
	ck_assert_str_eq(buf, "63");
	/* A short buffer is filled and terminated, never overrun. */
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(mask_names(buf, 12, six, 0), 6);
	ck_assert_str_eq(buf, "cap_chown,c");
	ck_assert_int_eq(buf[12], 'x');
}
END_TEST

static Suite *mask_suite(void)
{
	Suite *s = suite_create("common_mask");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, next_walks_set_bits_in_order);
	tcase_add_test(tc, below_covers_the_range);
	tcase_add_test(tc, flags_read_every_bit);
	tcase_add_test(tc, iab_vectors);
	tcase_add_test(tc, vector_stops_at_the_kernel_end);
	tcase_add_test(tc, names_limit_and_truncate);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(mask_suite)
