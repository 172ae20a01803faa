/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Whether capaudit's privileges are its caller's, or came from its own
 * file. Everything a caller could not do without capaudit (load eBPF
 * programs, hand a capability on with --iab, run as another --user, run
 * trials, point capaudit at a fake machine with a test variable) turns
 * on this one answer, so that no path asks AT_SECURE alone: the kernel
 * does not set it for a caller of uid 0 with root's privileges turned
 * off (SECBIT_NOROOT), who gains a file's capabilities at the exec all
 * the same.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/securebits.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/xattr.h>

#include "capaudit_privilege.h"

/*
 * The kernel says so (AT_SECURE) for every caller but one whose real uid
 * is 0 with SECBIT_NOROOT set: it holds no capability of root's, gains
 * the file's at the exec, and is not "secure" (its ids did not change).
 * There, any capability on capaudit's file is taken as the source; what
 * cannot be read (no /proc) is too.
 */
int privileged_by_own_file(void)
{
	int bits;

	if (getauxval(AT_SECURE))
		return 1;
	bits = prctl(PR_GET_SECUREBITS);
	if (bits < 0)
		return 1;
	if (!(bits & SECBIT_NOROOT))
		return 0;
	return getxattr("/proc/self/exe", "security.capability", NULL, 0) >=
		       0 ||
	       (errno != ENODATA && errno != ENOTSUP);
}

/*
 * A variable the caller sets for tests (CAPAUDIT_SYSROOT and the like),
 * or TMPDIR: NULL when capaudit holds privileges its caller does not,
 * as secure_getenv(3) does for AT_SECURE alone.
 */
const char *caller_getenv(const char *name)
{
	return privileged_by_own_file() ? NULL : getenv(name);
}
