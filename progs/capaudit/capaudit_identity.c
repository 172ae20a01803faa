/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Whether the file a path names now is the one a record of the run
 * names. perf's PERF_RECORD_MMAP2 gives the device and inode number of
 * a file as the kernel maps it, and stat(2) does not always say the
 * same of that file: on overlayfs a mapping names the overlay's own
 * device while stat(2) names the layer's (a pseudo device when the
 * layers sit on different file systems, as in every container whose
 * layers do); on btrfs a mapping names the file system's device while
 * stat(2) names the subvolume's. So the file is asked both ways:
 * fstat(2), then a mapping of it made here, whose device and inode
 * /proc/self/maps gives as the kernel gives them in the record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capaudit_identity.h"
#include "capaudit_trust.h"
#include "fsowner.h"

int identity_open(const char *path, struct stat *st)
{
	char proc[64];
	int pfd, fd, saved;

	/*
	 * O_PATH first: opening for reading could block on a FIFO or act
	 * on a device that was put where the file was.
	 */
	pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	if (fstat(pfd, st) < 0)
		goto fail;
	if (!S_ISREG(st->st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	/* Reopened through the descriptor: the very inode, not the path again. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	close(pfd);
	return fd;
fail:
	saved = errno;
	close(pfd);
	errno = saved;
	return -1;
}

/* One /proc/self/maps line's device and inode when it starts at addr. */
static int maps_line(const char *line, uintptr_t addr, dev_t *dev,
		     uint64_t *ino)
{
	unsigned long long start, maj, min;
	char *p;
	int field;

	errno = 0;
	start = strtoull(line, &p, 16);
	if (errno != 0 || *p != '-' || start != (unsigned long long)addr)
		return 0;
	/* "start-end perms offset major:minor inode path" */
	for (field = 0; field < 3; field++) {
		p = strchr(p, ' ');
		if (p == NULL)
			return -1;
		p++;
	}
	maj = strtoull(p, &p, 16);
	if (*p != ':')
		return -1;
	min = strtoull(p + 1, &p, 16);
	if (*p != ' ')
		return -1;
	*ino = strtoull(p + 1, &p, 10);
	if (*p != ' ' && *p != '\n' && *p != '\0')
		return -1;
	*dev = makedev(maj, min);
	return 1;
}

/*
 * The device and inode the kernel gives a mapping of fd: 0, or -1 with
 * errno (EIO when /proc/self/maps does not show the mapping). A path
 * in maps shows a newline escaped, so no name can fake a line.
 */
static int mapped_identity(int fd, dev_t *dev, uint64_t *ino)
{
	void *at = mmap(NULL, 1, PROT_READ, MAP_PRIVATE, fd, 0);
	char *line = NULL;
	size_t size = 0;
	int found = 0, saved;
	FILE *maps;

	if (at == MAP_FAILED)
		return -1;
	maps = fopen("/proc/self/maps", "re");
	if (maps != NULL) {
		while (found == 0 && getline(&line, &size, maps) > 0)
			found = maps_line(line, (uintptr_t)at, dev, ino);
		fclose(maps);
	}
	saved = maps == NULL ? errno : EIO;
	free(line);
	munmap(at, 1);
	if (found == 1)
		return 0;
	errno = saved;
	return -1;
}

enum file_match identity_match(int fd, const struct stat *st, uint32_t maj,
			       uint32_t min, uint64_t ino)
{
	uint64_t mino;
	dev_t mdev;

	if (st->st_dev == makedev(maj, min) && st->st_ino == ino)
		return FILE_SAME;
	if (mapped_identity(fd, &mdev, &mino) < 0)
		return FILE_UNKNOWN;
	if (mdev == makedev(maj, min) && mino == ino)
		return FILE_SAME_MAPPED;
	return FILE_OTHER;
}

int identity_names(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		   char *why, size_t len)
{
	enum file_match match;
	char clause[400];
	struct stat st;
	int fd = identity_open(path, &st);

	if (fd < 0) {
		snprintf(why, len, "%s",
			 errno == EINVAL ? "no regular file now"
					 : strerror(errno));
		return 0;
	}
	match = identity_match(fd, &st, maj, min, ino);
	close(fd);
	if (match == FILE_UNKNOWN)
		snprintf(why, len, "no mapping of it: %s", strerror(errno));
	else if (match == FILE_OTHER)
		snprintf(why, len, "another file now");
	/*
	 * Numbers only a mapping gives may be another file's (a btrfs
	 * subvolume's first file has the same inode number as every other
	 * subvolume's, and the mapping names the file system's device, not
	 * the subvolume's): they name this file only where nobody but root
	 * could have put another one at the path, as for a trial. On FUSE
	 * the daemon gives the numbers, both ways: they prove nothing.
	 */
	if ((match == FILE_SAME || match == FILE_SAME_MAPPED) &&
	    fs_owner_unvouched(-1, path) != 0) {
		snprintf(
			why, len,
			"it is on FUSE, whose daemon, not the kernel, gives its inode number");
		return 0;
	}
	if (match == FILE_SAME_MAPPED &&
	    trust_way(path, &st, TRUST_NOW, clause, sizeof(clause)) !=
		    TRUST_ROOTS) {
		snprintf(
			why, len,
			"on this file system its device and inode numbers may be another file's, and it %s",
			clause);
		return 0;
	}
	return match == FILE_SAME || match == FILE_SAME_MAPPED;
}
