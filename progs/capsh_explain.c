/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh --explain and --suggest: a capability's header line and description. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "capsh.h"

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
		printf("%s (%d)", in_kernel ? "<unnamed in libcap>" :
		       "<unsupported>", cap);
	cap_free(name);
	printf(" [/proc/self/status:CapXXX: 0x%016llx]\n", 1ULL << cap);
	if (cap < capsh_cap_text_count) {
		putchar('\n');
		print_indented(capsh_cap_text[cap]);
	}
}

/* --explain=<name or number>: 0..63, parsed by cap_from_name(). */
int capsh_explain(const char *what)
{
	cap_value_t cap;

	if (cap_from_name(what, &cap) != 0 || cap < 0 || cap >= 64) {
		fprintf(stderr, "unrecognised value '%s'\n", what);
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
