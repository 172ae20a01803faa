/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The calling process's IAB: cap_iab_get_proc and cap_iab_set_proc. */
#include <errno.h>

#include "lcap.h"

/* Returns a new IAB (caller frees with cap_free), or NULL with errno. */
cap_iab_t cap_iab_get_proc(void)
{
	cap_iab_t iab = cap_iab_init();
	cap_t current = cap_get_proc();
	cap_value_t cap;

	if (iab == NULL || current == NULL) {
		int saved = errno;

		cap_free(iab);
		cap_free(current);
		errno = saved;
		return NULL;
	}
	cap_iab_fill(iab, CAP_IAB_INH, current, CAP_INHERITABLE);
	cap_free(current);
	/* Only capabilities the kernel knows: above them nothing is dropped. */
	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (cap_get_bound(cap) == 0)
			iab->nb[LCAP_WORD(cap)] |= LCAP_MASK(cap);
		if (cap_get_ambient(cap) == 1)
			iab->a[LCAP_WORD(cap)] |= LCAP_MASK(cap);
	}
	return iab;
}

static int want(const uint32_t *bits, cap_value_t cap)
{
	return (bits[LCAP_WORD(cap)] & LCAP_MASK(cap)) != 0;
}

/*
 * CAP_SETPCAP is needed only to raise I beyond I|P or to drop a bounding
 * bit still present (libcap 2.76; 2.66 raised it whenever A or B was
 * non-empty, which failed needlessly without it). Ambient raises need
 * only the bits in P and I.
 */
static int needs_setpcap(cap_iab_t iab, cap_t current)
{
	cap_value_t cap;
	int w;

	for (w = 0; w < LCAP_WORDS; w++) {
		if (iab->i[w] & ~(current->flags[CAP_INHERITABLE][w] |
				  current->flags[CAP_PERMITTED][w]))
			return 1;
	}
	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (want(iab->nb, cap) && cap_get_bound(cap) == 1)
			return 1;
	}
	return 0;
}

/* Ambient: start from empty, then raise what the tuple asks for. */
static int apply_ambient(cap_iab_t iab)
{
	cap_value_t cap;

	if (cap_reset_ambient() < 0)
		return -1;
	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (want(iab->a, cap) && cap_set_ambient(cap, CAP_SET) < 0)
			return -1;
	}
	return 0;
}

static int apply_bounding(cap_iab_t iab)
{
	cap_value_t cap;

	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (want(iab->nb, cap) && cap_get_bound(cap) == 1 &&
		    cap_drop_bound(cap) < 0)
			return -1;
	}
	return 0;
}

/*
 * Makes I exactly the tuple's I, A exactly its A, and drops its B bits
 * from the bounding set. Order matters: I first, since the kernel refuses
 * an ambient bit outside I. On failure the state may be partly applied
 * (bounding drops cannot be undone), but E is always restored.
 */
int cap_iab_set_proc(cap_iab_t iab)
{
	cap_t current, working;
	cap_value_t setpcap = CAP_SETPCAP;
	int rc = -1, saved, w;

	if (!lcap_is(iab, LCAP_KIND_IAB)) {
		errno = EINVAL;
		return -1;
	}
	current = cap_get_proc();
	if (current == NULL)
		return -1;
	working = cap_dup(current);
	if (working == NULL)
		goto out;
	for (w = 0; w < LCAP_WORDS; w++)
		working->flags[CAP_INHERITABLE][w] = iab->i[w];
	if (needs_setpcap(iab, current) &&
	    cap_set_flag(working, CAP_EFFECTIVE, 1, &setpcap, CAP_SET) < 0)
		goto out;
	rc = cap_set_proc(working);
	if (rc == 0)
		rc = apply_ambient(iab);
	if (rc == 0)
		rc = apply_bounding(iab);
	/* Give back exactly the E the caller had, whatever happened above. */
	saved = errno;
	cap_fill_flag(working, CAP_EFFECTIVE, current, CAP_EFFECTIVE);
	if (cap_set_proc(working) < 0 && rc == 0) {
		saved = errno;
		rc = -1;
	}
	errno = saved;
out:
	saved = errno;
	cap_free(working);
	cap_free(current);
	errno = saved;
	return rc;
}
