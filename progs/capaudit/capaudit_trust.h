/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: may anyone but root change a file the trials run with
 * capabilities, or that a suggested line grants, or which file its path
 * names? common/path_trust.h judges, under capaudit's policy.
 */
#ifndef CAPAUDIT_TRUST_H
#define CAPAUDIT_TRUST_H

#include <stddef.h>

struct stat;

/* For how long the answer must hold. */
enum trust_when {
	/* While capaudit runs: the trials, and which file a name is now. */
	TRUST_NOW,
	/* Once a suggested line is pasted: the warnings next to it. */
	TRUST_PASTED,
};

/* What the judge found. */
enum trust_verdict {
	TRUST_ROOTS,	 /* only root may change it */
	TRUST_OTHERS,	 /* a user other than root owns it or may write it */
	TRUST_UNVOUCHED, /* the owners shown are not the kernel's (FUSE, an
			  * idmapped mount, a disk image others may write),
			  * or it cannot be judged at all */
};

/*
 * Whether only root may change the file open on fd (O_PATH will do), st
 * its fstat(2): its owner, its mode and ACL, and whether the kernel keeps
 * them. Anything but TRUST_ROOTS with a clause that follows the file's
 * name in clause ("is not root's", "is writable by others than root (an
 * ACL entry lets uid 65534 write it)"), unescaped: the caller escapes it
 * where it prints it as it is.
 */
enum trust_verdict trust_file(int fd, const struct stat *st, char *clause,
			      size_t len);

/*
 * Whether only root may change which file path names: every directory and
 * symbolic link on its way from "/", which must end at the file of st.
 * TRUST_ROOTS, or another verdict with a clause as trust_file() gives
 * ("is in a directory others than root may change").
 */
enum trust_verdict trust_way(const char *path, const struct stat *st,
			     enum trust_when when, char *clause, size_t len);

/*
 * The regular file at path (fd: open on it, O_PATH will do, or -1 to
 * open path), then its way: trust_file(), then trust_way().
 */
enum trust_verdict trust_path(const char *path, int fd, enum trust_when when,
			      char *clause, size_t len);

/* clause escaped in place, as escape_fputs() shows it, cut to len. */
void trust_clause_escape(char *clause, size_t len);

#endif
