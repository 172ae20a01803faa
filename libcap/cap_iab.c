/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* IAB tuples as values: init, dup, get/set a bit, fill a vector, compare. */
#include <errno.h>

#include "lcap.h"

/* Returns an empty IAB (nothing inherited, nothing blocked); cap_free() it. */
cap_iab_t cap_iab_init(void)
{
	return lcap_alloc(LCAP_KIND_IAB, sizeof(struct cap_iab_s));
}

/* The copy is not held by any launcher, even when the original is. */
cap_iab_t cap_iab_dup(cap_iab_t iab)
{
	struct cap_iab_s snap;
	cap_iab_t copy;

	if (lcap_snapshot(iab, LCAP_KIND_IAB, &snap, sizeof(snap)) < 0)
		return NULL;
	copy = cap_iab_init();
	if (copy != NULL) {
		*copy = snap;
		copy->held = 0;
	}
	return copy;
}

int lcap_iab_hold(cap_iab_t iab, int held)
{
	int rc = 0;

	lcap_lock(iab);
	if (held && iab->held) {
		errno = EINVAL; /* another launcher has it */
		rc = -1;
	} else {
		iab->held = held != 0;
	}
	lcap_unlock(iab);
	return rc;
}

/*
 * A launcher keeps a pointer to its IAB (libcap's API), so changing it
 * behind the launcher's back is refused. libcap blocks forever on its
 * mutex here; EBUSY at least tells the caller what is wrong. Called with
 * the IAB's lock held (the launcher sets held under it too).
 */
static int check_writable(cap_iab_t iab)
{
	if (iab->held) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}

/* Returns CAP_SET or CAP_CLEAR; CAP_CLEAR for anything invalid, as libcap. */
/* The words of one vector, or NULL for a value that names none. */
static uint32_t *vector_of(cap_iab_t iab, cap_iab_vector_t vec)
{
	switch (vec) {
	case CAP_IAB_INH:
		return iab->i;
	case CAP_IAB_AMB:
		return iab->a;
	case CAP_IAB_BOUND:
		return iab->nb;
	default:
		return NULL;
	}
}

cap_flag_value_t cap_iab_get_vector(cap_iab_t iab, cap_iab_vector_t vec,
				    cap_value_t cap)
{
	const uint32_t *bits;
	cap_flag_value_t value = CAP_CLEAR;

	if (!lcap_is(iab, LCAP_KIND_IAB) || cap < 0 ||
	    cap >= lcap_kernel_bits())
		return CAP_CLEAR;
	lcap_lock(iab);
	bits = vector_of(iab, vec);
	if (bits != NULL && (bits[LCAP_WORD(cap)] & LCAP_MASK(cap)))
		value = CAP_SET;
	lcap_unlock(iab);
	return value;
}

/*
 * The kernel only keeps an ambient bit that is also inheritable, so the
 * tuple keeps A within I: raising A raises I, lowering I lowers A.
 */
static void keep_a_within_i(cap_iab_t iab, cap_iab_vector_t changed)
{
	int w;

	for (w = 0; w < LCAP_WORDS; w++) {
		if (changed == CAP_IAB_AMB)
			iab->i[w] |= iab->a[w];
		else if (changed == CAP_IAB_INH)
			iab->a[w] &= iab->i[w];
	}
}

/* Returns 0, or -1 with EINVAL (bad argument) or EBUSY (held by a launcher). */
int cap_iab_set_vector(cap_iab_t iab, cap_iab_vector_t vec, cap_value_t cap,
		       cap_flag_value_t value)
{
	uint32_t *bits;
	unsigned w;

	if (!lcap_is(iab, LCAP_KIND_IAB) || cap < 0 ||
	    cap >= lcap_kernel_bits() ||
	    (value != CAP_SET && value != CAP_CLEAR) ||
	    vector_of(iab, vec) == NULL) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(iab);
	if (check_writable(iab) < 0) {
		lcap_unlock(iab);
		return -1;
	}
	bits = vector_of(iab, vec);
	w = LCAP_WORD(cap);
	if (value == CAP_SET)
		bits[w] |= LCAP_MASK(cap);
	else
		bits[w] &= ~LCAP_MASK(cap);
	keep_a_within_i(iab, vec);
	lcap_unlock(iab);
	return 0;
}

/*
 * Copies one whole flag of a cap_t into a vector. The bounding vector
 * holds bits to drop, so it receives the complement: what the flag lacks
 * gets blocked.
 */
int cap_iab_fill(cap_iab_t iab, cap_iab_vector_t vec, cap_t caps,
		 cap_flag_t flag)
{
	struct _cap_struct snap;
	uint32_t *bits;
	int w;

	/* caps is read from a copy: never two locks at once. */
	if (!lcap_is(iab, LCAP_KIND_IAB) || vector_of(iab, vec) == NULL ||
	    (flag != CAP_EFFECTIVE && flag != CAP_PERMITTED &&
	     flag != CAP_INHERITABLE) ||
	    lcap_snapshot(caps, LCAP_KIND_SET, &snap, sizeof(snap)) < 0) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(iab);
	if (check_writable(iab) < 0) {
		lcap_unlock(iab);
		return -1;
	}
	bits = vector_of(iab, vec);
	for (w = 0; w < LCAP_WORDS; w++)
		bits[w] = vec == CAP_IAB_BOUND ? ~snap.flags[flag][w]
					       : snap.flags[flag][w];
	keep_a_within_i(iab, vec);
	lcap_unlock(iab);
	return 0;
}

/* Returns a mask read with CAP_IAB_DIFFERS(), or -1 with EINVAL. */
int cap_iab_compare(cap_iab_t a, cap_iab_t b)
{
	struct cap_iab_s sa, sb;
	int w, differs = 0;

	if (lcap_snapshot(a, LCAP_KIND_IAB, &sa, sizeof(sa)) < 0 ||
	    lcap_snapshot(b, LCAP_KIND_IAB, &sb, sizeof(sb)) < 0)
		return -1;
	for (w = 0; w < LCAP_WORDS; w++) {
		if (sa.i[w] != sb.i[w])
			differs |= 1 << CAP_IAB_INH;
		if (sa.a[w] != sb.a[w])
			differs |= 1 << CAP_IAB_AMB;
		if (sa.nb[w] != sb.nb[w])
			differs |= 1 << CAP_IAB_BOUND;
	}
	return differs;
}
