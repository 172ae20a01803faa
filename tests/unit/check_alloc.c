/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* cap_init, cap_dup, cap_free: ownership and foreign pointers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "check_run.h"

START_TEST(init_is_empty)
{
	cap_t caps = cap_init();
	char *text;

	ck_assert_ptr_nonnull(caps);
	text = cap_to_text(caps, NULL);
	ck_assert_str_eq(text, "=");
	ck_assert_int_eq(cap_free(text), 0);
	ck_assert_int_eq(cap_free(caps), 0);
}
END_TEST

START_TEST(free_null_is_ok)
{
	errno = 0;
	ck_assert_int_eq(cap_free(NULL), 0);
	ck_assert_int_eq(errno, 0);
}
END_TEST

START_TEST(free_foreign_pointer_is_einval)
{
	/* A malloc'd block of our own, zeroed: no header magic before it. */
	unsigned char *block = calloc(1, 64);

	errno = 0;
	ck_assert_int_eq(cap_free(block + 32), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_free(block + 33), -1); /* misaligned */
	ck_assert_int_eq(errno, EINVAL);
	free(block);
}
END_TEST

START_TEST(dup_copies_and_is_independent)
{
	cap_t caps = cap_from_text("cap_perfmon=ep cap_bpf+i");
	cap_t copy = cap_dup(caps);
	cap_value_t v = CAP_PERFMON;

	ck_assert_ptr_nonnull(copy);
	ck_assert_ptr_ne(copy, caps);
	ck_assert_int_eq(cap_compare(caps, copy), 0);
	ck_assert_int_eq(cap_set_flag(copy, CAP_EFFECTIVE, 1, &v, CAP_CLEAR),
			 0);
	ck_assert_int_eq(cap_compare(caps, copy), 1 << CAP_EFFECTIVE);
	cap_free(copy);
	cap_free(caps);
}
END_TEST

START_TEST(dup_rejects_bad_objects)
{
	char *name = cap_to_name(CAP_PERFMON);

	errno = 0;
	ck_assert_ptr_null(cap_dup(NULL));
	ck_assert_int_eq(errno, EINVAL);
	/* A string object is ours but not a set. */
	errno = 0;
	ck_assert_ptr_null(cap_dup((cap_t)(void *)name));
	ck_assert_int_eq(errno, EINVAL);
	cap_free(name);
}
END_TEST

START_TEST(strings_are_freed_by_cap_free)
{
	char *name = cap_to_name(CAP_PERFMON);

	ck_assert_str_eq(name, "cap_perfmon");
	ck_assert_int_eq(cap_free(name), 0);
}
END_TEST

static Suite *alloc_suite(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc = tcase_create("alloc");

	tcase_add_test(tc, init_is_empty);
	tcase_add_test(tc, free_null_is_ok);
	tcase_add_test(tc, free_foreign_pointer_is_einval);
	tcase_add_test(tc, dup_copies_and_is_independent);
	tcase_add_test(tc, dup_rejects_bad_objects);
	tcase_add_test(tc, strings_are_freed_by_cap_free);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(alloc_suite)
