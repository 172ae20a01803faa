/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capcheck: shows what pam_cap.so would grant each user, and from which line
 * of capability.conf, without a login; warns about lines that can never
 * parse or never match. It uses the module's own parser and matcher.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "cap_risk.h"
#include "capconf.h"

#define PROG		"capcheck"
#define EXIT_WARNINGS	1
#define EXIT_USAGE	2

struct opts {
	const char *config;
};

static int warnings;

static void warn_line(const char *path, unsigned long n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "capcheck: FILE:LINE: warning: ..." on stderr, counted for the exit code. */
static void warn_line(const char *path, unsigned long n, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%lu: warning: ", PROG,
		path, n);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	warnings++;
}

static int caps_text_valid(const char *text)
{
	cap_iab_t iab;

	if (strcmp(text, "all") == 0 || strcmp(text, "none") == 0)
		return 1;
	iab = cap_iab_from_text(text);
	if (iab == NULL)
		return 0;
	cap_free(iab);
	return 1;
}

/* Warns about one "who" token that can never select anybody. */
static void check_who(const char *path, unsigned long n, const char *t)
{
	if (strcmp(t, "*") == 0)
		return;
	if (t[0] == '@') {
		if (getgrnam(t + 1) == NULL)
			warn_line(path, n, "unknown group '%s': never matches",
				  t + 1);
		return;
	}
	if (getpwnam(t) != NULL)
		return;
	if (strchr(t, ',') != NULL)
		warn_line(path, n, "'%s' is one user name, not a list: "
			  "separate names with spaces", t);
	else if (t[0] == '+')
		warn_line(path, n, "'%s' is a user name, not a group: "
			  "write '@%s'", t, t + 1);
	else if (t[0] == '#')
		warn_line(path, n, "'%s' is a user name: '#' starts a comment "
			  "only at the start of a line", t);
	else
		warn_line(path, n, "unknown user '%s': never matches", t);
}

/* Returns 0 after checking every line, or -1 if the file cannot be read. */
static int lint(const char *path)
{
	struct capconf_reader r;
	struct capconf_line *line;
	unsigned long star = 0;
	int rc, i;

	rc = capconf_open(&r, path);
	if (rc == CAPCONF_OPEN_FAILED) {
		warn("%s", path);
		return -1;
	}
	if (rc != CAPCONF_OPEN_OK) {
		warnx("%s: %s: pam_cap grants nothing from it", path,
		      capconf_open_strerror(rc));
		warnings++;
		return 0;
	}
	while ((rc = capconf_next(&r, &line)) > 0) {
		if (line->error == CAPCONF_LINE_TOO_LONG) {
			warn_line(path, line->number, "longer than %d bytes: "
				  "ignored (libcap would split it into two "
				  "lines)", CAPCONF_LINE_MAX);
			continue;
		}
		if (line->error == CAPCONF_LINE_NUL) {
			warn_line(path, line->number, "NUL byte: ignored");
			continue;
		}
		if (star != 0)
			warn_line(path, line->number, "never used: the '*' on "
				  "line %lu matches everybody first", star);
		if (!caps_text_valid(line->tok[0]))
			warn_line(path, line->number, "'%s' is not valid IAB "
				  "text: users it matches get nothing",
				  line->tok[0]);
		if (line->ntok == 1)
			warn_line(path, line->number, "no users listed: "
				  "never matches");
		for (i = 1; i < line->ntok; i++) {
			check_who(path, line->number, line->tok[i]);
			if (star == 0 && strcmp(line->tok[i], "*") == 0)
				star = line->number;
		}
	}
	if (rc < 0) {
		warn("%s", path);
		capconf_close(&r);
		return -1;
	}
	capconf_close(&r);
	return 0;
}

/*
 * "  risk: <tier>: <cap>: <reason>" for the riskiest capability the grant
 * puts in the inheritable or ambient set; nothing for a grant of none.
 */
static void report_risk(cap_iab_t iab)
{
	cap_t granted = cap_init();
	cap_value_t cap, bits = cap_max_bits(), worst;
	enum cap_risk_tier tier;
	char *name;

	if (granted == NULL)
		errx(EXIT_FAILURE, "out of memory");
	for (cap = 0; cap < bits && cap < 64; cap++)
		if (cap_iab_get_vector(iab, CAP_IAB_INH, cap) == CAP_SET ||
		    cap_iab_get_vector(iab, CAP_IAB_AMB, cap) == CAP_SET)
			cap_set_flag(granted, CAP_INHERITABLE, 1, &cap, CAP_SET);
	tier = cap_risk_highest(granted, 1u << CAP_INHERITABLE, &worst);
	cap_free(granted);
	if (worst < 0)
		return;
	name = cap_to_name(worst);
	printf("  risk: %s: %s: %s\n", cap_risk_tier_name(tier),
	       name != NULL ? name : "?", cap_risk_reason(worst) ?
	       cap_risk_reason(worst) : "no label for this capability");
	cap_free(name);
}

/* Prints what user would receive; the wording says which rule decided. */
static void report_user(const char *path, const char *user)
{
	struct capconf_match m;
	cap_iab_t iab;
	char *text;
	int rc;

	rc = capconf_find(path, user, &m, NULL, NULL);
	switch (rc) {
	case CAPCONF_FOUND:
		break;
	case CAPCONF_UNKNOWN_USER:
		printf("%s: unknown user: nothing granted\n", user);
		warnings++;
		return;
	case CAPCONF_NOMEM:
		errx(EXIT_FAILURE, "out of memory");
	case CAPCONF_UNREADABLE:
		printf("%s: %s is not used: nothing granted\n", user, path);
		return;
	default:
		printf("%s: no line matches: nothing granted\n", user);
		return;
	}
	if (strcmp(m.caps, "all") == 0) {
		printf("%s: all: capabilities left unchanged [%s:%lu, %s %s]\n",
		       user, path, m.line, capconf_why_name(m.why), m.who);
	} else if (strcmp(m.caps, "none") == 0) {
		printf("%s: none: inheritable and ambient sets cleared "
		       "[%s:%lu, %s %s]\n",
		       user, path, m.line, capconf_why_name(m.why), m.who);
	} else if ((iab = cap_iab_from_text(m.caps)) == NULL) {
		printf("%s: nothing granted: '%s' is not valid IAB text "
		       "[%s:%lu, %s %s]\n",
		       user, m.caps, path, m.line, capconf_why_name(m.why),
		       m.who);
	} else {
		text = cap_iab_to_text(iab);
		/* The canonical form is what cap_iab_set_proc() will apply. */
		printf("%s: %s [%s:%lu, %s %s]\n", user,
		       text == NULL ? m.caps : text, path, m.line,
		       capconf_why_name(m.why), m.who);
		report_risk(iab);
		cap_free(text);
		cap_free(iab);
	}
	capconf_match_release(&m);
}

static void usage(FILE *out, int status)
{
	fprintf(out, "usage: %s [--config FILE] [USER...]\n",
		PROG);
	exit(status);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { CAPCONF_DEFAULT_PATH };
	int c, i;

	while ((c = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.config = optarg;
			break;
		case 'h':
			usage(stdout, EXIT_SUCCESS);
			break;
		default:
			usage(stderr, EXIT_USAGE);
		}
	}
	if (lint(o.config) < 0)
		return EXIT_USAGE;
	for (i = optind; i < argc; i++)
		report_user(o.config, argv[i]);
	return warnings ? EXIT_WARNINGS : EXIT_SUCCESS;
}
