/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * How --suggest's least grant is shown: in the forms people deploy
 * (setcap lines, a capability.conf line, systemd lines, and for
 * containers capaudit_container_text.c's), each capability
 * with its risk label and each file with what the grant hands out
 * besides, what is held apart, what the runs cannot tell (as a --json
 * object: capaudit_json.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "mask.h"
#include "names.h"
#include "risk.h"
#include "capaudit.h"
#include "capaudit_advice.h"
#include "capaudit_container_text.h"
#include "capaudit_identity.h"
#include "capaudit_report.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_warn.h"
#include "escape.h"
#include "shquote.h"

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

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].cap == c)
			n += refused ? t->rows[i].refused : t->rows[i].granted;
	return n;
}

static void print_header(const struct suggestion *sg, FILE *out)
{
	char what[64], name[64];
	size_t i;

	if (sg->proven && sg->runs == 0) {
		fprintf(out,
			"# capaudit --suggest: nothing to grant: the command made no capability check of its own that a file capability answers\n");
		return;
	}
	if (!sg->proven) {
		fprintf(out,
			"# capaudit --suggest: NOT PROVEN (%s); the candidates: what the command's own checks %s\n",
			sg->unproven,
			sg->failed ? "were granted or refused (the run failed)"
				   : "were granted");
		return;
	}
	fprintf(out,
		"# capaudit --suggest: the least grant, proven by %d run%s as ",
		sg->runs, sg->runs == 1 ? "" : "s");
	escape_fputs(sg->user != NULL ? sg->user : "?", out);
	fprintf(out,
		"%s: each file below replaced, in a private mount namespace, by a copy carrying only the capabilities under test\n",
		sg->noroot ? " without root's capabilities (SECBIT_NOROOT)"
			   : "");
	describe_status(sg->reference, what, sizeof(what));
	fprintf(out, "#   success: %s, as with every candidate granted\n",
		what);
	for (i = 0; i < sg->nlog; i++) {
		const struct trial_log *l = &sg->log[i];

		describe_status(l->status, what, sizeof(what));
		if (l->file == PLAIN_RUN) {
			fprintf(out, "#   run %zu, no capability%s: %s\n",
				i + 1, i > 0 ? " again" : "", what);
			continue;
		}
		if (l->file < 0) {
			fprintf(out, "#   run %zu, %s: %s\n", i + 1,
				l->again ? "every candidate granted again"
					 : "every candidate granted",
				what);
			continue;
		}
		names_cap(l->cap, name, sizeof(name));
		fprintf(out, "#   run %zu, without %s on ", i + 1, name);
		escape_fputs(sg->files[l->file].path, out);
		fprintf(out, "%s: %s: %s\n",
			l->again ? ", again, from the least grant" : "", what,
			l->success ? "not needed" : "needed");
	}
	for (i = 0; i < sg->nlog; i++)
		if (sg->log[i].left)
			fprintf(out,
				"# note: run %zu left %zu process%s behind, which capaudit ended with it\n",
				i + 1, sg->log[i].left,
				sg->log[i].left == 1 ? "" : "es");
}

/* Each capability of caps with its risk label, and what follows it. */
static void print_labels(uint64_t caps, const char *after, FILE *out)
{
	char name[64];
	int c;

	for (MASK_EACH(c, caps)) {
		names_cap(c, name, sizeof(name));
		fprintf(out, "#   %-22s %s: %s%s\n", name,
			risk_tier_name(risk_tier_of(c)),
			risk_reason(c) ? risk_reason(c) : "no label", after);
	}
}

/* One file's grant: its capabilities, the setcap line, the warnings. */
static void print_file(const struct need_file *f, FILE *out)
{
	char list[1024], why[512], *quoted;
	/*
	 * A kernel's name that is not the file (it was replaced, or the
	 * kernel named it inside a layer of a nested overlay) gets no line:
	 * pasted, it would grant another file.
	 */
	int same = identity_names(f->path, f->maj, f->min, f->ino, why,
				  sizeof(why));

	fputs("# ", out);
	escape_fputs(f->path, out);
	fputs(" (ran as ", out);
	escape_fputs(f->comm, out);
	fputs("):\n", out);
	print_labels(f->grant, "", out);
	print_labels(f->apart, " (held apart: unproven)", out);
	if (f->grant != 0 && !same) {
		list_caps(f->grant, 0, list, sizeof(list));
		fputs("# setcap: ", out);
		escape_fputs(f->path, out);
		fputs(": not the file the command ran (", out);
		escape_fputs(why, out); /* it may name a directory */
		fprintf(out, "): no line for %s; find the file it ran first\n",
			list);
	} else if (f->grant != 0) {
		list_caps(f->grant, 0, list, sizeof(list));
		/* The one line meant to be pasted: every operand quoted for sh. */
		quoted = shquote_path_dup(f->path);
		if (quoted != NULL) {
			fprintf(out, "setcap %s=ep %s\n", list, quoted);
			free(quoted);
		} else {
			fputs("# setcap: ", out);
			escape_fputs(f->path, out);
			fprintf(out, ": %s\n",
				errno == EILSEQ ? SHQUOTE_UNSHOWN
					"; rename it first"
						: strerror(errno));
		}
	}
	if (f->apart != 0) {
		const char *them = f->apart & (f->apart - 1) ? "them" : "it";

		list_caps(f->apart, 0, list, sizeof(list));
		fprintf(out,
			"# held apart: %s: root-equivalent and not proven needed: no line here grants %s; grant %s by hand only once a proof keeps %s\n",
			list, them, them, them);
	}
	warn_grant(f->path, f->maj, f->min, f->ino, f->grant | f->apart, out);
	warn_libraries(f, f->grant | f->apart, out);
}

static void print_left_out(const struct suggestion *sg, const struct tally *t,
			   FILE *out)
{
	char name[64], list[1024];
	int c;

	for (MASK_EACH(c, sg->incidental)) {
		names_cap(c, name, sizeof(name));
		fprintf(out,
			"# left out: %s (%s): checked %llu times (%llu granted); the kernel asks for it on its own (the overcommit reserve of every private writable mapping, the fallback of cap_perfmon), so these checks show no need; add it by hand only if the program fails without it\n",
			name, risk_tier_name(risk_tier_of(c)),
			(unsigned long long)(total(t, c, 0) + total(t, c, 1)),
			(unsigned long long)total(t, c, 0));
	}
	for (MASK_EACH(c, sg->unused)) {
		names_cap(c, name, sizeof(name));
		fprintf(out,
			"# left out: %s: refused, yet the run succeeded without it\n",
			name);
	}
	if (sg->not_own & ~sg->incidental) {
		list_caps(sg->not_own & ~sg->incidental, 0, list, sizeof(list));
		fprintf(out,
			"# left out: %s: checked only in a user namespace the command made or under a credential not its own (see the table): no file capability answers those\n",
			list);
	}
}

void suggest_print(const struct suggestion *sg, const struct tally *t,
		   const struct run_result *rr, const char *command,
		   const char *user, FILE *out)
{
	uint64_t grant = suggest_every_file(sg, 0);
	char list[1024];
	size_t i;

	print_header(sg, out);
	if (command != NULL)
		warn_script(command, out);
	for (i = 0; i < sg->nfiles; i++) {
		const struct need_file *f = &sg->files[i];

		if ((f->grant | f->apart) == 0)
			continue;
		if (f->path == NULL) {
			list_caps(f->grant | f->apart, 0, list, sizeof(list));
			fprintf(out, "# %s: %s; no setcap line\n", list,
				f->why);
			continue;
		}
		print_file(f, out);
	}
	if (grant == 0 && suggest_every_file(sg, 1) != 0) {
		fprintf(out,
			"# no line here grants anything: every candidate is root-equivalent and unproven (held apart above)\n");
	} else if (grant == 0) {
		if (!sg->proven && sg->lent_guessed)
			fprintf(out,
				"# nothing to grant from the checks taken for the command's own; the others may be its own too (above)\n");
		else if (!(sg->proven && sg->runs == 0))
			fprintf(out, "# nothing to grant: %s\n",
				sg->proven
					? "the command succeeds as well without any capability"
				: sg->failed
					? "no check the command made itself was refused; its failure is not about capabilities a file could hold"
					: "this run needed no capability");
	} else {
		list_caps(grant, 0, list, sizeof(list));
		fprintf(out,
			"# capability.conf (pam_cap; each file then needs its capabilities =ei, not =ep):\n%s\t",
			list);
		escape_fputs(user, out);
		list_caps(grant, 1, list, sizeof(list));
		fprintf(out,
			"\n# systemd unit, [Service] section (ambient: every program of the service gets them):\n");
		fprintf(out, "AmbientCapabilities=%s\n", list);
		fprintf(out, "CapabilityBoundingSet=%s\n", list);
		container_print(sg, out);
	}
	print_left_out(sg, t, out);
	if (sg->lent_guessed && !sg->proven) {
		list_caps(sg->lent_guessed, 0, list, sizeof(list));
		fprintf(out,
			"# note: %s: checked only under a credential taken for one lent for a call (see the table), a guess from samples: the kernel gives a freed credential's address to the next one, so a command that changes its own credential again and again looks so; they may be its own needs. Counted in the kernel (as root, without --no-bpf), each check says whose credential it was\n",
			list);
	}
	for (i = 0; i < sg->nfiles; i++)
		if ((sg->files[i].apart & MASK_BIT(CAP_DAC_OVERRIDE)) &&
		    (sg->files[i].apart & MASK_BIT(CAP_DAC_READ_SEARCH)) &&
		    !sg->proven)
			fprintf(out,
				"# note: the kernel asks for cap_dac_override, then cap_dac_read_search; for reading, cap_dac_read_search alone may be enough\n");
	if (sg->failed && !sg->proven)
		fprintf(out,
			"# not exercised: the command failed (%s %d), so checks it would have made later are not known; grant this and run capaudit again\n",
			WIFSIGNALED(rr->status) ? "signal" : "exit status",
			WIFSIGNALED(rr->status) ? WTERMSIG(rr->status)
						: WEXITSTATUS(rr->status));
	if (rr->attached)
		fprintf(out,
			"# not exercised: capaudit watched a running process for %.2f s only; checks before and after are not known\n",
			rr->seconds);
	if (t->lost)
		fprintf(out,
			"# not exercised: %llu samples were lost, so a capability may be missing here\n",
			(unsigned long long)t->lost);
	if (t->unfollowed)
		fprintf(out,
			"# not exercised: %llu threads were not followed, so a capability may be missing here\n",
			(unsigned long long)t->unfollowed);
	fprintf(out,
		"# not exercised: only the paths this run took; other options, inputs and error paths may need more\n");
}
