/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest: from a finished run to the suggestion and its
 * verdict, with the trials that prove it made through a struct
 * trial_ops (capaudit_runner.c's, or a test's).
 */
#ifndef CAPAUDIT_VERDICT_H
#define CAPAUDIT_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct container_sets;
struct run_result;
struct success;
struct suggestion;
struct tally;

/* What --suggest was asked besides the run: the options that decide. */
struct suggest_request {
	const char *user; /* --user's name, or NULL */
	uid_t uid;	  /* --user's uid */
	gid_t gid;	  /* --user's group */
	uid_t euid;   /* capaudit's effective uid: the trials' without --user */
	gid_t egid;   /* capaudit's effective gid: the trials' without --user */
	int attached; /* --pid: the process cannot be run again */
	int no_minimize; /* --no-minimize: the command ran once, no trial */
	/* --no-container: nothing for containers. */
	int no_container;
	unsigned long long trial_timeout; /* --trial-timeout's seconds, or 0 */
	const struct success *success;	  /* --success */
	const char *path;		  /* the command, resolved */
};

/*
 * What the trials need of the machine. Each why is a clause that follows
 * "NOT PROVEN (" in the report.
 */
struct trial_ops {
	/* Whether the trials can grant file capabilities here: 1, or 0 with why. */
	int (*possible)(void *ctx, char *why, size_t len);
	/* Whether the trials may run the command at path: 1, or 0 with why. */
	int (*command_allowed)(void *ctx, const char *path, char *why,
			       size_t len);
	/*
	 * Gets ready for trials that each end after limit seconds, as uid 0
	 * under SECBIT_NOROOT when noroot: 0, or -1 with why.
	 */
	int (*begin)(void *ctx, double limit, int noroot, char *why,
		     size_t len);
	/* One trial, as struct trial_runner's run (capaudit_prove.h). */
	int (*run)(void *ctx, struct suggestion *sg, const uint64_t *grant,
		   struct run_result *rr, struct tally *t);
	/* After the trials; called once begin() returned 0, never otherwise. */
	void (*end)(void *ctx);
	/*
	 * One run in a container's sets, as struct container_runner's run
	 * (capaudit_container.h): after the trials, before end().
	 */
	int (*run_contained)(void *ctx, struct suggestion *sg,
			     const uint64_t *grant,
			     const struct container_sets *cs,
			     struct run_result *rr, struct tally *t);
	void *ctx;
};

/*
 * --suggest: the candidates of the run t (which ended as rr) into sg,
 * then, when trials may be made, the grant proven by them through ops;
 * otherwise sg is unproven, with the reason. Then, unless
 * --no-container, the grant in a container (sg->container), its ways
 * proven by a run each in a proven grant's trials. The caller frees sg
 * with suggest_free().
 */
void suggest_make(const struct suggest_request *rq, const struct tally *t,
		  const struct run_result *rr, const struct trial_ops *ops,
		  struct suggestion *sg);
/*
 * What a trial that ran (rr, its tally t) proves: 0 when it may be
 * judged, else -1 after the reason in sg->unproven and tally_free(t):
 * processes left that capaudit could not end, signals from outside, or
 * ended by capaudit (limit: its time limit in seconds, or a stop).
 */
int trial_judge(struct suggestion *sg, const struct run_result *rr,
		struct tally *t, double limit);

#endif
