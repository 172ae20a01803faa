/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: the file a record of the run names. */
#ifndef CAPAUDIT_IDENTITY_H
#define CAPAUDIT_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

struct stat;

enum file_match {
	FILE_OTHER,	  /* another file */
	FILE_SAME,	  /* stat(2) gives the record's device and inode */
	FILE_SAME_MAPPED, /* a mapping does, stat(2) not (overlayfs, btrfs):
			   * numbers another file there may share */
	FILE_UNKNOWN,	  /* stat(2) does not, and no mapping could be made
			   * or read: errno says why */
};

/*
 * Opens the regular file at path for reading (never a FIFO or device put
 * there, never a last symbolic link), its fstat(2) into st. The fd, or
 * -1 with errno (EINVAL: not a regular file).
 */
int identity_open(const char *path, struct stat *st);
/*
 * Whether fd (opened by identity_open(), st its fstat(2)) is the file a
 * record names by maj:min ino.
 */
enum file_match identity_match(int fd, const struct stat *st, uint32_t maj,
			       uint32_t min, uint64_t ino);
/*
 * Whether path names the file a record names by maj:min ino: 1, or 0
 * with why it does not (a clause: "another file now") in why, unescaped
 * (it may name a directory). Where only a mapping gives the record's
 * numbers, also that only root may change what the path names
 * (trust_way()); never on FUSE, whose daemon gives the numbers.
 */
int identity_names(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		   char *why, size_t len);

#endif
