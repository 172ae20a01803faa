/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The risk tier of every capability, with a one-line reason for each. */
#include <string.h>

#include "risk.h"

#define ALL_FLAGS ((1u << CAP_EFFECTIVE) | (1u << CAP_PERMITTED) | \
		   (1u << CAP_INHERITABLE))

/*
 * Root-equivalent means a known, short path from the capability alone to
 * full control of the machine; the reasons name that path so an auditor can
 * judge it. Facts from capabilities(7) and the kernel sources.
 */
static const struct {
	enum cap_risk_tier tier;
	const char *reason;
} labels[] = {
#define CAP_FACT(number, NAME, name, since, risk, reason, ...) \
	[number] = { CAP_RISK_##risk, reason },
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

enum cap_risk_tier cap_risk_tier_of(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].tier : CAP_RISK_LOW;
}

const char *cap_risk_reason(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].reason : NULL;
}

const char *cap_risk_tier_name(enum cap_risk_tier tier)
{
	switch (tier) {
	case CAP_RISK_ROOT:
		return "root-equivalent";
	case CAP_RISK_KERNEL_READ:
		return "kernel-read";
	case CAP_RISK_ESCALATION:
		return "escalation-adjacent";
	default:
		return "low";
	}
}

static int has_cap(cap_t caps, cap_value_t cap, unsigned flag_mask)
{
	int flag;

	for (flag = CAP_EFFECTIVE; flag <= CAP_INHERITABLE; flag++) {
		cap_flag_value_t v = CAP_CLEAR;

		if ((flag_mask & (1u << flag)) &&
		    cap_get_flag(caps, cap, (cap_flag_t)flag, &v) == 0 &&
		    v == CAP_SET)
			return 1;
	}
	return 0;
}

enum cap_risk_tier cap_risk_highest(cap_t caps, unsigned flag_mask,
				    cap_value_t *worst)
{
	enum cap_risk_tier highest = CAP_RISK_LOW;
	cap_value_t which = -1, cap;

	for (cap = 0; cap < 64; cap++) {
		enum cap_risk_tier tier;

		if (!has_cap(caps, cap, flag_mask))
			continue;
		tier = cap_risk_tier_of(cap);
		if (which < 0 || tier > highest) {
			highest = tier;
			which = cap;
		}
	}
	if (worst != NULL)
		*worst = which;
	return highest;
}

static int is_perf_binary(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strcmp(base, "perf") == 0 || strncmp(base, "perf_", 5) == 0 ||
	       strncmp(base, "perf-", 5) == 0;
}

const char *cap_risk_suggestion(cap_t caps, const char *path)
{
	int admin = has_cap(caps, CAP_SYS_ADMIN, ALL_FLAGS);

	if (admin && path != NULL && is_perf_binary(path))
		/* The group form: a bare "=ep" would give perf to every user. */
		return "perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: setcap --perf-group=perf_users --perf <file>";
	if (admin && has_cap(caps, CAP_BPF, ALL_FLAGS))
		return "BPF tools need cap_bpf with cap_perfmon (Linux 5.8+), not cap_sys_admin";
	if (has_cap(caps, CAP_SYS_PTRACE, ALL_FLAGS) && path != NULL &&
	    is_perf_binary(path))
		return "perf on Linux 5.9+ needs no cap_sys_ptrace once it holds cap_perfmon";
	if (has_cap(caps, CAP_DAC_OVERRIDE, ALL_FLAGS) &&
	    !has_cap(caps, CAP_DAC_READ_SEARCH, ALL_FLAGS))
		return "if the program only reads files, cap_dac_read_search is narrower than cap_dac_override";
	return NULL;
}
