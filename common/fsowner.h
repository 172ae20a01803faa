/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Whether the kernel itself vouches for who owns a file, and who may
 * write it. On a FUSE file system (fuse and fuseblk alike, bindfs, sshfs,
 * virtiofs) the owner, the mode and the ACL are whatever its daemon
 * answers: a user may mount one (user_allow_other, or in his own
 * namespaces) that says uid 0, mode 0644 over files he writes, and root's
 * own "bindfs -u 0" shows a user's directory as root's. No check of owner
 * and mode means anything there, so the trust checks that decide whether
 * root may act on a file (path_trust.h) refuse it.
 */
#ifndef COMMON_FSOWNER_H
#define COMMON_FSOWNER_H

/* Why such a file is refused, after "it is " or "directory D: ". */
#define FS_OWNER_FUSE_WHY \
	"on a FUSE file system, whose daemon, not the kernel, says who owns it"

/*
 * Does the file system holding fd (any descriptor, O_PATH included), or
 * path when fd is -1 (following a last symbolic link), report owners the
 * kernel cannot vouch for? 1 (say FS_OWNER_FUSE_WHY), 0 when the kernel
 * keeps them, or -1 with errno from fstatfs(2) or statfs(2): unknown,
 * which a trust check must count as a refusal.
 */
int fs_owner_unvouched(int fd, const char *path);

#endif
