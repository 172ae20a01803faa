/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* pam_cap.so: the auth and setcred hooks and their module arguments. */
#include <stdarg.h>
#include <string.h>
#include <syslog.h>

#include <security/pam_ext.h>

#include "capconf.h"
#include "pam_cap.h"

/*
 * Where capconf's messages go: syslog via PAM, escaped (pam_cap_log.c),
 * debug ones only on request.
 */
struct log_ctx {
	pam_handle_t *pamh;
	int debug;
};

static void log_to_pam(void *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_to_pam(void *ctx, int prio, const char *fmt, ...)
{
	struct log_ctx *lc = ctx;
	va_list ap;

	if (prio == LOG_DEBUG && !lc->debug)
		return;
	va_start(ap, fmt);
	pam_cap_vlog(lc->pamh, prio, fmt, ap);
	va_end(ap);
}

static void parse_opts(pam_handle_t *pamh, int argc, const char **argv,
		       struct pam_cap_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->config = CAPCONF_DEFAULT_PATH;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "debug") == 0)
			o->debug = 1;
		else if (strcmp(a, "keepcaps") == 0)
			o->keepcaps = 1;
		else if (strcmp(a, "autoauth") == 0)
			o->autoauth = 1;
		else if (strcmp(a, "defer") == 0)
			o->defer = 1;
		else if (strncmp(a, "config=", 7) == 0)
			o->config = a + 7;
		else if (strncmp(a, "default=", 8) == 0)
			o->fallback = a + 8;
		else
			/* A typo must not stop logins; say so and go on. */
			pam_cap_log(pamh, LOG_ERR, "unknown option; %s", a);
	}
}

/*
 * Looks user up in the config. Returns an enum capconf_find_status, with m
 * filled on CAPCONF_FOUND (release it). capconf has logged at LOG_ERR what
 * made the answer CAPCONF_BROKEN; the rest is logged when debugging.
 */
static int find_grant(pam_handle_t *pamh, const struct pam_cap_opts *o,
		      const char *user, struct capconf_match *m)
{
	struct log_ctx lc = { pamh, o->debug };
	int rc;

	/*
	 * A relative path is opened from the working directory, which the
	 * caller of a set-user-ID su chose: any file of root's by that name
	 * there would pass every check and decide. No file an admin meant.
	 */
	if (o->config[0] != '/') {
		pam_cap_log(
			pamh, LOG_ERR,
			"config=%s: not an absolute path: the file read would depend on the caller's working directory; nothing granted",
			o->config);
		return CAPCONF_BROKEN;
	}
	rc = capconf_find(o->config, user, m, log_to_pam, &lc);

	if (rc == CAPCONF_FOUND && o->debug)
		pam_cap_log(pamh, LOG_DEBUG,
			    "%s:%lu matches '%s' by %s '%s': '%s'", o->config,
			    m->line, user, capconf_why_name(m->why), m->who,
			    m->caps);
	else if (rc == CAPCONF_NOMEM)
		pam_cap_log(pamh, LOG_CRIT,
			    "out of memory reading %s: nothing granted",
			    o->config);
	else if (rc != CAPCONF_FOUND && rc != CAPCONF_BROKEN && o->debug)
		pam_cap_log(pamh, LOG_DEBUG, "%s: no line matches '%s'",
			    o->config, user);
	return rc;
}

/*
 * The code for a decision that ended in an error, or PAM_SUCCESS when it
 * did not. A broken config (CAPCONF_BROKEN) or no memory means pam_cap
 * cannot know what the configuration says about this user: never
 * PAM_SUCCESS, and never PAM_IGNORE, which a stack reads as "this module
 * has nothing to say". A site that must not let users in without their
 * configured restrictions stacks pam_cap as "required": these codes then
 * stop the login. As "optional" (the usual way) they are logged only.
 */
static int error_code(int status, int broken_code)
{
	if (status == CAPCONF_BROKEN)
		return broken_code;
	if (status == CAPCONF_NOMEM)
		return PAM_BUF_ERR;
	return PAM_SUCCESS;
}

int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc,
			const char **argv)
{
	struct pam_cap_opts o;
	struct capconf_match m;
	const char *user = NULL;
	int rc;

	(void)flags;
	parse_opts(pamh, argc, argv, &o);
	rc = pam_get_user(pamh, &user, NULL);
	if (rc == PAM_CONV_AGAIN)
		return PAM_INCOMPLETE; /* the application will call again */
	if (o.autoauth) {
		if (o.debug)
			pam_cap_log(pamh, LOG_DEBUG,
				    "autoauth: success without %s", o.config);
		return PAM_SUCCESS;
	}
	if (rc != PAM_SUCCESS || user == NULL)
		return PAM_AUTH_ERR;
	/*
	 * Success means "this user has an entry", nothing more: pam_cap
	 * checks no password, and is meant to be stacked as optional.
	 */
	rc = find_grant(pamh, &o, user, &m);
	if (rc == CAPCONF_FOUND) {
		capconf_match_release(&m);
		return PAM_SUCCESS;
	}
	if (error_code(rc, PAM_AUTHINFO_UNAVAIL) != PAM_SUCCESS)
		return error_code(rc, PAM_AUTHINFO_UNAVAIL);
	return PAM_IGNORE;
}

int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	struct pam_cap_opts o;
	struct capconf_match m;
	const void *item = NULL;
	const char *user;
	int rc;

	/* Only establishing (or re-establishing) credentials grants. */
	if (!(flags & (PAM_ESTABLISH_CRED | PAM_REINITIALIZE_CRED)))
		return PAM_IGNORE;
	parse_opts(pamh, argc, argv, &o);
	if (pam_get_item(pamh, PAM_USER, &item) != PAM_SUCCESS ||
	    item == NULL || *(const char *)item == '\0')
		return PAM_AUTH_ERR;
	user = item;
	rc = find_grant(pamh, &o, user, &m);
	if (rc == CAPCONF_FOUND) {
		rc = pam_cap_apply(pamh, &o, m.caps);
		capconf_match_release(&m);
		return rc;
	}
	/*
	 * default= is for users the file does not name. After an error we
	 * do not know that it does not: default= would be one more rule
	 * after the line that could not be read.
	 */
	if (error_code(rc, PAM_CRED_ERR) != PAM_SUCCESS)
		return error_code(rc, PAM_CRED_ERR);
	if (o.fallback == NULL)
		return PAM_IGNORE;
	if (o.debug)
		pam_cap_log(pamh, LOG_DEBUG, "using default='%s' for '%s'",
			    o.fallback, user);
	return pam_cap_apply(pamh, &o, o.fallback);
}
