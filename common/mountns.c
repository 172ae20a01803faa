/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Who may change the caller's mounts (mounts.h): root of the user
 * namespace that owns its mount namespace, and of those above it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mounts.h"
#include "why.h"

/* include/uapi/linux/nsfs.h and pidfd.h, which libc's headers may predate */
#define NSIO_GET_USERNS	  _IO(0xb7, 0x1)
#define PIDFD_GET_MNT_NS  _IO(0xFF, 3)
#define PIDFD_GET_USER_NS _IO(0xFF, 9)

/*
 * A namespace of the calling thread's, by /proc or (without it) by a
 * pidfd of its process.
 */
static int own_ns(const char *proc_name, unsigned long pidfd_request)
{
	int fd = open(proc_name, O_RDONLY | O_CLOEXEC), pidfd, saved;

	if (fd >= 0 || (errno != ENOENT && errno != ENOTDIR))
		return fd;
#ifdef SYS_pidfd_open
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		return -1;
	fd = ioctl(pidfd, pidfd_request, 0);
	saved = errno;
	close(pidfd);
	errno = saved;
	return fd;
#else
	(void)pidfd;
	(void)saved;
	(void)pidfd_request;
	return -1;
#endif
}

int mount_ns_root_controlled(char *why, size_t whylen)
{
	struct stat owner_st, user_st;
	int mnt, owner, user, rc = -1;

	mnt = own_ns("/proc/thread-self/ns/mnt", PIDFD_GET_MNT_NS);
	if (mnt < 0) {
		why_say(why, whylen, "this mount namespace is unknown (%s)",
			strerror(errno));
		return -1;
	}
	/*
	 * ioctl_ns(2): EPERM when the owner is outside the caller's scope,
	 * that is, a user namespace above the caller's; its root is ours.
	 */
	owner = ioctl(mnt, NSIO_GET_USERNS);
	if (owner < 0 && errno == EPERM) {
		close(mnt);
		return 1;
	}
	if (owner < 0) {
		why_say(why, whylen,
			"who owns this mount namespace is unknown (%s)",
			strerror(errno));
		close(mnt);
		return -1;
	}
	user = own_ns("/proc/thread-self/ns/user", PIDFD_GET_USER_NS);
	if (user < 0 || fstat(owner, &owner_st) < 0 ||
	    fstat(user, &user_st) < 0) {
		why_say(why, whylen, "this user namespace is unknown (%s)",
			strerror(errno));
	} else if (owner_st.st_ino == user_st.st_ino &&
		   owner_st.st_dev == user_st.st_dev) {
		rc = 1;
	} else {
		why_say(why, whylen,
			"this mount namespace belongs to a user namespace below this one, whose root may change its mounts");
		rc = 0;
	}
	if (user >= 0)
		close(user);
	close(owner);
	close(mnt);
	return rc;
}
