/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory in the IAB API: cap_iab_init, cap_iab_dup,
 * cap_iab_from_text, cap_iab_to_text, cap_iab_get_proc, cap_iab_get_pid and
 * cap_proc_root each fail cleanly (NULL, ENOMEM, nothing leaked, inputs and
 * the procfs root untouched) whichever allocation fails.
 */
#include <errno.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "failalloc.h"

struct op {
	cap_iab_t in;
	cap_iab_t before; /* a copy of in, made before the call */
	const char *text;
	void *out;
};

FAILALLOC_RELEASE(release_out, struct op)
FAILALLOC_RUN(run_init, struct op, cap_iab_init())
FAILALLOC_RUN(run_dup, struct op, cap_iab_dup(op->in))
FAILALLOC_RUN(run_from_text, struct op, cap_iab_from_text(op->text))
FAILALLOC_RUN(run_to_text, struct op, cap_iab_to_text(op->in))
FAILALLOC_RUN(run_get_proc, struct op, cap_iab_get_proc())
FAILALLOC_RUN(run_get_pid, struct op, cap_iab_get_pid(getpid()))

static int in_unchanged(void *ctx)
{
	struct op *op = ctx;

	return cap_iab_compare(op->in, op->before) == 0;
}

static void given_iab(struct op *op, const char *text)
{
	memset(op, 0, sizeof(*op));
	op->in = cap_iab_from_text(text);
	ck_assert_ptr_nonnull(op->in);
	op->before = cap_iab_dup(op->in);
	ck_assert_ptr_nonnull(op->before);
}

static void drop_iab(struct op *op)
{
	cap_free(op->in);
	cap_free(op->before);
}

START_TEST(init_and_dup)
{
	struct op op;
	struct failalloc_case init = { "cap_iab_init", run_init, release_out,
				       NULL, &op };
	struct failalloc_case dup = { "cap_iab_dup", run_dup, release_out,
				      in_unchanged, &op };

	memset(&op, 0, sizeof(op));
	ck_assert_uint_eq(failalloc_check(&init), 1);
	given_iab(&op, "!cap_sys_admin,^cap_perfmon,%cap_bpf,cap_chown");
	ck_assert_uint_eq(failalloc_check(&dup), 1);
	drop_iab(&op);
}
END_TEST

START_TEST(from_text)
{
	static const char *const texts[] = {
		"",
		"cap_perfmon",
		"^cap_perfmon,!cap_sys_admin",
		"!%cap_chown,^cap_bpf,cap_kill,",
		"63,!^40",
	};
	struct op op;
	struct failalloc_case c = { "cap_iab_from_text", run_from_text,
				    release_out, NULL, &op };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		memset(&op, 0, sizeof(op));
		op.text = texts[i];
		ck_assert_uint_eq(failalloc_check(&c), 1);
	}
	/* Rejected text: ENOMEM when the tuple cannot be had, else EINVAL. */
	op.text = "cap_chown,cap_nonesuch";
	failalloc_check_refusal(&c, EINVAL);
	ck_assert_ptr_null(op.out);
}
END_TEST

START_TEST(to_text)
{
	static const char *const texts[] = {
		"",
		"cap_perfmon",
		"!cap_sys_admin,^cap_perfmon,%cap_bpf",
	};
	struct op op;
	struct failalloc_case c = { "cap_iab_to_text", run_to_text, release_out,
				    in_unchanged, &op };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		given_iab(&op, texts[i]);
		ck_assert_uint_eq(failalloc_check(&c), 1);
		drop_iab(&op);
	}
}
END_TEST

START_TEST(get_proc_and_pid)
{
	struct op op;
	struct failalloc_case proc = { "cap_iab_get_proc", run_get_proc,
				       release_out, NULL, &op };
	struct failalloc_case pid = { "cap_iab_get_pid", run_get_pid,
				      release_out, NULL, &op };

	memset(&op, 0, sizeof(op));
	/* The tuple, and the cap_t it is filled from. */
	ck_assert_uint_eq(failalloc_check(&proc), 2);
	ck_assert_uint_eq(failalloc_check(&pid), 1);
}
END_TEST

/* cap_proc_root: ENOMEM keeps the old root; NULL alone is no failure. */
static const char *const first_root = "/first/proc";

static int run_proc_root(void *ctx)
{
	struct op *op = ctx;

	errno = 0;
	op->out = cap_proc_root("/second/proc");
	return op->out != NULL ? 0 : -1;
}

/* Frees the old root and the new one, back to the default "/proc". */
static void release_proc_root(void *ctx)
{
	struct op *op = ctx;
	char *now;

	ck_assert_str_eq(op->out, first_root);
	release_out(ctx);
	now = cap_proc_root(NULL);
	ck_assert_str_eq(now, "/second/proc");
	cap_free(now);
}

/* Reading the root swaps it out, so put a copy back (not counted). */
static int root_unchanged(void *ctx __attribute__((unused)))
{
	char *now = cap_proc_root(NULL), *old;
	int same = now != NULL && strcmp(now, first_root) == 0;

	old = cap_proc_root(now);
	cap_free(now);
	return same && old == NULL;
}

START_TEST(proc_root)
{
	struct op op;
	struct failalloc_case c = { "cap_proc_root", run_proc_root,
				    release_proc_root, root_unchanged, &op };
	char *old;

	memset(&op, 0, sizeof(op));
	ck_assert_ptr_null(cap_proc_root(first_root));
	ck_assert_uint_eq(failalloc_check(&c), 1);
	/* Restoring the default needs no allocation. */
	ck_assert_ptr_null(cap_proc_root(first_root));
	failalloc_start(1);
	old = cap_proc_root(NULL);
	ck_assert_uint_eq(failalloc_stop(), 0);
	ck_assert_str_eq(old, first_root);
	cap_free(old);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_iab");
	TCase *tc = tcase_create("iab");

	tcase_add_test(tc, init_and_dup);
	tcase_add_test(tc, from_text);
	tcase_add_test(tc, to_text);
	tcase_add_test(tc, get_proc_and_pid);
	tcase_add_test(tc, proc_root);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
