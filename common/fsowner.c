/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Which file systems take owners and modes from a daemon (fsowner.h). */
#include <sys/vfs.h>

#include "fsowner.h"

/*
 * include/uapi/linux/magic.h. fuseblk and virtiofs are FUSE too and
 * report the same number; the control file system (fusectl) holds no
 * files anyone reads as configuration.
 */
#define FUSE_MAGIC 0x65735546UL

int fs_owner_unvouched(int fd, const char *path)
{
	struct statfs sf;

	if ((fd >= 0 ? fstatfs(fd, &sf) : statfs(path, &sf)) < 0)
		return -1;
	/* f_type is a signed word: compare it as the kernel's unsigned magic */
	return (unsigned long)sf.f_type == FUSE_MAGIC;
}
