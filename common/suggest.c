/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Nearest-word suggestions for mistyped options, subcommands and names. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/capability.h>

#include "escape.h"
#include "mask.h"
#include "suggest.h"

/* Large enough to mean "not a typo" whatever the threshold. */
#define FAR ((size_t)-1 / 2)

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

static int same(char x, char y)
{
	return tolower((unsigned char)x) == tolower((unsigned char)y);
}

/*
 * Optimal string alignment distance over three rolling rows (the swap
 * looks two rows back), so the cost is O(|a|·|b|) time and no heap.
 */
size_t suggest_distance(const char *a, const char *b)
{
	size_t rows[3][SUGGEST_MAX_LEN + 2];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return FAR;
	for (j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3];
		size_t *prev2 = rows[(i + 1) % 3]; /* (i - 2) % 3 */

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

const char *suggest_nearest(const char *word, const char *const *words,
			    size_t n)
{
	char key[SUGGEST_MAX_LEN + 1];
	const char *eq = strchr(word, '=');
	size_t len = eq != NULL ? (size_t)(eq - word) + 1 : strlen(word);
	size_t limit = (len + 2) / 4, best = FAR, k;
	const char *found = NULL;

	/* "--dcode=ff" is compared as "--dcode=": the value is no typo. */
	if (len > SUGGEST_MAX_LEN)
		return NULL;
	memcpy(key, word, len);
	key[len] = '\0';
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	/* "-x" is one edit from every short option: no guess is better. */
	if (len <= 2)
		limit = 0;
	for (k = 0; k < n; k++) {
		size_t d = suggest_distance(key, words[k]);

		if (d <= limit && d < best) {
			best = d;
			found = words[k];
		}
	}
	return found;
}

const char *const *suggest_cap_names(size_t *n)
{
	/* The longest name today is 23 bytes; longer ones are left out. */
	static char store[MASK_BITS][32];
	static const char *names[MASK_BITS];
	static size_t count;
	static int built;
	cap_value_t v;

	if (!built) {
		for (v = 0; v < MASK_BITS; v++) {
			char *name = cap_to_name(v);

			if (name != NULL && !isdigit((unsigned char)name[0]) &&
			    strlen(name) < sizeof(store[0])) {
				strcpy(store[count], name);
				names[count] = store[count];
				count++;
			}
			cap_free(name);
		}
		built = 1;
	}
	*n = count;
	return names;
}

int suggest_say(FILE *out, const char *prog, const char *what, const char *word,
		const char *answer)
{
	fprintf(out, "%s: unknown %s '", prog, what);
	escape_fputs(word, out);
	if (answer != NULL)
		fprintf(out, "'; did you mean %s?\n", answer);
	else
		fputs("'\n", out);
	return answer != NULL;
}

int suggest_unknown(FILE *out, const char *prog, const char *what,
		    const char *word, const char *const *words, size_t n)
{
	return suggest_say(out, prog, what, word,
			   suggest_nearest(word, words, n));
}

const char *suggest_cap_name(const char *word)
{
	const char *bare[MASK_BITS] = { NULL };
	size_t n, k;
	const char *const *names = suggest_cap_names(&n);
	const char *near = suggest_nearest(word, names, n);

	if (near != NULL || strncasecmp(word, "cap_", 4) == 0)
		return near;
	/*
	 * "perfmon" is four edits from cap_perfmon, too far for a typo, but
	 * it is the name as the kernel's documentation and perf's messages
	 * write it: compare it with the names after their "cap_". Not with
	 * "cap_" put before it, which would judge "all" by the threshold of
	 * a seven-letter word and offer cap_kill for it.
	 */
	for (k = 0; k < n; k++)
		bare[k] = strncmp(names[k], "cap_", 4) == 0 ? names[k] + 4
							    : names[k];
	near = suggest_nearest(word, bare, n);
	for (k = 0; near != NULL && k < n; k++)
		if (bare[k] == near)
			return names[k];
	return NULL;
}

int suggest_unknown_cap(FILE *out, const char *prog, const char *word)
{
	const char *near = suggest_cap_name(word);

	/* libcap's line has named the word already: ours only adds a guess. */
	if (near == NULL)
		return 0;
	return suggest_say(out, prog, "capability", word, near);
}

/*
 * A word is a capability name where a name may stand: at the start, after
 * blank space or ',' (lists), or after '!', '^' or '%' (IAB text). After
 * '=', '+' or '-' come flags ("ep"), which are not names.
 */
static int name_may_start(const char *text, const char *p)
{
	return p == text || strchr(" \t\n\r\f\v,!^%", p[-1]) != NULL;
}

char *suggest_cap_in_text(const char *text)
{
	const char *p = text;

	while (*p != '\0') {
		size_t len = 0;

		while (isalnum((unsigned char)p[len]) || p[len] == '_')
			len++;
		if (len == 0) {
			p++;
			continue;
		}
		if (name_may_start(text, p) && !isdigit((unsigned char)*p)) {
			char *word = strndup(p, len);
			cap_value_t v;

			if (word == NULL)
				return NULL;
			if (strcasecmp(word, "all") != 0 &&
			    cap_from_name(word, &v) != 0)
				return word;
			free(word);
		}
		p += len;
	}
	return NULL;
}

int suggest_cap_text(FILE *out, const char *prog, const char *text)
{
	char *word = suggest_cap_in_text(text);
	int said = 0;

	if (word != NULL)
		said = suggest_unknown_cap(out, prog, word);
	free(word);
	return said;
}
