/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's report as a table, one row per capability and process (the
 * same as --json objects: capaudit_json.c); the checks that cannot be
 * the command's needs (another user namespace, a borrowed credential) in
 * a table of their own; it ends with what the run was and what may be
 * missing from it, never silently.
 */
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "capaudit.h"
#include "capaudit_counting.h"
#include "capaudit_report.h"
#include "capaudit_source.h"
#include "capaudit_tally.h"
#include "escape.h"
#include "names.h"

void describe_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "exited with status %d",
			 WEXITSTATUS(status));
}

static void describe_run(const struct run_result *rr, FILE *out)
{
	char what[64];

	if (rr->attached) {
		fprintf(out, "attached for %.2f s", rr->seconds);
		return;
	}
	describe_status(rr->status, what, sizeof(what));
	fprintf(out, "%s after %.2f s", what, rr->seconds);
}

static void print_rows(const struct tally *t, int own, FILE *out)
{
	char name[64];
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];

		if ((r->cls == CLASS_OWN) != own)
			continue;
		names_cap(r->cap, name, sizeof(name));
		fprintf(out, "%-22s %7llu %7llu %7llu %7ld  ", name,
			(unsigned long long)(r->granted + r->refused),
			(unsigned long long)r->granted,
			(unsigned long long)r->refused, (long)r->pid);
		escape_fputs(r->comm[0] ? r->comm : "?", out);
		if (!own)
			fprintf(out, "  %s", class_name(r->cls));
		fputc('\n', out);
	}
}

static void print_notes(const struct tally *t, FILE *out)
{
	int any_refused = 0, sys_admin = 0;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		any_refused |= t->rows[i].refused != 0;
		sys_admin |= t->rows[i].cap == CAP_SYS_ADMIN;
	}
	if (any_refused)
		fprintf(out,
			"note: a refused check is the kernel saying no; the program may have failed there, or gone on\n      without (cap_dac_override is asked before cap_dac_read_search, cap_perfmon before cap_sys_admin)\n");
	if (sys_admin)
		fprintf(out,
			"note: the kernel also asks for cap_sys_admin on its own, for every private writable\n      mapping (the overcommit reserve): those checks show no need for it\n");
}

void report_table(const struct tally *t, const struct source *src,
		  const struct run_result *rr, FILE *out)
{
	uint64_t others = t->class_checks[CLASS_USERNS] +
			  t->class_checks[CLASS_CRED] +
			  t->class_checks[CLASS_UNKNOWN];
	size_t left;
	int c;

	fprintf(out, "%-22s %7s %7s %7s %7s  %s\n", "CAPABILITY", "CHECKS",
		"GRANTED", "REFUSED", "PID", "COMMAND");
	print_rows(t, 1, out);
	if (t->class_checks[CLASS_OWN] == 0)
		fprintf(out, "(no capability checks of the command's own)\n");
	if (others) {
		fprintf(out, "\nnot the command's own, never suggested:\n");
		fprintf(out, "%-22s %7s %7s %7s %7s  %s  %s\n", "CAPABILITY",
			"CHECKS", "GRANTED", "REFUSED", "PID", "COMMAND",
			"WHY");
		print_rows(t, 0, out);
		for (c = CLASS_USERNS; c < NCLASSES; c++)
			if (t->class_checks[c])
				fprintf(out, "  %s: %s\n",
					class_name((enum check_class)c),
					class_reason((enum check_class)c));
	}
	fprintf(out, "\ncommand: ");
	describe_run(rr, out);
	fprintf(out, "; %zu process%s followed\n", tally_followed(t),
		tally_followed(t) == 1 ? "" : "es");
	fprintf(out, "source: ");
	source_describe(src, out);
	fprintf(out, "counting: ");
	counting_describe(src, out);
	fprintf(out, "lost samples: %llu%s\n", (unsigned long long)t->lost,
		t->lost ? " (the counts are lower bounds; a capability may be missing)"
			: "");
	if (t->unfollowed)
		fprintf(out,
			"not followed: %llu thread%s the command started (the kernel's table was full, or its program was busy): their checks are missing, and a capability may be\n",
			(unsigned long long)t->unfollowed,
			t->unfollowed == 1 ? "" : "s");
	if (rr->left_out)
		fprintf(out,
			"not counted: %zu thread%s of the process ended while capaudit attached, and %s id%s may have gone to another process: nothing of %s is counted\n",
			rr->left_out, rr->left_out == 1 ? "" : "s",
			rr->left_out == 1 ? "its" : "their",
			rr->left_out == 1 ? "" : "s",
			rr->left_out == 1 ? "it" : "them");
	if (t->launcher)
		fprintf(out,
			"not counted: %llu check%s by capaudit's launcher before the command started\n",
			(unsigned long long)t->launcher,
			t->launcher == 1 ? "" : "s");
	if (t->out_of_range || t->unpaired)
		fprintf(out,
			"not counted: %llu checks of unknown capabilities, %llu probe returns without an entry\n",
			(unsigned long long)t->out_of_range,
			(unsigned long long)t->unpaired);
	left = rr->attached ? 0 : tally_running(t);
	if (left)
		fprintf(out,
			"still running: %zu process%s outlived the command; their later checks are not counted\n",
			left, left == 1 ? "" : "es");
	print_notes(t, out);
}
