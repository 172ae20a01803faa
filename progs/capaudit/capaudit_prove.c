/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The least grant, shown by experiment rather than read off one run: a
 * refused check may be one the program went on without (ping asks for
 * cap_setuid and cap_setpcap to drop them), and a granted one may be a
 * privilege it happened to have. So the command runs again with every
 * candidate granted, again while new candidates appear (a granted step
 * leads to the next), and then once without each candidate in turn; what
 * it can do without goes. A proof needs every run to start from the same
 * state, and a command that changes what it works on (a file it chowns)
 * would start the next run from another: so the trials begin and end
 * with a run without any capability, which must fail when something is
 * needed and do and ask the same both times, and each run without a
 * capability must do what the run before it did until it asks for that
 * capability. The runs themselves are capaudit_trial.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "capaudit.h"
#include "capaudit_interp.h"
#include "capaudit_prove.h"
#include "capaudit_report.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "escape.h"
#include "mask.h"
#include "names.h"
#include "risk.h"

/* Rounds of "grant every candidate, see what else is asked". */
#define CONVERGE_MAX 8

/*
 * Capabilities a check asks about when a process acts on another one:
 * cap_kill (kill(2)), cap_sys_ptrace (ptrace(2), /proc/PID/mem),
 * cap_sys_nice (setpriority(2) of another's), cap_sys_resource
 * (prlimit(2) of another's).
 */
#define OVER_OTHERS                                      \
	(MASK_BIT(CAP_KILL) | MASK_BIT(CAP_SYS_PTRACE) | \
	 MASK_BIT(CAP_SYS_NICE) | MASK_BIT(CAP_SYS_RESOURCE))

/* Said of runs that did not start from the same state. */
#define CHANGES	 "the command changes what it works on: "
#define NOT_SAME " (the runs did not start from the same state)"

int success_of(const struct success *succ, int have_reference, int reference,
	       int st)
{
	int i;

	if (succ->n > 0) {
		if (!WIFEXITED(st))
			return 0;
		for (i = 0; i < succ->n; i++)
			if (WEXITSTATUS(st) == succ->status[i])
				return 1;
		return 0;
	}
	if (!have_reference)
		return 0;
	if (WIFEXITED(st) && WIFEXITED(reference))
		return WEXITSTATUS(st) == WEXITSTATUS(reference);
	return WIFSIGNALED(st) && WIFSIGNALED(reference) &&
	       WTERMSIG(st) == WTERMSIG(reference);
}

static int log_trial(struct suggestion *sg, int file, int cap, int status,
		     int success, int again, size_t left)
{
	struct trial_log *l;

	if (sg->nlog == sg->log_size) {
		size_t n = sg->log_size ? sg->log_size * 2 : 16;
		struct trial_log *q = reallocarray(sg->log, n, sizeof(*q));

		if (q == NULL)
			return -1;
		sg->log = q;
		sg->log_size = n;
	}
	l = &sg->log[sg->nlog++];
	l->file = file;
	l->cap = cap;
	l->status = status;
	l->success = success;
	l->again = again;
	l->left = left;
	return 0;
}

static int log_run(struct suggestion *sg, int file, int cap, int status,
		   int success, size_t left)
{
	return log_trial(sg, file, cap, status, success, 0, left);
}

/*
 * One run; -1 after setting sg->unproven. Every trial is made here: as
 * a user other than root (not SECBIT_NOROOT's uid 0), one that would
 * give an interpreter a root-equivalent capability is not made
 * (capaudit_interp.c), whichever step asked for it.
 */
static int one_run(struct suggestion *sg, const struct trial_runner *runner,
		   const uint64_t *grant, struct run_result *rr,
		   struct tally *t)
{
	if (!sg->noroot && !interp_grant_allowed(sg, grant, sg->unproven,
						 sizeof(sg->unproven)))
		return -1;
	if (sg->runs >= TRIALS_MAX) {
		snprintf(sg->unproven, sizeof(sg->unproven),
			 "it would take more than %d runs", TRIALS_MAX);
		return -1;
	}
	sg->runs++;
	memset(rr, 0, sizeof(*rr));
	if (runner->run(runner->ctx, sg, grant, rr, t) < 0) {
		if (sg->unproven[0] == '\0')
			snprintf(sg->unproven, sizeof(sg->unproven),
				 "a trial run failed");
		return -1;
	}
	return 0;
}

/*
 * What one run did: which run it was, how it ended, and file by file
 * the capabilities it asked for and whether it was seen running.
 */
struct run_view {
	int run, status;
	uint64_t *asked;
	unsigned char *seen;
};

static void view_free(struct run_view *v)
{
	free(v->asked);
	free(v->seen);
	memset(v, 0, sizeof(*v));
}

/* 0, or -1 (ENOMEM) with v->asked NULL. */
static int view_alloc(struct run_view *v, size_t n)
{
	memset(v, 0, sizeof(*v));
	v->asked = calloc(n ? n : 1, sizeof(*v->asked));
	v->seen = calloc(n ? n : 1, 1);
	if (v->asked != NULL && v->seen != NULL)
		return 0;
	view_free(v);
	return -1;
}

/* The run sg->runs, which ended with status, from its tally t. */
static void view_take(struct run_view *v, const struct suggestion *sg,
		      const struct tally *t, int status)
{
	v->run = sg->runs;
	v->status = status;
	suggest_asked(sg, t, v->asked, v->seen);
}

static void view_copy(struct run_view *to, const struct run_view *from,
		      size_t n)
{
	to->run = from->run;
	to->status = from->status;
	memcpy(to->asked, from->asked, n * sizeof(*to->asked));
	memcpy(to->seen, from->seen, n);
}

/*
 * Every candidate granted, until no run asks for a new one; what the
 * last run did into ref (allocated here, the caller frees it).
 */
static int converge(struct suggestion *sg, const struct trial_runner *runner,
		    uint64_t **grant, struct run_view *ref)
{
	struct run_result rr;
	struct tally t;
	size_t i;
	int round, added;

	for (round = 0;; round++) {
		uint64_t *g = reallocarray(*grant, sg->nfiles ? sg->nfiles : 1,
					   sizeof(*g));

		if (g == NULL)
			return -1;
		*grant = g;
		for (i = 0; i < sg->nfiles; i++)
			g[i] = sg->files[i].candidates;
		if (one_run(sg, runner, g, &rr, &t) < 0)
			return -1;
		added = suggest_merge(sg, &t);
		if (added == 0 && view_alloc(ref, sg->nfiles) == 0)
			view_take(ref, sg, &t, rr.status);
		tally_free(&t);
		if (added < 0 ||
		    log_run(sg, -1, 0, rr.status, 1, rr.left) < 0 ||
		    (added == 0 && ref->asked == NULL))
			return -1;
		if (added == 0) {
			sg->reference = rr.status;
			sg->have_reference = 1;
			sg->reference_run = sg->runs;
			return 0;
		}
		if (round + 1 >= CONVERGE_MAX) {
			snprintf(
				sg->unproven, sizeof(sg->unproven),
				"each of %d runs with every candidate granted asked for more",
				CONVERGE_MAX);
			return -1;
		}
	}
}

/*
 * Whether the trial without cap on file ran as a run from the state of
 * the run before it (base, whose grant it had but for cap) would: until
 * its first check of cap, a run without it does what that run did. So
 * it asks for cap if that run did, and ends as that run did if that run
 * never asked. 1 after saying why in sg->unproven when it did not:
 * something the runs work on changed (a file chowned by the run
 * before), and what it did without cap shows nothing. A file perf did
 * not see run in either (it gained capabilities at an exec another
 * program made, where perf stops watching) is left to same_start().
 */
static int diverged(struct suggestion *sg, int file, int cap, int ok,
		    const struct run_view *base, const struct run_view *trial)
{
	char name[64], what[64], was[64], *shown;
	uint64_t bit = MASK_BIT(cap);

	if (!base->seen[file] || !trial->seen[file] ||
	    ((base->asked[file] & bit) ? (trial->asked[file] & bit) != 0 : ok))
		return 0;
	names_cap(cap, name, sizeof(name));
	shown = escape_dup(sg->files[file].path != NULL ? sg->files[file].path
							: sg->files[file].comm);
	if (base->asked[file] & bit) {
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			CHANGES
			"run %d, without %s on %.120s, did not ask for it, where run %d did" NOT_SAME,
			trial->run, name, shown ? shown : "a file", base->run);
	} else {
		describe_status(trial->status, what, sizeof(what));
		describe_status(base->status, was, sizeof(was));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			CHANGES
			"run %d, without %s on %.120s, which run %d did not ask for, %s where run %d %s" NOT_SAME,
			trial->run, name, shown ? shown : "a file", base->run,
			what, base->run, was);
	}
	free(shown);
	return 1;
}

struct pair {
	int file, cap;
	int needed_in; /* the run without it that failed; 0: not needed */
};

/* The most dangerous first: of two that can stand in for each other, it goes. */
static int by_danger(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	enum risk_tier tx = risk_tier_of(x->cap), ty = risk_tier_of(y->cap);

	if (tx != ty)
		return tx > ty ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->cap < y->cap ? -1 : x->cap > y->cap;
}

/*
 * One failed run without a capability is not yet a need: a command that
 * fails now and then (a lost packet, a timeout, a run it counts) would
 * keep whatever was left out of that run, cap_setuid as readily as any.
 * So each capability kept is left out once more, from the least grant
 * found (base: its run), and that run must fail as well. Where the
 * least grant holds one capability only, that run is the one without
 * any capability, which same_start() makes anyway. -1 after saying why
 * in sg->unproven.
 */
static int confirm(struct suggestion *sg, const struct success *succ,
		   const struct trial_runner *runner, uint64_t *grant,
		   const struct run_view *base, const struct pair *pairs,
		   size_t n)
{
	char name[64], what[64], *shown;
	struct run_view view = { 0 }, *trial = &view;
	struct run_result rr;
	uint64_t bit, kept = 0;
	struct tally t;
	size_t i;
	int ok, rc = -1;

	for (i = 0; i < sg->nfiles; i++)
		kept += (uint64_t)__builtin_popcountll(grant[i]);
	if (kept < 2)
		return 0;
	if (view_alloc(&view, sg->nfiles) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (pairs[i].needed_in == 0)
			continue;
		bit = MASK_BIT(pairs[i].cap);
		grant[pairs[i].file] &= ~bit;
		if (one_run(sg, runner, grant, &rr, &t) < 0)
			goto out;
		grant[pairs[i].file] |= bit;
		view_take(trial, sg, &t, rr.status);
		tally_free(&t);
		ok = success_of(succ, sg->have_reference, sg->reference,
				rr.status);
		if (log_trial(sg, pairs[i].file, pairs[i].cap, rr.status, ok, 1,
			      rr.left) < 0 ||
		    diverged(sg, pairs[i].file, pairs[i].cap, ok, base, trial))
			goto out;
		if (!ok)
			continue;
		names_cap(pairs[i].cap, name, sizeof(name));
		describe_status(rr.status, what, sizeof(what));
		shown = escape_dup(sg->files[pairs[i].file].path != NULL
					   ? sg->files[pairs[i].file].path
					   : sg->files[pairs[i].file].comm);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"the command does not end the same way each time: run %d, without %s on %.120s, %s, where run %d without it failed",
			sg->runs, name, shown != NULL ? shown : "a file", what,
			pairs[i].needed_in);
		free(shown);
		goto out;
	}
	rc = 0;
out:
	view_free(&view);
	return rc;
}

/*
 * Every trial is judged by the reference, the run with every candidate
 * granted: one such run that ended otherwise than the command does
 * (killed by the OOM killer, or by another process of the user's, which
 * kill(2) allows; a network that failed once) makes each trial "fail"
 * and keeps every candidate. So the least grant found must end as the
 * reference did in a run of its own: a trial that left a capability out
 * and succeeded ran with it (the last such trial's grant is the least
 * grant); where none did, that grant runs once more when it matters
 * most, and costs the least to find: the reference ended by a signal
 * (which anyone may send), or the grant holds a root-equivalent
 * capability. -1 after saying why in sg->unproven.
 */
static int reproduced(struct suggestion *sg, const struct success *succ,
		      const struct trial_runner *runner, const uint64_t *grant,
		      const struct pair *pairs, size_t n)
{
	char what[64], was[64];
	struct run_result rr;
	struct tally t;
	int root = 0, c;
	size_t i;

	for (i = 0; i < n; i++)
		if (pairs[i].needed_in == 0)
			return 0;
	for (i = 0; i < sg->nfiles; i++)
		for (MASK_EACH(c, grant[i]))
			root |= risk_tier_of(c) == RISK_ROOT;
	if (!root && !WIFSIGNALED(sg->reference))
		return 0;
	if (one_run(sg, runner, grant, &rr, &t) < 0)
		return -1;
	tally_free(&t);
	if (log_trial(sg, -1, 0, rr.status,
		      success_of(succ, sg->have_reference, sg->reference,
				 rr.status),
		      1, rr.left) < 0)
		return -1;
	if (success_of(succ, sg->have_reference, sg->reference, rr.status))
		return 0;
	describe_status(rr.status, what, sizeof(what));
	describe_status(sg->reference, was, sizeof(was));
	snprintf(
		sg->unproven, sizeof(sg->unproven),
		"the command does not end the same way each time: run %d, with every candidate granted again, %s, where run %d %s",
		sg->runs, what, sg->reference_run, was);
	return -1;
}

/* Into *kept (the caller frees it): each pair tried, and where it was needed. */
static int minimize(struct suggestion *sg, const struct success *succ,
		    const struct trial_runner *runner, uint64_t *grant,
		    struct run_view *base, struct pair **kept, size_t *npairs)
{
	struct run_view trial = { 0 };
	struct pair *pairs;
	size_t n = 0, i;
	struct run_result rr;
	struct tally t;
	int c, ok, rc = -1;

	for (i = 0; i < sg->nfiles; i++)
		n += (size_t)__builtin_popcountll(grant[i]);
	pairs = calloc(n ? n : 1, sizeof(*pairs));
	if (pairs == NULL || view_alloc(&trial, sg->nfiles) < 0)
		goto out;
	n = 0;
	for (i = 0; i < sg->nfiles; i++)
		for (MASK_EACH(c, grant[i])) {
			pairs[n].file = (int)i;
			pairs[n++].cap = c;
		}
	qsort(pairs, n, sizeof(*pairs), by_danger);
	for (i = 0; i < n; i++) {
		uint64_t bit = MASK_BIT(pairs[i].cap);

		grant[pairs[i].file] &= ~bit;
		if (one_run(sg, runner, grant, &rr, &t) < 0)
			goto out;
		view_take(&trial, sg, &t, rr.status);
		tally_free(&t);
		ok = success_of(succ, sg->have_reference, sg->reference,
				rr.status);
		if (log_run(sg, pairs[i].file, pairs[i].cap, rr.status, ok,
			    rr.left) < 0 ||
		    diverged(sg, pairs[i].file, pairs[i].cap, ok, base, &trial))
			goto out;
		if (!ok) {
			grant[pairs[i].file] |= bit; /* needed: it stays */
			pairs[i].needed_in = sg->runs;
		} else { /* its grant is the grant now: the next trial's base */
			view_copy(base, &trial, sg->nfiles);
		}
	}
	*kept = pairs;
	*npairs = n;
	pairs = NULL;
	rc = 0;
out:
	view_free(&trial);
	free(pairs);
	return rc;
}

/*
 * A run with every file of the suggestion on a copy without any
 * capability: where the trials start from, kept in t (the caller frees
 * it). Its checks are all seen, as no exec in it gains a capability
 * (perf stops watching one that does when another program started it).
 */
static int plain_run(struct suggestion *sg, const struct trial_runner *runner,
		     struct tally *t, int *status)
{
	uint64_t *none = calloc(sg->nfiles ? sg->nfiles : 1, sizeof(*none));
	struct run_result rr;
	int rc;

	if (none == NULL)
		return -1;
	rc = one_run(sg, runner, none, &rr, t);
	free(none);
	if (rc < 0)
		return -1;
	*status = rr.status;
	if (log_run(sg, PLAIN_RUN, 0, rr.status, 0, rr.left) < 0) {
		tally_free(t);
		return -1;
	}
	return 0;
}

/* "cap_a,cap_b", or "nothing". */
static void asked_names(uint64_t mask, char *buf, size_t size)
{
	if (mask == 0)
		snprintf(buf, size, "nothing");
	else
		mask_names(buf, size, mask, 4);
}

/*
 * The grant holds only if the trials started from the state the first
 * run without any capability (plain0, which ended with status0) did:
 * that run failed if something is needed and succeeded if nothing is
 * (first_agrees(), which needs no run), and the same run once more ends
 * and asks as it did (same_start()). -1 after saying why in
 * sg->unproven.
 */
static int first_agrees(struct suggestion *sg, const struct success *succ,
			const uint64_t *grant, int status0)
{
	char was[64], got[100];
	uint64_t any = 0;
	size_t i;
	int ok0;

	for (i = 0; i < sg->nfiles; i++)
		any |= grant[i];
	ok0 = success_of(succ, sg->have_reference, sg->reference, status0);
	describe_status(status0, was, sizeof(was));
	if (ok0 && any != 0) {
		asked_names(any, got, sizeof(got));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			CHANGES
			"run 1, without any capability, %s, which counts as success, yet later runs needed %s" NOT_SAME,
			was, got);
		return -1;
	}
	if (!ok0 && any == 0) {
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			CHANGES
			"run 1, without any capability, %s, yet later runs without any succeeded" NOT_SAME,
			was);
		return -1;
	}
	return 0;
}

/* The run without any capability once more: it ends and asks as run 1 did. */
static int same_start(struct suggestion *sg, const struct trial_runner *runner,
		      const struct tally *plain0, int status0)
{
	char what[64], was[64], got[100], had[100], *shown;
	struct run_view first = { 0 }, again = { 0 };
	struct tally plain1;
	int status1, rc = -1;
	size_t i;

	describe_status(status0, was, sizeof(was));
	if (plain_run(sg, runner, &plain1, &status1) < 0)
		return -1;
	if (view_alloc(&first, sg->nfiles) == 0 &&
	    view_alloc(&again, sg->nfiles) == 0) {
		view_take(&first, sg, plain0, status0);
		view_take(&again, sg, &plain1, status1);
	}
	tally_free(&plain1);
	if (first.asked == NULL || again.asked == NULL)
		goto out;
	if (status1 != status0) {
		describe_status(status1, what, sizeof(what));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			CHANGES
			"run %d, without any capability as run 1 was, %s where run 1 %s" NOT_SAME,
			sg->runs, what, was);
		goto out;
	}
	for (i = 0; i < sg->nfiles && first.asked[i] == again.asked[i]; i++)
		;
	if (i < sg->nfiles) {
		asked_names(again.asked[i], got, sizeof(got));
		asked_names(first.asked[i], had, sizeof(had));
		shown = escape_dup(sg->files[i].path != NULL
					   ? sg->files[i].path
					   : sg->files[i].comm);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			CHANGES
			"run %d, without any capability as run 1 was, asked for %s on %.100s where run 1 asked for %s" NOT_SAME,
			sg->runs, got, shown != NULL ? shown : "a file", had);
		free(shown);
		goto out;
	}
	rc = 0;
out:
	view_free(&first);
	view_free(&again);
	return rc;
}

/*
 * A trial runs in a PID namespace of its own (capaudit_contain.c),
 * where no process outside it is there: a command that signalled,
 * traced or reniced one in its own run (first, file by file, what it
 * asked for) finds none in a trial, and asks nothing. What the trials
 * then make of it would be about another run than the command's. So a
 * capability over another process that the command's own run asked
 * for, and the run with every candidate granted (ref) did not, leaves
 * the grant unproven. 1 after saying why in sg->unproven.
 */
static int others_unseen(struct suggestion *sg, const uint64_t *first,
			 size_t nfirst, const struct run_view *ref)
{
	char names[100], *shown;
	uint64_t lost;
	size_t i;

	for (i = 0; i < nfirst; i++) {
		lost = first[i] & ~ref->asked[i] & OVER_OTHERS;
		if (!ref->seen[i] || lost == 0)
			continue;
		mask_names(names, sizeof(names), lost, 4);
		shown = escape_dup(sg->files[i].path != NULL
					   ? sg->files[i].path
					   : sg->files[i].comm);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"run %d, with every candidate granted, did not ask for %s on %.120s, which the command's own run asked for: a trial runs in a PID namespace of its own, where no process outside it is there to signal, trace or renice",
			ref->run, names, shown != NULL ? shown : "a file");
		free(shown);
		return 1;
	}
	return 0;
}

int suggest_prove(struct suggestion *sg, const struct success *succ,
		  const struct trial_runner *runner)
{
	struct run_view ref = { 0 };
	struct pair *pairs = NULL;
	uint64_t *grant = NULL;
	size_t npairs = 0;
	struct tally plain;
	uint64_t *first;
	size_t i, nfirst = sg->nfiles;
	char what[64];
	int rc = -1, have_plain = 0, plain_status = 0;

	sg->unproven[0] = '\0';
	/* What the command's own run asked for: later runs add to it. */
	first = calloc(nfirst ? nfirst : 1, sizeof(*first));
	if (first == NULL)
		goto unproven;
	for (i = 0; i < nfirst; i++)
		first[i] = sg->files[i].candidates;
	if (plain_run(sg, runner, &plain, &plain_status) < 0)
		goto unproven;
	have_plain = 1;
	if (converge(sg, runner, &grant, &ref) < 0 ||
	    others_unseen(sg, first, nfirst, &ref))
		goto unproven;
	/*
	 * The command did well as it was, and not with every candidate on
	 * copies: the copies do not stand for the files, and nothing the
	 * trials say would mean anything.
	 */
	if (succ->n == 0 && !sg->failed &&
	    !success_of(succ, 1, sg->first, sg->reference)) {
		describe_status(sg->reference, what, sizeof(what));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"with every candidate granted on copies the command %s, though it exited with status 0 as it was",
			what);
		goto unproven;
	}
	/*
	 * It failed as it was, and fails the same way with every candidate:
	 * what it lacks is not among them (a failure not about capabilities,
	 * or a need its checks did not show), and "ends as the reference"
	 * would call every failure success.
	 */
	if (succ->n == 0 && sg->failed &&
	    success_of(succ, 1, sg->first, sg->reference)) {
		describe_status(sg->reference, what, sizeof(what));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"with every candidate granted the command still %s, as it did without: what it lacks is not among them (--success names what success is)",
			what);
		goto unproven;
	}
	if (!success_of(succ, sg->have_reference, sg->reference,
			sg->reference)) {
		describe_status(sg->reference, what, sizeof(what));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"with every candidate granted the command %s, which --success does not count as success",
			what);
		goto unproven;
	}
	if (minimize(sg, succ, runner, grant, &ref, &pairs, &npairs) < 0 ||
	    first_agrees(sg, succ, grant, plain_status) < 0 ||
	    reproduced(sg, succ, runner, grant, pairs, npairs) < 0 ||
	    confirm(sg, succ, runner, grant, &ref, pairs, npairs) < 0 ||
	    same_start(sg, runner, &plain, plain_status) < 0)
		goto unproven;
	for (i = 0; i < sg->nfiles; i++)
		sg->files[i].grant = grant[i];
	sg->proven = 1;
	rc = 0;
	goto out;
unproven:
	if (sg->unproven[0] == '\0')
		snprintf(sg->unproven, sizeof(sg->unproven), "%s",
			 strerror(ENOMEM));
	suggest_unproven(sg, sg->unproven);
	rc = 0;
out:
	if (have_plain)
		tally_free(&plain);
	view_free(&ref);
	free(first);
	free(pairs);
	free(grant);
	return rc;
}
