/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory in pam_cap's capability.conf matcher (common/capconf.c,
 * capconf_match.c, linked in): whichever allocation fails, capconf_find()
 * answers CAPCONF_NOMEM with nothing leaked, never a grant. In particular
 * a group name it could not copy must not make the user look like a
 * non-member, which would hand out a later line's grant instead.
 */
#define _GNU_SOURCE /* unshare (check_userns.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_userns.h"
#include "capconf.h"
#include "failalloc.h"

struct op {
	char path[64];
	struct capconf_match m;
	int rc;
};

static int run_find(void *ctx)
{
	struct op *op = ctx;

	op->rc = capconf_find(op->path, "root", &op->m, NULL, NULL);
	if (op->rc == CAPCONF_NOMEM)
		return -1;
	/* Any answer but NOMEM counts as success: it must then be right. */
	return 0;
}

static void release_match(void *ctx)
{
	struct op *op = ctx;

	ck_assert_int_eq(op->rc, CAPCONF_FOUND);
	ck_assert_uint_eq(op->m.line, 1);
	ck_assert_str_eq(op->m.caps, "cap_perfmon");
	ck_assert_str_eq(op->m.who, "@root");
	capconf_match_release(&op->m);
}

START_TEST(find_by_group)
{
	struct op op;
	struct failalloc_case c = { "capconf_find", run_find, release_match,
				    NULL, &op };
	char dir[] = "/tmp/nomem_capconf.XXXXXX";
	FILE *f;

	memset(&op, 0, sizeof(op));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(op.path, sizeof(op.path), "%s/capability.conf", dir);
	f = fopen(op.path, "w");
	ck_assert_ptr_nonnull(f);
	/* root is in group root: line 1 applies, never line 2. */
	fputs("cap_perfmon @root\ncap_chown root\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_ge(failalloc_check(&c), 4);
	ck_assert_int_eq(unlink(op.path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_capconf");
	TCase *tc = tcase_create("capconf");
	check_as_root();

	tcase_add_test(tc, find_by_group);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
