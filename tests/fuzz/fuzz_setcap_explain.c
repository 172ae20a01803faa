/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for setcap's explanation of rejected capability text
 * (progs/setcap_explain.c, explain_text()). It must never crash and must
 * agree with cap_from_text(): for text that cap_from_text() refuses it
 * prints one line that names a clause; that clause is the one at that
 * position, refused on its own while every clause before it is accepted;
 * and a capability name it calls unknown (or out of range) is refused by
 * cap_from_text() too. stderr is swapped for a memory stream to read it.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "fuzz.h"
#include "setcap_explain.h"

#define BLANKS	" \t\n\r\f\v"

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

/* Checks one explanation of text against cap_from_text(). */
static void check(const char *text, const char *said)
{
	static const char head[] = "setcap: bad capability text, clause ";
	const char *p, *quote, *cause, *clause;
	char *copy, *save = NULL;
	int index, count, n, consumed = 0;
	size_t clause_len;

	FUZZ_ASSERT(strchr(said, '\n') == said + strlen(said) - 1);
	/* Each clause valid alone is never so when the whole text fails. */
	FUZZ_ASSERT(strncmp(said, head, sizeof(head) - 1) == 0);
	p = said + sizeof(head) - 1;
	FUZZ_ASSERT(sscanf(p, "%d of %d \"%n", &index, &count, &consumed) == 2 &&
		    consumed > 0);
	clause = p + consumed;
	FUZZ_ASSERT(index >= 1 && index <= count);
	/* The clause has no blanks, so its closing quote is the first '": '. */
	quote = strstr(clause, "\": ");
	FUZZ_ASSERT(quote != NULL);
	clause_len = (size_t)(quote - clause);
	cause = quote + 3;

	copy = strdup(text);
	FUZZ_ASSERT(copy != NULL);
	p = strtok_r(copy, BLANKS, &save);
	for (n = 1; n < index; n++) {
		FUZZ_ASSERT(p != NULL && parses(p));
		p = strtok_r(NULL, BLANKS, &save);
	}
	FUZZ_ASSERT(p != NULL && strlen(p) == clause_len &&
		    memcmp(p, clause, clause_len) == 0);
	FUZZ_ASSERT(!parses(p));
	for (; p != NULL; p = strtok_r(NULL, BLANKS, &save))
		n++;
	FUZZ_ASSERT(n - 1 == count);
	free(copy);

	if (strncmp(cause, "unknown capability name \"", 25) == 0 ||
	    strncmp(cause, "capability number \"", 19) == 0) {
		const char *name = strchr(cause, '"') + 1;
		const char *end = strrchr(name, '"');	/* names may hold '"' */

		FUZZ_ASSERT(end != NULL && end > name);
		FUZZ_ASSERT(!item_parses(name, (size_t)(end - name)));
		if (cause[0] == 'c')	/* "capability number" */
			FUZZ_ASSERT(isdigit((unsigned char)*name));
	} else {
		FUZZ_ASSERT(strncmp(cause, "no operator", 11) == 0 ||
			    strncmp(cause, "empty capability name", 21) == 0 ||
			    strncmp(cause, "only '='", 8) == 0 ||
			    strncmp(cause, "bad operator", 12) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	char *said = NULL;
	size_t said_len = 0;
	FILE *real = stderr, *mem;

	if (parses(text)) {
		free(text);
		return 0;	/* setcap explains only refused text */
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
