/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Raw security.capability values, for getcap's walker: it reads each
 * file's value with one directory-relative getxattrat(2), which no public
 * libcap call does (cap_get_file() wants a path, cap_get_fd() an open
 * file), and it reports what cap_t does not hold: the on-disk revision,
 * the one effective flag, and a bit the library would refuse is still a
 * value to show. The format is the kernel's (struct vfs_ns_cap_data);
 * tests/unit/check_common_filecap.c checks this decoder against the
 * library's own (libcap/cap_xattr.c) so the two cannot drift apart.
 */
#ifndef COMMON_FILECAP_H
#define COMMON_FILECAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/capability.h>

#define FILECAP_XATTR_NAME	"security.capability"
/* The largest valid value (revision 3): a larger one is ERANGE to read. */
#define FILECAP_XATTR_MAX	24

struct filecap {
	uint64_t permitted;	/* bit n: capability n */
	uint64_t inheritable;
	int effective;		/* the one flag: E = P | I at exec */
	int revision;		/* 1, 2 or 3 */
	uint32_t rootid;	/* revision 3 only; 0 otherwise */
};

/*
 * Decodes len bytes of a security.capability value. Revisions 1 (12
 * bytes), 2 (20) and 3 (24) at exactly those sizes, with no flag but the
 * effective one; anything else is refused as the library refuses it.
 * Returns 0, or -1 with errno EINVAL.
 */
int filecap_decode(struct filecap *out, const void *raw, size_t len);

/*
 * The value as cap_get_file() would return it (E set to P | I when the
 * effective flag is on; every one of the 64 bits honoured). Caller frees
 * with cap_free(); NULL with errno from the library (ENOMEM).
 */
cap_t filecap_to_caps(const struct filecap *fc);

#endif
