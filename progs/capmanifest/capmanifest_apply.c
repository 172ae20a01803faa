/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: one file at a time, through a descriptor of its own. Every
 * entry is opened O_PATH without following a link, relative to its
 * directory's descriptor, and its type, owner, mode, ACL and capabilities
 * are then read and written through that descriptor (via its
 * /proc/thread-self/fd magic link where the f*xattr calls refuse O_PATH),
 * so they all belong to one inode, a link swapped in is never followed,
 * and a FIFO or device named by a manifest is never opened for reading.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "capmanifest.h"

/*
 * /proc/thread-self, not /proc/self: the walk runs on several threads, and
 * the magic link names the very inode the descriptor holds.
 */
#define PROC_FD_FORMAT "/proc/thread-self/fd/%d"
#define ACL_XATTR      "system.posix_acl_access"
#define CAPS_XATTR     "security.capability"

static void proc_path(char *buf, size_t size, int fd)
{
	snprintf(buf, size, PROC_FD_FORMAT, fd);
}

/* The file's capabilities, or NULL with errno (ENODATA: it has none). */
cap_t entry_caps(int fd)
{
	char path[40];

	proc_path(path, sizeof(path), fd);
	return cap_get_file(path);
}

/*
 * Takes the file's capabilities away: removexattr(2) through the magic
 * link, which opens nothing and needs no libcap (whose cap_set_fd(fd,
 * NULL) refuses an O_PATH descriptor in every libcap but ours). 0, or -1
 * with errno (ENODATA: it had none).
 */
int entry_remove_caps(int fd)
{
	char path[40];

	proc_path(path, sizeof(path), fd);
	return removexattr(path, CAPS_XATTR);
}

int entry_acl(int fd, unsigned char **raw, size_t *len)
{
	unsigned char *buf = NULL;
	char path[40];
	ssize_t n;

	proc_path(path, sizeof(path), fd);
	for (;;) {
		unsigned char *grown;

		n = getxattr(path, ACL_XATTR, NULL, 0);
		if (n < 0)
			break;
		grown = realloc(buf, (size_t)n + 1);
		if (grown == NULL) {
			free(buf);
			errno = ENOMEM;
			return -1;
		}
		buf = grown;
		n = getxattr(path, ACL_XATTR, buf, (size_t)n + 1);
		if (n >= 0 || errno != ERANGE)
			break; /* ERANGE: it grew; ask again */
	}
	if (n < 0) {
		int saved = errno;

		free(buf);
		if (saved == ENODATA || saved == ENOTSUP)
			return 0; /* none, or no ACLs on this fs */
		errno = saved;
		return -1;
	}
	*raw = buf;
	*len = (size_t)n;
	return 1;
}

int entry_meta(int fd, const struct stat *st, struct meta *out)
{
	int rc;

	out->uid = st->st_uid;
	out->gid = st->st_gid;
	out->mode = st->st_mode & 07777;
	rc = acl_text_of_file(fd, st->st_mode, &out->acl_text, &out->acl_named);
	out->acl = rc > 0;
	return rc < 0 ? -1 : 0;
}

void meta_free(struct meta *m)
{
	free(m->acl_text);
	m->acl_text = NULL;
}

int meta_copy(struct meta *to, const struct meta *from)
{
	*to = *from;
	if (from->acl_text == NULL)
		return 0;
	to->acl_text = strdup(from->acl_text);
	return to->acl_text == NULL ? -1 : 0;
}

/* Both the same text, or both none. */
static int same_text(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

int meta_equal(const struct meta *a, const struct meta *b)
{
	return a->uid == b->uid && a->gid == b->gid && a->mode == b->mode &&
	       a->acl == b->acl && same_text(a->acl_text, b->acl_text);
}

/*
 * An ACL recorded only as there (before version 4) stands for any ACL
 * that lets nobody in beyond the mode bits: one with a mask alone. One
 * with named entries is not taken for it, whoever they name.
 */
static int acl_unrecorded(const struct meta *m)
{
	return m->acl && m->acl_text == NULL;
}

int acl_matches(const struct meta *a, const struct meta *b)
{
	if (acl_unrecorded(a) || acl_unrecorded(b)) {
		const struct meta *known = acl_unrecorded(a) ? b : a;

		return known->acl &&
		       (acl_unrecorded(known) || !known->acl_named);
	}
	return a->acl == b->acl && same_text(a->acl_text, b->acl_text);
}

int meta_matches(const struct meta *have, const struct meta *want)
{
	return have->uid == want->uid && have->gid == want->gid &&
	       have->mode == want->mode && acl_matches(have, want);
}

/*
 * Makes the file's owner, group, mode and ACL want's. Nothing it does may
 * let anyone run or write the file who may not before and will not after,
 * and removing an ACL or setting another one passes through states that
 * are neither: removing one leaves the mode's group bits, which were the
 * mask, as the owning group's permissions, so a group the ACL let read
 * and run it would be let write it too (user::rwx,user:0:rwx,group::r-x,
 * mask::rwx: the group may write it once the ACL is gone) until the last
 * chmod. One who opens it for writing then keeps that descriptor, and a
 * store through a shared mapping of it keeps the capabilities written
 * next. So the file first loses what running it would grant: its
 * capabilities (written again after this returns), and with a chmod to
 * its owner's permissions alone, its set-user-ID and set-group-ID bits
 * and every permission of its group, its ACL's entries (whose mask that
 * chmod empties) and others. Then the ACL goes if want has none, owner
 * and group are set (chown clears capabilities and set-id bits anyway),
 * want's ACL is written if it is not the file's (the kernel makes the
 * mode's permission bits agree with it), and last the mode, set-id bits
 * and all (which leaves an ACL that agrees with it as it is). Each state
 * between lets nobody in but the owner, or is want's. A manifest that
 * recorded only that there was an ACL (meta_matches()) leaves the one
 * there as it is, but for what the chmods do to its mask. All through the
 * descriptor's magic link: the inode fd holds, never a path looked up
 * again. The result is read back.
 */
int entry_fix_meta(int fd, const struct meta *want, const struct meta *have)
{
	char path[40];
	unsigned char *raw;
	size_t len;
	struct stat st;
	struct meta now = { 0 };
	int rc;

	proc_path(path, sizeof(path), fd);
	if (entry_remove_caps(fd) < 0 && errno != ENODATA)
		return -1;
	if ((have->mode & ~(mode_t)S_IRWXU) != 0 &&
	    chmod(path, have->mode & S_IRWXU) < 0)
		return -1;
	if (have->acl && !want->acl && removexattr(path, ACL_XATTR) < 0 &&
	    errno != ENODATA)
		return -1;
	if ((have->uid != want->uid || have->gid != want->gid) &&
	    fchownat(fd, "", want->uid, want->gid, AT_EMPTY_PATH) < 0)
		return -1;
	if (want->acl_text != NULL &&
	    !same_text(have->acl_text, want->acl_text)) {
		if (acl_text_xattr(want->acl_text, &raw, &len) < 0)
			return -1;
		rc = setxattr(path, ACL_XATTR, raw, len, 0);
		free(raw);
		if (rc < 0)
			return -1;
	}
	if (chmod(path, want->mode) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || entry_meta(fd, &st, &now) < 0)
		return -1;
	rc = meta_matches(&now, want);
	meta_free(&now);
	if (!rc) {
		errno = EIO;
		return -1;
	}
	return 0;
}
