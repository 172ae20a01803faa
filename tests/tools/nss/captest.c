/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libnss_captest.so.2: a group database service for tests, standing in
 * for LDAP or sssd. glibc loads it (from LD_LIBRARY_PATH, for a program
 * that is not set-user-ID) when nsswitch.conf names "captest" in its
 * group line; the suites that use it bind their own nsswitch.conf in a
 * private mount namespace. $CAPTEST_NSS says how it answers:
 *
 *   member    it holds one group, ldapdeny (gid 4800), with member mal
 *   unavail   every look-up fails: NSS_STATUS_UNAVAIL with errno
 *             $CAPTEST_NSS_ERRNO (a number; 2, ENOENT, when unset: what
 *             nss-pam-ldapd says when nslcd cannot be reached)
 *   tryagain  every look-up fails: NSS_STATUS_TRYAGAIN, errno EAGAIN
 *
 * Anything else: it holds nothing (NOTFOUND).
 *
 * It also exports nss_wrapper_enabled(), the name cwrap's nss_wrapper
 * answers to, saying yes when $CAPTEST_FAKE_WRAPPER is set: preloaded, it
 * is any library of a login process that happens to export the name while
 * glibc, not nss_wrapper, answers the look-ups.
 */
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <nss.h>
#include <stdlib.h>
#include <string.h>

#define DENY_GID 4800

bool nss_wrapper_enabled(void);

bool nss_wrapper_enabled(void)
{
	return getenv("CAPTEST_FAKE_WRAPPER") != NULL;
}

/* Exported by name: glibc finds these with dlsym(). */
enum nss_status _nss_captest_getgrnam_r(const char *, struct group *, char *,
					size_t, int *);
enum nss_status _nss_captest_getgrgid_r(gid_t, struct group *, char *, size_t,
					int *);
enum nss_status _nss_captest_initgroups_dyn(const char *, gid_t, long *, long *,
					    gid_t **, long, int *);
enum nss_status _nss_captest_setgrent(int);
enum nss_status _nss_captest_endgrent(void);
enum nss_status _nss_captest_getgrent_r(struct group *, char *, size_t, int *);

static const char *mode(void)
{
	const char *m = getenv("CAPTEST_NSS");

	return m != NULL ? m : "";
}

/* 1 when this look-up must fail, with *status and *errnop set. */
static int failing(enum nss_status *status, int *errnop)
{
	const char *e = getenv("CAPTEST_NSS_ERRNO");

	if (strcmp(mode(), "unavail") == 0) {
		*errnop = e != NULL ? atoi(e) : ENOENT;
		*status = NSS_STATUS_UNAVAIL;
		return 1;
	}
	if (strcmp(mode(), "tryagain") == 0) {
		*errnop = EAGAIN;
		*status = NSS_STATUS_TRYAGAIN;
		return 1;
	}
	return 0;
}

static enum nss_status fill_deny(struct group *gr, char *buf, size_t size,
				 int *errnop)
{
	static const char name[] = "ldapdeny", pw[] = "x", mal[] = "mal";
	char **mem;
	char *at;

	if (size < 2 * sizeof(char *) + sizeof(name) + sizeof(pw) +
			   sizeof(mal) + sizeof(char *)) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	mem = (char **)(void *)buf;
	at = buf + 2 * sizeof(char *);
	gr->gr_name = memcpy(at, name, sizeof(name));
	at += sizeof(name);
	gr->gr_passwd = memcpy(at, pw, sizeof(pw));
	at += sizeof(pw);
	mem[0] = memcpy(at, mal, sizeof(mal));
	mem[1] = NULL;
	gr->gr_mem = mem;
	gr->gr_gid = DENY_GID;
	return NSS_STATUS_SUCCESS;
}

static int member_mode(void)
{
	return strcmp(mode(), "member") == 0;
}

enum nss_status _nss_captest_getgrnam_r(const char *name, struct group *gr,
					char *buf, size_t size, int *errnop)
{
	enum nss_status status;

	if (failing(&status, errnop))
		return status;
	if (member_mode() && strcmp(name, "ldapdeny") == 0)
		return fill_deny(gr, buf, size, errnop);
	*errnop = ENOENT;
	return NSS_STATUS_NOTFOUND;
}

enum nss_status _nss_captest_getgrgid_r(gid_t gid, struct group *gr, char *buf,
					size_t size, int *errnop)
{
	enum nss_status status;

	if (failing(&status, errnop))
		return status;
	if (member_mode() && gid == DENY_GID)
		return fill_deny(gr, buf, size, errnop);
	*errnop = ENOENT;
	return NSS_STATUS_NOTFOUND;
}

enum nss_status _nss_captest_initgroups_dyn(const char *user, gid_t skip,
					    long *start, long *size,
					    gid_t **groups, long limit,
					    int *errnop)
{
	enum nss_status status;

	(void)skip;
	if (failing(&status, errnop))
		return status;
	if (!member_mode() || strcmp(user, "mal") != 0)
		return NSS_STATUS_NOTFOUND;
	if (*start == *size) {
		long more = *size * 2;
		gid_t *g;

		if (limit > 0 && more > limit)
			more = limit;
		if (more <= *size)
			return NSS_STATUS_SUCCESS;
		g = realloc(*groups, (size_t)more * sizeof(*g));
		if (g == NULL) {
			*errnop = ENOMEM;
			return NSS_STATUS_TRYAGAIN;
		}
		*groups = g;
		*size = more;
	}
	(*groups)[(*start)++] = DENY_GID;
	return NSS_STATUS_SUCCESS;
}

/* Enumeration: the same answers, for getent group. */
static int enumerated;

enum nss_status _nss_captest_setgrent(int stayopen)
{
	(void)stayopen;
	enumerated = 0;
	return NSS_STATUS_SUCCESS;
}

enum nss_status _nss_captest_endgrent(void)
{
	return NSS_STATUS_SUCCESS;
}

enum nss_status _nss_captest_getgrent_r(struct group *gr, char *buf,
					size_t size, int *errnop)
{
	enum nss_status status;

	if (failing(&status, errnop))
		return status;
	if (!member_mode() || enumerated) {
		*errnop = ENOENT;
		return NSS_STATUS_NOTFOUND;
	}
	status = fill_deny(gr, buf, size, errnop);
	enumerated = status == NSS_STATUS_SUCCESS;
	return status;
}
