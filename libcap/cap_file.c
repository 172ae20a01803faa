/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* File capabilities: cap_get_file/fd, cap_set_file/fd and the v3 namespace owner. */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cap_xattr.h"
#include "lcap.h"

/*
 * One byte more than the largest valid value, so an oversized xattr reads
 * as a length we reject rather than as a silently truncated valid one
 * (the kernel may also answer ERANGE, which we pass on).
 */
#define READ_SIZE (LCAP_XATTR_MAX + 1)

/* Turns a decoded xattr into a new cap_t; the caller frees with cap_free(). */
static cap_t caps_from_raw(const unsigned char *raw, ssize_t len)
{
	struct lcap_xattr x;
	cap_t caps;
	int w;

	if (len < 0)
		return NULL; /* errno from getxattr(2) */
	if (lcap_xattr_decode(&x, raw, (size_t)len) < 0)
		return NULL; /* EINVAL: never hand out a guessed set */
	caps = cap_init();
	if (caps == NULL)
		return NULL;
	for (w = 0; w < LCAP_WORDS; w++) {
		caps->flags[CAP_PERMITTED][w] = x.permitted[w];
		caps->flags[CAP_INHERITABLE][w] = x.inheritable[w];
		/* The one on-disk flag means "raise everything P or I grants". */
		if (x.effective)
			caps->flags[CAP_EFFECTIVE][w] =
				x.permitted[w] | x.inheritable[w];
	}
	caps->rootid = (uid_t)x.rootid;
	return caps;
}

/*
 * Returns the file capabilities of path (a final symlink is followed), or
 * NULL with errno: EINVAL for a NULL path or a malformed value (wrong size,
 * revision or flags), ENODATA when the file has none, or getxattr's own.
 * The caller frees with cap_free().
 */
cap_t cap_get_file(const char *path)
{
	unsigned char raw[READ_SIZE];

	if (path == NULL) {
		errno = EINVAL;
		return NULL;
	}
	/* getxattr follows symlinks, as libcap's reader does. */
	return caps_from_raw(raw, lcap_sys_getxattr(path, raw, sizeof(raw)));
}

/* As cap_get_file, for an open descriptor (EBADF for a bad one). */
cap_t cap_get_fd(int fd)
{
	unsigned char raw[READ_SIZE];

	if (fd < 0) {
		errno = EBADF;
		return NULL;
	}
	return caps_from_raw(raw, lcap_sys_fgetxattr(fd, raw, sizeof(raw)));
}

/*
 * Encodes caps for the disk. The file format has a single effective flag,
 * so E must be empty (flag off) or cover every bit of P | I (flag on);
 * anything in between cannot be represented and is EINVAL. E bits outside
 * P | I have nothing to raise at exec and are dropped, as libcap does.
 * Returns the length, or -1 with errno set.
 */
static ssize_t encode_caps(cap_t shared, unsigned char *raw)
{
	struct lcap_xattr x = { .revision = 2 };
	struct _cap_struct snap;
	const struct _cap_struct *caps = &snap;
	int w, any_e = 0;

	if (lcap_snapshot(shared, LCAP_KIND_SET, &snap, sizeof(snap)) < 0)
		return -1;

	for (w = 0; w < LCAP_WORDS; w++) {
		x.permitted[w] = caps->flags[CAP_PERMITTED][w];
		x.inheritable[w] = caps->flags[CAP_INHERITABLE][w];
		any_e |= caps->flags[CAP_EFFECTIVE][w] != 0;
	}
	if (any_e) {
		for (w = 0; w < LCAP_WORDS; w++) {
			uint32_t pi = x.permitted[w] | x.inheritable[w];

			if ((caps->flags[CAP_EFFECTIVE][w] & pi) != pi) {
				errno = EINVAL;
				return -1;
			}
		}
		x.effective = 1;
	}
	x.rootid = (uint32_t)caps->rootid;
	return (ssize_t)lcap_xattr_encode(&x, raw);
}

/*
 * /proc/thread-self (Linux 3.17), not /proc/self: a thread that unshared
 * its descriptor table (CLONE_FILES) would find another file under the
 * thread-group leader's /proc/self/fd/N.
 */
#define PROC_FD_FORMAT "/proc/thread-self/fd/%d"

/*
 * Writes (or, with caps NULL, removes) the xattr of the file open on fd.
 * An O_PATH descriptor cannot carry f*xattr calls (EBADF), so for one we go
 * through its /proc magic link, which names the very inode we hold and is
 * never re-resolved from the caller's path.
 */
static int write_fd(int fd, int via_proc, cap_t caps)
{
	unsigned char raw[LCAP_XATTR_MAX];
	char proc_path[40];
	ssize_t len = 0;

	if (caps != NULL) {
		len = encode_caps(caps, raw);
		if (len < 0)
			return -1;
	}
	if (!via_proc) {
		if (caps == NULL)
			return lcap_sys_fremovexattr(fd);
		return lcap_sys_fsetxattr(fd, raw, (size_t)len);
	}
	snprintf(proc_path, sizeof(proc_path), PROC_FD_FORMAT, fd);
	if (caps == NULL)
		return lcap_sys_removexattr(proc_path);
	return lcap_sys_setxattr(proc_path, raw, (size_t)len);
}

static int check_caps_arg(cap_t caps)
{
	if (caps != NULL && !lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Regular files only: libcap's rule, and what exec can ever honour. */
static int check_regular(const struct stat *st)
{
	if (!S_ISREG(st->st_mode)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * Sets (caps NULL: removes) the capabilities of the regular file open on
 * fd; an O_PATH descriptor is written through /proc. Returns 0, or -1 with
 * errno: EINVAL for a foreign caps, a non-regular file or a partial
 * effective set; ENODATA when removing nothing; else the kernel's (EPERM
 * without CAP_SETFCAP, ENOTSUP where the filesystem has no such xattrs).
 */
int cap_set_fd(int fd, cap_t caps)
{
	struct stat st;
	int flags;

	if (check_caps_arg(caps) < 0)
		return -1;
	if (lcap_sys_fstat(fd, &st) < 0)
		return -1; /* EBADF */
	if (check_regular(&st) < 0)
		return -1;
	flags = lcap_sys_fcntl_getfl(fd);
	if (flags < 0)
		return -1;
	return write_fd(fd, (flags & O_PATH) != 0, caps);
}

/* Does /proc name fd as the inode described by st? (Is /proc usable?) */
static int proc_names_inode(int fd, const struct stat *st)
{
	char proc_path[40];
	struct stat via;

	snprintf(proc_path, sizeof(proc_path), PROC_FD_FORMAT, fd);
	if (lcap_sys_stat(proc_path, &via) < 0)
		return 0;
	return via.st_dev == st->st_dev && via.st_ino == st->st_ino;
}

/*
 * Without /proc there is no way to turn an O_PATH descriptor into one that
 * fsetxattr accepts, so we open the path again, read-only and without
 * following a final symlink, and accept the new descriptor only if it is
 * the inode we checked: whatever the path points at by now, we write
 * nothing but that file. O_NONBLOCK keeps a FIFO swapped in from blocking
 * the open; the inode comparison then rejects it. Needs read permission,
 * which is why this is the fallback and not the first choice.
 */
static int reopen_same_inode(const char *path, const struct stat *st)
{
	struct stat again;
	int fd, saved;

	fd = lcap_sys_open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
					 O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			errno = EINVAL; /* swapped for a symlink meanwhile */
		return -1;
	}
	if (lcap_sys_fstat(fd, &again) < 0) {
		saved = errno;
	} else if (S_ISREG(again.st_mode) && again.st_dev == st->st_dev &&
		   again.st_ino == st->st_ino) {
		return fd;
	} else {
		saved = EINVAL; /* the path now names another file */
	}
	lcap_sys_close(fd);
	errno = saved;
	return -1;
}

/*
 * Race-free by construction (compare CVE-2026-4878, where a check by path
 * and a write by path could be split by a symlink swap): the path is
 * resolved exactly once, by an O_PATH|O_NOFOLLOW open, and both the
 * regular-file check and the write act on that descriptor (reached through
 * /proc/thread-self/fd/N, or a same-inode reopen when /proc is missing).
 *
 * Why O_PATH and not O_RDONLY: O_PATH opens nothing. It needs no read
 * permission (a CAP_SETFCAP holder who owns a mode 0111 binary may set
 * its capabilities, but could not open it for reading), it cannot block on
 * a FIFO, and it has no side effects on a device node. With O_NOFOLLOW it
 * yields the symlink itself, which fstat reports as not regular: EINVAL.
 *
 * Returns and errno as cap_set_fd; also ENOENT and the like from open.
 */
int cap_set_file(const char *path, cap_t caps)
{
	struct stat st;
	int fd, wfd = -1, ret = -1, saved;

	if (path == NULL || check_caps_arg(caps) < 0) {
		errno = EINVAL;
		return -1;
	}
	fd = lcap_sys_open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1; /* ENOENT, EACCES, ELOOP (dir loops)... */
	if (lcap_sys_fstat(fd, &st) < 0 || check_regular(&st) < 0)
		goto out;
	if (proc_names_inode(fd, &st)) {
		ret = write_fd(fd, 1, caps);
	} else {
		wfd = reopen_same_inode(path, &st);
		if (wfd >= 0)
			ret = write_fd(wfd, 0, caps);
	}
out:
	saved = errno; /* close() must not mask the cause */
	if (wfd >= 0)
		lcap_sys_close(wfd);
	lcap_sys_close(fd);
	errno = saved;
	return ret;
}

/* The rootid of a v3 capability, 0 for none; (uid_t)-1 and EINVAL for a bad caps. */
uid_t cap_get_nsowner(cap_t caps)
{
	struct _cap_struct snap;

	if (lcap_snapshot(caps, LCAP_KIND_SET, &snap, sizeof(snap)) < 0)
		return (uid_t)-1;
	return snap.rootid;
}

/*
 * A non-zero owner makes cap_set_file write revision 3, which the kernel
 * honours only inside the user namespace whose root maps to that uid.
 * Returns 0, or -1 and EINVAL for a bad caps.
 */
int cap_set_nsowner(cap_t caps, uid_t rootid)
{
	if (!lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(caps);
	caps->rootid = rootid;
	lcap_unlock(caps);
	return 0;
}
