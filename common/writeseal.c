/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* When the kernel, not the mode, settles who may write (writeseal.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>

#include "mounts.h"
#include "writeseal.h"
#include "why.h"

/*
 * include/uapi/linux/magic.h: file systems that hold their own data, on a
 * disk or in memory, so that their mounts' flags settle who writes them.
 * Not overlayfs (a write to a layer shows through), not NFS, SMB, Ceph or
 * 9p (other machines write them), not FUSE (its daemon does).
 */
static const unsigned long self_kept[] = {
	0xEF53UL,     /* ext2, ext3, ext4 */
	0x58465342UL, /* xfs */
	0x9123683EUL, /* btrfs */
	0xF2F52010UL, /* f2fs */
	0x01021994UL, /* tmpfs */
	0x858458F6UL, /* ramfs */
	0x73717368UL, /* squashfs */
	0xE0F5E1E2UL, /* erofs */
};

static int keeps_own_data(unsigned long magic)
{
	size_t i;

	for (i = 0; i < sizeof(self_kept) / sizeof(self_kept[0]); i++)
		if (self_kept[i] == magic)
			return 1;
	return 0;
}

int dir_sealed(int fd, const char *dir, char *why, size_t whylen)
{
	char note[384];
	struct statvfs sv;
	struct statfs sf;
	int rc;

	why[0] = '\0';
	/* ST_RDONLY: the mount's flag or its superblock's (statvfs(3)) */
	if (fstatvfs(fd, &sv) < 0 || !(sv.f_flag & ST_RDONLY))
		return 0;
	if (fstatfs(fd, &sf) < 0) {
		why_say(why, whylen,
			"its mount is read-only, but its file system is unknown (%s)",
			strerror(errno));
		return 0;
	}
	/* f_type is a signed word: compare it as the kernel's unsigned magic */
	if (!keeps_own_data((unsigned long)sf.f_type & 0xffffffffUL)) {
		why_say(why, whylen,
			"its mount is read-only, but its file system (type 0x%lx) may be written by another way than its mounts",
			(unsigned long)sf.f_type & 0xffffffffUL);
		return 0;
	}
	note[0] = '\0';
	rc = mount_ns_root_controlled(note, sizeof(note));
	if (rc > 0) {
		rc = mounts_writable_view(fd, dir, note, sizeof(note));
		if (rc < 0 && note[0] == '\0')
			return -1; /* ENOMEM */
		if (rc == 0)
			return 1;
	}
	why_say(why, whylen, "its mount is read-only, but %s", note);
	return 0;
}
