/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest: the trials for real, each a run of the command
 * with file capabilities on copies of its files.
 */
#ifndef CAPAUDIT_RUNNER_H
#define CAPAUDIT_RUNNER_H

#include "capaudit_launch.h"
#include "capaudit_trial.h"

struct source;
struct trial_ops;

/* What the trials need besides the suggestion. */
struct trials {
	struct launch launch;
	const struct source *src;
	struct grant_plan plan;
};

/*
 * ops for trials of l's command, launched as l says (copied into tr),
 * watched through src. tr holds the trials' state: the caller keeps it
 * while ops is in use (suggest_make()). The trials need root
 * (ops->possible() says so otherwise).
 */
void trials_ops_init(struct trial_ops *ops, struct trials *tr,
		     const struct launch *l, const struct source *src);

#endif
