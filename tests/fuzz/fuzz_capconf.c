/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for pam_cap's capability.conf reader and matcher
 * (common/capconf.c, capconf_match.c) and for how pam_cap applies a
 * matching line (capconf_apply.c). The input is the whole config file, read
 * through fmemopen() by the real capconf_next(); the user is a fixed one
 * ("alice", groups "staff" and "wheel") so no passwd look-up happens.
 * Properties: every line is read, numbered in order and tokenised without
 * blanks; the matcher picks exactly the first token an independent check
 * picks; and it fails closed: a line with an error, or (for a user whose
 * group list could not be read whole) a line that only an "@group" token
 * could select, ends the scan with CAPCONF_BROKEN at that line, so no later
 * line ever decides; capconf_scan() gives exactly the verdict of an
 * independent walk over the lines. A grant whose text does not parse as IAB
 * applies nothing, now or deferred, while one that parses applies exactly
 * that IAB. The process state is never touched: the harness
 * links with -Wl,--wrap for cap_iab_set_proc, cap_set_proc and cap_prctlw.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include <security/pam_ext.h>

#include "capconf.h"
#include "fuzz.h"
#include "pam_cap.h"

int __wrap_cap_iab_set_proc(cap_iab_t iab);
int __wrap_cap_set_proc(cap_t caps);
int __wrap_cap_prctlw(long op, long a1, long a2, long a3, long a4, long a5);

/* What pam_cap_apply() did to the (pretend) process. */
static int iab_sets, caps_sets;
static cap_iab_t last_iab;

int __wrap_cap_iab_set_proc(cap_iab_t iab)
{
	iab_sets++;
	cap_free(last_iab);
	last_iab = cap_iab_dup(iab);
	FUZZ_ASSERT(last_iab != NULL);
	return 0;
}

int __wrap_cap_set_proc(cap_t caps)
{
	FUZZ_ASSERT(caps != NULL);
	caps_sets++;
	return 0;
}

int __wrap_cap_prctlw(long op, long a1, long a2, long a3, long a4, long a5)
{
	return 0;
}

/* The PAM calls capconf_apply.c makes, enough for one handle. */
static void *queued;
static void (*queued_cleanup)(pam_handle_t *, void *, int);

void pam_syslog(const pam_handle_t *pamh, int prio, const char *fmt, ...)
{
	char buf[64];
	va_list ap;

	va_start(ap, fmt); /* format it, so a bad format is caught */
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
}

int pam_set_data(pam_handle_t *pamh, const char *name, void *data,
		 void (*cleanup)(pam_handle_t *, void *, int))
{
	FUZZ_ASSERT(queued == NULL);
	queued = data;
	queued_cleanup = cleanup;
	return PAM_SUCCESS;
}

/* Any non-NULL handle: the PAM calls are the stubs above. */
static char handle;
#define PAMH ((pam_handle_t *)&handle)

static const char *const groups[] = { "staff", "wheel" };

/* Does token t select alice? Written apart from capconf_line_matches. */
static int selects(const char *t)
{
	size_t g;

	if (strcmp(t, "*") == 0 || strcmp(t, "alice") == 0)
		return 1;
	for (g = 0; t[0] == '@' && g < sizeof(groups) / sizeof(groups[0]); g++)
		if (strcmp(t + 1, groups[g]) == 0)
			return 1;
	return 0;
}

/* Applies text as pam_cap would, now and deferred, and checks the effect. */
static void check_apply(const char *text)
{
	struct pam_cap_opts opts = { .debug = 1 };
	cap_iab_t want = cap_iab_from_text(text);
	int special = strcmp(text, "all") == 0 || strcmp(text, "none") == 0;
	int rc, defer;

	for (defer = 0; defer <= 1; defer++) {
		opts.defer = defer;
		iab_sets = caps_sets = 0;
		rc = pam_cap_apply(PAMH, &opts, text);
		if (queued != NULL) {
			FUZZ_ASSERT(defer && want != NULL && !special);
			FUZZ_ASSERT(iab_sets == 0);
			/* pam_end() in the session child applies it. */
			queued_cleanup(PAMH, queued,
				       PAM_SUCCESS | PAM_DATA_SILENT);
			queued = NULL;
		}
		if (strcmp(text, "all") == 0) {
			FUZZ_ASSERT(rc == PAM_SUCCESS);
			FUZZ_ASSERT(iab_sets == 0 && caps_sets == 0);
		} else if (strcmp(text, "none") == 0) {
			FUZZ_ASSERT(rc == PAM_SUCCESS);
			FUZZ_ASSERT(iab_sets == 0 && caps_sets == 1);
		} else if (want == NULL) {
			/* Fail closed: nothing applied, nothing queued. */
			FUZZ_ASSERT(rc == PAM_IGNORE);
			FUZZ_ASSERT(iab_sets == 0 && caps_sets == 0);
		} else {
			FUZZ_ASSERT(rc == (defer ? PAM_IGNORE : PAM_SUCCESS));
			FUZZ_ASSERT(iab_sets == 1 && caps_sets == 0);
			FUZZ_ASSERT(cap_iab_compare(last_iab, want) == 0);
		}
	}
	cap_free(want);
}

/* The verdict the scan must reach, from an independent walk. */
struct verdict {
	int status;
	unsigned long line;
	char *who, *caps; /* CAPCONF_FOUND: copies */
};

/*
 * Walks every line of data as u, checking each line's properties and
 * capconf_line_matches(); returns what capconf_scan() must answer.
 */
static struct verdict walk(uint8_t *data, size_t size,
			   const struct capconf_user *u)
{
	struct verdict v = { CAPCONF_NOT_FOUND, 0, NULL, NULL };
	struct capconf_reader r;
	struct capconf_line *line;
	unsigned long newlines = 0, last = 0;
	size_t i;
	int rc, t, at, first, undecided, why_undecided;
	int incomplete = u->groups_error[0] != '\0';
	enum capconf_why why;

	for (i = 0; i < size; i++)
		newlines += data[i] == '\n';
	memset(&r, 0, sizeof(r));
	r.fp = fmemopen(data, size, "r");
	FUZZ_ASSERT(r.fp != NULL);
	while ((rc = capconf_next(&r, &line)) > 0) {
		FUZZ_ASSERT(line->number > last);
		FUZZ_ASSERT(line->number <= newlines + 1);
		last = line->number;
		at = capconf_line_matches(line, u, &why, &why_undecided);
		if (line->error != CAPCONF_LINE_OK) {
			FUZZ_ASSERT(line->error == CAPCONF_LINE_TOO_LONG ||
				    line->error == CAPCONF_LINE_NUL ||
				    line->error == CAPCONF_LINE_CONTROL);
			FUZZ_ASSERT(at == -1 && why_undecided == 0);
			if (v.line == 0) {
				v.status = CAPCONF_BROKEN;
				v.line = line->number;
			}
			continue;
		}
		FUZZ_ASSERT(line->ntok >= 1 && line->tok[0][0] != '#');
		first = undecided = 0;
		for (t = 0; t < line->ntok; t++) {
			FUZZ_ASSERT(line->tok[t][0] != '\0');
			FUZZ_ASSERT(strpbrk(line->tok[t], " \t\n") == NULL);
			if (t == 0)
				continue;
			if (first == 0 && selects(line->tok[t]))
				first = t;
			if (incomplete && undecided == 0 &&
			    line->tok[t][0] == '@' && !selects(line->tok[t]))
				undecided = t;
		}
		if (first == 0 && undecided != 0) {
			/* Only a group it cannot see could select u. */
			FUZZ_ASSERT(at == -1 && why_undecided == undecided);
			if (v.line == 0) {
				v.status = CAPCONF_BROKEN;
				v.line = line->number;
			}
			continue;
		}
		FUZZ_ASSERT(at == first);
		if (at == 0)
			continue;
		FUZZ_ASSERT(why == (line->tok[at][0] == '*' ? CAPCONF_WHY_ANY
				    : line->tok[at][0] == '@'
					    ? CAPCONF_WHY_GROUP
					    : CAPCONF_WHY_USER));
		if (!incomplete)
			check_apply(line->tok[0]);
		if (v.line == 0) {
			v.status = CAPCONF_FOUND;
			v.line = line->number;
			v.who = strdup(line->tok[at]);
			v.caps = strdup(line->tok[0]);
			FUZZ_ASSERT(v.who != NULL && v.caps != NULL);
		}
	}
	FUZZ_ASSERT(rc == 0);
	capconf_close(&r);
	return v;
}

/* capconf_scan() over data as u must reach exactly want. */
static void check_scan(uint8_t *data, size_t size, const struct capconf_user *u,
		       struct verdict want)
{
	struct capconf_reader r;
	struct capconf_match m;
	int rc;

	memset(&r, 0, sizeof(r));
	r.fp = fmemopen(data, size, "r");
	FUZZ_ASSERT(r.fp != NULL);
	rc = capconf_scan(&r, "fuzz", u, &m, NULL, NULL);
	capconf_close(&r);
	FUZZ_ASSERT(rc == want.status);
	FUZZ_ASSERT(m.line == want.line);
	if (rc == CAPCONF_FOUND) {
		FUZZ_ASSERT(strcmp(m.who, want.who) == 0);
		FUZZ_ASSERT(strcmp(m.caps, want.caps) == 0);
	} else {
		/* Stopped or found nothing: nothing to grant. */
		FUZZ_ASSERT(m.who == NULL && m.caps == NULL);
		FUZZ_ASSERT((rc == CAPCONF_BROKEN) == (m.problem[0] != '\0'));
	}
	capconf_match_release(&m);
	free(want.who);
	free(want.caps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capconf_user u = {
		.name = (char *)"alice",
		.groups = (char **)groups,
		.ngroups = 2,
	};
	uint8_t *copy;
	int incomplete;

	if (size == 0)
		return 0; /* fmemopen() refuses an empty buffer */
	copy = fuzz_bytes(data, size);
	/* alice with all her groups, then with some of them unreadable. */
	for (incomplete = 0; incomplete <= 1; incomplete++) {
		strcpy(u.groups_error,
		       incomplete ? "group 7 cannot be read" : "");
		check_scan(copy, size, &u, walk(copy, size, &u));
	}
	cap_free(last_iab);
	last_iab = NULL;
	free(copy);
	return 0;
}
