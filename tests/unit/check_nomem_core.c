/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory in the core: cap_init, cap_dup, cap_from_text, cap_to_text,
 * cap_to_name, cap_copy_int and cap_copy_int_check each fail cleanly (NULL,
 * ENOMEM, nothing leaked, inputs untouched) whichever allocation fails.
 */
#include <errno.h>
#include <string.h>
#include <sys/capability.h>

#include "failalloc.h"

/* What one operation was given and what it returned. */
struct op {
	cap_t in;
	const char *text;
	cap_value_t value;
	unsigned char blob[64];
	ssize_t blob_len;
	unsigned char before[64]; /* cap_copy_ext of in before the call */
	void *out;
	ssize_t length;
};

FAILALLOC_RELEASE(release_out, struct op)
FAILALLOC_RUN(run_init, struct op, cap_init())
FAILALLOC_RUN(run_dup, struct op, cap_dup(op->in))
FAILALLOC_RUN(run_from_text, struct op, cap_from_text(op->text))
FAILALLOC_RUN(run_to_text, struct op, cap_to_text(op->in, &op->length))
FAILALLOC_RUN(run_to_name, struct op, cap_to_name(op->value))
FAILALLOC_RUN(run_copy_int, struct op, cap_copy_int(op->blob))
FAILALLOC_RUN(run_copy_int_check, struct op,
	      cap_copy_int_check(op->blob, op->blob_len))

/* The input set still encodes as it did, and no length was reported. */
static int in_unchanged(void *ctx)
{
	struct op *op = ctx;
	unsigned char now[64];

	if (op->length != -7)
		return 0;
	if (op->in == NULL)
		return 1;
	ck_assert_int_eq(cap_copy_ext(now, op->in, sizeof(now)),
			 cap_size(op->in));
	return memcmp(now, op->before, (size_t)cap_size(op->in)) == 0;
}

static void given_set(struct op *op, const char *text)
{
	memset(op, 0, sizeof(*op));
	op->length = -7;
	op->in = cap_from_text(text);
	ck_assert_ptr_nonnull(op->in);
	ck_assert_int_eq(cap_copy_ext(op->before, op->in, sizeof(op->before)),
			 cap_size(op->in));
}

static void release_text(void *ctx)
{
	struct op *op = ctx;

	ck_assert_int_eq((size_t)op->length, strlen(op->out));
	release_out(ctx);
	op->length = -7;
}

START_TEST(init_and_dup)
{
	struct op op;
	struct failalloc_case init = { "cap_init", run_init, release_out, NULL,
				       &op };
	struct failalloc_case dup = { "cap_dup", run_dup, release_out,
				      in_unchanged, &op };

	memset(&op, 0, sizeof(op));
	ck_assert_uint_eq(failalloc_check(&init), 1);
	given_set(&op, "cap_perfmon,cap_bpf=ep cap_sys_admin+i 63+p");
	ck_assert_uint_eq(failalloc_check(&dup), 1);
	cap_free(op.in);
}
END_TEST

START_TEST(from_text)
{
	static const char *const texts[] = {
		"",
		"=",
		"cap_net_raw=ep",
		"cap_perfmon,cap_syslog=ep",
		"=ep cap_sys_admin-ep",
		"all=eip 41+p 63-e",
		"cap_chown=ep junk",
	};
	struct op op;
	struct failalloc_case c = { "cap_from_text", run_from_text, release_out,
				    NULL, &op };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		memset(&op, 0, sizeof(op));
		op.text = texts[i];
		if (strcmp(texts[i], "cap_chown=ep junk") == 0) {
			/* Rejected text: ENOMEM while allocating, else EINVAL. */
			failalloc_check_refusal(&c, EINVAL);
			ck_assert_ptr_null(op.out);
			continue;
		}
		ck_assert_uint_ge(failalloc_check(&c), 1);
	}
}
END_TEST

START_TEST(to_text)
{
	static const char *const texts[] = {
		"=",
		"cap_net_raw=ep",
		"=ep cap_sys_admin-ep",
		"all=eip 41+p 63-e",
	};
	struct op op;
	struct failalloc_case c = { "cap_to_text", run_to_text, release_text,
				    in_unchanged, &op };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		given_set(&op, texts[i]);
		ck_assert_uint_ge(failalloc_check(&c), 1);
		cap_free(op.in);
	}
}
END_TEST

START_TEST(to_name)
{
	static const cap_value_t values[] = { 0, 38, 40, 41, 63, -1 };
	struct op op;
	struct failalloc_case c = { "cap_to_name", run_to_name, release_out,
				    NULL, &op };
	size_t i;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		memset(&op, 0, sizeof(op));
		op.value = values[i];
		ck_assert_uint_eq(failalloc_check(&c), 1);
	}
}
END_TEST

START_TEST(copy_int)
{
	struct op op;
	struct failalloc_case unchecked = { "cap_copy_int", run_copy_int,
					    release_out, in_unchanged, &op };
	struct failalloc_case checked = { "cap_copy_int_check",
					  run_copy_int_check, release_out,
					  in_unchanged, &op };

	given_set(&op, "cap_perfmon=ep cap_chown+i 63+p");
	op.blob_len = cap_copy_ext(op.blob, op.in, sizeof(op.blob));
	ck_assert_int_eq(op.blob_len, cap_size(op.in));
	ck_assert_uint_eq(failalloc_check(&unchecked), 1);
	ck_assert_uint_eq(failalloc_check(&checked), 1);
	cap_free(op.in);
}
END_TEST

/*
 * Name look-up and the rest of the read-only API never allocate. (Check's
 * assertions allocate, so results are asserted after counting stops.)
 */
START_TEST(no_allocation)
{
	cap_t caps = cap_from_text("cap_perfmon=ep");
	cap_flag_value_t v = CAP_CLEAR;
	cap_value_t value = -1;
	unsigned char ext[64];
	int found, unknown, got, size, same, bits;
	unsigned long made;

	ck_assert_ptr_nonnull(caps);
	failalloc_start(1);
	found = cap_from_name("cap_perfmon", &value);
	unknown = cap_from_name("cap_nonesuch", NULL);
	got = cap_get_flag(caps, CAP_PERFMON, CAP_EFFECTIVE, &v);
	size = (int)cap_copy_ext(ext, caps, sizeof(ext));
	same = cap_compare(caps, caps);
	bits = cap_max_bits();
	made = failalloc_stop();
	ck_assert_uint_eq(made, 0);
	ck_assert_int_eq(found, 0);
	ck_assert_int_eq(value, CAP_PERFMON);
	ck_assert_int_eq(unknown, -1);
	ck_assert_int_eq(got, 0);
	ck_assert_int_eq(v, CAP_SET);
	ck_assert_int_eq(size, cap_size(caps));
	ck_assert_int_eq(same, 0);
	ck_assert_int_gt(bits, 0);
	cap_free(caps);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_core");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, init_and_dup);
	tcase_add_test(tc, from_text);
	tcase_add_test(tc, to_text);
	tcase_add_test(tc, to_name);
	tcase_add_test(tc, copy_int);
	tcase_add_test(tc, no_allocation);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
