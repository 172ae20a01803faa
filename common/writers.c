/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Who besides root may change a file, judged as the kernel judges write
 * access (fs/namei.c, acl_permission_check(); fs/posix_acl.c,
 * posix_acl_permission()): the owner always (chmod), then the access ACL
 * when there is one and the mode has a group bit (the mask, then), else
 * the mode's group and other bits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/xattr.h>

#include "acl.h"
#include "writers.h"

/* The largest ACL read: as many entries as acl_decode() takes. */
#define ACL_RAW_MOST	(4 + 8 * ACL_MAX_ENTRIES)

static int trusted_user(uint32_t id, uid_t uid)
{
	return id == 0 || id == (uint32_t)uid;
}

static int trusted_group(uint32_t id, gid_t gid)
{
	return id == 0 || id == (uint32_t)gid;
}

/* Who an ACL lets write, besides the owner: 1 with why, or 0. */
static int acl_writers(const struct acl_entry *e, int n, const struct stat *st,
		       uid_t uid, gid_t gid, char *why, size_t whylen)
{
	unsigned mask = 7;
	int i;

	for (i = 0; i < n; i++)
		if (e[i].tag == ACL_MASK)
			mask = e[i].perm;
	for (i = 0; i < n; i++) {
		unsigned eff = e[i].tag == ACL_OTHER ? e[i].perm :
			       e[i].perm & mask;

		if (!(eff & ACL_PERM_WRITE))
			continue;
		if (e[i].tag == ACL_NAMED_USER && !trusted_user(e[i].id, uid)) {
			snprintf(why, whylen, "an ACL entry lets uid %lu write "
				 "it", (unsigned long)e[i].id);
			return 1;
		}
		if (e[i].tag == ACL_NAMED_GROUP &&
		    !trusted_group(e[i].id, gid)) {
			snprintf(why, whylen, "an ACL entry lets group %lu "
				 "write it", (unsigned long)e[i].id);
			return 1;
		}
		if (e[i].tag == ACL_GROUP_OBJ &&
		    !trusted_group(st->st_gid, gid)) {
			snprintf(why, whylen, "its group %lu may write it",
				 (unsigned long)st->st_gid);
			return 1;
		}
		if (e[i].tag == ACL_OTHER) {
			snprintf(why, whylen, "everybody may write it");
			return 1;
		}
	}
	return 0;
}

/* The mode's verdict, where no ACL takes part. */
static int mode_writers(const struct stat *st, gid_t gid, char *why,
			size_t whylen)
{
	if ((st->st_mode & S_IWGRP) && !trusted_group(st->st_gid, gid)) {
		snprintf(why, whylen, "its group %lu may write it",
			 (unsigned long)st->st_gid);
		return 1;
	}
	return 0;
}

int writers_besides(int fd, const struct stat *st, uid_t uid, gid_t gid,
		    char *why, size_t whylen)
{
	unsigned char *raw = NULL;
	struct acl_entry *e = NULL;
	ssize_t len;
	int n, rc = -1, saved;

	if (!trusted_user(st->st_uid, uid)) {
		snprintf(why, whylen, "uid %lu owns it, and may make it "
			 "say anything", (unsigned long)st->st_uid);
		return 1;
	}
	if (st->st_mode & S_IWOTH) {
		snprintf(why, whylen, "everybody may write it");
		return 1;
	}
	/* Without group bits the ACL's entries (under the mask) grant none. */
	if (!(st->st_mode & S_IRWXG))
		return 0;
	/* Most files have no ACL: ask its size first, and allocate for one. */
	len = fgetxattr(fd, ACL_XATTR_ACCESS, NULL, 0);
	if (len < 0 && (errno == ENODATA || errno == ENOTSUP))
		return mode_writers(st, gid, why, whylen);
	raw = malloc(ACL_RAW_MOST);
	e = calloc(ACL_MAX_ENTRIES, sizeof(*e));
	if (raw == NULL || e == NULL) {
		snprintf(why, whylen, "out of memory reading its ACL");
		errno = ENOMEM;
		goto out;
	}
	len = fgetxattr(fd, ACL_XATTR_ACCESS, raw, ACL_RAW_MOST);
	if (len < 0 && (errno == ENODATA || errno == ENOTSUP)) {
		rc = mode_writers(st, gid, why, whylen);
		goto out;
	}
	if (len < 0) {
		/* ERANGE: more entries than we judge. */
		snprintf(why, whylen, "its ACL cannot be read, so who may "
			 "write it is unknown");
		goto out;
	}
	n = acl_decode(raw, (size_t)len, e, ACL_MAX_ENTRIES);
	if (n < 0) {
		snprintf(why, whylen, "its ACL cannot be decoded, so who may "
			 "write it is unknown");
		goto out;
	}
	rc = acl_writers(e, n, st, uid, gid, why, whylen);
out:
	saved = errno;
	free(raw);
	free(e);
	errno = saved;
	return rc;
}
