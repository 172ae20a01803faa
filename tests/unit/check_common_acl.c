/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/acl.c: the ACL xattr decoded strictly, and the kernel's rule for
 * who may write: the owner's entry for the owner only, named users and
 * every group entry limited by the mask, a matching group class that
 * denies ending the search before "other".
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "check_run.h"
#include "acl.h"

/* Appends one little-endian entry to buf at *len. */
static void put(unsigned char *buf, size_t *len, unsigned tag, unsigned perm,
		uint32_t id)
{
	unsigned char *q = buf + *len;

	q[0] = tag & 0xff;
	q[1] = tag >> 8;
	q[2] = perm & 0xff;
	q[3] = perm >> 8;
	q[4] = id & 0xff;
	q[5] = (id >> 8) & 0xff;
	q[6] = (id >> 16) & 0xff;
	q[7] = id >> 24;
	*len += 8;
}

static int in_100(gid_t gid, const void *ctx)
{
	(void)ctx;
	return gid == 100;
}

static int in_none(gid_t gid, const void *ctx)
{
	(void)gid;
	(void)ctx;
	return 0;
}

/* root:50 0755 with user:1000:rwx, group:100:rwx and mask r-x. */
static int decode_sample(struct acl_entry *e)
{
	unsigned char raw[4 + 8 * 6] = { 2, 0, 0, 0 };
	size_t len = 4;

	put(raw, &len, ACL_USER_OBJ, 7, 0xffffffff);
	put(raw, &len, ACL_NAMED_USER, 7, 1000);
	put(raw, &len, ACL_GROUP_OBJ, 5, 0xffffffff);
	put(raw, &len, ACL_NAMED_GROUP, 7, 100);
	put(raw, &len, ACL_MASK, 5, 0xffffffff);
	put(raw, &len, ACL_OTHER, 5, 0xffffffff);
	return acl_decode(raw, len, e, 8);
}

START_TEST(decodes_the_kernels_format)
{
	struct acl_entry e[8];

	ck_assert_int_eq(decode_sample(e), 6);
	ck_assert_uint_eq(e[1].tag, ACL_NAMED_USER);
	ck_assert_uint_eq(e[1].perm, 7);
	ck_assert_uint_eq(e[1].id, 1000);
	ck_assert_uint_eq(e[4].tag, ACL_MASK);
}
END_TEST

START_TEST(refuses_what_the_kernel_never_writes)
{
	unsigned char raw[4 + 8 * 2] = { 2, 0, 0, 0 };
	struct acl_entry e[1];
	size_t len = 4;

	errno = 0;
	ck_assert_int_eq(acl_decode(raw, 3, e, 1), -1); /* no version */
	ck_assert_int_eq(errno, EINVAL);
	raw[0] = 1;
	ck_assert_int_eq(acl_decode(raw, 4, e, 1), -1); /* version 1 */
	raw[0] = 2;
	put(raw, &len, 0x40, 7, 0); /* unknown tag */
	ck_assert_int_eq(acl_decode(raw, len, e, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(acl_decode(raw, len - 1, e, 1),
			 -1); /* half an entry */
	len = 4;
	put(raw, &len, ACL_OTHER, 7, 0);
	put(raw, &len, ACL_OTHER, 7, 0);
	errno = 0;
	ck_assert_int_eq(acl_decode(raw, len, e, 1), -1); /* no room */
	ck_assert_int_eq(errno, E2BIG);
}
END_TEST

START_TEST(the_mask_limits_named_entries_and_groups)
{
	struct acl_entry e[8];
	struct stat st;
	int n = decode_sample(e);

	memset(&st, 0, sizeof(st));
	st.st_uid = 0;
	st.st_gid = 50;
	/* The owner: its own entry, no mask. */
	ck_assert(acl_permits(e, n, &st, 0, in_none, NULL, ACL_PERM_WRITE));
	/* user:1000:rwx under mask r-x: no write, but read. */
	ck_assert(!acl_permits(e, n, &st, 1000, in_none, NULL, ACL_PERM_WRITE));
	ck_assert(acl_permits(e, n, &st, 1000, in_none, NULL, 4));
	/* group:100:rwx under mask r-x: no write. */
	ck_assert(!acl_permits(e, n, &st, 2000, in_100, NULL, ACL_PERM_WRITE));
	/* Widen the mask: both write. */
	e[4].perm = 7;
	ck_assert(acl_permits(e, n, &st, 1000, in_none, NULL, ACL_PERM_WRITE));
	ck_assert(acl_permits(e, n, &st, 2000, in_100, NULL, ACL_PERM_WRITE));
	/* Others: their entry, not the mask. */
	ck_assert(!acl_permits(e, n, &st, 2000, in_none, NULL, ACL_PERM_WRITE));
	e[5].perm = 7;
	ck_assert(acl_permits(e, n, &st, 2000, in_none, NULL, ACL_PERM_WRITE));
}
END_TEST

START_TEST(a_matching_group_that_denies_ends_the_search)
{
	/* 0757 as a minimal ACL: group r-x, other rwx. */
	struct acl_entry e[3] = {
		{ ACL_USER_OBJ, 7, 0 },
		{ ACL_GROUP_OBJ, 5, 0 },
		{ ACL_OTHER, 7, 0 },
	};
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_gid = 100;
	ck_assert(!acl_permits(e, 3, &st, 1000, in_100, NULL, ACL_PERM_WRITE));
	ck_assert(acl_permits(e, 3, &st, 1000, in_none, NULL, ACL_PERM_WRITE));
}
END_TEST

/* The mask limits every entry but the owner's and other; none is 7. */
START_TEST(effective_permissions_under_the_mask)
{
	struct acl_entry e[] = {
		{ ACL_USER_OBJ, 6, 0 },	 { ACL_NAMED_USER, 6, 1000 },
		{ ACL_GROUP_OBJ, 6, 0 }, { ACL_NAMED_GROUP, 7, 100 },
		{ ACL_MASK, 4, 0 },	 { ACL_OTHER, 2, 0 },
	};
	unsigned mask = acl_mask(e, 6);

	ck_assert_uint_eq(mask, 4);
	ck_assert_uint_eq(acl_effective(&e[0], mask), 6);
	ck_assert_uint_eq(acl_effective(&e[1], mask), 4);
	ck_assert_uint_eq(acl_effective(&e[2], mask), 4);
	ck_assert_uint_eq(acl_effective(&e[3], mask), 4);
	ck_assert_uint_eq(acl_effective(&e[5], mask), 2);
	/* A minimal ACL (no mask entry): nothing limited. */
	ck_assert_uint_eq(acl_mask(e, 4), 7);
	ck_assert_uint_eq(acl_effective(&e[1], acl_mask(e, 4)), 6);
}
END_TEST

/* chmod rewrites the entries that mirror the mode, and no other. */
START_TEST(chmod_rewrites_the_mirrored_entries)
{
	struct acl_entry e[] = {
		{ ACL_USER_OBJ, 7, 0 },	 { ACL_NAMED_USER, 6, 1000 },
		{ ACL_GROUP_OBJ, 5, 0 }, { ACL_MASK, 7, 0 },
		{ ACL_OTHER, 5, 0 },
	};
	struct acl_entry minimal[] = {
		{ ACL_USER_OBJ, 7, 0 },
		{ ACL_GROUP_OBJ, 5, 0 },
		{ ACL_OTHER, 5, 0 },
	};

	acl_chmod(e, 5, 0640);
	ck_assert_uint_eq(e[0].perm, 6);
	ck_assert_uint_eq(e[1].perm, 6); /* named: kept, under the mask */
	ck_assert_uint_eq(e[2].perm, 5); /* the mask stands for the group */
	ck_assert_uint_eq(e[3].perm, 4);
	ck_assert_uint_eq(e[4].perm, 0);
	ck_assert_uint_eq(acl_effective(&e[1], acl_mask(e, 5)), 4);
	/* without a mask, the owning group's entry is the group bits */
	acl_chmod(minimal, 3, 0751);
	ck_assert_uint_eq(minimal[0].perm, 7);
	ck_assert_uint_eq(minimal[1].perm, 5);
	ck_assert_uint_eq(minimal[2].perm, 1);
}
END_TEST

static Suite *acl_suite(void)
{
	Suite *s = suite_create("common_acl");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, decodes_the_kernels_format);
	tcase_add_test(tc, refuses_what_the_kernel_never_writes);
	tcase_add_test(tc, the_mask_limits_named_entries_and_groups);
	tcase_add_test(tc, a_matching_group_that_denies_ends_the_search);
	tcase_add_test(tc, effective_permissions_under_the_mask);
	tcase_add_test(tc, chmod_rewrites_the_mirrored_entries);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(acl_suite)
