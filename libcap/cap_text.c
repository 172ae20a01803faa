/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The textual form of a cap_t: cap_from_text() and the canonical cap_to_text(). */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "lcap.h"

/* Flag letters in the fixed output order e, i, p, as bits of a "combination". */
#define COMBO_E 1
#define COMBO_P 2
#define COMBO_I 4
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
			*list = kernel_mask(); /* "all" replaces what came before it */
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

static void put(struct text_buf *out, const char *s, size_t n)
{
	if (out->len + n < out->cap) {
		memcpy(out->data + out->len, s, n);
		out->len += n;
	} else {
		out->len = out->cap; /* mark overflow; checked by caller */
	}
}

static void put_char(struct text_buf *out, char c)
{
	put(out, &c, 1);
}

static void put_flags(struct text_buf *out, int combo)
{
	if (combo & COMBO_E)
		put_char(out, 'e');
	if (combo & COMBO_I)
		put_char(out, 'i');
	if (combo & COMBO_P)
		put_char(out, 'p');
}

static void put_cap(struct text_buf *out, unsigned cap)
{
	char number[2];

	if (cap < LCAP_NAMED) {
		put(out, lcap_name_of(cap), lcap_name_len(cap));
	} else if (cap < 10) { /* unnamed caps are below LCAP_BITS */
		put_char(out, (char)('0' + cap));
	} else {
		number[0] = (char)('0' + cap / 10 % 10);
		number[1] = (char)('0' + cap % 10);
		put(out, number, 2);
	}
}

/* Comma-joined names of the caps in members, in ascending order. */
static void put_cap_group(struct text_buf *out, uint64_t members)
{
	int first = 1;

	while (members != 0) {
		if (!first)
			put_char(out, ',');
		put_cap(out, (unsigned)__builtin_ctzll(members));
		members &= members - 1;
		first = 0;
	}
}

/* Bits set in v; libgcc's __builtin_popcountll is a call without -mpopcnt. */
static unsigned count_bits(uint64_t v)
{
	v = v - (v >> 1 & UINT64_C(0x5555555555555555));
	v = (v & UINT64_C(0x3333333333333333)) +
	    (v >> 2 & UINT64_C(0x3333333333333333));
	v = (v + (v >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned)((v * UINT64_C(0x0101010101010101)) >> 56);
}

/* The caps whose flags are exactly those of combo, for every combo at once. */
static void split_by_combo(cap_t caps, uint64_t members[COMBOS])
{
	uint64_t e = flag_vector(caps, CAP_EFFECTIVE);
	uint64_t p = flag_vector(caps, CAP_PERMITTED);
	uint64_t i = flag_vector(caps, CAP_INHERITABLE);
	int combo;

	for (combo = 0; combo < COMBOS; combo++)
		members[combo] = (combo & COMBO_E ? e : ~e) &
				 (combo & COMBO_P ? p : ~p) &
				 (combo & COMBO_I ? i : ~i);
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
	uint64_t known = kernel_mask();
	uint64_t members[COMBOS];
	unsigned counts[COMBOS];
	char buffer[LCAP_BITS * 24 + 64];
	struct text_buf out = { buffer, 0, sizeof(buffer) };
	int base = 0, combo;
	struct _cap_struct snap;
	char *result;

	if (lcap_snapshot(caps, LCAP_KIND_SET, &snap, sizeof(snap)) < 0)
		return NULL;
	split_by_combo(&snap, members);
	for (combo = 0; combo < COMBOS; combo++) {
		counts[combo] = count_bits(members[combo] & known);
		if (counts[combo] > counts[base])
			base = combo; /* ties keep the smaller combination */
	}

	put_char(&out, '=');
	put_flags(&out, base);
	for (combo = COMBOS - 1; combo >= 0; combo--) {
		int raise = combo & ~base, lower = base & ~combo;

		if (combo == base || counts[combo] == 0)
			continue;
		if (out.len == 1 && base == 0) {
			out.len = 0; /* "= x+f" becomes "x=f" */
			put_cap_group(&out, members[combo] & known);
			put_char(&out, '=');
		} else {
			put_char(&out, ' ');
			put_cap_group(&out, members[combo] & known);
			if (raise)
				put_char(&out, '+');
		}
		put_flags(&out, raise);
		if (lower) {
			put_char(&out, '-');
			put_flags(&out, lower);
		}
	}
	for (combo = COMBOS - 1; combo > 0; combo--) {
		uint64_t unknown = members[combo] & ~known;

		if (unknown == 0)
			continue;
		put_char(&out, ' ');
		put_cap_group(&out, unknown);
		put_char(&out, '+');
		put_flags(&out, combo);
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
