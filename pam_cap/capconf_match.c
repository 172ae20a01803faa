/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Who does a capability.conf line select: user names, @groups and "*". */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "capconf.h"

/* NSS entries can be large (big groups); grow the buffer up to this. */
#define NSS_BUF_MAX	(1024 * 1024)

/*
 * The _r lookups: a PAM module must not clobber the static buffers of
 * getpwnam() and friends, which the application may be using.
 */
static int lookup_passwd(const char *name, struct passwd *pw, char **buf)
{
	size_t size = 1024;
	struct passwd *res;
	int rc;

	for (;;) {
		char *nbuf = realloc(*buf, size);

		if (nbuf == NULL)
			return -1;
		*buf = nbuf;
		/* Some NSS shims leave res untouched on failure: reset it. */
		res = NULL;
		rc = getpwnam_r(name, pw, *buf, size, &res);
		if (rc != ERANGE || size >= NSS_BUF_MAX)
			break;
		size *= 2;
	}
	if (rc != 0 || res == NULL) {
		/* Not found (rc 0) and lookup errors: "no such user". */
		errno = rc == ENOMEM ? ENOMEM : ENOENT;
		return -1;
	}
	return 0;
}

/*
 * The name of gid, or NULL: with errno ENOMEM when memory ran out, else
 * (errno ENOENT) because the gid has no name. The two must not be
 * confused: a group silently left out on ENOMEM would make the user a
 * non-member, so an "@group" line would be passed over for a later one.
 */
static char *group_name(gid_t gid, char **buf)
{
	size_t size = 1024;
	struct group gr, *res;
	char *name;
	int rc;

	for (;;) {
		char *nbuf = realloc(*buf, size);

		if (nbuf == NULL)
			return NULL;		/* ENOMEM from realloc */
		*buf = nbuf;
		res = NULL;
		rc = getgrgid_r(gid, &gr, *buf, size, &res);
		if (rc != ERANGE || size >= NSS_BUF_MAX)
			break;
		size *= 2;
	}
	if (rc == ENOMEM) {
		errno = ENOMEM;
		return NULL;
	}
	if (rc != 0 || res == NULL) {
		errno = ENOENT;
		return NULL;
	}
	name = strdup(gr.gr_name);
	if (name == NULL)
		errno = ENOMEM;
	return name;
}

/* All of the user's gids, primary first; caller frees. */
static gid_t *list_gids(const char *name, gid_t primary, int *count)
{
	int n = 32;
	gid_t *gids = NULL;

	for (;;) {
		int want = n;
		gid_t *ngids = realloc(gids, sizeof(*gids) * (size_t)n);

		if (ngids == NULL) {
			free(gids);
			return NULL;
		}
		gids = ngids;
		if (getgrouplist(name, primary, gids, &want) >= 0) {
			*count = want;
			return gids;
		}
		/* glibc reports the size it needs; never loop forever. */
		if (want <= n || want > 65536) {
			free(gids);
			errno = ENOMEM;
			return NULL;
		}
		n = want;
	}
}

int capconf_user_lookup(struct capconf_user *u, const char *name)
{
	struct passwd pw;
	char *buf = NULL;
	gid_t *gids = NULL;
	int i, n = 0;

	memset(u, 0, sizeof(*u));
	if (name == NULL || *name == '\0') {
		errno = ENOENT;
		return -1;
	}
	if (lookup_passwd(name, &pw, &buf) < 0)
		goto fail;
	u->name = strdup(name);
	gids = list_gids(name, pw.pw_gid, &n);
	if (u->name == NULL || gids == NULL)
		goto fail;
	u->groups = calloc((size_t)n + 1, sizeof(*u->groups));
	if (u->groups == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		/* A gid without a name cannot be written as @name. */
		char *g = group_name(gids[i], &buf);

		if (g != NULL)
			u->groups[u->ngroups++] = g;
		else if (errno == ENOMEM)
			goto fail;
	}
	free(gids);
	free(buf);
	return 0;
fail:
	{
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
	free(u->name);
	memset(u, 0, sizeof(*u));
}

int capconf_line_matches(const struct capconf_line *line,
			 const struct capconf_user *u, enum capconf_why *why)
{
	int i, g;

	if (line->error != CAPCONF_LINE_OK)
		return 0;
	for (i = 1; i < line->ntok; i++) {
		const char *t = line->tok[i];

		if (strcmp(t, "*") == 0) {
			*why = CAPCONF_WHY_ANY;
			return i;
		}
		if (t[0] == '@') {
			/* Only "@" makes a group (CVE-2025-1390). */
			for (g = 0; g < u->ngroups; g++) {
				if (strcmp(t + 1, u->groups[g]) == 0) {
					*why = CAPCONF_WHY_GROUP;
					return i;
				}
			}
			continue;
		}
		if (strcmp(t, u->name) == 0) {
			*why = CAPCONF_WHY_USER;
			return i;
		}
	}
	return 0;
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

static void report_line_error(const char *path,
			      const struct capconf_line *line,
			      capconf_log_fn log, void *ctx)
{
	if (log == NULL)
		return;
	if (line->error == CAPCONF_LINE_TOO_LONG)
		log(ctx, LOG_ERR, "%s:%lu: line longer than %d bytes, ignored",
		    path, line->number, CAPCONF_LINE_MAX);
	else
		log(ctx, LOG_ERR, "%s:%lu: NUL byte in line, ignored",
		    path, line->number);
}

/* Scans an opened file; returns an enum capconf_find_status. */
static int scan(struct capconf_reader *r, const char *path,
		const struct capconf_user *u, struct capconf_match *m,
		capconf_log_fn log, void *ctx)
{
	struct capconf_line *line;
	enum capconf_why why;
	int rc, at;

	while ((rc = capconf_next(r, &line)) > 0) {
		if (line->error != CAPCONF_LINE_OK) {
			report_line_error(path, line, log, ctx);
			continue;
		}
		at = capconf_line_matches(line, u, &why);
		if (at == 0)
			continue;
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
	if (rc < 0 && log != NULL)
		log(ctx, LOG_ERR, "%s: read error: %s", path, strerror(errno));
	/* A read error leaves the rest unread: nothing more can match. */
	return CAPCONF_NOT_FOUND;
}

int capconf_find(const char *path, const char *user, struct capconf_match *m,
		 capconf_log_fn log, void *ctx)
{
	struct capconf_reader r;
	struct capconf_user u;
	int rc;

	memset(m, 0, sizeof(*m));
	if (capconf_user_lookup(&u, user) < 0) {
		if (errno == ENOMEM)
			return CAPCONF_NOMEM;
		if (log != NULL)
			log(ctx, LOG_DEBUG,
			    "user '%s' unknown: no line can match",
			    user == NULL ? "" : user);
		return CAPCONF_UNKNOWN_USER;
	}
	rc = capconf_open(&r, path);
	if (rc != CAPCONF_OPEN_OK) {
		/* A missing file means "no grants"; the rest are errors. */
		if (log != NULL)
			log(ctx, rc == CAPCONF_OPEN_FAILED && errno == ENOENT ?
				 LOG_DEBUG : LOG_ERR,
			    "%s: %s", path, capconf_open_strerror(rc));
		capconf_user_release(&u);
		return CAPCONF_UNREADABLE;
	}
	rc = scan(&r, path, &u, m, log, ctx);
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
