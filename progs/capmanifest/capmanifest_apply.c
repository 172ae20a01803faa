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

/*
 * 1 when the access ACL value (Linux's xattr form: a 4-byte version, then
 * 8-byte entries of tag, permissions and id) grants beyond the mode bits:
 * named users or groups, or a mask. A value we cannot parse counts as one.
 */
static int acl_is_extended(const unsigned char *v, size_t len)
{
	size_t off;

	if (len < 4 || (len - 4) % 8 != 0)
		return 1;
	for (off = 4; off < len; off += 8) {
		unsigned tag = (unsigned)v[off] | (unsigned)v[off + 1] << 8;

		/* ACL_USER_OBJ 0x01, ACL_GROUP_OBJ 0x04, ACL_OTHER 0x20 */
		if (tag != 0x01 && tag != 0x04 && tag != 0x20)
			return 1;
	}
	return 0;
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

/* 1, 0, or -1 with errno when the ACL cannot be read. */
static int read_acl(int fd)
{
	unsigned char *raw;
	size_t len;
	int ext, rc = entry_acl(fd, &raw, &len);

	if (rc <= 0)
		return rc;
	ext = acl_is_extended(raw, len);
	free(raw);
	return ext;
}

/* Owner, group, mode (from st, fstat()ed on fd) and ACL. 0 or -1. */
int entry_meta(int fd, const struct stat *st, struct meta *out)
{
	out->uid = st->st_uid;
	out->gid = st->st_gid;
	out->mode = st->st_mode & 07777;
	out->acl = read_acl(fd);
	return out->acl < 0 ? -1 : 0;
}

int meta_equal(const struct meta *a, const struct meta *b)
{
	return a->uid == b->uid && a->gid == b->gid && a->mode == b->mode &&
	       a->acl == b->acl;
}

/*
 * Makes the file's owner, group and mode want's, removing an ACL want does
 * not have (re-creating one is not possible: the manifest keeps only its
 * presence, and the caller refuses that case first). The order matters:
 * the ACL goes first (a later chmod would only narrow its mask), then
 * chown, which clears the file's capabilities and its setuid and setgid
 * bits, then chmod; capabilities are written after this returns. The
 * result is read back. Returns 0, or -1 with errno (EIO when the file does
 * not end up as asked).
 */
int entry_fix_meta(int fd, const struct meta *want, const struct meta *have)
{
	char path[40];
	struct stat st;
	struct meta now;

	proc_path(path, sizeof(path), fd);
	if (have->acl && !want->acl && removexattr(path, ACL_XATTR) < 0 &&
	    errno != ENODATA)
		return -1;
	if ((have->uid != want->uid || have->gid != want->gid) &&
	    fchownat(fd, "", want->uid, want->gid, AT_EMPTY_PATH) < 0)
		return -1;
	if (chmod(path, want->mode) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || entry_meta(fd, &st, &now) < 0)
		return -1;
	if (!meta_equal(&now, want)) {
		errno = EIO;
		return -1;
	}
	return 0;
}
