/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor: does pam_cap's grant reach a new login? capability.conf is
 * only half of the answer. The module must be in the auth stack of the
 * login's PAM service, where no earlier line can end the stack or jump
 * over it, and the grant must survive the login program's switch to the
 * user: the kernel clears the ambient set on setuid() from root, so an
 * ambient grant needs "keepcaps defer" and a program that calls
 * pam_end(PAM_SUCCESS | PAM_DATA_SILENT) after switching (util-linux's
 * login and su do; OpenSSH ends PAM in another process, so a deferred grant
 * never reaches its sessions). Anything we cannot be sure of is "unknown".
 * A missing service file means libpam uses "other"
 * (perfdoctor_pamstack.c reads the stacks, perfdoctor_grant.c what
 * capability.conf grants).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capconf.h"
#include "escape.h"
#include "perfdoctor.h"
#include "suggest.h"

/* The module file libpam would load: absolute, or in its module directory. */
static enum answer module_installed(const char *module, char *where, size_t len)
{
	static const char *const dirs[] = {
		"/lib/x86_64-linux-gnu/security",
		"/usr/lib/x86_64-linux-gnu/security",
		"/lib/aarch64-linux-gnu/security",
		"/usr/lib/aarch64-linux-gnu/security",
		"/lib/security",
		"/lib64/security",
		"/usr/lib/security",
		"/usr/lib64/security",
	};
	char path[4200];
	int libpam_dir = 0;
	size_t i;

	if (module[0] == '/') {
		snprintf(where, len, "%s", module);
		return access(module, R_OK) == 0 ? ANSWER_YES : ANSWER_NO;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], module);
		if (access(path, R_OK) == 0) {
			put(where, len, "%s", path);
			return ANSWER_YES;
		}
		snprintf(path, sizeof(path), "%s/pam_unix.so", dirs[i]);
		libpam_dir |= access(path, R_OK) == 0;
	}
	snprintf(where, len, "%s", module);
	/* Without libpam's directory we cannot tell where it would look. */
	return libpam_dir ? ANSWER_NO : ANSWER_UNKNOWN;
}

/* How login programs behave, by service name (see the top of this file). */
enum program { PROG_SWITCHES_THEN_ENDS, PROG_OPENSSH, PROG_OTHER };

static enum program program_of(const char *service)
{
	static const char *const ends_after_switch[] = {
		"login", "su", "su-l", "runuser", "runuser-l",
	};
	size_t i;

	for (i = 0;
	     i < sizeof(ends_after_switch) / sizeof(ends_after_switch[0]); i++)
		if (strcmp(service, ends_after_switch[i]) == 0)
			return PROG_SWITCHES_THEN_ENDS;
	return strcmp(service, "sshd") == 0 ? PROG_OPENSSH : PROG_OTHER;
}

static void set_reach(enum answer *a, char *why, size_t len, enum answer v,
		      const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void set_reach(enum answer *a, char *why, size_t len, enum answer v,
		      const char *fmt, ...)
{
	va_list ap;

	*a = v;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

#define REACH(field, v, ...)                                 \
	set_reach(&view->field##_reaches, view->field##_why, \
		  sizeof(view->field##_why), v, __VA_ARGS__)

/*
 * Whether a grant applied by this pam_cap line survives the login
 * program's switch to the user. Without defer, setcred applies it while
 * still root: the inheritable set and bounding drops survive setuid(),
 * the ambient set never does. With defer it waits for a silent pam_end()
 * after the switch, which only works if keepcaps kept the permitted set.
 */
static void judge_survival(struct pam_view *view, const struct pam_entry *e)
{
	enum program prog = program_of(view->service);
	const char *who = prog == PROG_OPENSSH ? "OpenSSH" : view->service;

	if (e->defer && !e->keepcaps) {
		REACH(iab, ANSWER_NO,
		      "defer without keepcaps: after the switch to the user nothing is left to apply the grant with");
		REACH(amb, ANSWER_NO, "%s", view->iab_why);
		return;
	}
	if (e->defer && prog == PROG_SWITCHES_THEN_ENDS) {
		REACH(iab, ANSWER_YES,
		      "applied at pam_end() after %s switches to the user",
		      who);
		REACH(amb, ANSWER_YES, "%s", view->iab_why);
		return;
	}
	if (e->defer && prog == PROG_OPENSSH) {
		REACH(iab, ANSWER_NO,
		      "OpenSSH never calls pam_end() in the session, so a deferred grant never arrives");
		REACH(amb, ANSWER_NO, "%s", view->iab_why);
		return;
	}
	if (e->defer) {
		REACH(iab, ANSWER_UNKNOWN,
		      "whether '%s' calls pam_end(PAM_SUCCESS|PAM_DATA_SILENT) after switching to the user is not known to perfdoctor",
		      view->service);
		REACH(amb, ANSWER_UNKNOWN, "%s", view->iab_why);
		return;
	}
	if (prog == PROG_OTHER)
		REACH(iab, ANSWER_UNKNOWN,
		      "whether '%s' calls pam_setcred() in the process that becomes the session is not known to perfdoctor",
		      view->service);
	else
		REACH(iab, ANSWER_YES,
		      "applied by pam_setcred(), kept across the switch to the user");
	REACH(amb, ANSWER_NO,
	      "the kernel clears the ambient set when %s switches from root to the user; it needs 'keepcaps defer' and a login program that honours them (login, su)",
	      who);
}

/*
 * The line "auth optional pam_cap.so" (with config= when the file is not
 * pam_cap's default) for appending to the service's own file, and whether
 * it would run: installed, and no earlier line can skip the end of the
 * stack.
 */
static void judge_adding(struct pam_stack *s, struct pam_view *view,
			 const char *path)
{
	char found[4096];
	struct stat st;
	const char *c = view->config;

	view->no_pam_cap = 1;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	put(view->add_to, sizeof(view->add_to), "%s", path);
	view->add_has_lines = st.st_size > 0;
	if (module_installed("pam_cap.so", found, sizeof(found)) !=
		    ANSWER_YES ||
	    pam_stack_may_skip_end(s))
		return;
	if (strcmp(c, CAPCONF_DEFAULT_PATH) == 0) {
		put(view->add_line, sizeof(view->add_line),
		    "auth optional pam_cap.so");
	} else {
		/* libpam splits arguments at blanks and cuts at '#'. */
		if (c[0] == '\0' || strpbrk(c, " \t#[]") != NULL ||
		    !escape_is_shown_as_is(c))
			return;
		put(view->add_line, sizeof(view->add_line),
		    "auth optional pam_cap.so config=%s", c);
	}
	view->can_add = 1;
}

/*
 * Typos the stack keeps quiet about: a module named almost "pam_cap.so"
 * that libpam cannot load, or an argument pam_cap ignores ("keepcap").
 */
static void judge_typos(const struct pam_stack *s, struct pam_view *view, int k)
{
	char found[4096];
	const char *near;
	int i;

	for (i = 0; i < s->n; i++) {
		const char *m = s->e[i].module, *base = strrchr(m, '/');

		base = base != NULL ? base + 1 : m;
		if (s->e[i].marker || s->e[i].pam_cap ||
		    suggest_distance(base, "pam_cap.so") > 3 ||
		    module_installed(m, found, sizeof(found)) != ANSWER_NO)
			continue;
		put(view->warning, sizeof(view->warning),
		    "%s: module '%s' is not installed: did you mean 'pam_cap.so'?",
		    s->e[i].where, m);
		return;
	}
	if (k < 0 || s->e[k].nunknown == 0)
		return;
	near = suggest_nearest(s->e[k].unknown, pam_cap_arguments,
			       pam_cap_narguments);
	put(view->warning, sizeof(view->warning),
	    "%s: pam_cap ignores the argument '%s'%s%s%s%s", s->e[k].where,
	    s->e[k].unknown, s->e[k].nunknown > 1 ? " and others" : "",
	    near != NULL ? " (did you mean '" : "", near != NULL ? near : "",
	    near != NULL ? "'?)" : "");
}

/* Reads the stack of one service into view (where pam_cap is, what reaches). */
static void judge_stack(struct pam_stack *s, struct pam_view *view,
			const char *default_config, char *fallback,
			size_t fallback_len)
{
	char path[4096], found[4096];
	struct stat st;
	int i, j, k = -1, count = 0;
	const char *file = view->service;

	snprintf(view->config, sizeof(view->config), "%s", default_config);
	fallback[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", s->dir, view->service);
	if (stat(path, &st) < 0 && errno == ENOENT) {
		file = "other"; /* libpam's fallback service */
		snprintf(path, sizeof(path), "%s/other", s->dir);
	}
	pam_stack_read(s, file);
	if (s->error[0] != '\0') {
		put(view->stack, sizeof(view->stack),
		    "cannot read its stack: %s", s->error);
		REACH(iab, ANSWER_UNKNOWN, "its PAM stack could not be read");
		REACH(amb, ANSWER_UNKNOWN, "%s", view->iab_why);
		return;
	}
	for (i = 0; i < s->n; i++)
		if (s->e[i].pam_cap && count++ == 0)
			k = i;
	judge_typos(s, view, k);
	if (count == 0) {
		if (file == view->service)
			judge_adding(s, view, path);
		else
			view->no_pam_cap = 1; /* "other" is everyone's */
		put(view->stack, sizeof(view->stack),
		    "%s%s: no pam_cap in its auth stack, so capability.conf is not read",
		    path,
		    file == view->service
			    ? ""
			    : " (no service file: libpam uses 'other')");
		REACH(iab, ANSWER_NO, "pam_cap does not run");
		REACH(amb, ANSWER_NO, "pam_cap does not run");
		return;
	}
	if (s->e[k].config_given)
		snprintf(view->config, sizeof(view->config), "%s",
			 s->e[k].config);
	snprintf(fallback, fallback_len, "%s", s->e[k].fallback);
	put(view->stack, sizeof(view->stack), "pam_cap at %s%s%s%s",
	    s->e[k].where, s->e[k].keepcaps ? " keepcaps" : "",
	    s->e[k].defer ? " defer" : "",
	    s->e[k].config_given ? " config=..." : "");
	/*
	 * pam_cap refuses a config= that is not an absolute path (empty
	 * included): it would be read from the caller's working directory.
	 * Judging it from perfdoctor's own would be a false answer.
	 */
	if (s->e[k].config_given && s->e[k].config[0] != '/') {
		REACH(iab, ANSWER_NO,
		      "pam_cap's config= is not an absolute path, so pam_cap grants nothing");
		REACH(amb, ANSWER_NO, "%s", view->iab_why);
		return;
	}
	if (count > 1) {
		REACH(iab, ANSWER_UNKNOWN,
		      "pam_cap appears %d times in the stack", count);
		REACH(amb, ANSWER_UNKNOWN, "%s", view->iab_why);
		return;
	}
	switch (module_installed(s->e[k].module, found, sizeof(found))) {
	case ANSWER_NO:
		REACH(iab, ANSWER_NO,
		      "%s is not installed, so libpam cannot load it", found);
		REACH(amb, ANSWER_NO, "%s", view->iab_why);
		return;
	case ANSWER_UNKNOWN:
		REACH(iab, ANSWER_UNKNOWN,
		      "no libpam module directory found to look for %s in",
		      found);
		REACH(amb, ANSWER_UNKNOWN, "%s", view->iab_why);
		return;
	case ANSWER_YES:
		break;
	}
	for (j = 0; j < k; j++) {
		if (s->e[j].marker || !pam_stack_may_skip(s, j, k))
			continue;
		REACH(iab, ANSWER_UNKNOWN, "%s may %s before pam_cap runs",
		      s->e[j].where,
		      s->e[j].may_end ? "end the stack" : "jump over it");
		REACH(amb, ANSWER_UNKNOWN, "%s", view->iab_why);
		return;
	}
	judge_survival(view, &s->e[k]);
}

int pam_views(const struct pam_opts *o, const char *user,
	      struct pam_view *views, int max, int *n)
{
	const char *all = o->services != NULL ? o->services : "login,sshd,su";
	const char *list = all;
	int defaulted = o->services == NULL;
	char fallback[512];
	struct pam_stack s;

	*n = 0;
	memset(&s, 0, sizeof(s));
	s.dir = o->dir;
	s.e = malloc(PAMSTACK_MAX_ENTRIES * sizeof(*s.e));
	if (s.e == NULL) {
		perror("perfdoctor");
		return -1;
	}
	while (*list != '\0' && *n < max) {
		size_t len = strcspn(list, ",");
		struct pam_view *view = &views[*n];
		char path[4200];

		memset(view, 0, sizeof(*view));
		snprintf(view->service, sizeof(view->service), "%.*s", (int)len,
			 list);
		list += len + (list[len] == ',');
		if (view->service[0] == '\0')
			continue;
		snprintf(path, sizeof(path), "%s/%s", o->dir, view->service);
		/* The default list names the usual ways in; skip absent ones. */
		if (defaulted && access(path, F_OK) < 0)
			continue;
		s.n = s.frames = 0;
		s.error[0] = '\0';
		judge_stack(&s, view, o->config, fallback, sizeof(fallback));
		judge_grant(view, user, fallback);
		(*n)++;
	}
	free(s.e);
	if (*n == 0) {
		/* None of the usual services: how this user logs in is unknown. */
		struct pam_view *view = &views[0];

		memset(view, 0, sizeof(*view));
		snprintf(view->service, sizeof(view->service), "(none)");
		put(view->stack, sizeof(view->stack),
		    "none of the services %s exists in %s", all, o->dir);
		snprintf(view->config, sizeof(view->config), "%s", o->config);
		REACH(iab, ANSWER_UNKNOWN, "no known login service to check");
		REACH(amb, ANSWER_UNKNOWN, "%s", view->iab_why);
		judge_grant(view, user, "");
		*n = 1;
	}
	return 0;
}
