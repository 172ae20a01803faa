/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for setcap's explanation of rejected capability text
 * (progs/setcap/setcap_explain.c, explain_text()). It must never crash and must
 * agree with cap_from_text(): for text that cap_from_text() refuses it
 * prints exactly one printable line naming the first clause refused on its
 * own (a text whose clauses all parse alone always parses whole), and in
 * it the first capability name cap_from_text() refuses, both quoted safely
 * (escaped, cut at 64 bytes). The expected line is rebuilt here from
 * cap_from_text() answers alone. stderr is swapped for a memory stream.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "fuzz.h"
#include "setcap.h"

#define BLANKS " \t\n\r\f\v"

static int parses(const char *text)
{
	cap_t caps = cap_from_text(text);

	cap_free(caps);
	return caps != NULL;
}

/* Does cap_from_text() accept the one item "name" as in "name=p"? */
static int item_parses(const char *name, size_t len)
{
	char *probe = malloc(len + 3);
	int ok;

	FUZZ_ASSERT(probe != NULL);
	memcpy(probe, name, len);
	memcpy(probe + len, "=p", 3);
	ok = parses(probe);
	free(probe);
	return ok;
}

/*
 * How the explanation quotes bytes, written apart from setcap_explain.c:
 * at most 64 bytes, '"' and '\\' escaped with '\\', other bytes outside
 * 0x20-0x7e as \\xNN, and "..." before the closing quote when cut.
 */
static char *quoted(const char *text, size_t len)
{
	char *out = malloc(64 * 4 + 6), *o = out;
	size_t i;

	FUZZ_ASSERT(out != NULL);
	*o++ = '"';
	for (i = 0; i < len && i < 64; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			o += sprintf(o, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = (char)c;
	}
	strcpy(o, len > 64 ? "...\"" : "\"");
	return out;
}

/* The cause the explainer must give for a clause refused alone. */
static char *expected_cause(const char *clause)
{
	size_t names_len = strcspn(clause, "=+-"), start = 0;
	char *cause = NULL, *q;

	if (clause[names_len] == '\0')
		return strdup(
			"no operator: write names=flags, names+flags or names-flags (flags e, i, p)\n");
	while (names_len > 0 && start <= names_len) {
		size_t len = strcspn(clause + start, ",=+-");

		if (start + len > names_len)
			len = names_len - start;
		if (len == 0)
			return strdup(
				"empty capability name (a stray comma?)\n");
		if (!item_parses(clause + start, len)) {
			q = quoted(clause + start, len);
			cause = malloc(strlen(q) + 64);
			FUZZ_ASSERT(cause != NULL);
			if (isdigit((unsigned char)clause[start]))
				sprintf(cause,
					"capability number %s is out of range (0 to 63)\n",
					q);
			else
				sprintf(cause, "unknown capability name %s\n",
					q);
			free(q);
			return cause;
		}
		start += len + 1;
	}
	if (names_len == 0 && clause[0] != '=')
		return strdup("only '=' may stand without capability names\n");
	return strdup(
		"bad operator or flags after the names (operators =, +, -; flags e, i, p in lower case)\n");
}

/* Checks one explanation of refused text against cap_from_text(). */
static void check(const char *text, const char *said)
{
	char *copy, *clause = NULL, *save = NULL, *p, *q, *cause, *want;
	int index = 0, count = 0;

	/* The clause named is the first one cap_from_text() refuses alone. */
	copy = strdup(text);
	FUZZ_ASSERT(copy != NULL);
	for (p = strtok_r(copy, BLANKS, &save); p != NULL;
	     p = strtok_r(NULL, BLANKS, &save)) {
		count++;
		if (clause == NULL && !parses(p)) {
			clause = p;
			index = count;
		}
	}
	/* Each clause valid alone never makes the whole text invalid. */
	FUZZ_ASSERT(clause != NULL);
	q = quoted(clause, strlen(clause));
	cause = expected_cause(clause);
	FUZZ_ASSERT(cause != NULL);
	want = malloc(strlen(q) + strlen(cause) + 96);
	FUZZ_ASSERT(want != NULL);
	sprintf(want, "setcap: bad capability text, clause %d of %d %s: %s",
		index, count, q, cause);
	if (strcmp(said, want) != 0)
		fprintf(stderr, "said: %swant: %s", said, want);
	FUZZ_ASSERT(strcmp(said, want) == 0);
	/* One line, and nothing a terminal would act on. */
	for (p = (char *)said; *p != '\0'; p++)
		FUZZ_ASSERT((*p >= 0x20 && *p <= 0x7e) || p[1] == '\0');
	free(want);
	free(cause);
	free(q);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	char *said = NULL;
	size_t said_len = 0;
	FILE *real = stderr, *mem;

	if (parses(text)) {
		free(text);
		return 0; /* setcap explains only refused text */
	}
	mem = open_memstream(&said, &said_len);
	FUZZ_ASSERT(mem != NULL);
	stderr = mem;
	explain_text(text);
	stderr = real;
	FUZZ_ASSERT(fclose(mem) == 0);
	check(text, said);
	free(said);
	free(text);
	return 0;
}
