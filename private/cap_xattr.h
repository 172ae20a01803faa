/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The on-disk security.capability value, decoded and encoded without any
 * other part of the library: the one codec, compiled into libcap.so.2
 * (hidden: no exported symbol) and into libcommon.a, where getcap decodes
 * what its walker reads with getxattrat(2) and capaudit encodes the value
 * its trials write. Depends on libc alone. Tested by tests/unit/check_file.c.
 */
#ifndef CAP_XATTR_H
#define CAP_XATTR_H

#include <stddef.h>
#include <stdint.h>

#define LCAP_XATTR_NAME "security.capability"
#define LCAP_XATTR_MAX	24 /* the largest valid value: revision 3 */

struct lcap_xattr {
	uint32_t permitted[2];
	uint32_t inheritable[2];
	int effective;	 /* the single on-disk flag: E = P | I at exec */
	int revision;	 /* 1, 2 or 3 */
	uint32_t rootid; /* revision 3 only; 0 otherwise */
};

/*
 * Decodes len bytes. Revisions 1 (12 bytes), 2 (20) and 3 (24) are read,
 * at exactly those sizes; any other size, revision or flag bit is EINVAL.
 * Returns 0, or -1 with errno set.
 */
int lcap_xattr_decode(struct lcap_xattr *out, const void *raw, size_t len);

/*
 * Encodes revision 2, or revision 3 when rootid is not 0, into raw (at least
 * LCAP_XATTR_MAX bytes). Returns the number of bytes to write.
 */
size_t lcap_xattr_encode(const struct lcap_xattr *in, void *raw);

#endif
