/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Terminal-safe text: what a terminal could act on becomes \ooo. */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/*
 * Code points that are valid UTF-8 but still steer a terminal or hide
 * text: C1 controls (U+009B is CSI on many terminals), the line and
 * paragraph separators, and the bidirectional marks, embeddings,
 * overrides and isolates ("Trojan Source", CVE-2021-42574).
 */
static int is_unsafe_code_point(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * Length of the sequence at p that may be printed as it is, or 0 when its
 * first byte must be escaped. Only well-formed UTF-8 (no overlong forms,
 * no surrogates, nothing above U+10FFFF) counts as text.
 */
static size_t safe_sequence(const unsigned char *p)
{
	uint32_t cp, min;
	size_t len, i;

	if (*p >= 0x20 && *p < 0x7f)
		return *p == '\\' ? 0 : 1;
	if (*p >= 0xc2 && *p <= 0xdf) {
		len = 2, cp = *p & 0x1f, min = 0x80;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		len = 3, cp = *p & 0x0f, min = 0x800;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		len = 4, cp = *p & 0x07, min = 0x10000;
	} else {
		return 0; /* control, DEL, stray continuation, 0xf5.. */
	}
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0; /* also stops at the terminating NUL */
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    is_unsafe_code_point(cp))
		return 0;
	return len;
}

/*
 * The one walk over s: emit() receives each run of safe bytes and each
 * escape in order. Returns the length of the escaped text.
 */
static size_t escape_walk(const char *s,
			  void (*emit)(void *ctx, const char *bytes, size_t n),
			  void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t total = 0;

	while (*p != '\0') {
		const unsigned char *run = p;
		size_t n;

		while ((n = safe_sequence(p)) > 0)
			p += n;
		if (p > run) {
			emit(ctx, (const char *)run, (size_t)(p - run));
			total += (size_t)(p - run);
		}
		if (*p != '\0') {
			char esc[5] = { '\\', (char)('0' + (*p >> 6)),
					(char)('0' + ((*p >> 3) & 7)),
					(char)('0' + (*p & 7)), '\0' };

			emit(ctx, esc, 4);
			total += 4;
			p++;
		}
	}
	return total;
}

static void emit_file(void *ctx, const char *bytes, size_t n)
{
	fwrite(bytes, 1, n, ctx);
}

static void emit_nothing(void *ctx, const char *bytes, size_t n)
{
	(void)ctx, (void)bytes, (void)n;
}

static void emit_buffer(void *ctx, const char *bytes, size_t n)
{
	char **at = ctx;

	memcpy(*at, bytes, n);
	*at += n;
}

void escape_fputs(const char *s, FILE *out)
{
	escape_walk(s, emit_file, out);
}

char *escape_dup(const char *s)
{
	size_t len = escape_walk(s, emit_nothing, NULL);
	char *copy = malloc(len + 1), *at = copy;

	if (copy == NULL)
		return NULL;
	escape_walk(s, emit_buffer, &at);
	*at = '\0';
	return copy;
}

int escape_is_clean(const char *s)
{
	return escape_walk(s, emit_nothing, NULL) == strlen(s);
}

int escape_is_shown_as_is(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p != '\0') {
		if (*p == '\\')
			n = 1; /* escaped only to keep \ooo unambiguous */
		else if ((n = safe_sequence(p)) == 0)
			return 0;
		p += n;
	}
	return 1;
}

int escape_vline(FILE *out, const char *prefix, const char *fmt, va_list ap)
{
	char *text = NULL;

	if (vasprintf(&text, fmt, ap) < 0)
		return -1;
	fputs(prefix, out);
	escape_fputs(text, out);
	fputc('\n', out);
	free(text);
	return 0;
}

int escape_line(FILE *out, const char *prefix, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = escape_vline(out, prefix, fmt, ap);
	va_end(ap);
	return rc;
}
