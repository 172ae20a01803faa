/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Capability sets as 64-bit masks, bit n for capability n: the programs
 * read a flag, an IAB vector or a process vector into one, then do set
 * arithmetic on it, so no program walks 0..63 by hand.
 */
#ifndef COMMON_MASK_H
#define COMMON_MASK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/capability.h>

/* Bits in a mask: every value the library accepts (libcap's 64). */
#define MASK_BITS 64

#define MASK_BIT(cap) (UINT64_C(1) << (cap))

/* The set bits of mask, lowest first: for (MASK_EACH(cap, mask)) ... */
#define MASK_EACH(cap, mask)        \
	cap = mask_next((mask), 0); \
	cap >= 0;                   \
	cap = mask_next((mask), cap + 1)

/* The lowest capability at or above from set in mask, or -1 when none is. */
cap_value_t mask_next(uint64_t mask, cap_value_t from);

/* Capabilities below bits (0 <= bits <= MASK_BITS): the kernel's range. */
uint64_t mask_below(cap_value_t bits);

/* One flag of caps; 0 for a NULL or invalid caps. */
uint64_t mask_of_flag(cap_t caps, cap_flag_t flag);

/* The union of the flags of caps in flags, a mask of 1 << cap_flag_t. */
uint64_t mask_of_flags(cap_t caps, unsigned flags);

/*
 * One vector of iab, as cap_iab_get_vector() says it, for the kernel's
 * capabilities (below cap_max_bits()); 0 for a NULL iab.
 */
uint64_t mask_of_iab(cap_iab_t iab, cap_iab_vector_t vec);

/*
 * A process vector read bit by bit with get() (cap_get_bound or
 * cap_get_ambient): 1 is set, 0 clear, negative past the kernel's last
 * capability, which ends the reading. *bits, if not NULL, gets how many
 * bits get() answered: 0 means the vector is not supported at all.
 */
uint64_t mask_of_vector(int (*get)(cap_value_t), cap_value_t *bits);

/*
 * Writes into buf (size len, never overrun, always terminated) the names
 * of mask's capabilities, comma-separated, cap_to_name()'s ("?" when it
 * fails); at most most names (0: no limit), then " and N more". Returns
 * how many capabilities mask holds.
 */
int mask_names(char *buf, size_t len, uint64_t mask, int most);

#endif
