/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's report: a table by default, one row per capability and
 * process, or (--json) one object per line; both end with what the run
 * was and what may be missing from it, never silently.
 */
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "json.h"
#include "risk.h"
#include "capaudit.h"
#include "escape.h"

void capability_name(int cap, char *buf, size_t size)
{
	char *name = cap_to_name((cap_value_t)cap);

	snprintf(buf, size, "%s", name != NULL ? name : "?");
	cap_free(name);
}

/*
 * The rows of a report, by capability then process: the next process
 * after (*c, *i) that checked capability *c, or NULL at the end. Start
 * with both 0; *c is the row's capability.
 */
static const struct proc *next_row(const struct tally *t, int *c, size_t *i)
{
	for (; *c < NCAPS; (*c)++, *i = 0)
		for (; *i < t->nprocs; (*i)++) {
			const struct proc *p = &t->procs[*i];

			if (p->granted[*c] || p->refused[*c]) {
				(*i)++;
				return p;
			}
		}
	return NULL;
}

static size_t followed(const struct tally *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nprocs; i++)
		n += t->procs[i].execd;
	return n;
}

static void describe_status(const struct run_result *rr, FILE *out)
{
	if (rr->attached)
		fprintf(out, "attached for %.2f s", rr->seconds);
	else if (WIFSIGNALED(rr->status))
		fprintf(out, "killed by signal %d after %.2f s",
			WTERMSIG(rr->status), rr->seconds);
	else
		fprintf(out, "exited with status %d after %.2f s",
			WEXITSTATUS(rr->status), rr->seconds);
}

void report_table(const struct tally *t, const struct source *src,
		  const struct run_result *rr, FILE *out)
{
	int c = 0, any_refused = 0, sys_admin = 0, rows = 0;
	const struct proc *p;
	size_t i = 0, left;
	char name[64];

	fprintf(out, "%-22s %7s %7s %7s %7s  %s\n", "CAPABILITY", "CHECKS",
		"GRANTED", "REFUSED", "PID", "COMMAND");
	while ((p = next_row(t, &c, &i)) != NULL) {
		capability_name(c, name, sizeof(name));
		fprintf(out, "%-22s %7llu %7llu %7llu %7ld  ", name,
			(unsigned long long)(p->granted[c] + p->refused[c]),
			(unsigned long long)p->granted[c],
			(unsigned long long)p->refused[c], (long)p->pid);
		escape_fputs(p->comm[0] ? p->comm : "?", out);
		fputc('\n', out);
		any_refused |= p->refused[c] != 0;
		sys_admin |= c == CAP_SYS_ADMIN;
		rows++;
	}
	if (rows == 0)
		fprintf(out, "(no capability checks)\n");
	fprintf(out, "\ncommand: ");
	describe_status(rr, out);
	fprintf(out, "; %zu process%s followed\n", followed(t),
		followed(t) == 1 ? "" : "es");
	fprintf(out, "source: ");
	source_describe(src, out);
	fprintf(out, "lost samples: %llu%s\n", (unsigned long long)t->lost,
		t->lost ? " (the counts are lower bounds; a capability may be missing)" : "");
	if (t->launcher)
		fprintf(out, "not counted: %llu check%s by capaudit's launcher before the command started\n",
			(unsigned long long)t->launcher, t->launcher == 1 ? "" : "s");
	if (t->out_of_range || t->unpaired)
		fprintf(out, "not counted: %llu checks of unknown capabilities, %llu probe returns without an entry\n",
			(unsigned long long)t->out_of_range,
			(unsigned long long)t->unpaired);
	left = rr->attached ? 0 : tally_running(t);
	if (left)
		fprintf(out, "still running: %zu process%s outlived the command; their later checks are not counted\n",
			left, left == 1 ? "" : "es");
	if (any_refused)
		fprintf(out, "note: a refused check is the kernel saying no; the program may have failed there, or gone on\n"
			"      without (cap_dac_override is asked before cap_dac_read_search, cap_perfmon before cap_sys_admin)\n");
	if (sys_admin)
		fprintf(out, "note: the kernel also asks for cap_sys_admin on its own, for every private writable\n"
			"      mapping (the overcommit reserve): those checks show no need for it\n");
}

static const char *source_name(const struct source *src)
{
	switch (src->kind) {
	case SOURCE_KPROBE_EVENTS: return "kprobe_events";
	case SOURCE_KPROBE_PMU: return "kprobe_pmu";
	default: return "tracepoint";
	}
}

void report_json(const struct tally *t, const struct source *src,
		 const struct run_result *rr, FILE *out)
{
	const struct proc *p;
	char name[64];
	size_t i = 0;
	int c = 0;

	while ((p = next_row(t, &c, &i)) != NULL) {
		capability_name(c, name, sizeof(name));
		fprintf(out, "{\"schema\":%d,\"type\":\"check\",\"capability\":",
			JSON_SCHEMA);
		json_string(out, name);
		fprintf(out, ",\"value\":%d,\"risk\":\"%s\",\"pid\":%ld,\"ppid\":%ld,\"command\":",
			c, risk_tier_name(risk_tier_of(c)),
			(long)p->pid, (long)p->ppid);
		json_string(out, p->comm);
		fprintf(out, ",\"checks\":%llu,\"granted\":%llu,\"refused\":%llu}\n",
			(unsigned long long)(p->granted[c] + p->refused[c]),
			(unsigned long long)p->granted[c],
			(unsigned long long)p->refused[c]);
	}
	fprintf(out, "{\"schema\":%d,\"type\":\"summary\",\"source\":\"%s\",",
		JSON_SCHEMA, source_name(src));
	if (rr->attached)
		fprintf(out, "\"attached\":true,\"exit_status\":null,\"signal\":null,");
	else if (WIFSIGNALED(rr->status))
		fprintf(out, "\"attached\":false,\"exit_status\":null,\"signal\":%d,",
			WTERMSIG(rr->status));
	else
		fprintf(out, "\"attached\":false,\"exit_status\":%d,\"signal\":null,",
			WEXITSTATUS(rr->status));
	fprintf(out, "\"seconds\":%.3f,\"processes\":%zu,\"still_running\":%zu,"
		"\"lost\":%llu,\"launcher_checks\":%llu,\"unknown\":%llu}\n",
		rr->seconds, followed(t), rr->attached ? 0 : tally_running(t),
		(unsigned long long)t->lost, (unsigned long long)t->launcher,
		(unsigned long long)(t->out_of_range + t->unpaired));
}
