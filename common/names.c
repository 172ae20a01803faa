/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Name-or-number lookups of users, groups and capabilities (see names.h). */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>

#include "names.h"

static const char *name_or_number(const char *name, unsigned id, char *buf,
				  size_t len)
{
	if (name != NULL)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%u", id);
	return buf;
}

const char *names_user(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	return name_or_number(pw != NULL ? pw->pw_name : NULL, (unsigned)uid,
			      buf, len);
}

const char *names_group(gid_t gid, char *buf, size_t len)
{
	struct group *gr = getgrgid(gid);

	return name_or_number(gr != NULL ? gr->gr_name : NULL, (unsigned)gid,
			      buf, len);
}

const char *names_cap(cap_value_t cap, char *buf, size_t len)
{
	char *name = cap_to_name(cap);

	snprintf(buf, len, "%s", name != NULL ? name : "?");
	cap_free(name);
	return buf;
}
