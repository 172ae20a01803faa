/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The ambient run's mounts. Ambient capabilities bring no secure mode
 * (AT_SECURE is 0), so a library of the grant's programs that reads its
 * user's configuration outside that mode (a PKCS#11 module list, say)
 * may map a library of that user's, whose code would then run once with
 * the grant. Landlock's rules cover execve(2), not mmap(2); the kernel's
 * noexec mount flag covers both: a file on a noexec mount can be neither
 * executed nor mapped executable (mmap(2) with PROT_EXEC fails with
 * EPERM). So in the run's own mount namespace, private, every mount is
 * made noexec, and each file the run may execute or load is bound onto
 * itself by a mount that is not.
 *
 * mount_setattr(2) with AT_RECURSIVE sets the flag on the whole tree in
 * one call, keeping each mount's other flags (it only adds one), mounts
 * hidden under others included; if it fails, no mount changed. A file's
 * own mount is a clone of the one it is on (open_tree(2)), the flag
 * cleared before it is attached, and attached on the very file checked.
 *
 * Only async-signal-safe calls (system calls), no allocation: this runs
 * in the child of a threaded program, before its execve.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capaudit_noexec.h"

static int set_attr(int dfd, const char *path, unsigned flags,
		    unsigned long long set, unsigned long long clr)
{
	struct mount_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.attr_set = set;
	attr.attr_clr = clr;
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, &attr,
			    sizeof(attr));
}

int noexec_possible(void)
{
	/* No such descriptor: EBADF where the call exists. */
	if (set_attr(-1, "", AT_EMPTY_PATH, 0, 0) == 0 || errno != ENOSYS)
		return 1;
	return 0;
}

#define FAIL(what)              \
	do {                    \
		*step = (what); \
		return -1;      \
	} while (0)

int noexec_all(const char **step)
{
	if (set_attr(AT_FDCWD, "/", AT_RECURSIVE, MOUNT_ATTR_NOEXEC, 0) < 0)
		FAIL("making every mount of the ambient run noexec");
	return 0;
}

/* k's own mount, not noexec, over it: 0, or -1 with errno. */
static int keep_one(const struct exec_keep *k)
{
	struct stat st;
	int fd, tree = -1, rc = -1, saved;

	fd = open(k->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		goto out;
	if (!S_ISREG(st.st_mode) || st.st_dev != k->dev ||
	    st.st_ino != k->ino) {
		errno = ESTALE;
		goto out;
	}
	tree = (int)syscall(SYS_open_tree, fd, "",
			    AT_EMPTY_PATH | OPEN_TREE_CLONE |
				    OPEN_TREE_CLOEXEC);
	if (tree < 0)
		goto out;
	if (set_attr(tree, "", AT_EMPTY_PATH, 0, MOUNT_ATTR_NOEXEC) < 0)
		goto out;
	rc = (int)syscall(SYS_move_mount, tree, "", fd, "",
			  MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
out:
	saved = errno;
	if (tree >= 0)
		close(tree);
	close(fd);
	errno = saved;
	return rc;
}

int noexec_keep(const struct exec_keep *keep, size_t n, const char **step)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (keep_one(&keep[i]) < 0)
			FAIL("letting the ambient run map a file it loaded");
	return 0;
}
