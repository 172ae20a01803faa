/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh --explain's own description of each capability, indexed by number. */
#include "capsh.h"

const char *const capsh_cap_text[] = {
	"TODO",
};

const int capsh_cap_text_count =
	(int)(sizeof(capsh_cap_text) / sizeof(capsh_cap_text[0]));
