/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: reading and writing a file's capabilities below an open root
 * without following any symlink on the way, so a tree being modified while
 * we restore it cannot redirect a grant to a file outside the manifest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capmanifest.h"

/*
 * Opens relpath ("./a/b/file") below rootfd one component at a time with
 * O_NOFOLLOW; the last one must be a regular file. Returns an O_RDONLY
 * descriptor (non-blocking, so a FIFO swapped in cannot hang us) or -1.
 */
static int open_beneath(int rootfd, const char *relpath)
{
	char component[256];
	const char *p = relpath;
	int dirfd = dup(rootfd);
	struct stat st;

	if (dirfd < 0)
		return -1;
	if (strncmp(p, "./", 2) == 0)
		p += 2;
	for (;;) {
		size_t len = strcspn(p, "/");
		int last = p[len] == '\0', fd;

		if (len == 0 || len >= sizeof(component) ||
		    (len == 2 && strncmp(p, "..", 2) == 0)) {
			close(dirfd);
			errno = EINVAL;
			return -1;
		}
		memcpy(component, p, len);
		component[len] = '\0';
		fd = openat(dirfd, component,
			    last ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
				 : O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(dirfd);
		if (fd < 0)
			return -1;	/* ELOOP: a symlink where a name was expected */
		if (last) {
			if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
				int saved = S_ISREG(st.st_mode) ? errno : EINVAL;

				close(fd);
				errno = saved;
				return -1;
			}
			return fd;
		}
		dirfd = fd;
		p += len + 1;
	}
}

cap_t read_caps_beneath(int rootfd, const char *relpath)
{
	int fd = open_beneath(rootfd, relpath), saved;
	cap_t caps;

	if (fd < 0)
		return NULL;
	caps = cap_get_fd(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return caps;
}

int write_caps_beneath(int rootfd, const char *relpath, cap_t caps)
{
	int fd = open_beneath(rootfd, relpath), rc, saved;

	if (fd < 0)
		return -1;
	rc = cap_set_fd(fd, caps);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}
