/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Group lists sized to fit: getgroups(2) and getgrouplist(3) with their
 * size dance done once; and how a group database look-up reports errors.
 *
 * How glibc (2.36, nss/getXXbyYY_r.c, grp/initgroups.c) reports a failing
 * service, say LDAP or sssd down behind "group: files ldap":
 *
 *  - getgrouplist() and initgroups() ask each service in turn and throw
 *    the services' statuses away. A service that answers UNAVAIL or
 *    TRYAGAIN is skipped (the default action for both is "continue"),
 *    and the call succeeds with the groups of the others: a partial list,
 *    and nothing tells it from a whole one.
 *  - getgrnam_r() and getgrgid_r() also ask each service in turn, until
 *    one's status says return (SUCCESS by default). Their result is the
 *    status of the last service asked: SUCCESS gives 0 and the entry,
 *    NOTFOUND gives 0 and no entry, UNAVAIL or TRYAGAIN gives the value
 *    the service left in errno (ERANGE aside: "buffer too small"). So an
 *    error is seen only when the failing service is the last one asked
 *    for that name, which is the case for a name that no earlier service
 *    has ("files ldap": files says NOTFOUND, ldap UNAVAIL). With the
 *    failing service first ("ldap files") and the default actions, the
 *    error is lost to a later NOTFOUND; "ldap [UNAVAIL=return] files"
 *    keeps it. No public interface gives more.
 *  - The errno values seen: what the service's code sets, ENOENT included.
 *    glibc's manual gives "UNAVAIL, ENOENT: a necessary input file cannot
 *    be found" (the files service without its file), nss-pam-ldapd
 *    answers UNAVAIL with ENOENT when nslcd cannot be reached, sssd with
 *    its own codes. ENOENT from glibc is therefore an error, never "not
 *    found", which glibc always reports as 0. A service that says UNAVAIL
 *    without setting errno leaves errno as it was before the call: our
 *    look-ups set it to EIO first, so that too is an error.
 */
#define _GNU_SOURCE /* getgrouplist, RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "groups.h"

/*
 * cwrap's nss_wrapper replaces getgrnam_r() and friends (through
 * LD_PRELOAD: never in a set-user-ID or capability-raising program) and
 * says ENOENT for "not found". Its lookups are the ones answering when the
 * getgrnam_r() we call is its own, and its nss_wrapper_enabled() says so.
 * The name alone proves nothing: any library in a login process (another
 * PAM module's, an NSS service's) may export it while glibc answers, and
 * glibc's ENOENT, read as "not found", would hide a failed service.
 *
 * Safe both ways: when the check fails, ENOENT is an error and the
 * decision stops (fail closed). For it to pass, the object answering our
 * getgrnam_r() must be the one exporting the switch; whoever put that
 * object there decides every group look-up already (it could say "not
 * found" as glibc does), so taking its ENOENT as "not found" gives nobody
 * a grant they could not have had. nss_wrapper's own ENOENT is no better
 * than nss_wrapper: its files backend says it too for a group file it
 * cannot read. It is a test tool, preloaded by whoever runs the program.
 */
static int nss_wrapper_answers(void)
{
	int (*lookup)(const char *, struct group *, char *, size_t,
		      struct group **) = getgrnam_r;
	Dl_info answering, defining;
	bool (*enabled)(void);

	*(void **)&enabled = dlsym(RTLD_DEFAULT, "nss_wrapper_enabled");
	if (enabled == NULL || dladdr(*(void **)&lookup, &answering) == 0 ||
	    dladdr(*(void **)&enabled, &defining) == 0 ||
	    answering.dli_fbase != defining.dli_fbase)
		return 0;
	return enabled();
}

int groups_nss_result(int rc, int found)
{
	if (rc == 0)
		return found ? 1 : 0;
	if (rc == ENOENT && !found && nss_wrapper_answers())
		return 0;
	errno = rc;
	return -1;
}

/*
 * A name no group should have: a look-up of it goes through every service
 * of the group database (an earlier one's NOTFOUND lets the next answer),
 * so the last one's error, if any, is reported. Found after all, it tells
 * nothing, and nothing is concluded from it.
 */
#define PROBE_NAME "groups-of-user-probe-nss-health"

/*
 * Did every service of the group database answer? 0, or -1 with errno: the
 * error the look-up reported (EIO for ENOENT, which reads as "no such
 * file"), or ENOMEM.
 */
static int group_database_answers(void)
{
	struct group gr, *res;
	size_t size = 1024;
	char *buf = NULL;
	int rc;

	for (;;) {
		char *more = realloc(buf, size);

		if (more == NULL) {
			free(buf);
			errno = ENOMEM;
			return -1;
		}
		buf = more;
		res = NULL;
		errno = EIO; /* a service that fails without saying why */
		rc = getgrnam_r(PROBE_NAME, &gr, buf, size, &res);
		if (rc < 0) /* nss_wrapper's way: -1 and errno */
			rc = errno != 0 ? errno : EIO;
		if (rc != ERANGE || size > SIZE_MAX / 2)
			break;
		size *= 2;
	}
	free(buf);
	if (groups_nss_result(rc, res != NULL) >= 0)
		return 0;
	if (errno == ENOENT)
		errno = EIO;
	return -1;
}

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
		if (getgrouplist(name, primary, *groups, &want) >= 0) {
			/* A service it skipped has failed for this probe too. */
			if (group_database_answers() < 0) {
				int saved = errno;

				free(*groups);
				*groups = NULL;
				errno = saved;
				return -1;
			}
			return want;
		}
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
