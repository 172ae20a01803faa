/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Paths as the programs print and find them: the one joining rule (nftw's,
 * which getcap -r and capmanifest must print exactly like libcap's getcap)
 * and the PATH search.
 */
#ifndef COMMON_PATH_H
#define COMMON_PATH_H

#include <stddef.h>

/*
 * nftw's join of a directory's printed path (dirlen bytes of dir; dir may
 * be NULL for none) and a name: "dir/name", but no second '/' after a dir
 * that ends in one ("/" gives "/name"), and the bare name without a dir.
 * 1 when a '/' goes between them, else 0.
 */
int path_needs_slash(const char *dir, size_t dirlen);

/* The joined path, a new string (caller frees with free()); NULL: ENOMEM. */
char *path_join(const char *dir, size_t dirlen, const char *name);

/* 1 when path is exactly the join of dir (dirlen bytes) and name. */
int path_is_join(const char *path, const char *dir, size_t dirlen,
		 const char *name);

/*
 * The first "<entry>/<name>" along search (a PATH value; empty entries are
 * skipped; the '/' is always added, as execvp(3) adds it) that access(2) allows with mode (F_OK, X_OK), as a new string
 * (caller frees with free()). NULL with errno ENOENT when no entry has
 * one, ENOMEM. search NULL has no entries.
 */
char *path_search(const char *search, const char *name, int mode);

#endif
