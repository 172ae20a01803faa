/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capsh --explain's own description of each capability, indexed by number:
 * what it allows, the Linux version that introduced it, and where it is
 * effectively equivalent to root or pairs with another capability. The
 * texts live in private/caps.def with every other fact about a capability.
 * capsh prints each line indented by four spaces.
 */
#include "capsh.h"

const char *const capsh_cap_text[] = {
#define CAP_FACT(number, NAME, name, since, risk, reason, what, rest) \
	[number] = what "In Linux since " since rest,
#include "caps.def"
#undef CAP_FACT
};

const int capsh_cap_text_count =
	(int)(sizeof(capsh_cap_text) / sizeof(capsh_cap_text[0]));
