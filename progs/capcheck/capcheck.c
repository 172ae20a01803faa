/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capcheck: shows what pam_cap.so would grant each user, and from which line
 * of capability.conf, without a login; warns about lines that can never
 * parse or never match. It uses the module's own parser and matcher.
 */
#define _GNU_SOURCE /* vasprintf */
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

#include "risk.h"
#include "capconf.h"
#include "escape.h"
#include "groups.h"
#include "mask.h"
#include "names.h"
#include "opts.h"
#include "say.h"

#define PROG	      "capcheck"
#define EXIT_WARNINGS 1
#define EXIT_USAGE    2

struct opts {
	const char *config;
};

static int warnings;

static void vwarn_line(const char *path, unsigned long n, const char *tail,
		       const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * "capcheck: FILE:LINE: warning: ..." on stderr, counted for the exit
 * code: the formatted text escaped (say.h), then tail as it is. tail is
 * text to copy into capability.conf, which has no escapes: the caller
 * checked that a terminal shows it as it is (escape_is_shown_as_is()),
 * and escaping its backslashes would change what is copied.
 */
static void vwarn_line(const char *path, unsigned long n, const char *tail,
		       const char *fmt, va_list ap)
{
	char *text;

	if (vasprintf(&text, fmt, ap) < 0)
		errx(EXIT_FAILURE, "out of memory");
	say_tail(stderr, PROG ": ", tail, "%s:%lu: warning: %s", path, n, text);
	free(text);
	warnings++;
}

static void warn_line(const char *path, unsigned long n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn_line(const char *path, unsigned long n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(path, n, "", fmt, ap);
	va_end(ap);
}

static void warn_line_tail(const char *path, unsigned long n, const char *tail,
			   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* warn_line(), then tail (see vwarn_line()) as it is. */
static void warn_line_tail(const char *path, unsigned long n, const char *tail,
			   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(path, n, tail, fmt, ap);
	va_end(ap);
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

/*
 * A failed getpwnam()/getgrnam() is "no such entry" as pam_cap takes it
 * (groups_nss_result(): errno 0 from glibc, ENOENT from nss_wrapper's own
 * look-ups alone); anything else, glibc's ENOENT included (a directory
 * service down), is a lookup error, which must not be reported as an
 * unknown name: pam_cap stops at such a line.
 */
static int lookup_failed(void)
{
	return errno != 0 && groups_nss_result(errno, 0) < 0;
}

/*
 * "+name" is a user name (since the CVE-2025-1390 fix only '@' names a
 * group): say how to write the group. The token holds no whitespace, and
 * '#' is plain text after a line's first token, so "@name" is valid
 * capability.conf whenever a terminal shows the name as it is; otherwise
 * the line gives no text to copy, and says why.
 */
static void warn_plus(const char *path, unsigned long n, const char *t)
{
	char *group;

	if (!escape_is_shown_as_is(t + 1)) {
		warn_line(
			path, n,
			"'%s' is a user name, not a group: a group is written '@' and its name, not shown here: it holds characters a terminal would not show as they are",
			t);
		return;
	}
	if (asprintf(&group, "@%s'", t + 1) < 0)
		errx(EXIT_FAILURE, "out of memory");
	warn_line_tail(path, n, group,
		       "'%s' is a user name, not a group: write '", t);
	free(group);
}

/*
 * "perf_users" where a group of that name exists: pam_cap reads a word
 * without '@' as a user name only (CVE-2025-1390), so the line never
 * selects the group's members. Name the fix, as warn_plus() does.
 */
static void warn_missing_at(const char *path, unsigned long n, const char *t)
{
	char *group;

	if (!escape_is_shown_as_is(t)) {
		warn_line(
			path, n,
			"unknown user '%s': never matches; a group of that name exists, which is written '@' and its name (not shown here: it holds characters a terminal would not show as they are)",
			t);
		return;
	}
	if (asprintf(&group, "@%s'?", t) < 0)
		errx(EXIT_FAILURE, "out of memory");
	warn_line_tail(
		path, n, group,
		"unknown user '%s': never matches; there is a group '%s': did you mean '",
		t, t);
	free(group);
}

/* Is t the name of a group (a failed lookup counts as no)? */
static int group_exists(const char *t)
{
	errno = 0;
	return getgrnam(t) != NULL;
}

/* Warns about one "who" token that can never select anybody. */
static void check_who(const char *path, unsigned long n, const char *t)
{
	if (strcmp(t, "*") == 0)
		return;
	if (t[0] == '@') {
		errno = 0;
		if (getgrnam(t + 1) != NULL)
			return;
		if (lookup_failed())
			warn_line(path, n, "cannot look up group '%s': %s",
				  t + 1, strerror(errno));
		else
			warn_line(path, n, "unknown group '%s': never matches",
				  t + 1);
		return;
	}
	errno = 0;
	if (getpwnam(t) != NULL)
		return;
	if (lookup_failed())
		warn_line(path, n, "cannot look up user '%s': %s", t,
			  strerror(errno));
	else if (strchr(t, ',') != NULL)
		warn_line(
			path, n,
			"'%s' is one user name, not a list: separate names with spaces",
			t);
	else if (t[0] == '+' && t[1] != '\0')
		warn_plus(path, n, t);
	else if (t[0] == '#')
		warn_line(
			path, n,
			"'%s' is a user name: '#' starts a comment only at the start of a line",
			t);
	else if (group_exists(t))
		warn_missing_at(path, n, t);
	else
		warn_line(path, n, "unknown user '%s': never matches", t);
}

/*
 * "cap_perfmon," grants cap_perfmon: libcap's IAB parser (and ours, and
 * so both pam_cap modules) ends the list at a trailing comma without a
 * word. It is most often a list broken by a space ("cap_perfmon, cap_bpf
 * @perf_users"), whose next capability then reads as a user name: say
 * what is granted, and when the next word is capability text, how to
 * write the list.
 */
static void check_trailing_comma(const char *path,
				 const struct capconf_line *line)
{
	const char *caps = line->tok[0];
	size_t len = strlen(caps);
	char *joined;

	if (len < 2 || caps[len - 1] != ',' || !caps_text_valid(caps))
		return;
	if (line->ntok < 2 || !caps_text_valid(line->tok[1]) ||
	    strcmp(line->tok[1], "all") == 0 ||
	    strcmp(line->tok[1], "none") == 0 || !escape_is_shown_as_is(caps) ||
	    !escape_is_shown_as_is(line->tok[1])) {
		warn_line(
			path, line->number,
			"'%s' ends in a comma: pam_cap grants '%.*s' and reads the next word as a user",
			caps, (int)(len - 1), caps);
		return;
	}
	if (asprintf(&joined, "%s%s'", caps, line->tok[1]) < 0)
		errx(EXIT_FAILURE, "out of memory");
	warn_line_tail(
		path, line->number, joined,
		"'%s' ends in a comma: pam_cap grants '%.*s' and reads '%s' as a user; for both, write '",
		caps, (int)(len - 1), caps, line->tok[1]);
	free(joined);
}

/* What a line that ends pam_cap's scan means for the users. */
#define STOPS                                                      \
	"pam_cap stops reading here: users no earlier line names " \
	"get nothing, not even default="

/* Returns 0 after checking every line, or -1 if the file cannot be read. */
static int lint(const char *path)
{
	struct capconf_reader r;
	struct capconf_line *line;
	unsigned long star = 0, stop = 0;
	int rc, i;

	rc = capconf_open(&r, path);
	if (rc == CAPCONF_OPEN_FAILED) {
		say_errno(stderr, PROG ": ", errno, "%s", path);
		return -1;
	}
	if (rc != CAPCONF_OPEN_OK) {
		say(stderr, PROG ": ",
		    "%s: %s: pam_cap grants nothing from it, not even default=",
		    path, capconf_open_strerror(&r, rc));
		warnings++;
		return 0;
	}
	while ((rc = capconf_next(&r, &line)) > 0) {
		if (line->error == CAPCONF_LINE_TOO_LONG) {
			warn_line(
				path, line->number,
				"longer than %d bytes: %s (libcap would split it into two lines)",
				CAPCONF_LINE_MAX, STOPS);
		} else if (line->error == CAPCONF_LINE_NUL) {
			warn_line(path, line->number, "NUL byte: %s", STOPS);
		} else if (line->error == CAPCONF_LINE_CONTROL) {
			warn_line(
				path, line->number,
				"control character 0x%02x%s: %s (libcap would read it as part of a name)",
				line->control,
				line->control == '\r' ? " (CR: DOS line ends?)"
						      : "",
				STOPS);
		} else if (stop != 0) {
			warn_line(path, line->number,
				  "never used: pam_cap stops at line %lu first",
				  stop);
		} else if (star != 0) {
			warn_line(
				path, line->number,
				"never used: the '*' on line %lu matches everybody first: move this line above line %lu",
				star, star);
		}
		if (line->error != CAPCONF_LINE_OK) {
			if (stop == 0)
				stop = line->number;
			continue;
		}
		if (!caps_text_valid(line->tok[0]))
			warn_line(
				path, line->number,
				"'%s' is not valid IAB text: users it matches get nothing",
				line->tok[0]);
		check_trailing_comma(path, line);
		if (line->ntok == 1)
			warn_line(path, line->number,
				  "no users listed: never matches");
		for (i = 1; i < line->ntok; i++) {
			check_who(path, line->number, line->tok[i]);
			if (star == 0 && strcmp(line->tok[i], "*") == 0)
				star = line->number;
		}
	}
	if (rc < 0) {
		/* The module stops there too, and grants nothing. */
		say_errno(stderr, PROG ": ", errno, "%s:%lu: read error", path,
			  r.lineno + 1);
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
	uint64_t inh =
		mask_of_iab(iab, CAP_IAB_INH) | mask_of_iab(iab, CAP_IAB_AMB);
	cap_value_t cap, worst;
	enum risk_tier tier;
	char name[64];

	if (granted == NULL)
		errx(EXIT_FAILURE, "out of memory");
	for (MASK_EACH(cap, inh))
		cap_set_flag(granted, CAP_INHERITABLE, 1, &cap, CAP_SET);
	tier = risk_highest(granted, 1u << CAP_INHERITABLE, &worst);
	cap_free(granted);
	if (worst < 0)
		return;
	say(stdout, "", "  risk: %s: %s: %s", risk_tier_name(tier),
	    names_cap(worst, name, sizeof(name)),
	    risk_reason(worst) ? risk_reason(worst)
			       : "no label for this capability");
}

/*
 * A "*" line decided for user: is a later line, never reached, the one
 * meant for them? (Appending "cap_perfmon @perf_users" to Debian's file,
 * which ends with "none *", gives exactly that.)
 */
static void report_shadowed(const char *path, const char *user,
			    unsigned long star)
{
	struct capconf_match later;
	int rc = capconf_find_shadowed(path, user, star, &later);

	if (rc == CAPCONF_NOMEM)
		errx(EXIT_FAILURE, "out of memory");
	if (rc != CAPCONF_FOUND)
		return;
	say(stdout, "",
	    "  never reached: line %lu ('%s', %s %s) is meant for %s, but the '*' on line %lu matches first: move line %lu above line %lu",
	    later.line, later.caps, capconf_why_name(later.why), later.who,
	    user, star, later.line, star);
	warnings++;
	capconf_match_release(&later);
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
		say(stdout, "", "%s: unknown user: nothing granted", user);
		warnings++;
		return;
	case CAPCONF_NOMEM:
		errx(EXIT_FAILURE, "out of memory");
	case CAPCONF_UNREADABLE:
		say(stdout, "", "%s: %s does not exist: nothing granted", user,
		    path);
		return;
	case CAPCONF_BROKEN:
		/* The module's verdict: its scan stops here, as ours did. */
		if (m.line != 0)
			say(stdout, "",
			    "%s: nothing granted, not even default=: %s [%s:%lu, pam_cap stops here]",
			    user, m.problem, path, m.line);
		else
			say(stdout, "",
			    "%s: nothing granted, not even default=: %s [%s]",
			    user, m.problem, path);
		warnings++;
		return;
	default:
		say(stdout, "", "%s: no line matches: nothing granted", user);
		return;
	}
	if (strcmp(m.caps, "all") == 0) {
		say(stdout, "",
		    "%s: all: capabilities left unchanged [%s:%lu, %s %s]",
		    user, path, m.line, capconf_why_name(m.why), m.who);
	} else if (strcmp(m.caps, "none") == 0) {
		say(stdout, "",
		    "%s: none: inheritable and ambient sets cleared [%s:%lu, %s %s]",
		    user, path, m.line, capconf_why_name(m.why), m.who);
	} else if ((iab = cap_iab_from_text(m.caps)) == NULL) {
		say(stdout, "",
		    "%s: nothing granted: '%s' is not valid IAB text [%s:%lu, %s %s]",
		    user, m.caps, path, m.line, capconf_why_name(m.why), m.who);
	} else {
		text = cap_iab_to_text(iab);
		/* The canonical form is what cap_iab_set_proc() will apply. */
		say(stdout, "", "%s: %s [%s:%lu, %s %s]", user,
		    text == NULL ? m.caps : text, path, m.line,
		    capconf_why_name(m.why), m.who);
		report_risk(iab);
		cap_free(text);
		cap_free(iab);
	}
	if (m.why == CAPCONF_WHY_ANY)
		report_shadowed(path, user, m.line);
	capconf_match_release(&m);
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-h|--help] [-c|--config FILE] [--version] [USER...]\n",
		PROG);
}

static void __attribute__((noreturn)) usage(FILE *out, int status)
{
	print_usage(out);
	exit(status);
}

/* The handlers: each returns OPTS_NEXT, or the exit status. */
static int opt_config(void *p, const char *arg)
{
	((struct opts *)p)->config = arg;
	return OPTS_NEXT;
}

/* --help: the usage text on stdout, asked for, a success. */
static int help(void *p)
{
	(void)p;
	usage(stdout, EXIT_SUCCESS);
}

static const struct opts_prog prog = { PROG, help, EXIT_USAGE };

/* No help lines: the one-line usage text names them all (keep it so). */
static const struct opt options[] = {
	{ .name = "config",
	  .letter = 'c',
	  .arg = required_argument,
	  .handle = opt_config,
	  .value = "FILE" },
	{ OPTS_HELP_ROW("help", 'h') },
	{ OPTS_VERSION_ROW },
};

int main(int argc, char **argv)
{
	struct opts o = { CAPCONF_DEFAULT_PATH };
	struct opts_getopt g;
	int i, status;

	/*
	 * Nothing at all to go on: say what capcheck needs rather than
	 * check the default file in silence. "--config FILE" alone still
	 * checks FILE and prints only its warnings (capcheck(8)).
	 */
	if (argc < 2) {
		print_usage(stderr);
		say(stderr, PROG ": ",
		    "name a USER to see what pam_cap grants them, or give --config FILE to check FILE alone");
		return EXIT_USAGE;
	}
	opts_build(&g, &prog, options, sizeof(options) / sizeof(options[0]), 0);
	switch (opts_parse(&g, argc, argv, &o, &status)) {
	case 1:
		return status;
	case -1:
		/* The usage, then the guess last, where it is seen. */
		print_usage(stderr);
		opts_suggest_getopt(stderr, &g, argv[optind - 1]);
		return EXIT_USAGE;
	}
	/* Unreadable: still say what each user gets (the module's answer). */
	status = lint(o.config) < 0 ? EXIT_USAGE : EXIT_SUCCESS;
	for (i = optind; i < argc; i++)
		report_user(o.config, argv[i]);
	if (status == EXIT_SUCCESS && warnings)
		status = EXIT_WARNINGS;
	return status;
}
