/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * May capability.conf be trusted: could anyone but root have written it?
 *
 * libcap (2.69+) refuses only a world-writable file. A file its owner
 * bob may rewrite, or that a group or an ACL entry lets bob write, or
 * that sits in a directory bob may change (and so replace it with his
 * own file, or with a symbolic link to any root-owned file whose lines he
 * can influence), lets bob write "^cap_sys_admin bob" as surely. Root
 * alone is trusted, whoever reads: pam_cap runs as root, and capcheck and
 * perfdoctor, run by a user, must answer what pam_cap will do.
 *
 * The file is judged by the descriptor pam_cap reads (fstat, fgetxattr),
 * the directories by the path that descriptor was opened by, resolved
 * (realpath) and checked to lead to the same file: a directory no
 * untrusted user may change cannot have been changed between the open
 * and the check, and one that may is refused either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "acl.h"
#include "capconf.h"

struct trusted {
	/*
	 * In a user namespace other than the first, files of users it does
	 * not map show the overflow ids; what it grants stays inside it.
	 */
	int nested;
	uid_t overflow_uid;
	gid_t overflow_gid;
};

/* A number from a one-line /proc file, or fallback. */
static unsigned long read_number(const char *path, unsigned long fallback)
{
	unsigned long v;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return fallback;
	if (fscanf(f, "%lu", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

/* 0 in the initial user namespace (its uid_map maps every id to itself). */
static int in_nested_userns(void)
{
	unsigned long inner, outer, count;
	FILE *f = fopen("/proc/self/uid_map", "re");
	int nested = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu %lu", &inner, &outer, &count) != 3 ||
	    inner != 0 || outer != 0 || count != 4294967295UL)
		nested = 1;
	fclose(f);
	return nested;
}

static void trusted_init(struct trusted *t)
{
	t->nested = in_nested_userns();
	t->overflow_uid = (uid_t)read_number("/proc/sys/kernel/overflowuid",
					     65534);
	t->overflow_gid = (gid_t)read_number("/proc/sys/kernel/overflowgid",
					     65534);
}

static int uid_trusted(const struct trusted *t, uid_t uid)
{
	return uid == 0 || (t->nested && uid == t->overflow_uid);
}

static int gid_trusted(const struct trusted *t, gid_t gid)
{
	return gid == 0 || (t->nested && gid == t->overflow_gid);
}

/*
 * May someone untrusted write the file of st, by its mode or by the ACL
 * fd (or, when fd is -1, path: the link itself when nofollow) carries?
 * Its owner is judged apart. 1 or 0, or -1 with errno when the ACL
 * cannot be read or is not one the kernel writes.
 */
static int others_may_write(int fd, const char *path, int nofollow,
			    const struct stat *st, const struct trusted *t)
{
	unsigned char raw[4 + 8 * 64];
	struct acl_entry e[64];
	unsigned mask = 7;
	ssize_t len;
	int n, i;

	if (fd >= 0)
		len = fgetxattr(fd, ACL_XATTR_ACCESS, raw, sizeof(raw));
	else if (nofollow)
		len = lgetxattr(path, ACL_XATTR_ACCESS, raw, sizeof(raw));
	else
		len = getxattr(path, ACL_XATTR_ACCESS, raw, sizeof(raw));
	if (len < 0 && errno != ENODATA && errno != ENOTSUP)
		return -1;
	if (len < 0)
		return (st->st_mode & S_IWOTH) != 0 ||
		       ((st->st_mode & S_IWGRP) && !gid_trusted(t, st->st_gid));
	n = acl_decode(raw, (size_t)len, e, sizeof(e) / sizeof(e[0]));
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (e[i].tag == ACL_MASK)
			mask = e[i].perm;
	for (i = 0; i < n; i++) {
		if (!(e[i].perm & ACL_PERM_WRITE))
			continue;
		switch (e[i].tag) {
		case ACL_NAMED_USER:
			if ((mask & ACL_PERM_WRITE) &&
			    !uid_trusted(t, (uid_t)e[i].id))
				return 1;
			break;
		case ACL_GROUP_OBJ:
			if ((mask & ACL_PERM_WRITE) &&
			    !gid_trusted(t, st->st_gid))
				return 1;
			break;
		case ACL_NAMED_GROUP:
			if ((mask & ACL_PERM_WRITE) &&
			    !gid_trusted(t, (gid_t)e[i].id))
				return 1;
			break;
		case ACL_OTHER:
			return 1;
		default:
			break;
		}
	}
	return 0;
}

/*
 * The directories holding the file of st, from its resolved path up to
 * "/": each owned by a trusted user, and writable by no one else unless
 * sticky (then no one else may rename or remove what a trusted user
 * owns there). Returns CAPCONF_OPEN_OK, CAPCONF_OPEN_UNTRUSTED_DIR, or
 * CAPCONF_OPEN_FAILED with errno.
 */
static int directories_trusted(const char *path, const struct stat *st,
			       const struct trusted *t)
{
	char *real = realpath(path, NULL), *slash;
	struct stat ds;
	int w, rc = CAPCONF_OPEN_OK;

	if (real == NULL)
		return CAPCONF_OPEN_FAILED;
	/* The path must still lead to the file judged. */
	if (stat(real, &ds) < 0 || ds.st_dev != st->st_dev ||
	    ds.st_ino != st->st_ino) {
		free(real);
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	}
	while ((slash = strrchr(real, '/')) != NULL) {
		slash[slash == real] = '\0';	/* "/x" leaves "/" */
		if (lstat(real, &ds) < 0) {
			rc = CAPCONF_OPEN_FAILED;
			break;
		}
		if (!S_ISDIR(ds.st_mode) || !uid_trusted(t, ds.st_uid)) {
			rc = CAPCONF_OPEN_UNTRUSTED_DIR;
			break;
		}
		if (!(ds.st_mode & S_ISVTX)) {
			w = others_may_write(-1, real, 1, &ds, t);
			if (w != 0) {
				rc = w < 0 ? CAPCONF_OPEN_FAILED :
					     CAPCONF_OPEN_UNTRUSTED_DIR;
				break;
			}
		}
		if (strcmp(real, "/") == 0)
			break;
	}
	if (rc == CAPCONF_OPEN_FAILED) {
		int saved = errno;

		free(real);
		errno = saved;
		return rc;
	}
	free(real);
	return rc;
}

int capconf_trust(const char *path, int fd, const struct stat *st)
{
	struct trusted t;
	int w;

	/* "anyone could have rewritten it": the message libcap users know */
	if (st->st_mode & S_IWOTH)
		return CAPCONF_OPEN_WORLD_WRITABLE;
	trusted_init(&t);
	if (!uid_trusted(&t, st->st_uid))
		return CAPCONF_OPEN_UNTRUSTED;
	w = others_may_write(fd, path, 0, st, &t);
	if (w < 0)
		return CAPCONF_OPEN_FAILED;
	if (w > 0)
		return CAPCONF_OPEN_UNTRUSTED;
	return directories_trusted(path, st, &t);
}
