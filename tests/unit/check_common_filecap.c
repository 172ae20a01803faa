/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/filecap.c: getcap's decoder of raw security.capability values,
 * held to the library's own codec (libcap/cap_xattr.c, compiled in here)
 * on every size, revision and flag, and on values it encodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cap_xattr.h"
#include "check_run.h"
#include "filecap.h"

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* Both decoders on raw[0..len): the same verdict and the same fields. */
static void agree(const unsigned char *raw, size_t len)
{
	struct lcap_xattr lib;
	struct filecap ours;
	int rl, ro, el, eo;

	errno = 0;
	rl = lcap_xattr_decode(&lib, raw, len);
	el = errno;
	errno = 0;
	ro = filecap_decode(&ours, raw, len);
	eo = errno;
	ck_assert_int_eq(ro, rl);
	if (rl < 0) {
		ck_assert_int_eq(eo, EINVAL);
		ck_assert_int_eq(el, EINVAL);
		return;
	}
	ck_assert_uint_eq(ours.permitted, (uint64_t)lib.permitted[1] << 32 |
					  lib.permitted[0]);
	ck_assert_uint_eq(ours.inheritable, (uint64_t)lib.inheritable[1] << 32 |
					    lib.inheritable[0]);
	ck_assert_int_eq(ours.effective, lib.effective);
	ck_assert_int_eq(ours.revision, lib.revision);
	ck_assert_uint_eq(ours.rootid, lib.rootid);
}

START_TEST(every_revision_size_and_flag)
{
	unsigned char raw[32];
	uint32_t flags[] = { 0, 1, 2, 0x800000, 0x000100 };
	unsigned rev;
	size_t len, f;

	for (rev = 0; rev <= 5; rev++)
		for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
			for (len = 0; len <= sizeof(raw); len++) {
				memset(raw, 0xa5, sizeof(raw));
				put32(raw, rev << 24 | flags[f]);
				agree(raw, len);
			}
}
END_TEST

START_TEST(random_values)
{
	static const size_t sizes[] = { 12, 20, 24 };
	unsigned char raw[24];
	int round;
	size_t i;

	srand(15);
	for (round = 0; round < 20000; round++) {
		for (i = 0; i < sizeof(raw); i++)
			raw[i] = (unsigned char)rand();
		/* Mostly plausible magics, so the fields get compared too. */
		if (round % 4 != 0)
			put32(raw, (uint32_t)(1 + rand() % 3) << 24 |
				   (uint32_t)(rand() % 2));
		agree(raw, sizes[round % 3]);
	}
}
END_TEST

START_TEST(library_encodings_round_trip)
{
	struct lcap_xattr in = {
		.permitted = { 0xffffffff, 0xffffffff },
		.inheritable = { 0x2000, 0x80000000 },
		.effective = 1,
	};
	unsigned char raw[LCAP_XATTR_MAX];
	struct filecap out;
	size_t len;

	ck_assert_int_eq(FILECAP_XATTR_MAX, LCAP_XATTR_MAX);
	ck_assert_str_eq(FILECAP_XATTR_NAME, LCAP_XATTR_NAME);
	len = lcap_xattr_encode(&in, raw);
	ck_assert_int_eq(filecap_decode(&out, raw, len), 0);
	ck_assert_int_eq(out.revision, 2);
	ck_assert_uint_eq(out.permitted, UINT64_MAX);
	ck_assert_uint_eq(out.inheritable, UINT64_C(0x8000000000002000));
	in.rootid = 100000;
	in.effective = 0;
	len = lcap_xattr_encode(&in, raw);
	ck_assert_int_eq(filecap_decode(&out, raw, len), 0);
	ck_assert_int_eq(out.revision, 3);
	ck_assert_int_eq(out.effective, 0);
	ck_assert_uint_eq(out.rootid, 100000);
}
END_TEST

START_TEST(caps_hold_all_64_bits_and_the_effective_rule)
{
	struct filecap fc = {
		.permitted = UINT64_MAX, .inheritable = 0, .effective = 1,
	};
	cap_flag_value_t v;
	cap_t caps = filecap_to_caps(&fc);
	cap_value_t cap;

	ck_assert_ptr_nonnull(caps);
	for (cap = 0; cap < 64; cap++) {
		ck_assert_int_eq(cap_get_flag(caps, cap, CAP_PERMITTED, &v), 0);
		ck_assert_int_eq(v, CAP_SET);
		ck_assert_int_eq(cap_get_flag(caps, cap, CAP_EFFECTIVE, &v), 0);
		ck_assert_int_eq(v, CAP_SET);
		ck_assert_int_eq(cap_get_flag(caps, cap, CAP_INHERITABLE, &v), 0);
		ck_assert_int_eq(v, CAP_CLEAR);
	}
	cap_free(caps);
	fc.permitted = 1;
	fc.inheritable = UINT64_C(1) << 40;
	fc.effective = 0;
	caps = filecap_to_caps(&fc);
	ck_assert_ptr_nonnull(caps);
	ck_assert_int_eq(cap_get_flag(caps, 40, CAP_INHERITABLE, &v), 0);
	ck_assert_int_eq(v, CAP_SET);
	ck_assert_int_eq(cap_get_flag(caps, 0, CAP_EFFECTIVE, &v), 0);
	ck_assert_int_eq(v, CAP_CLEAR);
	cap_free(caps);
}
END_TEST

static Suite *filecap_suite(void)
{
	Suite *s = suite_create("common_filecap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_revision_size_and_flag);
	tcase_add_test(tc, random_values);
	tcase_add_test(tc, library_encodings_round_trip);
	tcase_add_test(tc, caps_hold_all_64_bits_and_the_effective_rule);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(filecap_suite)
