/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Small helpers shared by capsh's option handlers: numbers and error lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsh.h"

/*
 * Parses a non-negative number the way libcap's capsh does: strtoul() in
 * base 0 must consume the whole text, and a leading '-' is refused (strtoul
 * would quietly negate it). The result is truncated to 32 bits without a
 * range check, so "4294967296" reads as 0: that is what capsh users get
 * from libcap, and scripts may depend on it. On failure prints
 * "<what>: want non-negative integer, got "<text>"" and returns -1.
 */
int capsh_parse_uint(const char *text, const char *what, unsigned *value)
{
	unsigned long v;
	char *end;

	if (text[0] != '-') {
		v = strtoul(text, &end, 0);
		if (end != text && *end == '\0') {
			*value = (unsigned)v;
			return 0;
		}
	}
	fprintf(stderr, "%s: want non-negative integer, got \"%s\"\n", what,
		text);
	return -1;
}

/* perror(3) with capsh's own wording; kept separate so errno is read once. */
void capsh_perror(const char *msg)
{
	int saved = errno;

	fprintf(stderr, "%s: %s\n", msg, strerror(saved));
}
