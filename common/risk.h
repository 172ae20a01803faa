/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Risk labels: every capability in one of four tiers with a one-line reason,
 * shared by getcap's audit view, capsh --explain, perfdoctor and the
 * pam_cap checker so they never disagree.
 */
#ifndef COMMON_RISK_H
#define COMMON_RISK_H

#include <stdint.h>
#include <sys/capability.h>

enum risk_tier {
	RISK_LOW = 0,
	RISK_ESCALATION = 1,  /* escalation-adjacent */
	RISK_KERNEL_READ = 2, /* reads kernel memory or all processes */
	RISK_ROOT = 3,	      /* equivalent to full root */
};

/* The tier of one capability; values without a label are RISK_LOW. */
enum risk_tier risk_tier_of(cap_value_t cap);

/* One line saying why; NULL for values this table does not describe. */
const char *risk_reason(cap_value_t cap);

/* The capabilities of mask (bit c for capability c) in RISK_ROOT. */
uint64_t risk_root_mask(uint64_t mask);

/* "root-equivalent", "kernel-read", "escalation-adjacent" or "low". */
const char *risk_tier_name(enum risk_tier tier);

/*
 * The highest tier among the capabilities set in any flag of caps (or in
 * the flags given as a mask of 1 << cap_flag_t); *worst, if not NULL, gets
 * the lowest-numbered capability in that tier, or -1 when caps is empty.
 */
enum risk_tier risk_highest(cap_t caps, unsigned flag_mask, cap_value_t *worst);

/*
 * A suggestion for a file carrying caps, or NULL: for instance a perf
 * binary holding cap_sys_admin should hold cap_perfmon instead. A command
 * in it names the file "<file>", a placeholder for the reader to fill in:
 * print risk_suggestion_dup() where the line is meant to be pasted.
 */
const char *risk_suggestion(cap_t caps, const char *path);

/*
 * The same suggestion with the file itself in its command, as one shell
 * word (shquote_path_dup()), so that the line can be pasted as it is. For
 * a path a terminal would not show as it is (shquote refuses it), the text
 * names the command to run but gives none, and says why. Caller frees
 * with free(). NULL with errno 0 when no suggestion applies, ENOMEM when
 * out of memory.
 */
char *risk_suggestion_dup(cap_t caps, const char *path);

#endif
