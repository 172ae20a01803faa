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
	cap_iab_t copy;

	if (!lcap_is(iab, LCAP_KIND_IAB)) {
		errno = EINVAL;
		return NULL;
	}
	copy = cap_iab_init();
	if (copy != NULL) {
		*copy = *iab;
		copy->held = 0;
	}
	return copy;
}

void lcap_iab_hold(cap_iab_t iab, int held)
{
	iab->held = held != 0;
}

int lcap_iab_held(const void *obj)
{
	return lcap_is(obj, LCAP_KIND_IAB) &&
	       ((const struct cap_iab_s *)obj)->held != 0;
}

/*
 * A launcher keeps a pointer to its IAB (libcap's API), so changing it
 * behind the launcher's back is refused. libcap blocks forever on its
 * mutex here; EBUSY at least tells the caller what is wrong.
 */
static int check_writable(cap_iab_t iab)
{
	if (!lcap_is(iab, LCAP_KIND_IAB)) {
		errno = EINVAL;
		return -1;
	}
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

	if (!lcap_is(iab, LCAP_KIND_IAB) || cap < 0 ||
	    cap >= lcap_kernel_bits())
		return CAP_CLEAR;
	bits = vector_of(iab, vec);
	if (bits == NULL)
		return CAP_CLEAR;
	return (bits[LCAP_WORD(cap)] & LCAP_MASK(cap)) ? CAP_SET : CAP_CLEAR;
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

	if (check_writable(iab) < 0)
		return -1;
	if (cap < 0 || cap >= lcap_kernel_bits() ||
	    (value != CAP_SET && value != CAP_CLEAR)) {
		errno = EINVAL;
		return -1;
	}
	bits = vector_of(iab, vec);
	if (bits == NULL) {
		errno = EINVAL;
		return -1;
	}
	w = LCAP_WORD(cap);
	if (value == CAP_SET)
		bits[w] |= LCAP_MASK(cap);
	else
		bits[w] &= ~LCAP_MASK(cap);
	keep_a_within_i(iab, vec);
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
	uint32_t *bits;
	int w;

	if (check_writable(iab) < 0)
		return -1;
	if (!lcap_is(caps, LCAP_KIND_SET) ||
	    (flag != CAP_EFFECTIVE && flag != CAP_PERMITTED &&
	     flag != CAP_INHERITABLE)) {
		errno = EINVAL;
		return -1;
	}
	bits = vector_of(iab, vec);
	if (bits == NULL) {
		errno = EINVAL;
		return -1;
	}
	for (w = 0; w < LCAP_WORDS; w++)
		bits[w] = vec == CAP_IAB_BOUND ? ~caps->flags[flag][w]
					       : caps->flags[flag][w];
	keep_a_within_i(iab, vec);
	return 0;
}

/* Returns a mask read with CAP_IAB_DIFFERS(), or -1 with EINVAL. */
int cap_iab_compare(cap_iab_t a, cap_iab_t b)
{
	int w, differs = 0;

	if (!lcap_is(a, LCAP_KIND_IAB) || !lcap_is(b, LCAP_KIND_IAB)) {
		errno = EINVAL;
		return -1;
	}
	for (w = 0; w < LCAP_WORDS; w++) {
		if (a->i[w] != b->i[w])
			differs |= 1 << CAP_IAB_INH;
		if (a->a[w] != b->a[w])
			differs |= 1 << CAP_IAB_AMB;
		if (a->nb[w] != b->nb[w])
			differs |= 1 << CAP_IAB_BOUND;
	}
	return differs;
}
