/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * "Did you mean ...?" for the programs: the nearest option, subcommand or
 * capability name to a word the user mistyped. One place, so every program
 * suggests by the same measure.
 */
#ifndef COMMON_SUGGEST_H
#define COMMON_SUGGEST_H

#include <stddef.h>
#include <stdio.h>

/*
 * Edit distance between a and b, ASCII case ignored (capability names are
 * case-insensitive; "--JSON" is still a typo of "--json"): insertions,
 * deletions, substitutions and swaps of two neighbours ("recrod") count 1
 * each. Words longer than SUGGEST_MAX_LEN compare as far apart (no
 * allocation, and nobody mistypes a 64-byte option).
 */
#define SUGGEST_MAX_LEN 63
size_t suggest_distance(const char *a, const char *b);

/*
 * The entry of words[0..n) nearest to word, if it is near enough to be a
 * plausible typo: at most (strlen(word) + 2) / 4 edits, at least 1 (but
 * 0 for words of two bytes or less: "-x" is one edit from every short
 * option, so only "-H" for "-h" is a real guess), at most 3. Ties go to
 * the earlier entry. NULL when none is that near.
 * Only word's part up to and including a first '=' takes part, so an
 * option's value ("--dcode=ff") does not count; list such options with
 * their '=' ("--decode=").
 */
const char *suggest_nearest(const char *word, const char *const *words,
			    size_t n);

/*
 * The capability names this libcap knows (cap_to_name() of 0..63 that are
 * names, not numbers), for suggest_nearest(); *n gets the count. Built on
 * the first call into static storage, so not thread-safe on that call;
 * the programs call it from main()'s thread only.
 */
const char *const *suggest_cap_names(size_t *n);

/*
 * One line on out: "<prog>: unknown <what> '<word>'", then "; did you mean
 * <nearest>?" when suggest_nearest() finds one. The word is the user's and
 * is escaped (escape.h). Returns 1 when a suggestion was printed, else 0.
 */
int suggest_unknown(FILE *out, const char *prog, const char *what,
		    const char *word, const char *const *words, size_t n);

/* The same line with the caller's answer (NULL: none), for habits such as
 * "--help" that are no typo of the option meant ("-h"). */
int suggest_say(FILE *out, const char *prog, const char *what, const char *word,
		const char *answer);

/*
 * The capability name word was probably meant to be: suggest_nearest()
 * over suggest_cap_names(), and for a word without the "cap_" prefix
 * ("perfmon", "sys_admin") the same with it. NULL when none is near.
 */
const char *suggest_cap_name(const char *word);

/*
 * For a capability name libcap refused, after libcap's line naming it: the
 * "unknown capability" line, but only when suggest_cap_name() has a near
 * name (else libcap's line said it all). Returns 1 when printed.
 */
int suggest_unknown_cap(FILE *out, const char *prog, const char *word);

/*
 * The first word of capability text (cap_from_text or IAB syntax) that
 * stands where a name may and is not one libcap knows (numbers and "all"
 * are fine); caller frees with free(). NULL when there is none (or no
 * memory): the text is wrong in some other way.
 */
char *suggest_cap_in_text(const char *text);

/* suggest_unknown_cap() for the first unknown name in text, if any. */
int suggest_cap_text(FILE *out, const char *prog, const char *text);

#endif
