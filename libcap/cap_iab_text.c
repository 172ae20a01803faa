/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The textual form of an IAB tuple: cap_iab_from_text and cap_iab_to_text. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lcap.h"

#define WANT_I	1
#define WANT_A	2
#define WANT_NB 4

static void put_bit(uint32_t *bits, int cap)
{
	bits[LCAP_WORD(cap)] |= LCAP_MASK(cap);
}

/*
 * Grammar (pam_cap's config syntax): comma-separated entries, each zero or
 * more prefixes then a name or number. '%' = I, '^' = A (and so I),
 * '!' = drop from bounding; no prefix means I. Like libcap, prefixes with
 * nothing after them are accepted and ignored, and so is one trailing
 * comma; anything else (spaces, empty entries, '=') is EINVAL.
 * NULL gives an empty tuple. Caller frees the result with cap_free().
 */
cap_iab_t cap_iab_from_text(const char *text)
{
	cap_iab_t iab = cap_iab_init();
	const char *p = text;
	int want = 0;

	if (iab == NULL || text == NULL)
		return iab;
	while (*p != '\0') {
		const char *end;
		int cap;

		switch (*p) {
		case '%':
			want |= WANT_I;
			p++;
			continue;
		case '^':
			want |= WANT_I | WANT_A;
			p++;
			continue;
		case '!':
			want |= WANT_NB;
			p++;
			continue;
		}
		if (want == 0)
			want = WANT_I;
		cap = lcap_scan_value(p, &end);
		if (cap < 0 || (*end != ',' && *end != '\0'))
			goto bad;
		if (want & WANT_I)
			put_bit(iab->i, cap);
		if (want & WANT_A)
			put_bit(iab->a, cap);
		if (want & WANT_NB)
			put_bit(iab->nb, cap);
		want = 0;
		p = *end == ',' ? end + 1 : end;
	}
	return iab;
bad:
	cap_free(iab);
	errno = EINVAL;
	return NULL;
}

/*
 * Canonical form: capabilities the kernel knows, in ascending order, each
 * as '!' if blocked, then '^' if ambient or '%' if inheritable and
 * blocked (plain inheritable needs no prefix), then the name, or the
 * number when this library has no name. Caller frees with cap_free().
 */
char *cap_iab_to_text(cap_iab_t shared)
{
	struct cap_iab_s snap;
	const struct cap_iab_s *iab = &snap;
	/* Each entry is at most "!^", a name and ",": 64 of them fit. */
	char buf[LCAP_BITS * (LCAP_NAME_MAX + 3)];
	size_t len = 0;
	int cap, bits = lcap_kernel_bits();

	if (lcap_snapshot(shared, LCAP_KIND_IAB, &snap, sizeof(snap)) < 0)
		return NULL;
	for (cap = 0; cap < bits && cap < LCAP_BITS; cap++) {
		unsigned w = LCAP_WORD(cap);
		uint32_t m = LCAP_MASK(cap);
		int i = (iab->i[w] & m) != 0, a = (iab->a[w] & m) != 0;
		int nb = (iab->nb[w] & m) != 0;
		const char *name = lcap_name_of((unsigned)cap);
		char number[12];

		if (!i && !a && !nb)
			continue;
		if (name == NULL) {
			snprintf(number, sizeof(number), "%d", cap);
			name = number;
		}
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"%s%s%s%s", len > 0 ? "," : "",
					nb ? "!" : "",
					a	    ? "^"
					: (nb && i) ? "%"
						    : "",
					name);
	}
	buf[len] = '\0';
	return lcap_strndup(buf, len);
}
