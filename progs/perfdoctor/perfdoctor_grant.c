/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor: what capability.conf grants the user through one PAM
 * service, read the way pam_cap reads it (common/capconf), and what the
 * fixes need to know of it: the line that decides for the user (also once
 * the file is no longer world-writable, and once the user is in
 * perf_users), and a grant below a '*' line that is never reached.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capconf.h"
#include "mask.h"
#include "perf.h"
#include "perfdoctor.h"

/*
 * path opened for reading as pam_cap will read it once its mode is fixed
 * (no trust check: the fixes take care of that), a regular file only.
 * Returns 0, or -1 with errno (ENOENT: no such file; EINVAL: not a
 * regular file).
 */
static int open_as_fixed(const char *path, struct capconf_reader *r)
{
	struct stat st;
	int fd;

	memset(r, 0, sizeof(*r));
	/* O_NONBLOCK and the fstat: a FIFO put there meanwhile is refused. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	r->fp = fdopen(fd, "r");
	if (r->fp == NULL) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return 0;
}

/*
 * Line n of path as pam_cap splits it, its tokens one blank apart (the
 * same line to pam_cap), into buf; "" when it cannot be had whole.
 */
static void conf_line_text(const char *path, unsigned long n, char *buf,
			   size_t len)
{
	struct capconf_reader r;
	struct capconf_line *line;
	size_t used = 0;
	int i;

	buf[0] = '\0';
	if (open_as_fixed(path, &r) < 0)
		return;
	while (capconf_next(&r, &line) > 0 && line->number <= n) {
		if (line->number < n)
			continue;
		for (i = 0; line->error == CAPCONF_LINE_OK && i < line->ntok;
		     i++) {
			size_t t = strlen(line->tok[i]);

			if (used + t + 2 > len) {
				used = 0;
				break;
			}
			if (i > 0)
				buf[used++] = ' ';
			memcpy(buf + used, line->tok[i], t);
			used += t;
		}
		buf[used] = '\0';
		break;
	}
	capconf_close(&r);
}

/* Adds group to u's group names unless it is there; -1 on ENOMEM. */
static int join_group(struct capconf_user *u, const char *group)
{
	char **grown;
	int i;

	for (i = 0; i < u->ngroups; i++)
		if (strcmp(u->groups[i], group) == 0)
			return 0;
	grown = realloc(u->groups, ((size_t)u->ngroups + 2) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	u->groups = grown;
	u->groups[u->ngroups] = strdup(group);
	if (u->groups[u->ngroups] == NULL)
		return -1;
	u->ngroups++;
	return 0;
}

/*
 * The file read as pam_cap will read it once it is not world-writable
 * (pam_cap reads none of such a file now), for user, a member of group
 * too when group is not NULL. An enum capconf_find_status, m filled on
 * CAPCONF_FOUND.
 */
static int scan_as_fixed(const char *path, const char *user, const char *group,
			 struct capconf_match *m)
{
	struct capconf_reader r;
	struct capconf_user u;
	int rc;

	memset(m, 0, sizeof(*m));
	if (capconf_user_lookup(&u, user) < 0)
		return errno == ENOMEM	 ? CAPCONF_NOMEM
		       : errno == ENOENT ? CAPCONF_UNKNOWN_USER
					 : CAPCONF_BROKEN;
	if (group != NULL && join_group(&u, group) < 0) {
		capconf_user_release(&u);
		return CAPCONF_NOMEM;
	}
	if (open_as_fixed(path, &r) < 0) {
		/* No such file has no lines, as in pam_cap. */
		rc = errno == ENOENT ? CAPCONF_UNREADABLE : CAPCONF_BROKEN;
		capconf_user_release(&u);
		return rc;
	}
	rc = capconf_scan(&r, path, &u, m, NULL, NULL);
	capconf_close(&r);
	capconf_user_release(&u);
	return rc;
}

/*
 * What decides for the user, from capconf's answer rc and m: the line
 * (0: none), whether by '*', and the caps text the user gets (default=
 * when no line matches). Returns 0, or -1 when pam_cap stops before any
 * line decides (no edit can be judged then).
 */
static int deciding(int rc, const struct capconf_match *m, const char *fallback,
		    unsigned long *line, int *star, int *from_default,
		    char *grant, size_t len)
{
	const char *text;

	*line = 0;
	*star = *from_default = 0;
	if (rc == CAPCONF_FOUND) {
		*line = m->line;
		*star = m->why == CAPCONF_WHY_ANY;
		text = m->caps;
	} else if (rc == CAPCONF_NOT_FOUND || rc == CAPCONF_UNREADABLE) {
		*from_default = fallback[0] != '\0';
		text = fallback;
	} else {
		return -1; /* no such user, or a line pam_cap stops at */
	}
	put(grant, len, "%s", text);
	return 0;
}

/*
 * view->conf: the file as the fixes must take it, after any fix of its
 * mode. rc and m are capconf_find()'s answer.
 */
static void judge_conf(struct pam_view *view, const char *user,
		       const char *fallback, int rc,
		       const struct capconf_match *m)
{
	struct conf_facts *cf = &view->conf;
	struct capconf_match fixed, joined;
	cap_iab_t iab;
	struct stat st;
	int jrc, dummy, trust;

	memset(cf, 0, sizeof(*cf));
	if (stat(view->config, &st) == 0) {
		/* A device (/dev/null) or FIFO takes no lines. */
		if (!S_ISREG(st.st_mode))
			return;
		cf->exists = 1;
		cf->uid = st.st_uid;
		cf->has_lines = st.st_size > 0;
		/*
		 * What others may write pam_cap refuses. chown and chmod of
		 * the file mend its owner, group and ACL; a directory others
		 * may change is no edit of the file, nor an ACL that cannot
		 * be judged: none is judged then.
		 */
		cf->world_writable = (st.st_mode & S_IWOTH) != 0;
		trust = capconf_trust(view->config, -1, &st, cf->untrusted,
				      sizeof(cf->untrusted));
		if (trust == CAPCONF_OPEN_UNTRUSTED_DIR ||
		    trust == CAPCONF_OPEN_FAILED)
			return;
		cf->refused = trust != CAPCONF_OPEN_OK;
	} else if (errno != ENOENT) {
		return;
	}
	if (cf->refused)
		rc = scan_as_fixed(view->config, user, NULL, &fixed);
	if (deciding(rc, cf->refused ? &fixed : m, fallback, &cf->decided,
		     &cf->decided_star, &cf->from_default, cf->grant,
		     sizeof(cf->grant)) == 0) {
		iab = strcmp(cf->grant, "all") && strcmp(cf->grant, "none")
			      ? cap_iab_from_text(cf->grant)
			      : NULL;
		cf->inh = mask_of_iab(iab, CAP_IAB_INH);
		cf->drop = mask_of_iab(iab, CAP_IAB_BOUND);
		cap_free(iab);
		cf->judged = 1;
	}
	if (cf->refused && rc == CAPCONF_FOUND)
		capconf_match_release(&fixed);
	/* The same for the user in perf_users (a name no line can hold). */
	jrc = scan_as_fixed(view->config, user, PERF_GROUP, &joined);
	if (deciding(jrc, &joined, fallback, &cf->joined_decided,
		     &cf->joined_star, &dummy, cf->joined_grant,
		     sizeof(cf->joined_grant)) == 0)
		cf->joined_judged = cf->judged;
	if (jrc == CAPCONF_FOUND)
		capconf_match_release(&joined);
}

/*
 * The '*' line view->star decided: does a later line, which pam_cap never
 * reaches, name the user and grant cap_perfmon? Debian's capability.conf
 * ends with "none *", so "cap_perfmon @perf_users" appended to it is dead.
 */
static void judge_shadow(struct pam_view *view, const char *user)
{
	struct capconf_match later;
	cap_iab_t iab;
	int perfmon = 0, ambient = 0;
	size_t len;

	if (capconf_find_shadowed(view->config, user, view->star, &later) !=
	    CAPCONF_FOUND)
		return;
	iab = cap_iab_from_text(later.caps);
	if (iab != NULL && perf_knows_perfmon(cap_max_bits())) {
		perfmon = cap_iab_get_vector(iab, CAP_IAB_INH, CAP_PERFMON) ==
			  CAP_SET;
		ambient = cap_iab_get_vector(iab, CAP_IAB_AMB, CAP_PERFMON) ==
			  CAP_SET;
	}
	cap_free(iab);
	if (perfmon) {
		view->shadow = later.line;
		view->shadow_ambient = ambient;
		snprintf(view->shadow_text, sizeof(view->shadow_text), "%s %s",
			 later.caps, later.who);
		conf_line_text(view->config, later.line, view->shadow_line,
			       sizeof(view->shadow_line));
		len = strlen(view->grant);
		snprintf(
			view->grant + len, sizeof(view->grant) - len,
			"; line %lu ('%s') names %s but is never reached: the first matching line wins",
			later.line, view->shadow_text, user);
	}
	capconf_match_release(&later);
}

void judge_grant(struct pam_view *view, const char *user, const char *fallback)
{
	struct capconf_match m;
	const char *text = NULL;
	cap_iab_t iab;
	int rc = capconf_find(view->config, user, &m, NULL, NULL);

	view->inh = view->amb = view->drop = 0;
	if (rc == CAPCONF_FOUND) {
		text = m.caps;
		put(view->grant, sizeof(view->grant),
		    "%s:%lu grants '%s' (%s %s)", view->config, m.line, m.caps,
		    capconf_why_name(m.why), m.who);
	} else if (rc == CAPCONF_NOT_FOUND || rc == CAPCONF_UNKNOWN_USER ||
		   rc == CAPCONF_UNREADABLE) {
		/*
		 * No such file has no lines: default= applies, as in pam_cap.
		 */
		text = fallback[0] != '\0' ? fallback : NULL;
		put(view->grant, sizeof(view->grant), "%s: %s %s%s%s%s",
		    view->config,
		    rc == CAPCONF_UNREADABLE
			    ? "does not exist, so no line matches"
			    : "no line matches",
		    user, text ? ", so default='" : ": grants nothing",
		    text ? text : "", text ? "' applies" : "");
	} else if (rc == CAPCONF_BROKEN && m.line == 0 && geteuid() != 0 &&
		   access(view->config, R_OK) < 0 &&
		   (errno == EACCES || errno == EPERM)) {
		/* pam_cap runs as root: what it reads is not known here. */
		view->grant_unknown = 1;
		put(view->grant, sizeof(view->grant),
		    "%s: perfdoctor may not read it, so what it grants is unknown (run perfdoctor as root)",
		    view->config);
	} else if (rc == CAPCONF_BROKEN && m.line == 0) {
		put(view->grant, sizeof(view->grant),
		    "%s: pam_cap stops here (%s): grants nothing, not even default=",
		    view->config, m.problem);
	} else if (rc == CAPCONF_BROKEN) {
		put(view->grant, sizeof(view->grant),
		    "%s:%lu: pam_cap stops here (%s): grants nothing, not even default=",
		    view->config, m.line, m.problem);
	} else {
		put(view->grant, sizeof(view->grant),
		    "%s: cannot be judged (out of memory): grants nothing",
		    view->config);
	}
	iab = text != NULL && strcmp(text, "all") && strcmp(text, "none")
		      ? cap_iab_from_text(text)
		      : NULL;
	if (text != NULL && iab == NULL && strcmp(text, "all") &&
	    strcmp(text, "none"))
		strncat(view->grant, ": not valid IAB text, so nothing",
			sizeof(view->grant) - strlen(view->grant) - 1);
	view->inh |= mask_of_iab(iab, CAP_IAB_INH);
	view->amb |= mask_of_iab(iab, CAP_IAB_AMB);
	view->drop |= mask_of_iab(iab, CAP_IAB_BOUND);
	cap_free(iab);
	if (rc == CAPCONF_FOUND && m.why == CAPCONF_WHY_ANY) {
		view->star = m.line;
		judge_shadow(view, user);
	}
	judge_conf(view, user, fallback, rc, &m);
	if (rc == CAPCONF_FOUND)
		capconf_match_release(&m);
}
