/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh --explain and --suggest: a capability's header line and description. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "risk.h"
#include "capsh.h"
#include "suggest.h"

/* Prints each line of text indented by four spaces (empty lines stay empty). */
static void print_indented(const char *text)
{
	while (*text != '\0') {
		size_t n = strcspn(text, "\n");

		if (n > 0)
			printf("    %.*s", (int)n, text);
		putchar('\n');
		text += n;
		if (*text == '\n')
			text++;
	}
}

/*
 * The risk label shared with getcap --audit and perfdoctor, wrapped like
 * the descriptions: "Risk: <tier>: <reason>." in lines of at most 64.
 */
static void print_risk(cap_value_t cap)
{
	char text[512], line[128];
	const char *word;
	size_t len = 0;

	snprintf(text, sizeof(text), "Risk: %s: %s.",
		 risk_tier_name(risk_tier_of(cap)), risk_reason(cap));
	putchar('\n');
	for (word = text; *word != '\0';) {
		size_t n = strcspn(word, " ");

		if (len > 0 && 4 + len + 1 + n > 64) {
			printf("    %.*s\n", (int)len, line);
			len = 0;
		}
		if (len > 0)
			line[len++] = ' ';
		if (n > sizeof(line) - len - 1)
			n = sizeof(line) - len - 1;
		memcpy(line + len, word, n);
		len += n;
		word += n;
		while (*word == ' ')
			word++;
	}
	if (len > 0)
		printf("    %.*s\n", (int)len, line);
}

/*
 * "<name> (<n>) [/proc/self/status:CapXXX: 0x...]", the line format libcap
 * uses, then a blank line and the description. The name is prefixed
 * "<reserved for>" when the running kernel predates the capability; bits
 * without a name read "<unnamed in libcap>" if the kernel has them and
 * "<unsupported>" otherwise.
 */
static void describe(cap_value_t cap)
{
	char *name = cap_to_name(cap);
	int named = name != NULL && !(name[0] >= '0' && name[0] <= '9');
	int in_kernel = cap < cap_max_bits();

	if (named)
		printf("%s%s (%d)", in_kernel ? "" : "<reserved for> ", name,
		       cap);
	else
		printf("%s (%d)",
		       in_kernel ? "<unnamed in libcap>" : "<unsupported>",
		       cap);
	cap_free(name);
	printf(" [/proc/self/status:CapXXX: 0x%016llx]\n", 1ULL << cap);
	if (cap < capsh_cap_text_count) {
		putchar('\n');
		print_indented(capsh_cap_text[cap]);
	}
	if (risk_reason(cap) != NULL)
		print_risk(cap);
}

/* --explain=<name or number>: 0..63, the whole text (capsh_cap_value). */
int capsh_explain(const char *what)
{
	cap_value_t cap;

	if (capsh_cap_value(what, &cap) != 0) {
		fprintf(stderr, "unrecognised value '%s'\n", what);
		suggest_unknown_cap(stderr, "capsh", what);
		return 1;
	}
	describe(cap);
	return 0;
}

/*
 * --suggest=<phrase>: every capability whose name or description contains
 * the phrase, ignoring case, separated by blank lines. No match is not an
 * error.
 */
int capsh_suggest(const char *phrase)
{
	int found = 0;
	cap_value_t cap;

	for (cap = 0; cap < capsh_cap_text_count; cap++) {
		char *name = cap_to_name(cap);
		int hit = (name != NULL && strcasestr(name, phrase) != NULL) ||
			  strcasestr(capsh_cap_text[cap], phrase) != NULL;

		cap_free(name);
		if (!hit)
			continue;
		if (found++)
			putchar('\n');
		describe(cap);
	}
	return 0;
}
