/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: the grant shown by experiment. */
#ifndef CAPAUDIT_PROVE_H
#define CAPAUDIT_PROVE_H

#include <stdint.h>

struct run_result;
struct success;
struct suggestion;
struct tally;

/*
 * Runs the command once with grant[i] on sg->files[i] (every file of
 * sg, each with exactly those capabilities), into rr and t (which the
 * runner initialises and finishes). 0, or -1 with the reason in
 * sg->unproven (and t left free): the trials stop.
 */
struct trial_runner {
	int (*run)(void *ctx, struct suggestion *sg, const uint64_t *grant,
		   struct run_result *rr, struct tally *t);
	void *ctx;
};

/* The most runs one --suggest makes, every trial counted. */
#define TRIALS_MAX 100

/*
 * Grants every candidate and runs again until no new one appears (the
 * reference run), then runs without each candidate in turn, the most
 * dangerous first, and keeps only those without which the run does not
 * succeed. Sets sg->grant, proven or unproven (with the reason).
 * Returns 0, or -1 when a run could not be made (after a message).
 */
int suggest_prove(struct suggestion *sg, const struct success *succ,
		  const struct trial_runner *runner);
/* Whether wait status st is a success. */
int success_of(const struct success *succ, int have_reference, int reference,
	       int st);

#endif
