/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Operands quoted for the POSIX shell, for the command lines we print. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "shquote.h"

/*
 * Bytes no shell gives a meaning to inside a word: not a metacharacter,
 * quote, expansion, glob, brace, history ('!', '^'), comment ('#') or
 * tilde. '=' only matters in command position (see the header).
 */
static int is_bare_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c) != NULL;
}

int shquote_is_bare(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == '\0')
		return 0;
	for (; *p != '\0'; p++)
		if (!is_bare_byte(*p))
			return 0;
	return 1;
}

/* Length of the quoted form, each ' written as quote, the NUL not counted. */
static size_t quoted_length(const char *s, const char *quote)
{
	size_t n = 2;

	for (; *s != '\0'; s++)
		n += *s == '\'' ? strlen(quote) : 1;
	return n;
}

static void quote_into(char *out, const char *s, const char *quote)
{
	*out++ = '\'';
	for (; *s != '\0'; s++) {
		if (*s == '\'') {
			memcpy(out, quote, strlen(quote));
			out += strlen(quote);
		} else {
			*out++ = *s;
		}
	}
	*out++ = '\'';
	*out = '\0';
}

static char *quote_dup(const char *s, const char *quote)
{
	char *word;

	if (!escape_is_shown_as_is(s)) {
		errno = EILSEQ;
		return NULL;
	}
	if (shquote_is_bare(s))
		return strdup(s);
	word = malloc(quoted_length(s, quote) + 1);
	if (word != NULL)
		quote_into(word, s, quote);
	return word;
}

char *shquote_dup(const char *s)
{
	return quote_dup(s, "'\\''"); /* close, \', reopen */
}

char *shquote_words_dup(const char *s)
{
	return quote_dup(s, "'\"'\"'"); /* close, "'", reopen */
}

int shquote_fputs(const char *s, FILE *out)
{
	char *word = shquote_dup(s);

	if (word == NULL)
		return -1;
	fputs(word, out);
	free(word);
	return 0;
}

char *shquote_path_dup(const char *path)
{
	char *dotted, *word;
	int saved;

	if (path[0] != '-')
		return shquote_dup(path);
	/* "./-x" only: a path that starts with '-' is relative. */
	if (asprintf(&dotted, "./%s", path) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	word = shquote_dup(dotted);
	saved = errno;
	free(dotted);
	errno = saved;
	return word;
}
