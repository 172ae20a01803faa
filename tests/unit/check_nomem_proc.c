/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory reading process capabilities: cap_get_proc and cap_get_pid
 * fail cleanly (NULL, ENOMEM, nothing leaked) whichever allocation fails,
 * and a failed read leaves the process's own sets as they were.
 */
#include <errno.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "failalloc.h"

struct op {
	pid_t pid;
	cap_t before; /* the process's sets before the call */
	void *out;
};

FAILALLOC_RUN(run_get_proc, struct op, cap_get_proc())
FAILALLOC_RUN(run_get_pid, struct op, cap_get_pid(op->pid))

static void release_out(void *ctx)
{
	struct op *op = ctx;

	/* What was read is the real state. */
	ck_assert_int_eq(cap_compare(op->out, op->before), 0);
	ck_assert_int_eq(cap_free(op->out), 0);
	op->out = NULL;
}

static int proc_unchanged(void *ctx)
{
	struct op *op = ctx;
	cap_t now = cap_get_proc();
	int same = now != NULL && cap_compare(now, op->before) == 0;

	cap_free(now);
	return same;
}

START_TEST(get_proc_and_pid)
{
	struct op op = { .pid = 0 };
	struct failalloc_case proc = { "cap_get_proc", run_get_proc,
				       release_out, proc_unchanged, &op };
	struct failalloc_case pid = { "cap_get_pid", run_get_pid, release_out,
				      proc_unchanged, &op };

	op.before = cap_get_proc();
	ck_assert_ptr_nonnull(op.before);
	ck_assert_uint_eq(failalloc_check(&proc), 1);
	op.pid = getpid();
	ck_assert_uint_eq(failalloc_check(&pid), 1);
	op.pid = 0;
	ck_assert_uint_eq(failalloc_check(&pid), 1);
	cap_free(op.before);
}
END_TEST

/* A pid that does not exist fails with ESRCH, allocating nothing that stays. */
START_TEST(missing_pid)
{
	cap_t caps;
	int err;

	failalloc_start(0);
	caps = cap_get_pid(0x3fffffff);
	err = errno;
	failalloc_stop();
	ck_assert_ptr_null(caps);
	ck_assert_int_eq(err, ESRCH);
	ck_assert_uint_eq(failalloc_live(), 0);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_proc");
	TCase *tc = tcase_create("proc");

	tcase_add_test(tc, get_proc_and_pid);
	tcase_add_test(tc, missing_pid);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
