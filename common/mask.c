/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Capability masks: reading sets into 64-bit masks, walking and naming them. */
#include <stdio.h>

#include "mask.h"

cap_value_t mask_next(uint64_t mask, cap_value_t from)
{
	if (from < 0)
		from = 0;
	if (from >= MASK_BITS)
		return -1;
	mask >>= from;
	if (mask == 0)
		return -1;
	return from + (cap_value_t)__builtin_ctzll(mask);
}

uint64_t mask_below(cap_value_t bits)
{
	if (bits <= 0)
		return 0;
	return bits >= MASK_BITS ? UINT64_MAX : MASK_BIT(bits) - 1;
}

uint64_t mask_of_flag(cap_t caps, cap_flag_t flag)
{
	uint64_t mask = 0;
	cap_value_t cap;

	for (cap = 0; caps != NULL && cap < MASK_BITS; cap++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(caps, cap, flag, &v) == 0 && v == CAP_SET)
			mask |= MASK_BIT(cap);
	}
	return mask;
}

uint64_t mask_of_flags(cap_t caps, unsigned flags)
{
	uint64_t mask = 0;
	int flag;

	for (flag = CAP_EFFECTIVE; flag <= CAP_INHERITABLE; flag++)
		if (flags & (1u << flag))
			mask |= mask_of_flag(caps, (cap_flag_t)flag);
	return mask;
}

uint64_t mask_of_iab(cap_iab_t iab, cap_iab_vector_t vec)
{
	cap_value_t cap, bits = cap_max_bits();
	uint64_t mask = 0;

	for (cap = 0; iab != NULL && cap < bits && cap < MASK_BITS; cap++)
		if (cap_iab_get_vector(iab, vec, cap) == CAP_SET)
			mask |= MASK_BIT(cap);
	return mask;
}

uint64_t mask_of_vector(int (*get)(cap_value_t), cap_value_t *bits)
{
	uint64_t mask = 0;
	cap_value_t cap;

	for (cap = 0; cap < MASK_BITS; cap++) {
		int r = get(cap);

		if (r < 0)
			break;
		if (r > 0)
			mask |= MASK_BIT(cap);
	}
	if (bits != NULL)
		*bits = cap;
	return mask;
}

int mask_names(char *buf, size_t len, uint64_t mask, int most)
{
	size_t used = 0;
	cap_value_t cap;
	int count = 0;

	if (len == 0)
		return __builtin_popcountll(mask);
	buf[0] = '\0';
	for (MASK_EACH(cap, mask)) {
		char *name;
		int n;

		if (most > 0 && count >= most) {
			count++;
			continue;
		}
		count++;
		if (used >= len)
			continue;
		name = cap_to_name(cap);
		n = snprintf(buf + used, len - used, "%s%s",
			     count > 1 ? "," : "", name != NULL ? name : "?");
		cap_free(name);
		if (n > 0)
			used += (size_t)n;
	}
	if (most > 0 && count > most && used < len)
		snprintf(buf + used, len - used, " and %d more", count - most);
	return count;
}
