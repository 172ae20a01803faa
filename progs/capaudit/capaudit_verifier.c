/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The verifier's reason for a refusal (capaudit_verifier.h). Its log ends
 * with statistics that say nothing of why; the reason is the line before
 * them, and the instruction and source lines above it say where.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capaudit_verifier.h"
#include "escape.h"

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

/* The length of a "12:" that starts the line, or 0. */
static size_t number_colon(const struct line *l)
{
	size_t i = 0;

	while (i < l->n && isdigit((unsigned char)l->start[i]))
		i++;
	return i > 0 && i < l->n && l->start[i] == ':' ? i + 1 : 0;
}

/* "12: R0=..." or "12: (79) ...": an instruction's state or the instruction. */
static int is_numbered(const struct line *l)
{
	return number_colon(l) > 0;
}

/* "12: (79) r2 = ...": an instruction, numbered. */
static int is_insn(const struct line *l)
{
	size_t i = number_colon(l);

	return i > 0 && i + 1 < l->n && l->start[i] == ' ' &&
	       l->start[i + 1] == '(';
}

/* The line before the reason that is an instruction, or one of n 0. */
static struct line insn_before(const char *log, const struct line *reason)
{
	struct line insn = { reason->start, 0 };
	const char *end;

	for (end = reason->start; end > log;) {
		insn = line_before(log, end - 1);
		if (is_insn(&insn))
			return insn;
		end = insn.start;
	}
	insn.n = 0;
	return insn;
}

/*
 * With line information the log says "; TEXT @ FILE:LINE" where the walk
 * enters a source line: the nearest above the instruction is its own.
 * Its text and its place, split at the last " @ "; 0, or -1 for none.
 */
static int source_before(const char *log, const struct line *insn,
			 struct line *text, struct line *where)
{
	const char *end, *at;
	struct line l;

	for (end = insn->start; end > log; end = l.start) {
		l = line_before(log, end - 1);
		if (l.n <= 2 || !starts(&l, "; "))
			continue;
		text->start = l.start + 2;
		text->n = l.n - 2;
		where->n = 0;
		for (at = l.start + l.n - 3; at >= text->start; at--)
			if (strncmp(at, " @ ", 3) == 0) {
				where->start = at + 3;
				where->n =
					(size_t)(l.start + l.n - where->start);
				text->n = (size_t)(at - text->start);
				break;
			}
		return 0;
	}
	return -1;
}

/*
 * Where s, escaped, may be cut at n or before it: never inside a \ooo
 * (every backslash of escape_dup()'s starts one) or a UTF-8 character.
 */
static size_t whole_prefix(const char *s, size_t n)
{
	size_t i;

	for (i = n > 3 ? n - 3 : 0; i < n; i++)
		if (s[i] == '\\') {
			n = i;
			break;
		}
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/*
 * out escaped as every message of ours is (escape.h), in place: the log
 * repeats our source's text, its file's name and the kernel's words, and
 * an escape sequence or a line break there would reach the terminal.
 * 0, or -1 when memory ran out (out empty).
 */
static int escape_in_place(char *out, size_t len)
{
	char *shown = escape_dup(out);
	size_t n;

	out[0] = '\0';
	if (shown == NULL)
		return -1;
	n = strlen(shown);
	if (n >= len)
		n = whole_prefix(shown, len - 1);
	memcpy(out, shown, n);
	out[n] = '\0';
	free(shown);
	return 0;
}

int verifier_reason(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log);
	struct line reason, insn, text, where;

	out[0] = '\0';
	for (;;) {
		if (end == log)
			return -1;
		reason = line_before(log, end);
		if (!is_noise(&reason))
			break;
		end = reason.start > log ? reason.start - 1 : log;
	}
	/*
	 * The log of a program it accepted ends with its last instruction
	 * or state ("12: R0=..."), never a reason: a light skeleton's
	 * loader, accepted, leaves its log where a refused program of its
	 * would have written one.
	 */
	if (is_numbered(&reason))
		return -1;
	insn = insn_before(log, &reason);
	if (insn.n == 0)
		snprintf(out, len, "%.*s", (int)reason.n, reason.start);
	else if (source_before(log, &insn, &text, &where) < 0)
		snprintf(out, len, "%.*s (instruction %.*s)", (int)reason.n,
			 reason.start, (int)insn.n, insn.start);
	else if (where.n == 0)
		snprintf(out, len, "%.*s (instruction %.*s; source: %.*s)",
			 (int)reason.n, reason.start, (int)insn.n, insn.start,
			 (int)text.n, text.start);
	else
		snprintf(out, len,
			 "%.*s: %.*s (instruction %.*s; source: %.*s)",
			 (int)where.n, where.start, (int)reason.n, reason.start,
			 (int)insn.n, insn.start, (int)text.n, text.start);
	return escape_in_place(out, len);
}
