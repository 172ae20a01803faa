/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A readable descriptor for the regular file an O_PATH descriptor holds. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reopen.h"

/*
 * /proc/thread-self, not /proc/self: a thread that unshared its
 * descriptor table would find another file under the leader's fd/N.
 * No O_NOFOLLOW on the open: the magic link is a symlink to the kernel,
 * which O_NOFOLLOW refuses (ELOOP) every time; following it is what makes
 * it name the descriptor's own inode.
 */
int reopen_regular_rdonly(int fd)
{
	char path[40];
	struct stat want, got;
	int rfd, saved;

	if (fstat(fd, &want) < 0)
		return -1;
	if (!S_ISREG(want.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), REOPEN_PROC_DIR "/%d", fd);
	rfd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	if (fstat(rfd, &got) < 0) {
		saved = errno;
	} else if (got.st_dev == want.st_dev && got.st_ino == want.st_ino) {
		return rfd;
	} else {
		saved = ESTALE;
	}
	close(rfd);
	errno = saved;
	return -1;
}

int reopen_proc_usable(void)
{
	return access(REOPEN_PROC_DIR, X_OK);
}
