/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Reading, writing, clearing, filling and comparing the flag vectors of a cap_t. */
#include <errno.h>
#include <string.h>

#include "lcap.h"

static int valid_flag(cap_flag_t flag)
{
	return flag == CAP_EFFECTIVE || flag == CAP_PERMITTED ||
	       flag == CAP_INHERITABLE;
}

int cap_get_flag(cap_t caps, cap_value_t cap, cap_flag_t flag,
		 cap_flag_value_t *value)
{
	/* Bits 41..63 are valid too: perf and others probe them by number. */
	if (!lcap_is(caps, LCAP_KIND_SET) || cap < 0 || cap >= LCAP_BITS ||
	    !valid_flag(flag) || value == NULL) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(caps);
	*value = (caps->flags[flag][LCAP_WORD(cap)] & LCAP_MASK(cap))
			 ? CAP_SET
			 : CAP_CLEAR;
	lcap_unlock(caps);
	return 0;
}

int cap_set_flag(cap_t caps, cap_flag_t flag, int count,
		 const cap_value_t *list, cap_flag_value_t value)
{
	int n;

	/* libcap accepts 0 < count < 64; so do we, for identical errno. */
	if (!lcap_is(caps, LCAP_KIND_SET) || !valid_flag(flag) || count <= 0 ||
	    count >= LCAP_BITS || list == NULL ||
	    (value != CAP_SET && value != CAP_CLEAR)) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(caps);
	for (n = 0; n < count; n++) {
		cap_value_t cap = list[n];

		/* Out-of-range entries are skipped, as libcap does. */
		if (cap < 0 || cap >= LCAP_BITS)
			continue;
		if (value == CAP_SET)
			caps->flags[flag][LCAP_WORD(cap)] |= LCAP_MASK(cap);
		else
			caps->flags[flag][LCAP_WORD(cap)] &= ~LCAP_MASK(cap);
	}
	lcap_unlock(caps);
	return 0;
}

int cap_clear(cap_t caps)
{
	if (!lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(caps);
	memset(caps->flags, 0, sizeof(caps->flags));
	lcap_unlock(caps);
	return 0;
}

int cap_clear_flag(cap_t caps, cap_flag_t flag)
{
	if (!lcap_is(caps, LCAP_KIND_SET) || !valid_flag(flag)) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(caps);
	memset(caps->flags[flag], 0, sizeof(caps->flags[flag]));
	lcap_unlock(caps);
	return 0;
}

/* ref is read from a copy, so the two locks are never held together. */
int cap_fill_flag(cap_t to_set, cap_flag_t to, cap_t ref, cap_flag_t from)
{
	struct _cap_struct snap;

	if (!lcap_is(to_set, LCAP_KIND_SET) || !valid_flag(to) ||
	    !valid_flag(from) ||
	    lcap_snapshot(ref, LCAP_KIND_SET, &snap, sizeof(snap)) < 0) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(to_set);
	memcpy(to_set->flags[to], snap.flags[from], sizeof(to_set->flags[to]));
	lcap_unlock(to_set);
	return 0;
}

int cap_fill(cap_t caps, cap_flag_t to, cap_flag_t from)
{
	return cap_fill_flag(caps, to, caps, from);
}

int cap_compare(cap_t a, cap_t b)
{
	struct _cap_struct sa, sb;
	int result = 0;
	int flag;

	if (lcap_snapshot(a, LCAP_KIND_SET, &sa, sizeof(sa)) < 0 ||
	    lcap_snapshot(b, LCAP_KIND_SET, &sb, sizeof(sb)) < 0)
		return -1;
	for (flag = 0; flag < LCAP_FLAGS; flag++)
		if (memcmp(sa.flags[flag], sb.flags[flag],
			   sizeof(sa.flags[flag])) != 0)
			result |= 1 << flag;
	return result;
}
