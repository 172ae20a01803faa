/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: no root-equivalent trial grant on an interpreter. */
#ifndef CAPAUDIT_INTERP_H
#define CAPAUDIT_INTERP_H

#include <stddef.h>
#include <stdint.h>

struct suggestion;

/*
 * Whether a run as a user other than root may give grant[i] to each
 * file of sg as its file capabilities: 1, or 0 with why ("not tried:
 * ... is an interpreter: ...") when an interpreter would hold a
 * root-equivalent capability.
 */
int interp_grant_allowed(const struct suggestion *sg, const uint64_t *grant,
			 char *why, size_t len);
/*
 * Whether a run as a user other than root may give every program the
 * runs executed (sg->programs) ambient as ambient capabilities: 1, or 0
 * with why when one of them is an interpreter and ambient holds a
 * root-equivalent capability.
 */
int interp_ambient_allowed(const struct suggestion *sg, uint64_t ambient,
			   char *why, size_t len);

#endif
