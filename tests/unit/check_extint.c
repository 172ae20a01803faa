/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* cap_size, cap_copy_ext, cap_copy_int, cap_copy_int_check: the 29-byte blob. */
#include <errno.h>
#include <string.h>
#include <sys/capability.h>

#include "check_run.h"

static void ext_of(const char *text, unsigned char ext[29])
{
	cap_t caps = cap_from_text(text);

	ck_assert_ptr_nonnull(caps);
	ck_assert_int_eq(cap_copy_ext(ext, caps, 29), 29);
	cap_free(caps);
}

static void assert_text(cap_t caps, const char *want)
{
	char *text;

	ck_assert_ptr_nonnull(caps);
	text = cap_to_text(caps, NULL);
	ck_assert_str_eq(text, want);
	cap_free(text);
	cap_free(caps);
}

START_TEST(size_is_29)
{
	cap_t caps = cap_init();

	ck_assert_int_eq(cap_size(caps), 29);
	ck_assert_int_eq(cap_size(NULL), 29);
	cap_free(caps);
}
END_TEST

START_TEST(layout_matches_libcap)
{
	static const unsigned char empty[29] = { 0x90, 0xc2, 0x01, 0x51, 8 };
	unsigned char ext[29];

	ext_of("=", ext);
	ck_assert_mem_eq(ext, empty, 29);
	ext_of("cap_chown=e", ext);
	ck_assert_int_eq(ext[5], 0x01);
	ext_of("cap_kill=p", ext);
	ck_assert_int_eq(ext[6], 0x20);
	ext_of("cap_setfcap=i", ext);
	ck_assert_int_eq(ext[16], 0x80);
	ext_of("cap_perfmon=ep", ext);
	ck_assert_int_eq(ext[17], 0x40);
	ck_assert_int_eq(ext[18], 0x40);
	ck_assert_int_eq(ext[19], 0x00);
	ext_of("63=p", ext);
	ck_assert_int_eq(ext[27], 0x80);
}
END_TEST

START_TEST(round_trip)
{
	unsigned char ext[29];

	ext_of("=ep cap_perfmon-e cap_kill+i 62,63+p", ext);
	assert_text(cap_copy_int(ext), "=ep cap_kill+i cap_perfmon-e 62,63+p");
	assert_text(cap_copy_int_check(ext, 29),
		    "=ep cap_kill+i cap_perfmon-e 62,63+p");
}
END_TEST

START_TEST(short_vectors_read_as_zero)
{
	static const unsigned char one[] = {
		0x90, 0xc2, 0x01, 0x51, 1, 1, 2, 4
	};

	assert_text(cap_copy_int_check(one, sizeof(one)),
		    "cap_dac_read_search=i cap_dac_override+p cap_chown+e");
}
END_TEST

START_TEST(errors)
{
	unsigned char ext[29];
	cap_t caps = cap_init();

	errno = 0;
	ck_assert_int_eq(cap_copy_ext(ext, caps, 28), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_copy_ext(ext, NULL, 29), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(cap_copy_ext(ext, caps, 29), 29);

	errno = 0;
	ck_assert_ptr_null(cap_copy_int_check(ext, 4));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_copy_int_check(ext, 28)); /* 5 + 3*8 = 29 */
	ck_assert_int_eq(errno, EINVAL);
	ext[0] ^= 1;
	errno = 0;
	ck_assert_ptr_null(cap_copy_int(ext));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_copy_int(NULL));
	ck_assert_int_eq(errno, EINVAL);
	cap_free(caps);
}
END_TEST

static Suite *extint_suite(void)
{
	Suite *s = suite_create("extint");
	TCase *tc = tcase_create("extint");

	tcase_add_test(tc, size_is_29);
	tcase_add_test(tc, layout_matches_libcap);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, short_vectors_read_as_zero);
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(extint_suite)
