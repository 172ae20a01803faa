/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: who besides root may change a file, or the directories on
 * its way, judged as the kernel judges write access (fs/namei.c,
 * acl_permission_check(); fs/posix_acl.c, posix_acl_permission()).
 *
 * A directory someone else may write is one where they may add, rename
 * and remove names: the file found at a path there may be theirs, or a
 * file of root's they moved there, or linked there. The sticky bit does
 * not change that: it only stops them renaming or removing names of
 * files they do not own. They may still create any name that is free
 * (before a package puts the file there, or after it is removed, as an
 * upgrade does for a moment), hard-link a root-owned file there when
 * protected_hardlinks is off, and whoever owns the directory may remove
 * anything in it; so a world-writable sticky directory (/tmp) is no more
 * root's alone than any other writable one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl.h"
#include "capmanifest.h"
#include "fsbacking.h"
#include "fsowner.h"
#include "mounts.h"
#include "walk.h"

/*
 * With an access ACL the kernel decides for everyone but the owner from
 * the ACL's entries, if the mode has any group bit (the mask, then);
 * without one, or with no group bit, from the mode. Named users and every
 * group entry are limited by the mask, "other" is not.
 */
static int acl_writers(const struct acl_entry *e, int n, gid_t group,
		       uid_t allowed, char why[WHY_SIZE])
{
	unsigned mask = acl_mask(e, n);
	int i;

	for (i = 0; i < n; i++) {
		if (!(acl_effective(&e[i], mask) & ACL_PERM_WRITE))
			continue;
		switch (e[i].tag) {
		case ACL_NAMED_USER:
			if (e[i].id == 0 || e[i].id == allowed)
				continue;
			snprintf(why, WHY_SIZE,
				 "uid %u may write it (ACL entry)",
				 (unsigned)e[i].id);
			return 1;
		case ACL_GROUP_OBJ:
			snprintf(why, WHY_SIZE,
				 "group %u may write it (ACL entry)",
				 (unsigned)group);
			return 1;
		case ACL_NAMED_GROUP:
			snprintf(why, WHY_SIZE,
				 "group %u may write it (ACL entry)",
				 (unsigned)e[i].id);
			return 1;
		case ACL_OTHER:
			snprintf(why, WHY_SIZE,
				 "everyone may write it (ACL entry)");
			return 1;
		default: /* the owner's entry, the mask itself */
			continue;
		}
	}
	return 0;
}

/*
 * chmod(2) on a file with an ACL rewrites the entries that mirror the
 * mode: the owner's, the mask's (or, without a mask, the owning group's)
 * and other's (fs/posix_acl.c, __posix_acl_chmod()). The named entries
 * stay, limited by the new mask.
 */
static void acl_chmod(struct acl_entry *e, int n, mode_t mode)
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

/* What becomes of the file's ACL in writers_of(). */
enum acl_fate {
	ACL_AS_IS,    /* judged as it is now */
	ACL_CHMODDED, /* as chmod to st's mode will leave it */
	ACL_GIVEN,    /* replaced by the entries given (a manifest's) */
	ACL_REMOVED,  /* none: the mode bits alone decide */
};

/*
 * The ACL writers_of() judges, decoded into *e (the caller frees it), its
 * count in *n: 1, 0 when there is none, -1 with errno, or 2 when the
 * file's cannot be decoded (why then says so: who may write it is
 * unknown, which counts as someone).
 */
static int acl_judged(int fd, enum acl_fate fate, const char *given,
		      struct acl_entry **e, int *n, char why[WHY_SIZE])
{
	unsigned char *raw = NULL;
	size_t len = 0;
	int rc;

	*e = NULL;
	if (fate == ACL_REMOVED)
		return 0;
	if (fate == ACL_GIVEN)
		return acl_text_parse(given, e, n) < 0 ? -1 : 1;
	rc = entry_acl(fd, &raw, &len);
	if (rc <= 0)
		return rc;
	*e = calloc(len / 8 + 1, sizeof(**e));
	if (*e == NULL) {
		free(raw);
		errno = ENOMEM;
		return -1;
	}
	*n = acl_decode(raw, len, *e, len / 8 + 1);
	free(raw);
	if (*n < 0) {
		snprintf(
			why, WHY_SIZE,
			"its ACL cannot be decoded (%s), so who may write it is unknown",
			strerror(errno));
		return 2;
	}
	return 1;
}

static int writers_of(int fd, const struct stat *st, uid_t allowed,
		      enum acl_fate fate, const char *given, char why[WHY_SIZE])
{
	struct acl_entry *e;
	const char *sticky;
	int has_acl, n = 0, rc;

	/*
	 * On FUSE its daemon says who owns it and who may write it, and
	 * serves what it likes: nothing below is the kernel's word.
	 */
	rc = fs_owner_unvouched(fd, NULL);
	if (rc != 0) {
		if (rc > 0)
			snprintf(why, WHY_SIZE, "it is " FS_OWNER_FUSE_WHY);
		return rc;
	}
	/*
	 * Nor through an idmapped mount (its mapping says who owns it), nor
	 * where its file system is a disk image someone else writes.
	 */
	rc = mount_idmapped(fd);
	if (rc != 0) {
		if (rc > 0)
			snprintf(why, WHY_SIZE, "it is " MOUNT_IDMAPPED_WHY);
		else if (errno != ENOMEM)
			snprintf(
				why, WHY_SIZE,
				"whether its mount is idmapped cannot be told (%s)",
				strerror(errno));
		return rc > 0 || errno != ENOMEM ? 1 : -1;
	}
	{
		char how[WHY_SIZE - 8];

		rc = fs_backing_writer(fd, NULL, how, sizeof(how));
		if (rc > 0)
			snprintf(why, WHY_SIZE, "it is %s", how);
		if (rc != 0)
			return rc;
	}
	/* An owner may always chmod it writable: owning is writing. */
	if (st->st_uid != 0 && st->st_uid != allowed) {
		snprintf(why, WHY_SIZE, "uid %u owns it", (unsigned)st->st_uid);
		return 1;
	}
	has_acl = acl_judged(fd, fate, given, &e, &n, why);
	if (has_acl < 0 || has_acl == 2) {
		free(e);
		return has_acl < 0 ? -1 : 1;
	}
	if (has_acl && (st->st_mode & S_IRWXG)) {
		/* (A manifest's ACL agrees with its mode: no change.) */
		if (fate == ACL_CHMODDED || fate == ACL_GIVEN)
			acl_chmod(e, n, st->st_mode);
		rc = acl_writers(e, n, st->st_gid, allowed, why);
		free(e);
		return rc;
	}
	free(e);
	rc = 0;
	/* The sticky bit still lets them add names: see the top. */
	sticky = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)
			 ? ", sticky, which still lets them add names"
			 : "";
	if (st->st_mode & S_IWOTH) {
		snprintf(why, WHY_SIZE, "everyone may write it (mode %04o%s)",
			 (unsigned)(st->st_mode & 07777), sticky);
		rc = 1;
	} else if (st->st_mode & S_IWGRP) {
		snprintf(why, WHY_SIZE, "group %u may write it (mode %04o%s)",
			 (unsigned)st->st_gid, (unsigned)(st->st_mode & 07777),
			 sticky);
		rc = 1;
	}
	return rc;
}

int writers_besides(int fd, const struct stat *st, uid_t allowed,
		    char why[WHY_SIZE])
{
	return writers_of(fd, st, allowed, ACL_AS_IS, NULL, why);
}

int writers_after_fix(int fd, const struct stat *st, const struct meta *want,
		      char why[WHY_SIZE])
{
	struct stat as = *st;
	enum acl_fate fate = ACL_REMOVED;

	as.st_uid = want->uid;
	as.st_gid = want->gid;
	as.st_mode = (st->st_mode & S_IFMT) | want->mode;
	/*
	 * entry_fix_meta() writes the ACL the manifest records, removes one
	 * it does not, and chmods one it only knows is there (a manifest
	 * before version 4).
	 */
	if (want->acl_text != NULL)
		fate = ACL_GIVEN;
	else if (want->acl)
		fate = ACL_CHMODDED;
	return writers_of(fd, &as, want->uid, fate, want->acl_text, why);
}

void print_way(FILE *out, const struct way *w)
{
	fputs("directory ", out);
	print_escaped(out, w->dir);
	fprintf(out, ": %s", w->why);
}

/*
 * One directory of the way (a struct way), named by len bytes of name: 0
 * (way updated if it is the first others may write), or -1 with errno.
 */
static int check_dir(int dirfd, const char *name, size_t len, void *arg)
{
	struct way *way = arg;
	struct stat st;
	int rc;

	if (!way->root_only)
		return 0; /* the first one found is the one named */
	if (fstat(dirfd, &st) < 0)
		return -1;
	rc = writers_besides(dirfd, &st, geteuid(), way->why);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		way->root_only = 0;
		if (len >= sizeof(way->dir))
			len = sizeof(way->dir) - 1;
		memcpy(way->dir, name, len);
		way->dir[len] = '\0';
	}
	return 0;
}

int open_checked_beneath(int rootfd, const char *relpath, struct stat *st,
			 struct way *way)
{
	way->root_only = 1;
	way->dir[0] = way->why[0] = '\0';
	if (check_dir(rootfd, ".", 1, way) < 0)
		return -1;
	return walk_open_beneath_checked(rootfd, relpath, st, check_dir, way);
}

/*
 * Whether a directory others may write still cannot lose child, the next
 * directory on the way: it is sticky, and both it and child belong to
 * root or to the user running capmanifest, so nobody else may rename or
 * remove child (fs/namei.c, may_delete() and check_sticky()). /tmp
 * holding a directory of root's is the common case.
 */
static int sticky_keeps(const struct stat *dir, const struct stat *child)
{
	uid_t me = geteuid();

	return S_ISDIR(dir->st_mode) && (dir->st_mode & S_ISVTX) &&
	       (dir->st_uid == 0 || dir->st_uid == me) &&
	       (child->st_uid == 0 || child->st_uid == me);
}

int writers_above(int dirfd, int sticky_holds, struct way *way)
{
	char link[40];
	struct stat st, up;
	int fd = dirfd, rc = 0, hops;

	way->root_only = 1;
	way->dir[0] = way->why[0] = '\0';
	if (fstat(fd, &st) < 0)
		return -1;
	/*
	 * Up through "..", which at the top of a mount crosses to the
	 * mount point's parent and at the process's root stays there. A
	 * non-root user cannot move any of these under a directory of
	 * root's alone, so a chain that is root's alone when read stays so.
	 */
	for (hops = 0; hops < 4096; hops++) {
		int parent = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		ssize_t n;

		if (parent < 0 || fstat(parent, &up) < 0) {
			int saved = errno;

			if (parent >= 0)
				close(parent);
			errno = saved;
			rc = -1;
			break;
		}
		if (fd != dirfd)
			close(fd);
		fd = parent;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break; /* "/" is its own parent */
		rc = writers_besides(fd, &up, geteuid(), way->why);
		if (rc < 0)
			break;
		if (rc > 0 && sticky_holds && sticky_keeps(&up, &st))
			rc = 0;
		if (rc > 0) {
			/* Its name, for the message only. */
			way->root_only = 0;
			snprintf(link, sizeof(link), "/proc/thread-self/fd/%d",
				 fd);
			n = readlink(link, way->dir, sizeof(way->dir) - 1);
			if (n < 0)
				n = snprintf(way->dir, sizeof(way->dir),
					     "(above the tree)");
			way->dir[n] = '\0';
			rc = 0;
			break;
		}
		st = up;
	}
	if (hops == 4096) {
		errno = ELOOP;
		rc = -1;
	}
	if (fd != dirfd) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return rc;
}
