/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor --seccomp-profile[=BASE]: reads BASE, a container runtime's
 * seccomp profile, and prints it on stdout with perf_event_open() also
 * allowed to containers holding CAP_PERFMON (perfdoctor_profile.c). The
 * whole profile is made in memory first: on any failure nothing at all
 * is printed on stdout, only the reason on stderr, so that a redirection
 * never leaves half a profile behind for a runtime to load.
 */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "perfdoctor.h"
#include "perfdoctor_jscan.h"
#include "perfdoctor_profile.h"
#include "reopen.h"
#include "say.h"

/* What a file is, when it is not a regular one. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

static int not_regular(const char *path, mode_t mode)
{
	say(stderr, "perfdoctor: ", "%s: %s, not a regular file (a profile)",
	    path, file_kind(mode));
	return -1;
}

static int too_big(const char *path, unsigned long long size)
{
	say(stderr, "perfdoctor: ",
	    "%s: %llu bytes or more, larger than the %d bytes a profile may have here",
	    path, size, PROFILE_MAX_BYTES);
	return -1;
}

/*
 * Is the file open on fd one of the kernel's interfaces, which look like
 * regular files and are none: a read of /proc/kmsg takes messages from
 * the system log's reader, some of sysfs's and debugfs's act. BASE
 * swapped for a link to one would have root read it.
 */
static int kernel_file(int fd)
{
	struct statfs fs;

	if (fstatfs(fd, &fs) < 0)
		return 0; /* the open and read that follow will say why */
	switch ((unsigned long)fs.f_type) {
	case PROC_SUPER_MAGIC:
	case SYSFS_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
		return 1;
	}
	return 0;
}

/*
 * BASE, whole, into *text (malloc'd) and *len: 0, or -1 after a message.
 * BASE is opened O_PATH first, which opens nothing (no FIFO waits for a
 * writer, no device acts on an open) and pins one inode: only a regular
 * file is then opened for reading, through /proc/thread-self/fd
 * (reopen.h), so that a name swapped meanwhile for a FIFO or a device's
 * never has that opened. The file is read to its end but never past the
 * limit, whatever it says its size is.
 */
static int read_base(const char *path, int is_default, char **text, size_t *len)
{
	struct stat st;
	size_t have = 0;
	ssize_t n;
	char *buf;
	int pfd, fd;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st) < 0) {
		int err = errno;

		if (pfd >= 0)
			close(pfd);
		if (err == ENOENT && is_default)
			say(stderr, "perfdoctor: ",
			    "%s: no such file: the default profile of podman and CRI-O (containers-common) is not installed here; give your runtime's profile as --seccomp-profile=BASE (docker installs none: give its profiles/seccomp/default.json)",
			    path);
		else
			say_errno(stderr, "perfdoctor: ", err, "%s", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(pfd);
		return not_regular(path, st.st_mode);
	}
	if (kernel_file(pfd)) {
		close(pfd);
		say(stderr, "perfdoctor: ",
		    "%s: a file of the kernel's (/proc, /sys and the like), not a profile: reading one may act (/proc/kmsg's read takes messages from the system log)",
		    path);
		return -1;
	}
	if (st.st_size > PROFILE_MAX_BYTES) {
		close(pfd);
		return too_big(path, (unsigned long long)st.st_size);
	}
	fd = reopen_regular_rdonly(pfd);
	if (fd < 0) {
		int err = errno;

		close(pfd);
		if (err == ENOENT)
			say(stderr, "perfdoctor: ",
			    "%s: cannot be opened through " REOPEN_PROC_DIR
			    ", which only names the file that was looked at: is /proc mounted?",
			    path);
		else
			say_errno(stderr, "perfdoctor: ", err, "%s", path);
		return -1;
	}
	close(pfd);
	buf = malloc(PROFILE_MAX_BYTES + 1);
	if (buf == NULL) {
		close(fd);
		say_errno(stderr, "perfdoctor: ", ENOMEM, "%s", path);
		return -1;
	}
	/* One byte past the limit tells a file that grew past it. */
	while (have <= PROFILE_MAX_BYTES) {
		n = read(fd, buf + have, PROFILE_MAX_BYTES + 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	if (n < 0) {
		int err = errno;

		close(fd);
		free(buf);
		say_errno(stderr, "perfdoctor: ", err, "%s", path);
		return -1;
	}
	close(fd);
	if (have > PROFILE_MAX_BYTES) {
		free(buf);
		return too_big(path, (unsigned long long)have);
	}
	buf[have] = '\0'; /* what the reader's UTF-8 check stops at */
	*text = buf;
	*len = have;
	return 0;
}

int print_seccomp_profile(const char *base)
{
	const char *path = base != NULL ? base : SECCOMP_PROFILE_DEFAULT;
	struct profile_change c;
	unsigned long line, column;
	char *text;
	size_t len;

	if (path[0] == '\0') {
		say(stderr, "perfdoctor: ",
		    "--seccomp-profile= names no file: give BASE, or no '=' for the default, %s",
		    SECCOMP_PROFILE_DEFAULT);
		return 2;
	}
	if (read_base(path, base == NULL, &text, &len) < 0)
		return 2;
	if (profile_allow_perfmon(text, len, &c) < 0) {
		if (c.err_has_at) {
			jscan_position(text, len, c.err_at, &line, &column);
			say(stderr,
			    "perfdoctor: ", "%s: line %lu, column %lu: %s",
			    path, line, column, c.err);
		} else {
			say(stderr, "perfdoctor: ", "%s: %s", path, c.err);
		}
		free(text);
		return 2;
	}
	free(text);
	if (fwrite(c.text, 1, c.len, stdout) != c.len || fflush(stdout) != 0) {
		say_errno(stderr, "perfdoctor: ", errno,
			  "cannot write the profile");
		profile_change_free(&c);
		return 2;
	}
	say(stderr, "perfdoctor: ", "%s: %s%s", path, c.what,
	    c.changed ? "" : ": printed unchanged");
	profile_change_free(&c);
	return 0;
}
