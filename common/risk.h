/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Risk labels: every capability in one of four tiers with a one-line reason,
 * shared by getcap's audit view, capsh --explain, perfdoctor and the
 * pam_cap checker so they never disagree.
 */
#ifndef COMMON_RISK_H
#define COMMON_RISK_H

#include <sys/capability.h>

enum cap_risk_tier {
	CAP_RISK_LOW = 0,
	CAP_RISK_ESCALATION = 1,	/* escalation-adjacent */
	CAP_RISK_KERNEL_READ = 2,	/* reads kernel memory or all processes */
	CAP_RISK_ROOT = 3,		/* equivalent to full root */
};

/* The tier of one capability; values without a label are CAP_RISK_LOW. */
enum cap_risk_tier cap_risk_tier_of(cap_value_t cap);

/* One line saying why; NULL for values this table does not describe. */
const char *cap_risk_reason(cap_value_t cap);

/* "root-equivalent", "kernel-read", "escalation-adjacent" or "low". */
const char *cap_risk_tier_name(enum cap_risk_tier tier);

/*
 * The highest tier among the capabilities set in any flag of caps (or in
 * the flags given as a mask of 1 << cap_flag_t); *worst, if not NULL, gets
 * the lowest-numbered capability in that tier, or -1 when caps is empty.
 */
enum cap_risk_tier cap_risk_highest(cap_t caps, unsigned flag_mask,
				    cap_value_t *worst);

/*
 * A suggestion for a file carrying caps, or NULL: for instance a perf
 * binary holding cap_sys_admin should hold cap_perfmon instead.
 */
const char *cap_risk_suggestion(cap_t caps, const char *path);

#endif
