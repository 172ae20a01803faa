/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Group lists sized to fit: getgroups(2) and getgrouplist(3) with their size dance done once. */
#define _GNU_SOURCE		/* getgrouplist */
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <unistd.h>

#include "groups.h"

int groups_of_process(gid_t **groups)
{
	/* Ask for the size, then read; retry if the list grew in between. */
	for (;;) {
		int n = getgroups(0, NULL), got;

		*groups = NULL;
		if (n < 0)
			return -1;
		*groups = calloc((size_t)n + 1, sizeof(**groups));
		if (*groups == NULL) {
			errno = ENOMEM;
			return -1;
		}
		got = getgroups(n, *groups);
		if (got >= 0)
			return got;
		free(*groups);
		*groups = NULL;
		if (errno != EINVAL)
			return -1;
	}
}

int groups_of_user(const char *name, gid_t primary, gid_t **groups)
{
	int n = 32;

	*groups = NULL;
	for (;;) {
		int want = n;
		gid_t *more = realloc(*groups, sizeof(**groups) * (size_t)n);

		if (more == NULL) {
			free(*groups);
			*groups = NULL;
			errno = ENOMEM;
			return -1;
		}
		*groups = more;
		if (getgrouplist(name, primary, *groups, &want) >= 0)
			return want;
		/* glibc reports the size it needs; never loop forever. */
		if (want > GROUPS_MAX || want <= n) {
			free(*groups);
			*groups = NULL;
			errno = want > GROUPS_MAX ? E2BIG : EIO;
			return -1;
		}
		n = want;
	}
}

int groups_have(const gid_t *groups, int n, gid_t gid)
{
	int i;

	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}
