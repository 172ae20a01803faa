/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Name-or-number lookups of users and groups (see names.h). */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>

#include "names.h"

const char *names_user(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw != NULL)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)uid);
	return buf;
}

const char *names_group(gid_t gid, char *buf, size_t len)
{
	struct group *gr = getgrgid(gid);

	if (gr != NULL)
		snprintf(buf, len, "%s", gr->gr_name);
	else
		snprintf(buf, len, "%u", (unsigned)gid);
	return buf;
}
