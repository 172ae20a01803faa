/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Small helpers shared by capsh's option handlers: numbers and error lines. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsh.h"
#include "escape.h"
#include "number.h"

/*
 * Parses a non-negative number as libcap's capsh does (strtoul() in base
 * 0, the whole text), except that a value above the option's unsigned
 * 32-bit type is refused instead of wrapped: libcap reads --uid=4294967296
 * as 0 and stays root. A '-', even after blanks, is
 * refused too. On failure prints one line naming the option and the text
 * and returns -1.
 */
int capsh_parse_uint(const char *text, const char *what, unsigned *value)
{
	unsigned long long v;
	int rc = number_parse(text, 0, UINT_MAX, &v);

	if (rc == 0) {
		*value = (unsigned)v;
		return 0;
	}
	if (rc == ERANGE)
		capsh_bad_value(what, "out of range (0 to 4294967295)", text);
	else
		fprintf(stderr, "%s: want non-negative integer, got \"%s\"\n",
			what, text);
	return -1;
}

/*
 * cap_from_name() as capsh options want it: the whole text must be one
 * capability. libcap's capsh takes "--drop=5x" or "--explain=38junk" as
 * capability 5 or 38 (cap_from_name() ignores what follows); here the
 * rest makes it unknown. A number is decimal, octal or hex below 64.
 */
int capsh_cap_value(const char *text, cap_value_t *cap)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
	unsigned long long v;

	if (isdigit((unsigned char)text[0])) {
		if (number_parse(text, 0, 63, &v) != 0)
			return -1;
		*cap = (cap_value_t)v;
		return 0;
	}
	if (text[strspn(text, letters)] != '\0')
		return -1;
	return cap_from_name(text, cap);
}

/*
 * The line for a value libcap would have taken and we refuse: ours, not
 * libcap's, so the value is escaped (a terminal never sees its control
 * characters).
 */
void capsh_bad_value(const char *what, const char *reason, const char *text)
{
	fprintf(stderr, "%s: %s, got \"", what, reason);
	escape_fputs(text, stderr);
	fputs("\"\n", stderr);
}

/* perror(3) with capsh's own wording; kept separate so errno is read once. */
void capsh_perror(const char *msg)
{
	int saved = errno;

	fprintf(stderr, "%s: %s\n", msg, strerror(saved));
}
