/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Group lists of any length: this process's supplementary groups and a
 * user's groups from the group database, in memory sized to fit (a fixed
 * array once printed "[]" for a member of more than 256 groups).
 */
#ifndef COMMON_GROUPS_H
#define COMMON_GROUPS_H

#include <sys/types.h>

/*
 * The kernel's NGROUPS_MAX: a login cannot hold more supplementary groups,
 * and initgroups() silently keeps only the first ones.
 */
#define GROUPS_MAX 65536

/*
 * This process's supplementary groups, as getgroups(2) gives them, into
 * *groups (caller frees with free(); never NULL on success, even for no
 * groups). Returns the count, or -1 with errno: ENOMEM, or getgroups'.
 */
int groups_of_process(gid_t **groups);

/*
 * The groups the group database gives user name with primary group
 * primary, primary first, as initgroups() would set them, into *groups
 * (caller frees with free()). Returns the count, or -1 with errno: ENOMEM,
 * E2BIG when there are more than GROUPS_MAX, EIO when getgrouplist(3)
 * fails without saying how many it needs, or the error of a group
 * database service that failed (EIO for glibc's ENOENT, "a service's
 * input cannot be found"): getgrouplist() itself hides such a failure
 * and returns the groups of the services that answered, so a list is
 * only returned after a look-up that reports errors (see groups.c) went
 * through every service without one. *groups is NULL after an error.
 */
int groups_of_user(const char *name, gid_t primary, gid_t **groups);

/*
 * What the return value rc of getgrnam_r(), getgrgid_r() or getpwnam_r()
 * means, found telling whether it gave an entry: 1 an entry, 0 no such
 * entry, or -1 with errno set to the error (ERANGE included). Only glibc's
 * "not found" (0 and no entry) is taken as one: glibc's ENOENT is a
 * service's error (see groups.c). Under cwrap's nss_wrapper (tests), whose
 * lookups say ENOENT for "not found", ENOENT is "not found": when the
 * getgrnam_r() called is the one of the object exporting an enabled
 * nss_wrapper_enabled(), not when some library merely exports the name.
 */
int groups_nss_result(int rc, int found);

/* 1 when gid is one of groups[0..n), else 0. */
int groups_have(const gid_t *groups, int n, gid_t gid);

#endif
