/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The one perf policy: what perf needs by kernel version and subcommand,
 * what is enough for system-wide monitoring, and how a perf binary is to
 * be granted it (root:perf_users 0750 through setcap --perf). setcap
 * --perf applies it, perfdoctor judges by it, and the risk suggestions
 * point to it, so the three cannot tell an administrator different things.
 *
 *   Linux 5.9+  cap_perfmon (events, tracing), cap_syslog (kernel symbols);
 *   Linux 5.8   the same plus cap_sys_ptrace, which perf's access checks
 *               still asked for before 5.9 moved them to CAP_PERFMON;
 *   older       cap_sys_admin: there is no CAP_PERFMON to grant.
 * Sampling subcommands map ring buffers that can exceed RLIMIT_MEMLOCK,
 * which the kernel allows above the limit only with cap_ipc_lock.
 */
#ifndef COMMON_PERF_H
#define COMMON_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/capability.h>

/* The group a perf binary is restricted to when the caller names none. */
#define PERF_GROUP "perf_users"

/* The fix, as a string literal around file (a literal or a "%s"). */
#define PERF_SETCAP_FIX(file) "setcap --perf-group=" PERF_GROUP " --perf " file
/* The same with the group a printf argument: group, then file. */
#define PERF_SETCAP_GROUP_FIX "setcap --perf-group=%s --perf %s"

/* Versions for messages; perf_knows_perfmon() decides by the numbers. */
#define PERF_PERFMON_LINUX   "5.8" /* CAP_PERFMON */
#define PERF_NO_PTRACE_LINUX "5.9" /* ptrace checks moved to it */

/* The subcommands the preset knows, for messages. */
#define PERF_SUBCOMMANDS \
	"record top trace sched kmem mem lock c2c kvm stat list report script"

enum perf_subcommand {
	PERF_SUB_UNKNOWN = -1,
	PERF_SUB_COUNTING = 0, /* needs the base set only */
	PERF_SUB_BUFFERED = 1, /* ring buffers: also cap_ipc_lock */
};

/* What the len bytes at word name (one of PERF_SUBCOMMANDS or not). */
enum perf_subcommand perf_subcommand_kind(const char *word, size_t len);

/*
 * Does a kernel that knows max_bits capabilities (cap_max_bits()) have
 * CAP_PERFMON? The one test of it: every program asks here, so none can
 * call a kernel old where another calls it new. Decided by the count the
 * kernel reports, never by its version: distributions backport
 * CAP_PERFMON to kernels numbered before 5.8, and a kernel without it
 * ignores the bit in every set, so only the count says whether a grant
 * of it can work.
 */
int perf_knows_perfmon(int max_bits);

#define PERF_PRESET_MAX 4

/*
 * The least perf needs on the running kernel, into list: returns how many
 * (at most PERF_PRESET_MAX). list[0] is CAP_SYS_ADMIN when the kernel
 * predates CAP_PERFMON (perf_knows_perfmon() says no), which the caller
 * must warn about: it is equivalent to root.
 */
int perf_preset_caps(int buffered, cap_value_t list[PERF_PRESET_MAX]);

/*
 * Any one of these, effective at exec, lets perf monitor the whole
 * system on a kernel with max_bits capabilities (MASK_BIT() of each).
 */
uint64_t perf_enough(int max_bits);

/* Is path (or its last component) named like a perf binary? */
int perf_is_binary(const char *path);

#endif
