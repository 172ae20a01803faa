/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* POSIX access ACLs decoded and judged as the kernel does (see acl.h). */
#include <errno.h>

#include "acl.h"

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int acl_decode(const void *raw, size_t len, struct acl_entry *e, size_t max)
{
	const unsigned char *p = raw;
	size_t n, i;

	if (len < 4 || (len - 4) % 8 != 0 || le32(p) != 2) {
		errno = EINVAL;
		return -1;
	}
	n = (len - 4) / 8;
	if (n > max || n > ACL_MAX_ENTRIES) {
		errno = E2BIG;
		return -1;
	}
	for (i = 0; i < n; i++) {
		const unsigned char *q = p + 4 + 8 * i;

		e[i].tag = le16(q);
		e[i].perm = le16(q + 2);
		e[i].id = le32(q + 4);
		switch (e[i].tag) {
		case ACL_USER_OBJ:
		case ACL_NAMED_USER:
		case ACL_GROUP_OBJ:
		case ACL_NAMED_GROUP:
		case ACL_MASK:
		case ACL_OTHER:
			break;
		default:
			errno = EINVAL;
			return -1;
		}
	}
	return (int)n;
}

unsigned acl_mask(const struct acl_entry *e, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (e[i].tag == ACL_MASK)
			return e[i].perm;
	return 7;
}

unsigned acl_effective(const struct acl_entry *e, unsigned mask)
{
	if (e->tag == ACL_USER_OBJ || e->tag == ACL_OTHER)
		return e->perm;
	return e->perm & mask;
}

int acl_permits(const struct acl_entry *e, int n, const struct stat *st,
		uid_t uid, int (*in_group)(gid_t gid, const void *ctx),
		const void *ctx, unsigned want)
{
	unsigned mask = 7, other = 0;
	int i, group_found = 0;

	for (i = 0; i < n; i++) {
		if (e[i].tag == ACL_MASK)
			mask = e[i].perm;
		else if (e[i].tag == ACL_OTHER)
			other = e[i].perm;
	}
	if (uid == st->st_uid) {
		for (i = 0; i < n; i++)
			if (e[i].tag == ACL_USER_OBJ)
				return (e[i].perm & want) == want;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (e[i].tag == ACL_NAMED_USER && e[i].id == uid)
			return (e[i].perm & mask & want) == want;
	for (i = 0; i < n; i++) {
		gid_t g;

		if (e[i].tag == ACL_GROUP_OBJ)
			g = st->st_gid;
		else if (e[i].tag == ACL_NAMED_GROUP)
			g = (gid_t)e[i].id;
		else
			continue;
		if (!in_group(g, ctx))
			continue;
		group_found = 1;
		if ((e[i].perm & mask & want) == want)
			return 1;
	}
	if (group_found)
		return 0;
	return (other & want) == want;
}

void acl_chmod(struct acl_entry *e, int n, mode_t mode)
{
	int i, masked = 0;

	for (i = 0; i < n; i++)
		if (e[i].tag == ACL_MASK)
			masked = 1;
	for (i = 0; i < n; i++) {
		if (e[i].tag == ACL_USER_OBJ)
			e[i].perm = (mode >> 6) & 7;
		else if (e[i].tag == ACL_MASK ||
			 (e[i].tag == ACL_GROUP_OBJ && !masked))
			e[i].perm = (mode >> 3) & 7;
		else if (e[i].tag == ACL_OTHER)
			e[i].perm = mode & 7;
	}
}
