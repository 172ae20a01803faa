/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --suggest: the least grant, file by file (file capabilities do not
 * cross execve, so each file the command ran gets its own), in the forms
 * people deploy (setcap lines, a capability.conf line, systemd lines),
 * each capability with its risk label and each file with what the grant
 * hands out besides; proven by trials (capaudit_prove.c) or said to be
 * unproven; and what the run cannot tell.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "mask.h"
#include "risk.h"
#include "capaudit.h"
#include "escape.h"
#include "shquote.h"

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

/*
 * The entry of the file image ran, or -1. A file is its device and
 * inode; in a trial, a file of the suggestion is a copy bound over its
 * path, so there the path says which it stands for.
 */
static int file_find(const struct suggestion *sg, const struct exec_image *im,
		     int by_path)
{
	const struct need_file *f;
	size_t i;

	for (i = 0; i < sg->nfiles; i++) {
		f = &sg->files[i];
		if (im->file == NULL
			    ? f->path == NULL
			    : f->path != NULL &&
				      ((f->maj == im->maj &&
					f->min == im->min &&
					f->ino == im->ino) ||
				       (by_path &&
					strcmp(f->path, im->file) == 0)))
			return (int)i;
	}
	return -1;
}

/* The entry of the file image ran, made if new; -1 (ENOMEM). */
static int file_of(struct suggestion *sg, const struct exec_image *im,
		   int by_path)
{
	struct need_file *f;
	int found = file_find(sg, im, by_path);

	if (found >= 0)
		return found;
	if (sg->nfiles == sg->files_size) {
		size_t n = sg->files_size ? sg->files_size * 2 : 4;
		struct need_file *q = reallocarray(sg->files, n, sizeof(*q));

		if (q == NULL)
			return -1;
		sg->files = q;
		sg->files_size = n;
	}
	f = &sg->files[sg->nfiles];
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->maj = im->maj;
	f->min = im->min;
	f->ino = im->ino;
	snprintf(f->comm, sizeof(f->comm), "%s", im->comm);
	if (im->file != NULL && (f->path = strdup(im->file)) == NULL)
		return -1;
	if (im->file == NULL) {
		/* A process names itself (prctl(PR_SET_NAME)): escaped. */
		char *shown = escape_dup(im->comm[0] ? im->comm : "a process");

		if (shown == NULL)
			return -1;
		snprintf(f->why, sizeof(f->why),
			 "the file %s ran is not known "
			 "(its record was lost)",
			 shown);
		free(shown);
	}
	return (int)sg->nfiles++;
}

/* What image loaded besides its file, into f, once each; -1 (ENOMEM). */
static int add_libraries(struct need_file *f, const struct tally *t,
			 const struct exec_image *im)
{
	size_t i, j;

	for (i = 0; i < im->nlibs; i++) {
		const struct mapped_file *m = &t->maps[im->libs[i]];
		struct mapped_file *q;

		for (j = 0; j < f->nlibs; j++)
			if (f->libs[j].maj == m->maj &&
			    f->libs[j].min == m->min &&
			    f->libs[j].ino == m->ino)
				break;
		if (j < f->nlibs)
			continue;
		q = reallocarray(f->libs, f->nlibs + 1, sizeof(*q));
		if (q == NULL)
			return -1;
		f->libs = q;
		q[f->nlibs] = *m;
		q[f->nlibs].path = strdup(m->path);
		if (q[f->nlibs].path == NULL)
			return -1;
		f->nlibs++;
	}
	return 0;
}

/* Own checks of t into the files; returns how many pairs are new, or -1. */
static int add_checks(struct suggestion *sg, const struct tally *t, int by_path)
{
	uint64_t before, after;
	size_t i;
	int added = 0, fi;

	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		struct need_file *f;

		if (r->cls != CLASS_OWN) {
			sg->not_own |= BIT(r->cap);
			continue;
		}
		if (BIT(r->cap) & INCIDENTAL) {
			sg->incidental |= BIT(r->cap);
			continue;
		}
		if (r->image < 0)
			continue;
		fi = file_of(sg, &t->images[r->image], by_path);
		if (fi < 0) {
			errno = ENOMEM;
			return -1;
		}
		f = &sg->files[fi];
		/* A trial's too: the next trial checks them before it runs. */
		if (add_libraries(f, t, &t->images[r->image]) < 0) {
			errno = ENOMEM;
			return -1;
		}
		before = f->candidates;
		if (r->granted)
			f->granted |= BIT(r->cap);
		if (r->refused)
			f->refused |= BIT(r->cap);
		f->candidates |= f->granted | f->refused;
		after = f->candidates;
		added += __builtin_popcountll(after & ~before);
	}
	return added;
}

int suggest_build(struct suggestion *sg, const struct tally *t,
		  const struct run_result *rr)
{
	size_t i;

	memset(sg, 0, sizeof(*sg));
	sg->first = rr->status;
	sg->failed = !rr->attached &&
		     (WIFSIGNALED(rr->status) || WEXITSTATUS(rr->status) != 0);
	if (add_checks(sg, t, 0) < 0)
		return -1;
	/* Checked only as not its own: those are left out, not candidates. */
	for (i = 0; i < sg->nfiles; i++)
		sg->not_own &= ~sg->files[i].candidates;
	return 0;
}

int suggest_merge(struct suggestion *sg, const struct tally *t)
{
	return add_checks(sg, t, 1);
}

void suggest_asked(const struct suggestion *sg, const struct tally *t,
		   uint64_t *asked, unsigned char *seen)
{
	size_t i;
	int fi;

	memset(asked, 0, sg->nfiles * sizeof(*asked));
	if (seen != NULL) {
		memset(seen, 0, sg->nfiles);
		for (i = 0; i < t->nimages; i++)
			if ((fi = file_find(sg, &t->images[i], 1)) >= 0)
				seen[fi] = 1;
	}
	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];

		if (r->cls != CLASS_OWN || (BIT(r->cap) & INCIDENTAL) ||
		    r->image < 0)
			continue;
		fi = file_find(sg, &t->images[r->image], 1);
		if (fi >= 0)
			asked[fi] |= BIT(r->cap);
	}
}

/* The root-equivalent capabilities of mask (private/caps.def's tiers). */
static uint64_t root_equivalent(uint64_t mask)
{
	uint64_t root = 0;
	int c;

	for (MASK_EACH(c, mask))
		if (risk_tier_of(c) == RISK_ROOT)
			root |= BIT(c);
	return root;
}

void suggest_unproven(struct suggestion *sg, const char *why)
{
	size_t i;

	sg->proven = 0;
	if (why != sg->unproven)
		snprintf(sg->unproven, sizeof(sg->unproven), "%s", why);
	/*
	 * A granted check let something happen that would not have
	 * happened without it. A refused one matters only if the run
	 * failed: a run that succeeded did without it.
	 */
	sg->unused = 0;
	for (i = 0; i < sg->nfiles; i++) {
		struct need_file *f = &sg->files[i];
		uint64_t want = f->granted | (sg->failed ? f->refused : 0);

		/*
		 * Unproven, a root-equivalent candidate is no suggestion:
		 * ping asks for cap_setuid only to drop it. It is named
		 * apart, in no line meant to be pasted.
		 */
		f->apart = root_equivalent(want);
		f->grant = want & ~f->apart;
		sg->unused |= f->refused & ~want;
	}
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

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].cap == c)
			n += refused ? t->rows[i].refused : t->rows[i].granted;
	return n;
}

/* Every file's grant together, or (apart) what is held apart. */
static uint64_t every_file(const struct suggestion *sg, int apart)
{
	uint64_t all = 0;
	size_t i;

	for (i = 0; i < sg->nfiles; i++)
		all |= apart ? sg->files[i].apart : sg->files[i].grant;
	return all;
}

static void print_header(const struct suggestion *sg, FILE *out)
{
	char what[64], name[64];
	size_t i;

	if (sg->proven && sg->runs == 0) {
		fprintf(out, "# capaudit --suggest: nothing to grant: the "
			     "command made no capability check of its own that "
			     "a file capability answers\n");
		return;
	}
	if (!sg->proven) {
		fprintf(out,
			"# capaudit --suggest: NOT PROVEN (%s); the "
			"candidates: what the command's own checks %s\n",
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
		"%s: each file below replaced, in a private mount namespace, "
		"by a copy carrying only the capabilities under test\n",
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
			fprintf(out,
				"#   run %zu, every candidate granted: %s\n",
				i + 1, what);
			continue;
		}
		capability_name(l->cap, name, sizeof(name));
		fprintf(out, "#   run %zu, without %s on ", i + 1, name);
		escape_fputs(sg->files[l->file].path, out);
		fprintf(out, ": %s: %s\n", what,
			l->success ? "not needed" : "needed");
	}
	for (i = 0; i < sg->nlog; i++)
		if (sg->log[i].left)
			fprintf(out,
				"# note: run %zu left %zu process%s behind, "
				"which capaudit ended with it\n",
				i + 1, sg->log[i].left,
				sg->log[i].left == 1 ? "" : "es");
}

/* Each capability of caps with its risk label, and what follows it. */
static void print_labels(uint64_t caps, const char *after, FILE *out)
{
	char name[64];
	int c;

	for (MASK_EACH(c, caps)) {
		capability_name(c, name, sizeof(name));
		fprintf(out, "#   %-22s %s: %s%s\n", name,
			risk_tier_name(risk_tier_of(c)),
			risk_reason(c) ? risk_reason(c) : "no label", after);
	}
}

/* One file's grant: its capabilities, the setcap line, the warnings. */
static void print_file(const struct need_file *f, FILE *out)
{
	char list[1024], *quoted;

	fputs("# ", out);
	escape_fputs(f->path, out);
	fputs(" (ran as ", out);
	escape_fputs(f->comm, out);
	fputs("):\n", out);
	print_labels(f->grant, "", out);
	print_labels(f->apart, " (held apart: unproven)", out);
	if (f->grant != 0) {
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
					"; "
					"rename it first"
						: strerror(errno));
		}
	}
	if (f->apart != 0) {
		const char *them = f->apart & (f->apart - 1) ? "them" : "it";

		list_caps(f->apart, 0, list, sizeof(list));
		fprintf(out,
			"# held apart: %s: root-equivalent and not proven "
			"needed: no line here grants %s; grant %s by hand only "
			"once a proof keeps %s\n",
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
		capability_name(c, name, sizeof(name));
		fprintf(out,
			"# left out: %s (%s): checked %llu times (%llu "
			"granted); the kernel asks for it on its own (the "
			"overcommit reserve of every private writable mapping, "
			"the fallback of cap_perfmon), so these checks show no "
			"need; add it by hand only if the program fails "
			"without it\n",
			name, risk_tier_name(risk_tier_of(c)),
			(unsigned long long)(total(t, c, 0) + total(t, c, 1)),
			(unsigned long long)total(t, c, 0));
	}
	for (MASK_EACH(c, sg->unused)) {
		capability_name(c, name, sizeof(name));
		fprintf(out,
			"# left out: %s: refused, yet the run succeeded "
			"without it\n",
			name);
	}
	if (sg->not_own & ~sg->incidental) {
		list_caps(sg->not_own & ~sg->incidental, 0, list, sizeof(list));
		fprintf(out,
			"# left out: %s: checked only in a user namespace the "
			"command made or under a credential not its own (see "
			"the table): no file capability answers those\n",
			list);
	}
}

void suggest_print(const struct suggestion *sg, const struct tally *t,
		   const struct run_result *rr, const char *command,
		   const char *user, FILE *out)
{
	uint64_t grant = every_file(sg, 0);
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
	if (grant == 0 && every_file(sg, 1) != 0) {
		fprintf(out, "# no line here grants anything: every candidate "
			     "is root-equivalent and unproven (held apart "
			     "above)\n");
	} else if (grant == 0) {
		if (!(sg->proven && sg->runs == 0))
			fprintf(out, "# nothing to grant: %s\n",
				sg->proven   ? "the command succeeds as well "
					       "without any capability"
				: sg->failed ? "no check the command made "
					       "itself was refused; "
					       "its failure is not about "
					       "capabilities a file could hold"
					     : "this run needed no capability");
	} else {
		list_caps(grant, 0, list, sizeof(list));
		fprintf(out,
			"# capability.conf (pam_cap; each file then needs its "
			"capabilities =ei, not =ep):\n%s\t",
			list);
		escape_fputs(user, out);
		list_caps(grant, 1, list, sizeof(list));
		fprintf(out,
			"\n# systemd unit, [Service] section (ambient: every "
			"program of the service gets them):\n");
		fprintf(out, "AmbientCapabilities=%s\n", list);
		fprintf(out, "CapabilityBoundingSet=%s\n", list);
	}
	print_left_out(sg, t, out);
	for (i = 0; i < sg->nfiles; i++)
		if ((sg->files[i].apart & BIT(CAP_DAC_OVERRIDE)) &&
		    (sg->files[i].apart & BIT(CAP_DAC_READ_SEARCH)) &&
		    !sg->proven)
			fprintf(out,
				"# note: the kernel asks for "
				"cap_dac_override, then cap_dac_read_search; "
				"for reading, cap_dac_read_search alone may be "
				"enough\n");
	if (sg->failed && !sg->proven)
		fprintf(out,
			"# not exercised: the command failed (%s %d), so "
			"checks it would have made later are not known; grant "
			"this and run capaudit again\n",
			WIFSIGNALED(rr->status) ? "signal" : "exit status",
			WIFSIGNALED(rr->status) ? WTERMSIG(rr->status)
						: WEXITSTATUS(rr->status));
	if (rr->attached)
		fprintf(out,
			"# not exercised: capaudit watched a running process "
			"for %.2f s only; checks before and after are not "
			"known\n",
			rr->seconds);
	if (t->lost)
		fprintf(out,
			"# not exercised: %llu samples were lost, so a "
			"capability may be missing here\n",
			(unsigned long long)t->lost);
	if (t->unfollowed)
		fprintf(out,
			"# not exercised: %llu threads were not followed, so a "
			"capability may be missing here\n",
			(unsigned long long)t->unfollowed);
	fprintf(out, "# not exercised: only the paths this run took; other "
		     "options, inputs and error paths may need more\n");
}

static void json_caps(uint64_t mask, FILE *out)
{
	char name[64];
	int c, first = 1;

	fputc('[', out);
	for (MASK_EACH(c, mask)) {
		capability_name(c, name, sizeof(name));
		fprintf(out, "%s{\"name\":", first ? "" : ",");
		json_string(out, name);
		fprintf(out, ",\"risk\":\"%s\"}",
			risk_tier_name(risk_tier_of(c)));
		first = 0;
	}
	fputc(']', out);
}

void suggest_json(const struct suggestion *sg, const struct tally *t,
		  const char *command, FILE *out)
{
	uint64_t grant = every_file(sg, 0);
	char list[1024];
	size_t i;
	int first = 1;

	(void)t;
	json_object_open(out, "suggest");
	fprintf(out, "\"failed\":%s,\"proven\":%s,\"unproven\":",
		sg->failed ? "true" : "false", sg->proven ? "true" : "false");
	if (sg->proven)
		fputs("null", out);
	else
		json_string(out, sg->unproven);
	fprintf(out, ",\"runs\":%d,\"capabilities\":", sg->runs);
	json_caps(grant, out);
	fputs(",\"held_apart\":", out);
	json_caps(every_file(sg, 1), out);
	fprintf(out, ",\"files\":[");
	for (i = 0; i < sg->nfiles; i++) {
		const struct need_file *f = &sg->files[i];

		if ((f->grant | f->apart) == 0)
			continue;
		fprintf(out, "%s{", first ? "" : ",");
		first = 0;
		if (f->path != NULL)
			json_path(out, "path", f->path);
		else
			fputs("\"path\":null", out);
		fputs(",\"command\":", out);
		json_string(out, f->comm);
		fprintf(out, ",\"proven\":%s,\"capabilities\":",
			sg->proven ? "true" : "false");
		json_caps(f->grant, out);
		fputs(",\"held_apart\":", out);
		json_caps(f->apart, out);
		list_caps(f->grant, 0, list, sizeof(list));
		fprintf(out, ",\"setcap\":");
		json_string(out, f->grant ? list : "");
		fprintf(out, ",\"interpreter\":%s}",
			f->path != NULL && is_interpreter(f->path) ? "true"
								   : "false");
	}
	fprintf(out, "],\"left_out\":{");
	json_vector(out, "incidental", sg->incidental);
	fprintf(out, ",");
	json_vector(out, "unused", sg->unused);
	fprintf(out, ",");
	json_vector(out, "not_own", sg->not_own & ~sg->incidental);
	fprintf(out, "},\"command\":");
	json_string(out, command != NULL ? command : "");
	list_caps(grant, 0, list, sizeof(list));
	fprintf(out, ",\"setcap\":");
	json_string(out, grant ? list : "");
	fprintf(out, "}\n");
}

void suggest_free(struct suggestion *sg)
{
	size_t i;

	for (i = 0; i < sg->nfiles; i++) {
		size_t j;

		free(sg->files[i].path);
		if (sg->files[i].fd >= 0)
			close(sg->files[i].fd);
		for (j = 0; j < sg->files[i].nlibs; j++)
			free(sg->files[i].libs[j].path);
		free(sg->files[i].libs);
	}
	free(sg->files);
	free(sg->log);
	memset(sg, 0, sizeof(sg[0]));
}
