/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The risk tier of every capability, with a one-line reason for each. */
#include <string.h>

#include "mask.h"
#include "perf.h"
#include "risk.h"

#define ALL_FLAGS ((1u << CAP_EFFECTIVE) | (1u << CAP_PERMITTED) | \
		   (1u << CAP_INHERITABLE))

/*
 * Root-equivalent means a known, short path from the capability alone to
 * full control of the machine; the reasons name that path so an auditor can
 * judge it. Facts from capabilities(7) and the kernel sources.
 */
static const struct {
	enum risk_tier tier;
	const char *reason;
} labels[] = {
#define CAP_FACT(number, NAME, name, since, risk, reason, ...) \
	[number] = { RISK_##risk, reason },
#include "../libcap/caps.def"
#undef CAP_FACT
};

/* Dense: each capability of the table has its own label, none defaults to low. */
#define CAP_FACT(number, ...) + 1
_Static_assert(sizeof(labels) / sizeof(labels[0]) == 0
#include "../libcap/caps.def"
	       , "a risk label for every capability in caps.def");
#undef CAP_FACT

#define LABELS ((cap_value_t)(sizeof(labels) / sizeof(labels[0])))

enum risk_tier risk_tier_of(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].tier : RISK_LOW;
}

const char *risk_reason(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].reason : NULL;
}

const char *risk_tier_name(enum risk_tier tier)
{
	switch (tier) {
	case RISK_ROOT:
		return "root-equivalent";
	case RISK_KERNEL_READ:
		return "kernel-read";
	case RISK_ESCALATION:
		return "escalation-adjacent";
	default:
		return "low";
	}
}

static int has_cap(cap_t caps, cap_value_t cap, unsigned flag_mask)
{
	return (mask_of_flags(caps, flag_mask) & MASK_BIT(cap)) != 0;
}

enum risk_tier risk_highest(cap_t caps, unsigned flag_mask,
				    cap_value_t *worst)
{
	enum risk_tier highest = RISK_LOW;
	uint64_t held = mask_of_flags(caps, flag_mask);
	cap_value_t which = -1, cap;

	for (MASK_EACH(cap, held)) {
		enum risk_tier tier;

		tier = risk_tier_of(cap);
		if (which < 0 || tier > highest) {
			highest = tier;
			which = cap;
		}
	}
	if (worst != NULL)
		*worst = which;
	return highest;
}

const char *risk_suggestion(cap_t caps, const char *path)
{
	int admin = has_cap(caps, CAP_SYS_ADMIN, ALL_FLAGS);

	if (admin && path != NULL && perf_is_binary(path))
		/* The group form: a bare "=ep" would give perf to every user. */
		return "perf needs cap_perfmon (Linux " PERF_PERFMON_LINUX "+), not cap_sys_admin: " PERF_SETCAP_FIX("<file>");
	if (admin && has_cap(caps, CAP_BPF, ALL_FLAGS))
		return "BPF tools need cap_bpf with cap_perfmon (Linux " PERF_PERFMON_LINUX "+), not cap_sys_admin";
	if (has_cap(caps, CAP_SYS_PTRACE, ALL_FLAGS) && path != NULL &&
	    perf_is_binary(path))
		return "perf on Linux " PERF_NO_PTRACE_LINUX "+ needs no cap_sys_ptrace once it holds cap_perfmon";
	if (has_cap(caps, CAP_DAC_OVERRIDE, ALL_FLAGS) &&
	    !has_cap(caps, CAP_DAC_READ_SEARCH, ALL_FLAGS))
		return "if the program only reads files, cap_dac_read_search is narrower than cap_dac_override";
	return NULL;
}
