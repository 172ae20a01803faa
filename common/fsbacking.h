/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Whether a file system's blocks are the kernel's to keep, or may be
 * written around it. An ext4 (or squashfs, btrfs, ...) on a loop device
 * is the bytes of its backing file, a disk image: whoever may write the
 * image writes the file system, owners, modes and lines alike, whatever
 * they say and whatever its mounts allow (a read-only mount of it
 * included). A network block device (nbd) or a ublk device serves
 * whatever the process behind it answers. So the trust checks that
 * decide whether root may act on a file (path_trust.h)
 * ask this of the file and of every directory on its way, as they ask
 * fsowner.h of FUSE.
 */
#ifndef COMMON_FSBACKING_H
#define COMMON_FSBACKING_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The file systems judged already in one check, by device: each is
 * judged once.
 */
struct fs_backing_seen {
	dev_t dev[8];
	int n;
};

/*
 * Could anyone but root write the blocks of the file system holding fd
 * (any descriptor, O_PATH included)? 0 when not (a disk, or a loop device
 * whose backing file root alone may write, through every device it is
 * stacked on: partitions, device-mapper, md); 1 with why (after "it is"
 * or "directory D is") when someone may, or when it cannot be told (the
 * loop device cannot be opened to learn which file it holds: a container
 * without its /dev node); -1 with errno (and why) when the checks fail.
 * seen (may be NULL) skips a device judged already.
 */
int fs_backing_writer(int fd, struct fs_backing_seen *seen, char *why,
		      size_t whylen);

#endif
