/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: who besides root may change a file, or the directories on
 * its way; path_trust.h judges, and this is capmanifest's policy and the
 * words its messages say it in.
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
 * root's alone than any other writable one (PATH_TRUST_STICKY_NEVER),
 * but above the manifest's own directory (PATH_TRUST_STICKY_ABOVE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl.h"
#include "capmanifest.h"
#include "path_trust.h"
#include "walk.h"
#include "why.h"

/* capmanifest's questions, with the reason for each in path_trust.h. */
static void policy_init(struct path_trust *t, uid_t also,
			enum path_trust_sticky sticky)
{
	const struct path_trust_policy p = {
		.also = also,
		.overflow_uid = 0,
		.sticky = sticky,
		.sealed_mounts = 0,
		.words = PATH_TRUST_WORDS_MANIFEST,
	};

	path_trust_init(t, &p);
}

/*
 * A verdict of one inode (rc, path_trust's) as writers_besides() returns
 * it: the reason into why. An ACL that cannot be read or decoded leaves
 * who may write it unknown, which is said as a refusal.
 */
static int say_inode(const struct path_trust *t, int rc, char why[WHY_SIZE])
{
	if (rc < 0 && t->how == PATH_TRUST_UNKNOWN && errno != ENOMEM)
		rc = 1;
	if (rc > 0 && (t->how == PATH_TRUST_FUSE || t->how == PATH_TRUST_SHOWN))
		why_say(why, WHY_SIZE, "it is %s", t->why);
	else if (rc > 0)
		why_say(why, WHY_SIZE, "%s", t->why);
	return rc;
}

int writers_besides(int fd, const struct stat *st, uid_t allowed,
		    char why[WHY_SIZE])
{
	struct path_trust t;

	policy_init(&t, allowed, PATH_TRUST_STICKY_NEVER);
	return say_inode(&t, path_trust_inode(&t, fd, NULL, st), why);
}

/*
 * The ACL entry_fix_meta() will leave on the file of fd (mode as), into
 * *e (the caller frees it) and *n: the manifest's (a version 4 one
 * records them), none (it records none), or the file's own as chmod to
 * as will leave it (an older one records only that there is one). 0, -1
 * with errno, or -2 with errno when the file's cannot be decoded.
 */
static int acl_after_fix(int fd, const struct meta *want, mode_t as,
			 struct acl_entry **e, int *n)
{
	unsigned char *raw = NULL;
	size_t len = 0;
	int rc;

	*e = NULL;
	*n = 0;
	if (want->acl_text != NULL) {
		if (acl_text_parse(want->acl_text, e, n) < 0)
			return -1;
	} else if (want->acl) {
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
			int saved = errno;

			free(*e);
			*e = NULL;
			*n = 0;
			errno = saved;
			return -2;
		}
	}
	/* (A manifest's ACL agrees with its mode: no change.) */
	acl_chmod(*e, *n, as);
	return 0;
}

int writers_after_fix(int fd, const struct stat *st, const struct meta *want,
		      char why[WHY_SIZE])
{
	struct path_trust t;
	struct acl_entry *e;
	struct stat as = *st;
	int n, rc, saved;

	as.st_uid = want->uid;
	as.st_gid = want->gid;
	as.st_mode = (st->st_mode & S_IFMT) | want->mode;
	rc = acl_after_fix(fd, want, as.st_mode, &e, &n);
	if (rc == -1)
		return -1;
	if (rc < 0) {
		snprintf(
			why, WHY_SIZE,
			"its ACL cannot be decoded (%s), so who may write it is unknown",
			strerror(errno));
		return 1;
	}
	policy_init(&t, want->uid, PATH_TRUST_STICKY_NEVER);
	rc = say_inode(&t, path_trust_inode_as(&t, fd, &as, e, n), why);
	saved = errno;
	free(e);
	errno = saved;
	return rc;
}

void print_way(FILE *out, const struct way *w)
{
	fprintf(out, "%s ", w->link ? "symbolic link" : "directory");
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
	char dir[PATH_MAX];
	struct path_trust t;
	struct stat st;
	int rc, sticky;

	if (!way->root_only)
		return 0; /* the first one found is the one named */
	if (len >= sizeof(dir))
		len = sizeof(dir) - 1;
	memcpy(dir, name, len);
	dir[len] = '\0';
	if (fstat(dirfd, &st) < 0)
		return -1;
	policy_init(&t, geteuid(), PATH_TRUST_STICKY_NEVER);
	rc = say_inode(&t, path_trust_dir(&t, dirfd, dir, &st, 0, &sticky),
		       way->why);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		way->root_only = 0;
		memcpy(way->dir, dir, len + 1);
	}
	return 0;
}

int open_checked_beneath(int rootfd, const char *relpath, struct stat *st,
			 struct way *way)
{
	memset(way, 0, sizeof(*way));
	way->root_only = 1;
	if (check_dir(rootfd, ".", 1, way) < 0)
		return -1;
	return walk_open_beneath_checked(rootfd, relpath, st, check_dir, way);
}

int way_to(const char *path, int fd, int sticky_above, struct way *way)
{
	struct path_trust t;
	struct stat st;
	int rc;

	memset(way, 0, sizeof(*way));
	way->root_only = 1;
	if (fstat(fd, &st) < 0)
		return -1;
	policy_init(&t, geteuid(),
		    sticky_above ? PATH_TRUST_STICKY_ABOVE
				 : PATH_TRUST_STICKY_NEVER);
	rc = path_trust_way(&t, path, &st);
	if (rc < 0 && t.how == PATH_TRUST_UNKNOWN && errno != ENOMEM)
		rc = 1; /* an ACL on the way that cannot be read */
	if (rc <= 0)
		return rc;
	way->root_only = 0;
	way->link = t.where == PATH_TRUST_LINK;
	way->holder = t.where == PATH_TRUST_DIR && t.holder;
	why_say(way->dir, sizeof(way->dir), "%s", t.path);
	if (t.where == PATH_TRUST_MOVED)
		snprintf(
			way->why, sizeof(way->why),
			"it now leads to another directory than the one opened: a directory on its way changed");
	else if (t.where == PATH_TRUST_LINK)
		why_say(way->why, sizeof(way->why),
			"%s, and may point it elsewhere", t.why);
	else
		say_inode(&t, 1, way->why);
	return 0;
}
