/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Whether the mount a file was reached by is idmapped (mounts.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "mountkernel.h"
#include "mounts.h"

/* Idmapped mounts came with Linux 5.12: before, none can be. */
static int kernel_has_idmaps(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 1;
	return major > 5 || (major == 5 && minor >= 12);
}

/* The "idmapped" option of the line of mountinfo of old_id: 0, 1 or -1. */
static int idmapped_by_mountinfo(unsigned long long old_id)
{
	char *line = NULL;
	size_t len = 0;
	int rc = -1, saved;
	FILE *f = fopen("/proc/thread-self/mountinfo", "re");

	if (f == NULL)
		return -1;
	errno = ENOENT;
	while (getline(&line, &len, f) > 0) {
		struct mount_entry e;

		line[strcspn(line, "\n")] = '\0';
		if (strtoull(line, NULL, 10) != old_id)
			continue;
		rc = mountinfo_parse_line(line, &e) < 0 ? -1 : e.idmapped;
		break;
	}
	saved = errno;
	free(line);
	fclose(f);
	errno = saved;
	return rc;
}

int mount_idmapped(int fd)
{
	struct statmount_head *b;
	struct mount_entry e;
	struct statx sx;
	uint64_t id;
	int rc;

	if (kernel_unique_mount_id(fd, "", &id) == 0) {
		b = malloc(STATMOUNT_LEN);
		if (b == NULL)
			return -1;
		rc = kernel_statmount(id, 0, SM_SB_BASIC | SM_MNT_BASIC, b);
		if (rc == 0)
			rc = kernel_mount_entry(b, 1, &e) < 0 ? -1 : e.idmapped;
		free(b);
		if (rc >= 0 || errno == ENOMEM)
			return rc;
	}
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_MOUNT_ID_OLD, &sx) == 0 &&
	    (sx.stx_mask & STATX_MOUNT_ID_OLD)) {
		rc = idmapped_by_mountinfo(sx.stx_mnt_id);
		if (rc >= 0)
			return rc;
	}
	return kernel_has_idmaps() ? -1 : 0;
}
