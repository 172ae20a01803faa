/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The least grant, shown by experiment rather than read off one run: a
 * refused check may be one the program went on without (ping asks for
 * cap_setuid and cap_setpcap to drop them), and a granted one may be a
 * privilege it happened to have. So the command runs again with every
 * candidate granted, again while new candidates appear (a granted step
 * leads to the next), and then once without each candidate in turn; what
 * it can do without goes. The runs themselves are capaudit_trial.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "capaudit.h"
#include "mask.h"
#include "risk.h"

/* Rounds of "grant every candidate, see what else is asked". */
#define CONVERGE_MAX 8

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

static int log_run(struct suggestion *sg, int file, int cap, int status,
		   int success, size_t left)
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
	l->left = left;
	return 0;
}

/* One run; -1 after setting sg->unproven. */
static int one_run(struct suggestion *sg, const struct trial_runner *runner,
		   const uint64_t *grant, struct run_result *rr,
		   struct tally *t)
{
	if (sg->runs >= TRIALS_MAX) {
		snprintf(sg->unproven, sizeof(sg->unproven),
			 "it would take more "
			 "than %d runs",
			 TRIALS_MAX);
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

/* Every candidate granted, until no run asks for a new one. */
static int converge(struct suggestion *sg, const struct trial_runner *runner,
		    uint64_t **grant)
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
		tally_free(&t);
		if (added < 0 || log_run(sg, -1, 0, rr.status, 1, rr.left) < 0)
			return -1;
		if (added == 0) {
			sg->reference = rr.status;
			sg->have_reference = 1;
			return 0;
		}
		if (round + 1 >= CONVERGE_MAX) {
			snprintf(sg->unproven, sizeof(sg->unproven),
				 "each of %d runs "
				 "with every candidate granted asked for more",
				 CONVERGE_MAX);
			return -1;
		}
	}
}

struct pair {
	int file, cap;
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

static int minimize(struct suggestion *sg, const struct success *succ,
		    const struct trial_runner *runner, uint64_t *grant)
{
	struct pair *pairs;
	size_t n = 0, i;
	struct run_result rr;
	struct tally t;
	int c, ok;

	for (i = 0; i < sg->nfiles; i++)
		n += (size_t)__builtin_popcountll(grant[i]);
	pairs = calloc(n ? n : 1, sizeof(*pairs));
	if (pairs == NULL)
		return -1;
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
		if (one_run(sg, runner, grant, &rr, &t) < 0) {
			free(pairs);
			return -1;
		}
		tally_free(&t);
		ok = success_of(succ, sg->have_reference, sg->reference,
				rr.status);
		if (log_run(sg, pairs[i].file, pairs[i].cap, rr.status, ok,
			    rr.left) < 0) {
			free(pairs);
			return -1;
		}
		if (!ok)
			grant[pairs[i].file] |= bit; /* needed: it stays */
	}
	free(pairs);
	return 0;
}

int suggest_prove(struct suggestion *sg, const struct success *succ,
		  const struct trial_runner *runner)
{
	uint64_t *grant = NULL;
	char what[64];
	size_t i;
	int rc = -1;

	sg->unproven[0] = '\0';
	if (converge(sg, runner, &grant) < 0)
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
			"with every candidate "
			"granted on copies the command %s, though it exited with "
			"status 0 as it was",
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
			"with every candidate "
			"granted the command still %s, as it did without: what it "
			"lacks is not among them (--success names what success is)",
			what);
		goto unproven;
	}
	if (!success_of(succ, sg->have_reference, sg->reference,
			sg->reference)) {
		describe_status(sg->reference, what, sizeof(what));
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"with every candidate "
			"granted the command %s, which --success does not count as "
			"success",
			what);
		goto unproven;
	}
	if (minimize(sg, succ, runner, grant) < 0)
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
	free(grant);
	return rc;
}
