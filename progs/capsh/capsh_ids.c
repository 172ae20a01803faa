/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh's identity options: --uid, --gid, --cap-uid, --groups and --user. */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capsh.h"
#include "groups.h"
#include "number.h"

/*
 * --uid=<n>: plain setuid(2); leaving root clears P and E (unless
 * keep-caps).
 */
int capsh_uid(const char *text)
{
	unsigned uid;

	if (capsh_parse_uint(text, "invalid --uid value", &uid) != 0)
		return 1;
	if (setuid((uid_t)uid) != 0) {
		fprintf(stderr, "Failed to set uid=%u: %s\n", uid,
			strerror(errno));
		return 1;
	}
	return 0;
}

int capsh_gid(const char *text)
{
	unsigned gid;

	if (capsh_parse_uint(text, "invalid --gid value", &gid) != 0)
		return 1;
	if (setgid((gid_t)gid) != 0) {
		fprintf(stderr, "Failed to set gid=%u: %s\n", gid,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* --cap-uid=<n>: cap_setuid() keeps P across the change (E is cleared). */
int capsh_cap_uid(const char *text)
{
	unsigned uid;

	if (capsh_parse_uint(text, "invalid --cap-uid value", &uid) != 0)
		return 1;
	if (cap_setuid((uid_t)uid) != 0) {
		fprintf(stderr, "Failed to cap_setuid(%u): %s\n", uid,
			strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * One --groups entry: a leading digit means a number (base 0, as libcap),
 * anything else a group name. libcap ignores what follows the digits and
 * wraps a value past 32 bits ("99999999999" joins group 1215752191);
 * both are refused here with their own message: a wrapped number joins a
 * group nobody named.
 */
static int group_id(const char *entry, gid_t *gid)
{
	struct group gr, *found = NULL;
	char buf[4096];

	if (isdigit((unsigned char)entry[0])) {
		unsigned long long value;
		int rc = number_parse(entry, 0, UINT32_MAX, &value);

		if (rc != 0) {
			capsh_bad_value(
				"invalid --groups entry",
				rc == ERANGE ? "out of range (0 to 4294967295)"
					     : "want non-negative integer",
				entry);
			return -2;
		}
		*gid = (gid_t)value;
		return 0;
	}
	if (getgrnam_r(entry, &gr, buf, sizeof(buf), &found) != 0 ||
	    found == NULL)
		return -1;
	*gid = found->gr_gid;
	return 0;
}

/* --groups=g,...: replace the supplementary groups (empty entries skipped). */
int capsh_groups(const char *list)
{
	long max = sysconf(_SC_NGROUPS_MAX);
	char *copy, *tok, *save = NULL;
	gid_t *gids = NULL;
	int n = 0, status = 1, rc;

	if (max <= 0) {
		fprintf(stderr,
			"sysconf(%d) returned a non-positive number: %ld\n",
			_SC_NGROUPS_MAX, max);
		return 1;
	}
	copy = strdup(list);
	if (copy == NULL) {
		fprintf(stderr, "No memory for [%s] operation\n", "groups");
		return 1;
	}
	/* Each entry is at least one character plus a comma: this bounds n. */
	gids = calloc(strlen(list) / 2 + 1, sizeof(*gids));
	if (gids == NULL) {
		fprintf(stderr, "No memory for gid list\n");
		goto out;
	}
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n >= max) {
			fprintf(stderr, "Too many groups specified (%d)\n",
				n + 1);
			goto out;
		}
		rc = group_id(tok, &gids[n]);
		if (rc == -1)
			fprintf(stderr,
				"Failed to identify gid for group [%s]\n", tok);
		if (rc != 0)
			goto out;
		n++;
	}
	if (setgroups((size_t)n, gids) != 0) {
		fprintf(stderr, "Failed to setgroups.\n");
		goto out;
	}
	status = 0;
out:
	free(gids);
	free(copy);
	return status;
}

/*
 * libcap's environment fix-up, reproduced as observed: HOME is rewritten
 * only when it is already set, and USER only when both HOME and USER are;
 * neither is ever created.
 */
static int fix_env(const struct passwd *pw)
{
	if (getenv("HOME") == NULL)
		return 0;
	if (setenv("HOME", pw->pw_dir, 1) != 0) {
		capsh_perror("unable to set HOME");
		return -1;
	}
	if (getenv("USER") != NULL && setenv("USER", pw->pw_name, 1) != 0) {
		capsh_perror("unable to set USER");
		return -1;
	}
	return 0;
}

/*
 * --user=<name>: the user's primary and supplementary groups first (that
 * needs CAP_SETGID, which cap_setuid() would take away), then the uid with
 * cap_setuid(), which keeps P so that later options can still use it.
 */
int capsh_user(const struct opts *o, const char *name)
{
	struct passwd *pw = getpwnam(name);
	gid_t *groups = NULL;
	int n = 0, status = 1;

	if (pw == NULL) {
		fprintf(stderr, "User [%s] not known\n", name);
		return 1;
	}
	n = groups_of_user(pw->pw_name, pw->pw_gid, &groups);
	if (n < 0) {
		capsh_perror("Unable to get group list for user");
		goto out;
	}
	if (cap_setgroups(pw->pw_gid, (size_t)n, groups) != 0) {
		capsh_perror("Unable to set group list for user");
		goto out;
	}
	if (cap_setuid(pw->pw_uid) != 0) {
		fprintf(stderr, "Failed to set uid=%u(user=%s): %s\n",
			(unsigned)pw->pw_uid, name, strerror(errno));
		goto out;
	}
	if (!o->noenv && fix_env(pw) != 0)
		goto out;
	status = 0;
out:
	free(groups);
	return status;
}
