/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Who does a capability.conf line select: user names, @groups and "*". */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "capconf.h"
#include "groups.h"

/* One getpwnam_r()/getgrgid_r() call, so both share the buffer loop. */
typedef int (*nss_call_fn)(const void *key, void *ent, char *buf, size_t size,
			   void **res);

static int call_getpwnam(const void *key, void *ent, char *buf, size_t size,
			 void **res)
{
	struct passwd *pw = NULL;
	int rc = getpwnam_r(key, ent, buf, size, &pw);

	*res = pw;
	return rc;
}

static int call_getgrgid(const void *key, void *ent, char *buf, size_t size,
			 void **res)
{
	struct group *gr = NULL;
	int rc = getgrgid_r(*(const gid_t *)key, ent, buf, size, &gr);

	*res = gr;
	return rc;
}

static int call_getgrnam(const void *key, void *ent, char *buf, size_t size,
			 void **res)
{
	struct group *gr = NULL;
	int rc = getgrnam_r(key, ent, buf, size, &gr);

	*res = gr;
	return rc;
}

/*
 * Runs one reentrant NSS lookup (a PAM module must not clobber the static
 * buffers of getpwnam() and friends, which the application may be using).
 * The buffer in *buf grows until the entry fits, bounded only by memory:
 * glibc's files backend answers ERANGE for every entry after one that does
 * not fit, so a cap here would make a huge group hide all later ones.
 * Returns 1 (found), 0 (no such entry) or -1 with errno: ENOMEM, or the
 * lookup's own error, which is no "not found" and must not be taken as one.
 */
static int nss_lookup(nss_call_fn call, const void *key, void *ent, char **buf)
{
	size_t size = 1024;
	void *res;
	int rc;

	for (;;) {
		char *nbuf = realloc(*buf, size);

		if (nbuf == NULL)
			return -1; /* ENOMEM from realloc */
		*buf = nbuf;
		res = NULL;
		/* glibc returns errno as a failing service left it: EIO if
		 * the service set none (groups.c). */
		errno = EIO;
		rc = call(key, ent, *buf, size, &res);
		/* nss_wrapper (1.1.12) says -1 and sets errno, ERANGE too. */
		if (rc < 0)
			rc = errno != 0 ? errno : EIO;
		if (rc != ERANGE)
			break;
		if (size > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		size *= 2;
	}
	/*
	 * "Not found" is 0 with no entry. Every other code is an error (EIO,
	 * ENOENT from a service whose input or server is missing, EINVAL from
	 * glibc for a backend that failed, ...): the entry may well exist.
	 * (groups.c says how glibc reports them; nss_wrapper's ENOENT.)
	 */
	return groups_nss_result(rc, res != NULL);
}

/*
 * All of the user's gids, primary first, in *gids (caller frees). Returns 0,
 * or -1 with errno ENOMEM, or 1 when the list cannot be had whole: then
 * *gids holds the primary gid alone and why says what went wrong.
 */
static int list_gids(const char *name, gid_t primary, gid_t **gids, int *count,
		     char *why, size_t whylen)
{
	int n = groups_of_user(name, primary, gids);

	if (n >= 0) {
		*count = n;
		return 0;
	}
	if (errno == ENOMEM)
		return -1;
	if (errno == E2BIG)
		snprintf(why, whylen, "'%s' is in more than %d groups", name,
			 CAPCONF_GROUPS_MAX);
	else
		snprintf(why, whylen, "the group database failed: %s",
			 strerror(errno));
	*gids = malloc(sizeof(**gids));
	if (*gids == NULL)
		return -1;
	(*gids)[0] = primary;
	*count = 1;
	return 1;
}

#define CAPCONF_WHY_SIZE 256

/*
 * Is u in the group named group, by the group database's own entry?
 * getgrouplist() may have left the group out because the service holding
 * it failed (groups.c); a look-up of the group by name reports such a
 * failure when that service is the last one asked. 1 a member: the
 * group's gid is u's primary group or one of u's gids, so the login holds
 * it. 0 not (or no such group: nobody is in it). -1 cannot tell, with
 * why: the look-up failed; or the entry and u's group list disagree, the
 * entry naming u among its members while the list, which is what
 * initgroups() gives the login, lacks the group (an "initgroups:" line in
 * nsswitch.conf that leaves a service out, a service that failed for
 * getgrouplist() alone): a grant would go to a login without the group,
 * and "not a member" would skip a restriction meant for it; or u is not
 * among the members listed while u's own group list is incomplete
 * (members can come from elsewhere than gr_mem: nested groups, sssd's
 * ignore_group_members).
 */
static int nss_member(const struct capconf_user *u, const char *group,
		      char *why, size_t whylen)
{
	struct group gr;
	char *buf = NULL;
	int rc, i, listed;

	rc = nss_lookup(call_getgrnam, group, &gr, &buf);
	if (rc < 0) {
		snprintf(why, whylen, "group '%s' cannot be looked up: %s",
			 group, strerror(errno));
		free(buf);
		return -1;
	}
	if (rc == 0) {
		free(buf);
		return 0;
	}
	if (gr.gr_gid == u->primary ||
	    groups_have(u->gids, u->ngids, gr.gr_gid)) {
		free(buf);
		return 1;
	}
	listed = 0;
	for (i = 0; !listed && gr.gr_mem != NULL && gr.gr_mem[i] != NULL; i++)
		listed = strcmp(gr.gr_mem[i], u->name) == 0;
	free(buf);
	if (listed && u->groups_error[0] == '\0') {
		snprintf(
			why, whylen,
			"group '%s' lists '%s' as a member, but getgrouplist() leaves the group out",
			group, u->name);
		return -1;
	}
	if (listed || u->groups_error[0] != '\0') {
		snprintf(why, whylen, "%s", u->groups_error);
		return -1;
	}
	return 0;
}

int capconf_user_lookup(struct capconf_user *u, const char *name)
{
	struct passwd pw;
	struct group gr;
	char *buf = NULL;
	gid_t *gids = NULL;
	int i, n = 0, rc;

	memset(u, 0, sizeof(*u));
	if (name == NULL || *name == '\0') {
		errno = ENOENT;
		return -1;
	}
	rc = nss_lookup(call_getpwnam, name, &pw, &buf);
	if (rc <= 0) {
		if (rc == 0)
			errno = ENOENT;
		goto fail;
	}
	u->name = strdup(name);
	if (u->name == NULL ||
	    list_gids(name, pw.pw_gid, &gids, &n, u->groups_error,
		      sizeof(u->groups_error)) < 0)
		goto fail;
	u->groups = calloc((size_t)n + 1, sizeof(*u->groups));
	u->undecided_why = calloc(1, CAPCONF_WHY_SIZE);
	if (u->groups == NULL || u->undecided_why == NULL)
		goto fail;
	u->member = nss_member;
	u->primary = pw.pw_gid;
	for (i = 0; i < n; i++) {
		rc = nss_lookup(call_getgrgid, &gids[i], &gr, &buf);
		if (rc < 0 && errno == ENOMEM)
			goto fail;
		if (rc < 0) {
			/*
			 * The gid may have a name this user's "@name" lines
			 * need. Only the first failure is kept: one is enough
			 * to make the list incomplete.
			 */
			if (u->groups_error[0] == '\0')
				snprintf(u->groups_error,
					 sizeof(u->groups_error),
					 "group %lu cannot be read: %s",
					 (unsigned long)gids[i],
					 strerror(errno));
			continue;
		}
		/* A gid without a name cannot be written as @name. */
		if (rc == 0)
			continue;
		u->groups[u->ngroups] = strdup(gr.gr_name);
		if (u->groups[u->ngroups] == NULL)
			goto fail;
		u->ngroups++;
	}
	u->gids = gids; /* u owns them now */
	u->ngids = n;
	free(buf);
	return 0;
fail : {
	int saved = errno;

	free(gids);
	free(buf);
	capconf_user_release(u);
	errno = saved;
}
	return -1;
}

void capconf_user_release(struct capconf_user *u)
{
	int i;

	for (i = 0; i < u->ngroups; i++)
		free(u->groups[i]);
	free(u->groups);
	free(u->gids);
	free(u->undecided_why);
	free(u->name);
	memset(u, 0, sizeof(*u));
}

/* Is group among u's group names? */
static int in_groups(const struct capconf_user *u, const char *group)
{
	int g;

	for (g = 0; g < u->ngroups; g++)
		if (strcmp(group, u->groups[g]) == 0)
			return 1;
	return 0;
}

/*
 * Asks u->member() about each "@group" token of line that groups[] does
 * not hold, in order. Returns the index of the first that u is in, else 0,
 * with *undecided the first that could not be told (0: none).
 */
static int ask_database(const struct capconf_line *line,
			const struct capconf_user *u, int *undecided)
{
	char why[CAPCONF_WHY_SIZE];
	int i, r;

	for (i = 1; i < line->ntok; i++) {
		const char *t = line->tok[i];

		if (t[0] != '@')
			continue;
		r = u->member(u, t + 1, why, sizeof(why));
		if (r > 0)
			return i;
		if (r < 0 && *undecided == 0) {
			*undecided = i;
			if (u->undecided_why != NULL)
				snprintf(u->undecided_why, CAPCONF_WHY_SIZE,
					 "%s", why);
		}
	}
	return 0;
}

int capconf_line_matches(const struct capconf_line *line,
			 const struct capconf_user *u, enum capconf_why *why,
			 int *undecided)
{
	int i, groups = 0;

	*undecided = 0;
	if (line->error != CAPCONF_LINE_OK)
		return -1;
	for (i = 1; i < line->ntok; i++) {
		const char *t = line->tok[i];

		if (strcmp(t, "*") == 0) {
			*why = CAPCONF_WHY_ANY;
			return i;
		}
		if (t[0] == '@') {
			/* Only "@" makes a group (CVE-2025-1390). */
			if (in_groups(u, t + 1)) {
				*why = CAPCONF_WHY_GROUP;
				return i;
			}
			groups++;
			continue;
		}
		if (strcmp(t, u->name) == 0) {
			*why = CAPCONF_WHY_USER;
			return i;
		}
	}
	if (groups == 0)
		return 0;
	*why = CAPCONF_WHY_GROUP;
	if (u->member != NULL) {
		i = ask_database(line, u, undecided);
		if (i > 0)
			return i;
	} else if (u->groups_error[0] != '\0') {
		/*
		 * Not among the groups we could read: with some missing,
		 * "not a member" is a guess.
		 */
		for (i = 1; i < line->ntok && *undecided == 0; i++)
			if (line->tok[i][0] == '@')
				*undecided = i;
	}
	return *undecided != 0 ? -1 : 0;
}

const char *capconf_why_name(enum capconf_why why)
{
	switch (why) {
	case CAPCONF_WHY_USER:
		return "user name";
	case CAPCONF_WHY_GROUP:
		return "group";
	default:
		return "wildcard";
	}
}

/*
 * Records why the decision stops at line n (0: not at a line) in m, and
 * logs it at LOG_ERR. Returns CAPCONF_BROKEN.
 */
static int stop(struct capconf_match *m, const char *path, unsigned long n,
		capconf_log_fn log, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int stop(struct capconf_match *m, const char *path, unsigned long n,
		capconf_log_fn log, void *ctx, const char *fmt, ...)
{
	va_list ap;

	m->line = n;
	va_start(ap, fmt);
	vsnprintf(m->problem, sizeof(m->problem), fmt, ap);
	va_end(ap);
	if (log == NULL)
		return CAPCONF_BROKEN;
	if (n != 0)
		log(ctx, LOG_ERR, "%s:%lu: %s; stopped here, nothing granted",
		    path, n, m->problem);
	else
		log(ctx, LOG_ERR, "%s: %s; nothing granted", path, m->problem);
	return CAPCONF_BROKEN;
}

/*
 * A line that misses u only for want of an '@': a word names one of u's
 * groups, but pam_cap reads a word without '@' as a user name only
 * (CVE-2025-1390), as libcap's module does. That stays no match; the log
 * says what was probably meant, once a scan. Returns 1 when it logged.
 */
static int log_missing_at(const struct capconf_line *line,
			  const struct capconf_user *u, const char *path,
			  capconf_log_fn log, void *ctx)
{
	int i;

	if (log == NULL || line->error != CAPCONF_LINE_OK)
		return 0;
	for (i = 1; i < line->ntok; i++) {
		const char *t = line->tok[i];

		if (t[0] == '@' || strcmp(t, "*") == 0 ||
		    strcmp(t, u->name) == 0 || !in_groups(u, t))
			continue;
		log(ctx, LOG_WARNING,
		    "%s:%lu: '%s' is a user name, not a group, so this line does not select '%s', who is in group '%s': did you mean '@%s'?",
		    path, line->number, t, u->name, t, t);
		return 1;
	}
	return 0;
}

int capconf_scan(struct capconf_reader *r, const char *path,
		 const struct capconf_user *u, struct capconf_match *m,
		 capconf_log_fn log, void *ctx)
{
	struct capconf_line *line;
	enum capconf_why why;
	int rc, at, undecided, hinted = 0;

	memset(m, 0, sizeof(*m));
	/*
	 * The first line that selects u decides, so a line that cannot be
	 * used decides too: it might have named u. Reading past it would let
	 * a later, broader line ("*") grant what it was meant to prevent.
	 */
	while ((rc = capconf_next(r, &line)) > 0) {
		at = capconf_line_matches(line, u, &why, &undecided);
		if (at == 0) {
			if (!hinted)
				hinted =
					log_missing_at(line, u, path, log, ctx);
			continue;
		}
		if (at < 0 && line->error == CAPCONF_LINE_TOO_LONG)
			return stop(m, path, line->number, log, ctx,
				    "line longer than %d bytes",
				    CAPCONF_LINE_MAX);
		if (at < 0 && line->error == CAPCONF_LINE_NUL)
			return stop(m, path, line->number, log, ctx,
				    "NUL byte in line");
		if (at < 0 && line->error == CAPCONF_LINE_CONTROL)
			return stop(
				m, path, line->number, log, ctx,
				"control character 0x%02x in line%s: a name would hold it",
				line->control,
				line->control == '\r'
					? " (CR: a file with DOS line ends?)"
					: "");
		if (at < 0)
			return stop(m, path, line->number, log, ctx,
				    "cannot tell whether '%s' is in '%s': %s",
				    u->name, line->tok[undecided],
				    u->member != NULL &&
						    u->undecided_why != NULL
					    ? u->undecided_why
					    : u->groups_error);
		m->line = line->number;
		m->why = why;
		m->who = strdup(line->tok[at]);
		m->caps = strdup(line->tok[0]);
		if (m->who == NULL || m->caps == NULL) {
			capconf_match_release(m);
			return CAPCONF_NOMEM;
		}
		return CAPCONF_FOUND;
	}
	/* A read error leaves the rest unread: any of it might decide. */
	if (rc < 0)
		return stop(m, path, r->lineno + 1, log, ctx, "read error: %s",
			    strerror(errno));
	return CAPCONF_NOT_FOUND;
}

int capconf_find(const char *path, const char *user, struct capconf_match *m,
		 capconf_log_fn log, void *ctx)
{
	struct capconf_reader r;
	struct capconf_user u;
	int rc;

	memset(m, 0, sizeof(*m));
	if (user == NULL)
		user = "";
	if (capconf_user_lookup(&u, user) < 0) {
		if (errno == ENOMEM)
			return CAPCONF_NOMEM;
		if (errno != ENOENT)
			/*
			 * Not "no such user": the entry may exist, and the
			 * file may hold a "*" or "@group" line for it.
			 */
			return stop(m, path, 0, log, ctx,
				    "cannot look up user '%s': %s", user,
				    strerror(errno));
		if (log != NULL)
			log(ctx, LOG_DEBUG,
			    "user '%s' unknown: no line can match", user);
		return CAPCONF_UNKNOWN_USER;
	}
	rc = capconf_open(&r, path);
	if (rc == CAPCONF_OPEN_FAILED && errno == ENOENT) {
		/* No file: no lines, as in libcap (default= applies). */
		if (log != NULL)
			log(ctx, LOG_DEBUG, "%s: %s", path, strerror(errno));
		capconf_user_release(&u);
		return CAPCONF_UNREADABLE;
	}
	if (rc == CAPCONF_OPEN_FAILED && errno == ENOMEM) {
		capconf_user_release(&u);
		return CAPCONF_NOMEM;
	}
	if (rc != CAPCONF_OPEN_OK) {
		/* A file we cannot read or trust might have named u. */
		rc = stop(m, path, 0, log, ctx, "%s",
			  capconf_open_strerror(&r, rc));
		capconf_user_release(&u);
		return rc;
	}
	rc = capconf_scan(&r, path, &u, m, log, ctx);
	capconf_close(&r);
	capconf_user_release(&u);
	return rc;
}

/* The first "who" token naming u itself or a group of u ("*" is no name). */
static int names_user(const struct capconf_line *line,
		      const struct capconf_user *u, enum capconf_why *why)
{
	int i;

	for (i = 1; i < line->ntok; i++) {
		const char *t = line->tok[i];

		if (t[0] == '@' && in_groups(u, t + 1)) {
			*why = CAPCONF_WHY_GROUP;
			return i;
		}
		if (t[0] != '@' && strcmp(t, "*") != 0 &&
		    strcmp(t, u->name) == 0) {
			*why = CAPCONF_WHY_USER;
			return i;
		}
	}
	return 0;
}

int capconf_find_shadowed(const char *path, const char *user,
			  unsigned long after, struct capconf_match *later)
{
	struct capconf_reader r;
	struct capconf_line *line;
	struct capconf_user u;
	enum capconf_why why;
	int rc = CAPCONF_NOT_FOUND, at;

	memset(later, 0, sizeof(*later));
	if (capconf_user_lookup(&u, user) < 0)
		return errno == ENOMEM ? CAPCONF_NOMEM : CAPCONF_UNKNOWN_USER;
	if (capconf_open(&r, path) != CAPCONF_OPEN_OK) {
		capconf_user_release(&u);
		return CAPCONF_UNREADABLE;
	}
	while (capconf_next(&r, &line) > 0) {
		/* pam_cap would stop at an unusable line: nothing past it. */
		if (line->error != CAPCONF_LINE_OK)
			break;
		if (line->number <= after ||
		    (at = names_user(line, &u, &why)) == 0)
			continue;
		later->line = line->number;
		later->why = why;
		later->who = strdup(line->tok[at]);
		later->caps = strdup(line->tok[0]);
		rc = CAPCONF_FOUND;
		if (later->who == NULL || later->caps == NULL) {
			capconf_match_release(later);
			rc = CAPCONF_NOMEM;
		}
		break;
	}
	capconf_close(&r);
	capconf_user_release(&u);
	return rc;
}

void capconf_match_release(struct capconf_match *m)
{
	free(m->who);
	free(m->caps);
	memset(m, 0, sizeof(*m));
}
