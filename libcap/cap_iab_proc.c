/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The calling process's IAB: cap_iab_get_proc and cap_iab_set_proc. */
#include <errno.h>
#include <string.h>

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
static int needs_setpcap(const struct cap_iab_s *iab,
			 const struct _cap_struct *current)
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

/*
 * The steps of cap_iab_set_proc() record their first failure here and go
 * on: a restriction is attempted whatever failed before it, a raise only
 * when nothing did.
 */
struct outcome {
	int rc;
	int err;
};

static void record(struct outcome *out, int rc)
{
	if (rc < 0 && out->rc == 0) {
		out->rc = -1;
		out->err = errno;
	}
}

/* Makes I exactly bits; working follows what the kernel holds. */
static int set_inheritable(struct _cap_struct *working,
			   const uint32_t bits[LCAP_WORDS])
{
	uint32_t before[LCAP_WORDS];
	int w;

	for (w = 0; w < LCAP_WORDS; w++) {
		before[w] = working->flags[CAP_INHERITABLE][w];
		working->flags[CAP_INHERITABLE][w] = bits[w];
	}
	if (lcap_proc_write(working) == 0)
		return 0;
	for (w = 0; w < LCAP_WORDS; w++)
		working->flags[CAP_INHERITABLE][w] = before[w];
	return -1;
}

/* Every requested drop is attempted; the first failure is returned. */
static int drop_bounding(const struct cap_iab_s *iab)
{
	struct outcome out = { 0, 0 };
	cap_value_t cap;

	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (want(iab->nb, cap) && cap_get_bound(cap) == 1)
			record(&out, cap_drop_bound(cap));
	}
	if (out.rc < 0)
		errno = out.err;
	return out.rc;
}

/*
 * Raises the tuple's ambient bits into an empty A. If one is refused, A
 * is emptied again: a caller told "failed" is left with no ambient grant
 * rather than part of one.
 */
static int raise_ambient(const struct cap_iab_s *iab)
{
	cap_value_t cap;
	int saved;

	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (want(iab->a, cap) && cap_set_ambient(cap, CAP_SET) < 0) {
			saved = errno;
			cap_reset_ambient();
			errno = saved;
			return -1;
		}
	}
	return 0;
}

/*
 * Makes I exactly the tuple's I, A exactly its A, and drops its B bits
 * from the bounding set, restrictions first: the
 * order libcap 2.66 used raised ambient bits between bounding drops, so
 * one refused raise left later drops undone, and a login went on with
 * less restriction than configured. Now:
 *
 *   1. I is lowered to I & I_new (the kernel empties A of whatever
 *      leaves I), A is cleared and every B bit is dropped. A failure here
 *      stops no other restriction.
 *   2. Only then, and only if step 1 worked, I is raised to I_new and the
 *      ambient bits are raised.
 *
 * One exception must precede the drops: a bit both blocked and
 * inheritable ("!%cap_x") can only enter I while it is still in the
 * bounding set, so those bits are raised first; if that fails the drops
 * still happen. CAP_SETPCAP joins E only when a step needs it and P holds
 * it; without it those steps fail (EPERM) and the rest still happen. E is
 * the caller's again on every path. Nothing here allocates or locks: a
 * launcher's child runs it between fork() and execve().
 */
int lcap_iab_apply(const struct cap_iab_s *iab)
{
	struct outcome out = { 0, 0 };
	struct _cap_struct current_set, working_set;
	struct _cap_struct *current = &current_set, *working = &working_set;
	uint32_t bits[LCAP_WORDS];
	int w, early = 0;

	if (lcap_proc_read(current) < 0)
		return -1;
	working_set = current_set;
	if ((current->flags[CAP_PERMITTED][LCAP_WORD(CAP_SETPCAP)] &
	     LCAP_MASK(CAP_SETPCAP)) &&
	    needs_setpcap(iab, current))
		working->flags[CAP_EFFECTIVE][LCAP_WORD(CAP_SETPCAP)] |=
			LCAP_MASK(CAP_SETPCAP);

	/* 1. Restrictions. */
	for (w = 0; w < LCAP_WORDS; w++)
		bits[w] = current->flags[CAP_INHERITABLE][w] & iab->i[w];
	record(&out, set_inheritable(working, bits));
	record(&out, cap_reset_ambient());
	for (w = 0; w < LCAP_WORDS; w++) {
		bits[w] = working->flags[CAP_INHERITABLE][w] |
			  (iab->i[w] & iab->nb[w]);
		early |= bits[w] != working->flags[CAP_INHERITABLE][w];
	}
	if (early)
		record(&out, set_inheritable(working, bits));
	record(&out, drop_bounding(iab));

	/* 2. Raises, only on top of every restriction. */
	if (out.rc == 0)
		record(&out, set_inheritable(working, iab->i));
	if (out.rc == 0)
		record(&out, raise_ambient(iab));

	/* Give back exactly the E the caller had, whatever happened above. */
	memcpy(working->flags[CAP_EFFECTIVE], current->flags[CAP_EFFECTIVE],
	       sizeof(working->flags[CAP_EFFECTIVE]));
	record(&out, lcap_proc_write(working));
	if (out.rc < 0)
		errno = out.err;
	return out.rc;
}

/* Applies a copy: the IAB's lock is not held across the system calls. */
int cap_iab_set_proc(cap_iab_t iab)
{
	struct cap_iab_s snap;

	if (lcap_snapshot(iab, LCAP_KIND_IAB, &snap, sizeof(snap)) < 0)
		return -1;
	return lcap_iab_apply(&snap);
}
