/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh changes to the capability sets: --caps, --inh, --drop, ambient, --iab. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsh.h"
#include "suggest.h"

/*
 * Outside --strict, capsh lends a hand with CAP_SETPCAP: if it is
 * permitted, make it effective before a change that needs it (raising I
 * beyond P). The change itself then installs the requested E, so the
 * helping bit does not outlive it. A failure here is not reported: the
 * change that follows fails with its own message if the bit was needed.
 */
static int lend_setpcap(void)
{
	static const cap_value_t setpcap = CAP_SETPCAP;
	cap_flag_value_t v;
	cap_t caps = cap_get_proc();

	if (caps == NULL) {
		capsh_perror("Capabilities not available");
		return -1;
	}
	if (cap_get_flag(caps, CAP_SETPCAP, CAP_PERMITTED, &v) != 0) {
		fprintf(stderr,
			"Unable to check CAP_EFFECTIVE CAP_SETPCAP value\n");
		cap_free(caps);
		return -1;
	}
	if (v == CAP_SET &&
	    cap_set_flag(caps, CAP_EFFECTIVE, 1, &setpcap, CAP_SET) == 0)
		(void)cap_set_proc(caps);
	cap_free(caps);
	return 0;
}

/* --caps=<text>: replace P, E and I with cap_from_text(<text>). */
int capsh_caps(const struct opts *o, const char *arg, const char *text)
{
	cap_t caps = cap_from_text(text);
	int status = 0;

	if (caps == NULL) {
		fprintf(stderr, "unable to interpret [%s]\n", arg);
		suggest_cap_text(stderr, "capsh", text);
		return 1;
	}
	if (!o->strict && lend_setpcap() != 0)
		status = 1;
	else if (cap_set_proc(caps) != 0) {
		fprintf(stderr, "Unable to set capabilities [%s]\n", arg);
		status = 1;
	}
	cap_free(caps);
	return status;
}

/*
 * --inh=<list>: I becomes exactly <list> ("none" or empty: nothing), P and
 * E stay. Done as libcap does it, through text: "<current without I>
 * <list>+i", so a list such as "cap_kill+e" also reaches E.
 */
int capsh_inh(const struct opts *o, const char *list)
{
	cap_t now, want = NULL;
	char *text, *joined = NULL;
	int status = 1;

	now = cap_get_proc();
	if (now == NULL) {
		capsh_perror("Fatal error concerning process capabilities");
		return 1;
	}
	if (cap_clear_flag(now, CAP_INHERITABLE) != 0) {
		fprintf(stderr, "libcap:cap_clear_flag() internal error\n");
		cap_free(now);
		return 1;
	}
	text = cap_to_text(now, NULL);
	cap_free(now);
	if (text == NULL) {
		capsh_perror("Fatal error concerning process capabilities");
		return 1;
	}
	if (list[0] != '\0' && strcmp(list, "none") != 0) {
		if (asprintf(&joined, "%s %s+i", text, list) < 0) {
			fprintf(stderr, "Out of memory for inh set\n");
			goto out;
		}
	}
	want = cap_from_text(joined != NULL ? joined : text);
	if (want == NULL) {
		capsh_perror("Fatal error internalizing capabilities");
		suggest_cap_text(stderr, "capsh", list);
		goto out;
	}
	if (!o->strict && lend_setpcap() != 0)
		goto out;
	if (cap_set_proc(want) != 0) {
		capsh_perror("Unable to set inheritable capabilities");
		goto out;
	}
	status = 0;
out:
	cap_free(want);
	free(joined);
	cap_free(text);
	return status;
}

/*
 * Dropping a bounding bit needs CAP_SETPCAP in E. Outside --strict, raise
 * it for the drop and put the old state back afterwards, so a later
 * --print shows the sets the user asked for.
 */
static int raise_setpcap(cap_t *saved)
{
	static const cap_value_t setpcap = CAP_SETPCAP;
	cap_t raised;

	*saved = cap_get_proc();
	raised = cap_dup(*saved);
	if (raised == NULL ||
	    cap_set_flag(raised, CAP_EFFECTIVE, 1, &setpcap, CAP_SET) != 0 ||
	    cap_set_proc(raised) != 0) {
		capsh_perror("unable to raise CAP_SETPCAP for BSET changes");
		cap_free(raised);
		cap_free(*saved);
		*saved = NULL;
		return -1;
	}
	cap_free(raised);
	return 0;
}

static int lower_setpcap(cap_t saved)
{
	int r = cap_set_proc(saved);

	if (r != 0)
		capsh_perror("unable to lower CAP_SETPCAP post BSET change");
	cap_free(saved);
	return r;
}

static int drop_all(const struct opts *o)
{
	cap_t saved = NULL;
	cap_value_t c, top = cap_max_bits();

	if (!o->strict && raise_setpcap(&saved) != 0)
		return 1;
	for (c = 0; c < top; c++) {
		if (cap_drop_bound(c) != 0) {
			char *name = cap_to_name(c);

			fprintf(stderr,
				"Unable to drop bounding capability [%s]\n",
				name != NULL ? name : "?");
			cap_free(name);
			cap_free(saved);
			return 1;
		}
	}
	if (saved != NULL && lower_setpcap(saved) != 0)
		return 1;
	return 0;
}

/* --drop=<list>|all: one capability at a time, left to right. */
int capsh_drop(const struct opts *o, const char *list)
{
	char *copy, *tok, *save = NULL;
	int status = 0;

	if (strcmp(list, "all") == 0)
		return drop_all(o);
	copy = strdup(list);
	if (copy == NULL) {
		fprintf(stderr, "No memory for [%s] operation\n", "drop");
		return 1;
	}
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		cap_t saved = NULL;
		cap_value_t cap;

		if (capsh_cap_value(tok, &cap) != 0) {
			fprintf(stderr,
				"capability [%s] is unknown to libcap\n", tok);
			suggest_unknown_cap(stderr, "capsh", tok);
			status = 1;
			break;
		}
		if (!o->strict && raise_setpcap(&saved) != 0) {
			status = 1;
			break;
		}
		if (cap_drop_bound(cap) != 0) {
			fprintf(stderr, "failed to drop [%s=%u]\n", tok,
				(unsigned)cap);
			cap_free(saved);
			status = 1;
			break;
		}
		if (saved != NULL && lower_setpcap(saved) != 0) {
			status = 1;
			break;
		}
	}
	free(copy);
	return status;
}

/* --addamb= / --delamb=: a list, or "all" for every kernel capability. */
int capsh_ambient(const char *list, cap_flag_value_t value)
{
	const char *verb = value == CAP_SET ? "raise" : "clear";
	char *copy, *tok, *save = NULL;
	int status = 0;

	if (strcmp(list, "all") == 0) {
		cap_value_t c, top = cap_max_bits();

		for (c = 0; c < top; c++) {
			if (cap_set_ambient(c, value) != 0) {
				char *name = cap_to_name(c);

				fprintf(stderr,
					"Unable to %s ambient capability [%s]\n",
					verb, name != NULL ? name : "?");
				cap_free(name);
				return 1;
			}
		}
		return 0;
	}
	copy = strdup(list);
	if (copy == NULL) {
		fprintf(stderr, "No memory for [%s] operation\n", verb);
		return 1;
	}
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		cap_value_t cap;

		if (capsh_cap_value(tok, &cap) != 0) {
			fprintf(stderr,
				"capability [%s] is unknown to libcap\n", tok);
			suggest_unknown_cap(stderr, "capsh", tok);
			status = 1;
			break;
		}
		if (cap_set_ambient(cap, value) != 0) {
			fprintf(stderr, "failed to %s ambient [%s=%u]\n", verb,
				tok, (unsigned)cap);
			status = 1;
			break;
		}
	}
	free(copy);
	return status;
}

int capsh_noamb(void)
{
	if (cap_reset_ambient() != 0) {
		capsh_perror("failed to reset ambient set");
		return 1;
	}
	return 0;
}

/* --iab=<text>: install I, A and the bounding drops in one step. */
int capsh_iab(const char *text)
{
	cap_iab_t iab = cap_iab_from_text(text);
	int status = 0;

	if (iab == NULL) {
		fprintf(stderr, "iab: '%s' malformed\n", text);
		suggest_cap_text(stderr, "capsh", text);
		return 1;
	}
	if (cap_iab_set_proc(iab) != 0) {
		capsh_perror("unable to set IAB tuple");
		status = 1;
	}
	cap_free(iab);
	return status;
}
