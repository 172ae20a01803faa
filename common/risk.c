/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The risk tier of every capability, with a one-line reason for each. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mask.h"
#include "perf.h"
#include "risk.h"
#include "shquote.h"

#define ALL_FLAGS                                        \
	((1u << CAP_EFFECTIVE) | (1u << CAP_PERMITTED) | \
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
#include "caps.def"
#undef CAP_FACT
};

/* Dense: each capability of the table has its own label, none defaults to low. */
#define CAP_FACT(number, ...) +1
_Static_assert(sizeof(labels) / sizeof(labels[0]) == 0
#include "caps.def"
	       ,
	       "a risk label for every capability in caps.def");
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

uint64_t risk_root_mask(uint64_t mask)
{
	uint64_t root = 0;
	cap_value_t cap;

	for (MASK_EACH(cap, mask))
		if (risk_tier_of(cap) == RISK_ROOT)
			root |= MASK_BIT(cap);
	return root;
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

enum risk_tier risk_highest(cap_t caps, unsigned flag_mask, cap_value_t *worst)
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

/* The suggestions, each for one pattern of capabilities and file name. */
enum suggestion {
	SUGGEST_NONE,
	SUGGEST_PERF_PERFMON, /* its text ends in the setcap command */
	SUGGEST_BPF,
	SUGGEST_PERF_PTRACE,
	SUGGEST_DAC_READ,
};

/* The one rule for which suggestion applies, first match wins. */
static enum suggestion suggestion_for(cap_t caps, const char *path)
{
	int admin = has_cap(caps, CAP_SYS_ADMIN, ALL_FLAGS);

	if (admin && path != NULL && perf_is_binary(path))
		return SUGGEST_PERF_PERFMON;
	if (admin && has_cap(caps, CAP_BPF, ALL_FLAGS))
		return SUGGEST_BPF;
	if (has_cap(caps, CAP_SYS_PTRACE, ALL_FLAGS) && path != NULL &&
	    perf_is_binary(path))
		return SUGGEST_PERF_PTRACE;
	if (has_cap(caps, CAP_DAC_OVERRIDE, ALL_FLAGS) &&
	    !has_cap(caps, CAP_DAC_READ_SEARCH, ALL_FLAGS))
		return SUGGEST_DAC_READ;
	return SUGGEST_NONE;
}

#define PERFMON_NOT_ADMIN                                   \
	"perf needs cap_perfmon (Linux " PERF_PERFMON_LINUX \
	"+), not cap_sys_admin: "

static const char *const texts[] = {
	[SUGGEST_NONE] = NULL,
	/* The group form: a bare "=ep" would give perf to every user. */
	[SUGGEST_PERF_PERFMON] = PERFMON_NOT_ADMIN PERF_SETCAP_FIX("<file>"),
	[SUGGEST_BPF] =
		"BPF tools need cap_bpf with cap_perfmon (Linux " PERF_PERFMON_LINUX
		"+), not cap_sys_admin",
	[SUGGEST_PERF_PTRACE] =
		"perf on Linux " PERF_NO_PTRACE_LINUX
		"+ needs no cap_sys_ptrace once it holds cap_perfmon",
	[SUGGEST_DAC_READ] =
		"if the program only reads files, cap_dac_read_search is narrower than cap_dac_override",
};

const char *risk_suggestion(cap_t caps, const char *path)
{
	return texts[suggestion_for(caps, path)];
}

char *risk_suggestion_dup(cap_t caps, const char *path)
{
	enum suggestion which = suggestion_for(caps, path);
	char *word, *text;
	int n;

	if (which == SUGGEST_NONE) {
		errno = 0;
		return NULL;
	}
	if (which != SUGGEST_PERF_PERFMON) {
		text = strdup(texts[which]);
		if (text == NULL)
			errno = ENOMEM;
		return text;
	}
	word = shquote_path_dup(path);
	if (word == NULL && errno != EILSEQ)
		return NULL; /* ENOMEM */
	if (word != NULL)
		n = asprintf(&text, "%s" PERF_SETCAP_FIX("%s"),
			     PERFMON_NOT_ADMIN, word);
	else
		n = asprintf(&text,
			     "%srun setcap --perf-group=" PERF_GROUP
			     " --perf on this file (" SHQUOTE_UNSHOWN ")",
			     PERFMON_NOT_ADMIN);
	free(word);
	if (n < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return text;
}
