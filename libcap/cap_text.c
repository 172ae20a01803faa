/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The textual form of a cap_t: cap_from_text() and the canonical cap_to_text(). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lcap.h"

/* Flag letters in the fixed output order e, i, p, as bits of a "combination". */
#define COMBO_E	1
#define COMBO_P	2
#define COMBO_I	4
#define COMBOS	8

static int is_word_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A 64-bit view of one capability list, as the parser accumulates it. */
static uint64_t kernel_mask(void)
{
	int bits = lcap_kernel_bits();

	return bits >= LCAP_BITS ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static uint64_t flag_vector(cap_t caps, int flag)
{
	return caps->flags[flag][0] | (uint64_t)caps->flags[flag][1] << 32;
}

static void set_flag_vector(cap_t caps, int flag, uint64_t bits)
{
	caps->flags[flag][0] = (uint32_t)bits;
	caps->flags[flag][1] = (uint32_t)(bits >> 32);
}

/* Parses "item[,item...]"; returns the end of the list or NULL. */
static const char *parse_cap_list(const char *p, uint64_t *list)
{
	*list = 0;
	for (;;) {
		const char *end;
		int cap;

		if (strncasecmp(p, "all", 3) == 0 && !is_word_char(p[3])) {
			*list = kernel_mask();	/* "all" replaces what came before it */
			end = p + 3;
		} else {
			cap = lcap_scan_value(p, &end);
			if (cap < 0 || is_word_char(*end))
				return NULL;
			*list |= UINT64_C(1) << cap;
		}
		p = end;
		if (*p != ',')
			return p;
		p++;
	}
}

/* Parses a run of flag letters; returns its end and the flags seen. */
static const char *parse_flags(const char *p, int *flags)
{
	*flags = 0;
	for (;; p++) {
		switch (*p) {
		case 'e':
			*flags |= 1 << CAP_EFFECTIVE;
			break;
		case 'p':
			*flags |= 1 << CAP_PERMITTED;
			break;
		case 'i':
			*flags |= 1 << CAP_INHERITABLE;
			break;
		default:
			return p;
		}
	}
}

static void apply(cap_t caps, uint64_t list, int flags, int raise)
{
	int flag;

	for (flag = 0; flag < LCAP_FLAGS; flag++) {
		uint64_t v;

		if (!(flags & (1 << flag)))
			continue;
		v = flag_vector(caps, flag);
		set_flag_vector(caps, flag, raise ? v | list : v & ~list);
	}
}

/*
 * One clause: [caps] action [action...], where the first action may be
 * "=" (clear the caps, then optionally raise flags) and later actions are
 * "+flags" or "-flags". "+" and "-" need an explicit list of caps.
 * Returns the end of the clause or NULL.
 */
static const char *parse_clause(const char *p, cap_t caps)
{
	uint64_t list;
	int explicit_list = 1;
	int first = 1;
	int flags;

	if (*p == '=') {
		list = kernel_mask();
		explicit_list = 0;
	} else if (is_word_char(*p)) {
		p = parse_cap_list(p, &list);
		if (p == NULL)
			return NULL;
	} else {
		return NULL;
	}
	for (;;) {
		char op = *p++;

		if (op == '=' && first) {
			apply(caps, list, 7, 0);
			if (*p == '+' || *p == '-') {
				first = 0;
				continue;
			}
			p = parse_flags(p, &flags);
			apply(caps, list, flags, 1);
		} else if ((op == '+' || op == '-') && explicit_list) {
			p = parse_flags(p, &flags);
			if (flags == 0)
				return NULL;
			apply(caps, list, flags, op == '+');
		} else {
			return NULL;
		}
		first = 0;
		if (*p == '\0' || isspace((unsigned char)*p))
			return p;
	}
}

cap_t cap_from_text(const char *text)
{
	cap_t caps;

	if (text == NULL) {
		errno = EINVAL;
		return NULL;
	}
	caps = cap_init();
	if (caps == NULL)
		return NULL;
	for (;;) {
		while (isspace((unsigned char)*text))
			text++;
		if (*text == '\0')
			return caps;
		text = parse_clause(text, caps);
		if (text == NULL) {
			cap_free(caps);
			errno = EINVAL;
			return NULL;
		}
	}
}

/* Output buffer with a bound; every append is checked. */
struct text_buf {
	char *data;
	size_t len, cap;
};

static void put(struct text_buf *out, const char *s)
{
	size_t n = strlen(s);

	if (out->len + n < out->cap) {
		memcpy(out->data + out->len, s, n);
		out->len += n;
	} else {
		out->len = out->cap;	/* mark overflow; checked by caller */
	}
}

static void put_flags(struct text_buf *out, int combo)
{
	if (combo & COMBO_E)
		put(out, "e");
	if (combo & COMBO_I)
		put(out, "i");
	if (combo & COMBO_P)
		put(out, "p");
}

static void put_cap(struct text_buf *out, unsigned cap)
{
	char number[8];
	const char *name = lcap_name_of(cap);

	if (name == NULL) {
		snprintf(number, sizeof(number), "%u", cap);
		name = number;
	}
	put(out, name);
}

static int combo_of(cap_t caps, unsigned cap)
{
	uint32_t mask = LCAP_MASK(cap);
	unsigned word = LCAP_WORD(cap);
	int combo = 0;

	if (caps->flags[CAP_EFFECTIVE][word] & mask)
		combo |= COMBO_E;
	if (caps->flags[CAP_PERMITTED][word] & mask)
		combo |= COMBO_P;
	if (caps->flags[CAP_INHERITABLE][word] & mask)
		combo |= COMBO_I;
	return combo;
}

/* Comma-joined names of caps in [from, to) having this combination. */
static void put_cap_group(struct text_buf *out, cap_t caps, int combo,
			  unsigned from, unsigned to)
{
	unsigned cap;
	int first = 1;

	for (cap = from; cap < to; cap++) {
		if (combo_of(caps, cap) != combo)
			continue;
		if (!first)
			put(out, ",");
		put_cap(out, cap);
		first = 0;
	}
}

/*
 * The canonical form: "=" and the most common combination among the
 * kernel's capabilities, then one clause per other combination in
 * descending combination value, each relative to that base; then bits the
 * kernel does not know, raised absolutely. With an empty base the first
 * clause absorbs the leading "= " ("cap_chown=ep", not "= cap_chown+ep").
 */
char *cap_to_text(cap_t caps, ssize_t *length)
{
	unsigned kernel_bits = (unsigned)lcap_kernel_bits();
	unsigned counts[COMBOS] = { 0 };
	char buffer[LCAP_BITS * 24 + 64];
	struct text_buf out = { buffer, 0, sizeof(buffer) };
	unsigned cap;
	int base = 0, combo;
	char *result;

	if (!lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return NULL;
	}
	if (kernel_bits > LCAP_BITS)
		kernel_bits = LCAP_BITS;
	for (cap = 0; cap < kernel_bits; cap++)
		counts[combo_of(caps, cap)]++;
	for (combo = 1; combo < COMBOS; combo++)
		if (counts[combo] > counts[base])
			base = combo;

	put(&out, "=");
	put_flags(&out, base);
	for (combo = COMBOS - 1; combo >= 0; combo--) {
		int raise = combo & ~base, lower = base & ~combo;

		if (combo == base || counts[combo] == 0)
			continue;
		if (out.len == 1 && base == 0) {
			out.len = 0;	/* "= x+f" becomes "x=f" */
			put_cap_group(&out, caps, combo, 0, kernel_bits);
			put(&out, "=");
		} else {
			put(&out, " ");
			put_cap_group(&out, caps, combo, 0, kernel_bits);
			if (raise)
				put(&out, "+");
		}
		put_flags(&out, raise);
		if (lower) {
			put(&out, "-");
			put_flags(&out, lower);
		}
	}
	if (kernel_bits < LCAP_BITS) {
		for (combo = COMBOS - 1; combo > 0; combo--) {
			int present = 0;

			for (cap = kernel_bits; cap < LCAP_BITS; cap++)
				present |= combo_of(caps, cap) == combo;
			if (!present)
				continue;
			put(&out, " ");
			put_cap_group(&out, caps, combo, kernel_bits,
				      LCAP_BITS);
			put(&out, "+");
			put_flags(&out, combo);
		}
	}
	if (out.len >= out.cap) {
		errno = ERANGE;
		return NULL;
	}
	result = lcap_strndup(buffer, out.len);
	if (result != NULL && length != NULL)
		*length = (ssize_t)out.len;
	return result;
}
