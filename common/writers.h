/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Who besides root (and the caller) may change an open file: its owner,
 * its group, an ACL entry, everybody. A file that decides what others get
 * (capability.conf) is only as trustworthy as the least trusted of them.
 */
#ifndef COMMON_WRITERS_H
#define COMMON_WRITERS_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Does anyone but root, uid or gid may change the file open on fd (st its
 * fstat): own it (an owner may always chmod it writable), or write it by
 * the mode bits, or by a POSIX access ACL beside them, as the kernel
 * judges (named users and groups, and the owning group, under the mask)?
 * Returns 1 with why (whylen bytes) naming the first such writer, 0 when
 * there is none, or -1 with errno when the ACL cannot be read (then who
 * may write is unknown, which the caller must treat as a writer).
 */
int writers_besides(int fd, const struct stat *st, uid_t uid, gid_t gid,
		    char *why, size_t whylen);

#endif
