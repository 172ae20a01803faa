/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * POSIX access ACLs as the kernel stores them (the system.posix_acl_access
 * xattr: a version word, then one 8-byte entry per tag) and the kernel's
 * rule for who may do what (fs/posix_acl.c, posix_acl_permission()), so a
 * verdict about "may this user write the file" does not stop at the mode
 * bits when an ACL stands beside them.
 */
#ifndef COMMON_ACL_H
#define COMMON_ACL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define ACL_XATTR_ACCESS "system.posix_acl_access"

enum {
	ACL_USER_OBJ = 0x01,
	ACL_NAMED_USER = 0x02,
	ACL_GROUP_OBJ = 0x04,
	ACL_NAMED_GROUP = 0x08,
	ACL_MASK = 0x10,
	ACL_OTHER = 0x20,
};

/* Permission bits of an entry, as in the mode's rwx triplets. */
#define ACL_PERM_WRITE 2

struct acl_entry {
	unsigned tag;  /* ACL_* */
	unsigned perm; /* rwx as 4, 2, 1 */
	uint32_t id;   /* the uid or gid of a named entry */
};

/* The most entries acl_decode() takes (the kernel allows far fewer per page). */
#define ACL_MAX_ENTRIES 1024

/*
 * Decodes raw (len bytes of the xattr) into e (room for max entries).
 * Returns how many entries, or -1 with errno EINVAL (not version 2, a
 * length that is not whole entries, an unknown tag) or E2BIG (more than
 * max).
 */
int acl_decode(const void *raw, size_t len, struct acl_entry *e, size_t max);

/* The ACL's mask entry's permissions, or 7 (no limit) when it has none. */
unsigned acl_mask(const struct acl_entry *e, int n);

/*
 * The permissions entry e grants as the kernel applies them, mask from
 * acl_mask(): the mask limits every entry but the owner's and other.
 */
unsigned acl_effective(const struct acl_entry *e, unsigned mask);

/*
 * Whether the kernel grants want (ACL_PERM_WRITE, ...) to uid with the
 * group test in_group, on a file with owner and group of st and the ACL
 * e (n entries, decoded). The owner's own entry counts for the owner
 * only; a named user entry and every group entry are limited by the mask.
 */
int acl_permits(const struct acl_entry *e, int n, const struct stat *st,
		uid_t uid, int (*in_group)(gid_t gid, const void *ctx),
		const void *ctx, unsigned want);

/*
 * What chmod(2) to mode leaves of an ACL (fs/posix_acl.c,
 * __posix_acl_chmod()): the entries that mirror the mode are rewritten
 * (the owner's, the mask's or, without a mask, the owning group's, and
 * other's); the named entries stay, limited by the new mask.
 */
void acl_chmod(struct acl_entry *e, int n, mode_t mode);

#endif
