/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* setcap --perf: the minimal capabilities perf needs on the running kernel. */
#ifndef SETCAP_PERF_H
#define SETCAP_PERF_H

#include <sys/capability.h>

/*
 * The preset for the running kernel and, optionally, a comma-separated
 * list of perf subcommands ("record,top"); NULL after a message naming the
 * unknown subcommand. The caller frees the set with cap_free().
 */
cap_t perf_preset(const char *subcommands);

/*
 * The kernel's perf-security procedure: give file to group and make it
 * mode 0750, so only members may run it. Acts on one descriptor opened
 * without following symlinks; must precede the capability write, since
 * the kernel clears file capabilities on chown. 0, or -1 after a message.
 */
int perf_restrict_to_group(const char *file, const char *group);

#endif
