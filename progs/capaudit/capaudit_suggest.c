/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --suggest: the least grant that would have let the run succeed, in the
 * forms people deploy (a setcap line, a capability.conf line, systemd
 * lines), each capability with its risk label, and what the run cannot
 * tell: paths it did not take, checks after a failure, lost samples.
 */
#include <ctype.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "json.h"
#include "mask.h"
#include "risk.h"
#include "capaudit.h"
#include "escape.h"

#define BIT(c) MASK_BIT(c)

/*
 * Capabilities the kernel asks about on its own, whatever the program
 * does: cap_sys_admin for the overcommit reserve of every private
 * writable mapping (mm/util.c, __vm_enough_memory()), and as the
 * fallback of cap_perfmon, cap_bpf and cap_checkpoint_restore. A check
 * of one of them shows no need; a program that does need it (mount(2),
 * say) has to be told by hand.
 */
#define INCIDENTAL BIT(CAP_SYS_ADMIN)

void suggest_build(const struct tally *t, const struct run_result *rr,
		   struct suggestion *sg)
{
	uint64_t granted = 0, refused = 0;
	size_t i;
	int c;

	memset(sg, 0, sizeof(*sg));
	for (i = 0; i < t->nprocs; i++)
		for (c = 0; c < NCAPS; c++) {
			if (t->procs[i].granted[c])
				granted |= BIT(c);
			if (t->procs[i].refused[c])
				refused |= BIT(c);
		}
	sg->checked = granted | refused;
	sg->failed = !rr->attached &&
		     (WIFSIGNALED(rr->status) || WEXITSTATUS(rr->status) != 0);
	/*
	 * A granted check let something happen that would not have
	 * happened without it. A refused one matters only if the run
	 * failed: a run that succeeded did without it.
	 */
	sg->need = (granted | (sg->failed ? refused : 0)) & ~INCIDENTAL;
	sg->incidental = sg->checked & INCIDENTAL;
	sg->unused = refused & ~sg->need & ~INCIDENTAL;
}

/* "cap_a,cap_b" or, with upper, "CAP_A CAP_B". */
static void list_caps(uint64_t mask, int upper, char *buf, size_t size)
{
	char *p;

	mask_names(buf, size, mask, 0);
	for (p = buf; upper && *p; p++)
		*p = *p == ',' ? ' ' : (char)toupper((unsigned char)*p);
}

static uint64_t total(const struct tally *t, int c, int refused)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < t->nprocs; i++)
		n += refused ? t->procs[i].refused[c] : t->procs[i].granted[c];
	return n;
}

void suggest_print(const struct suggestion *sg, const struct tally *t,
		   const struct run_result *rr, const char *command,
		   const char *user, FILE *out)
{
	char list[2048], name[64];
	int c;

	fprintf(out, "# capaudit --suggest: %s\n", sg->failed ?
		"the grant the refused checks point to (the run failed)" :
		"the least grant that let this run succeed");
	for (c = 0; c < NCAPS; c++) {
		if (!(sg->need & BIT(c)))
			continue;
		capability_name(c, name, sizeof(name));
		fprintf(out, "#   %-22s %s: %s\n", name,
			risk_tier_name(risk_tier_of(c)),
			risk_reason(c) ? risk_reason(c) : "no label");
	}
	if (sg->need == 0) {
		fprintf(out, "# nothing to grant: this run %s no capability\n",
			sg->failed ? "was refused" : "needed");
	} else {
		list_caps(sg->need, 0, list, sizeof(list));
		fprintf(out, "setcap %s=ep ", list);
		escape_fputs(command, out);
		fprintf(out, "\n# capability.conf (pam_cap; the file then needs %s=ei, not =ep):\n", list);
		fprintf(out, "%s\t", list);
		escape_fputs(user, out);
		list_caps(sg->need, 1, list, sizeof(list));
		fprintf(out, "\n# systemd unit, [Service] section:\n");
		fprintf(out, "AmbientCapabilities=%s\n", list);
		fprintf(out, "CapabilityBoundingSet=%s\n", list);
	}
	for (c = 0; c < NCAPS; c++) {
		if (!(sg->incidental & BIT(c)))
			continue;
		capability_name(c, name, sizeof(name));
		fprintf(out, "# left out: %s (%s): checked %llu times (%llu granted); "
			"the kernel asks for it on its own (the overcommit reserve of "
			"every private writable mapping, the fallback of cap_perfmon), so "
			"these checks show no need; add it by hand only if the program "
			"fails without it\n", name,
			risk_tier_name(risk_tier_of(c)),
			(unsigned long long)(total(t, c, 0) + total(t, c, 1)),
			(unsigned long long)total(t, c, 0));
	}
	for (c = 0; c < NCAPS; c++) {
		if (!(sg->unused & BIT(c)))
			continue;
		capability_name(c, name, sizeof(name));
		fprintf(out, "# left out: %s: refused %llu times, yet the run succeeded without it\n",
			name, (unsigned long long)total(t, c, 1));
	}
	if ((sg->need & BIT(CAP_DAC_OVERRIDE)) && (sg->need & BIT(CAP_DAC_READ_SEARCH)) &&
	    sg->failed)
		fprintf(out, "# note: the kernel asks for cap_dac_override, then cap_dac_read_search; "
			"for reading, cap_dac_read_search alone may be enough\n");
	if (sg->failed)
		fprintf(out, "# not exercised: the command failed (%s %d), so checks it would have "
			"made later are not known; grant this and run capaudit again\n",
			WIFSIGNALED(rr->status) ? "signal" : "exit status",
			WIFSIGNALED(rr->status) ? WTERMSIG(rr->status) : WEXITSTATUS(rr->status));
	if (rr->attached)
		fprintf(out, "# not exercised: capaudit watched a running process for %.2f s only; "
			"checks before and after are not known\n", rr->seconds);
	if (t->lost)
		fprintf(out, "# not exercised: %llu samples were lost, so a capability may be "
			"missing here\n", (unsigned long long)t->lost);
	fprintf(out, "# not exercised: only the paths this run took; other options, inputs "
		"and error paths may need more\n");
}

void suggest_json(const struct suggestion *sg, const char *command, FILE *out)
{
	char list[2048];
	int c, first = 1;

	fprintf(out, "{\"schema\":%d,\"type\":\"suggest\",\"failed\":%s,\"capabilities\":[",
		JSON_SCHEMA, sg->failed ? "true" : "false");
	for (c = 0; c < NCAPS; c++) {
		char name[64];

		if (!(sg->need & BIT(c)))
			continue;
		capability_name(c, name, sizeof(name));
		fprintf(out, "%s{\"name\":", first ? "" : ",");
		json_string(out, name);
		fprintf(out, ",\"risk\":\"%s\"}", risk_tier_name(risk_tier_of(c)));
		first = 0;
	}
	fprintf(out, "],\"left_out\":{");
	json_vector(out, "incidental", sg->incidental);
	fprintf(out, ",");
	json_vector(out, "unused", sg->unused);
	fprintf(out, "},\"command\":");
	json_string(out, command);
	list_caps(sg->need, 0, list, sizeof(list));
	fprintf(out, ",\"setcap\":");
	json_string(out, sg->need ? list : "");
	fprintf(out, "}\n");
}
