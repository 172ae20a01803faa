/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Small text files read whole: /proc and /sys values, tracefs formats. */
#ifndef COMMON_TEXTFILE_H
#define COMMON_TEXTFILE_H

#include <sys/types.h>

/*
 * Reads up to size - 1 bytes of the file at path into buf and ends them
 * with a NUL (size must be at least 1). Returns the length read, or -1
 * with errno (open's or read's). A longer file is cut at size - 1 bytes:
 * callers read values that fit, and a parser of the text refuses a cut one.
 */
ssize_t text_file_read(const char *path, char *buf, size_t size);

#endif
