/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The verifier's reason for a refusal (capaudit_verifier.h). Its log ends
 * with statistics that say nothing of why; the reason is the line before
 * them, and the instruction and source lines above it say where.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "capaudit_verifier.h"

/* A line of the log: [start, start + n), without its newline. */
struct line {
	const char *start;
	size_t n;
};

/* The line that ends before end (exclusive), or one of n 0 at the top. */
static struct line line_before(const char *log, const char *end)
{
	struct line l;
	const char *p = end;

	while (p > log && p[-1] != '\n')
		p--;
	l.start = p;
	l.n = (size_t)(end - p);
	return l;
}

static int starts(const struct line *l, const char *word)
{
	size_t n = strlen(word);

	return l->n >= n && strncmp(l->start, word, n) == 0;
}

/* Statistics, blank lines: nothing about why. */
static int is_noise(const struct line *l)
{
	return l->n == 0 || starts(l, "processed ") ||
	       starts(l, "verification time") || starts(l, "stack depth") ||
	       starts(l, "mark_precise");
}

/* "12: (79) r2 = ...": an instruction, numbered. */
static int is_insn(const struct line *l)
{
	size_t i = 0;

	while (i < l->n && isdigit((unsigned char)l->start[i]))
		i++;
	return i > 0 && i + 2 < l->n && l->start[i] == ':' &&
	       l->start[i + 1] == ' ' && l->start[i + 2] == '(';
}

int verifier_reason(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log);
	struct line reason, insn, source;
	size_t used;

	out[0] = '\0';
	for (;;) {
		if (end == log)
			return -1;
		reason = line_before(log, end);
		if (!is_noise(&reason))
			break;
		end = reason.start > log ? reason.start - 1 : log;
	}
	snprintf(out, len, "%.*s", (int)reason.n, reason.start);
	insn.n = 0;
	for (end = reason.start; end > log;) {
		insn = line_before(log, end - 1);
		if (is_insn(&insn))
			break;
		insn.n = 0;
		end = insn.start;
	}
	if (insn.n == 0)
		return 0;
	used = strlen(out);
	if (used < len)
		snprintf(out + used, len - used, ", at instruction %.*s",
			 (int)insn.n, insn.start);
	/*
	 * With line information the log says "; text @ file:line" where the
	 * walk enters a source line: the nearest above is the instruction's.
	 */
	for (end = insn.start; end > log;) {
		source = line_before(log, end - 1);
		if (source.n > 2 && starts(&source, "; ")) {
			used = strlen(out);
			if (used < len)
				snprintf(out + used, len - used,
					 ", source: %.*s", (int)source.n - 2,
					 source.start + 2);
			break;
		}
		end = source.start;
	}
	return 0;
}
