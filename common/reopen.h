/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A readable descriptor for the regular file an O_PATH descriptor holds.
 * Programs open every file O_PATH | O_NOFOLLOW first: that opens nothing
 * (no FIFO blocks, no device acts on an open), yields a symlink as itself,
 * and pins one inode for every later check. Some calls refuse an O_PATH
 * descriptor, though: read(2), and the f*xattr calls behind libcap's
 * cap_set_fd() in every libcap but ours (EBADF). This turns the pinned
 * inode into an ordinary descriptor without looking its name up again.
 */
#ifndef COMMON_REOPEN_H
#define COMMON_REOPEN_H

/*
 * An O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC descriptor of the
 * inode fd (any descriptor, O_PATH included) holds, opened through its
 * /proc/thread-self/fd/N magic link, which the kernel resolves to that
 * inode and never to whatever now has its name. Only a regular file is
 * reopened, and an inode's type never changes, so no FIFO or device is
 * ever opened. O_NONBLOCK: an owner's write lease fails the open
 * (EWOULDBLOCK) rather than stalling it for lease-break-time.
 *
 * Returns the new descriptor, or -1 with errno: EINVAL when fd is not a
 * regular file, ENOENT without /proc, EACCES and the like from open(2),
 * ESTALE if the new descriptor is not the same inode (it cannot be;
 * failing closed if it ever were).
 */
int reopen_regular_rdonly(int fd);

/* The directory of the magic links every reopen goes through. */
#define REOPEN_PROC_DIR "/proc/thread-self/fd"

/*
 * 0 when REOPEN_PROC_DIR can be used, else -1 with errno (ENOENT: /proc
 * is not mounted). A program that reaches its files only through those
 * links asks first, and refuses before it changes anything, naming
 * /proc, rather than failing part way with a bare "No such file or
 * directory".
 */
int reopen_proc_usable(void);

#endif
