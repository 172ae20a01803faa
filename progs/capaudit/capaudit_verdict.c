/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --suggest's verdict: the candidates of the command's run, whether
 * trials may prove a grant (nothing to prove, a watched process, the
 * options, the machine, the command), the trials themselves through
 * struct trial_ops, and what each trial's end proves. Everything here
 * decides; what needs privilege is the ops' (capaudit_runner.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mask.h"
#include "capaudit.h"
#include "capaudit_container.h"
#include "capaudit_prove.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_verdict.h"

/* The least time a trial gets before it is ended, in seconds. */
#define TRIAL_TIMEOUT_MIN 30.0

/*
 * The suggestion and its proof; 1 when the trials began (ops->end() is
 * the caller's then), else 0.
 */
static int decide(const struct suggest_request *rq, const struct tally *t,
		  const struct run_result *rr, const struct trial_ops *ops,
		  struct suggestion *sg)
{
	struct trial_runner runner = { ops->run, ops->ctx };
	char why[512];
	double limit;
	size_t i;
	int any = 0, trials_as_root;

	if (suggest_build(sg, t, rr) < 0) {
		suggest_unproven(sg, strerror(ENOMEM));
		return 0;
	}
	/*
	 * The trials run as uid 0 without --user, and with a --user whose
	 * uid is 0 (root, or another name for it): uid 0 would get every
	 * capability at each execve whatever the copies carry, and each
	 * trial would "succeed" without the capability it leaves out.
	 */
	trials_as_root = rq->user != NULL ? rq->uid == 0 : rq->euid == 0;
	sg->user = rq->user != NULL ? rq->user
		   : trials_as_root ? "root"
				    : "you";
	sg->noroot = trials_as_root;
	for (i = 0; i < sg->nfiles; i++)
		any |= sg->files[i].candidates != 0;
	if (!any && sg->lent_guessed) {
		char list[256], reason[sizeof(sg->unproven)];

		/*
		 * Read from samples, a credential is its address, which the
		 * kernel gives the next one: a command that changes its own
		 * credential again and again (setfsuid(2) per request) shows
		 * an old address around a new one, as a loan would, and its
		 * need among the checks taken for lent.
		 */
		mask_names(list, sizeof(list), sg->lent_guessed, 0);
		snprintf(
			reason, sizeof(reason),
			"its checks of %s were taken for checks under a credential lent for one call, a guess from samples (the note below)",
			list);
		suggest_unproven(sg, reason);
		return 0;
	}
	/*
	 * What the command's run asked for is all the trials start from,
	 * and "nothing to grant" rests on it alone: where checks were lost,
	 * or threads of the command never followed (the kernel's tables
	 * full), the missing ones may be its need, or a check over a
	 * process outside, which no trial (in a PID namespace of its own)
	 * would make again.
	 */
	if (t->lost || t->unfollowed) {
		char reason[sizeof(sg->unproven)];

		snprintf(
			reason, sizeof(reason),
			"the command's run lost %llu checks and %llu threads were not followed, so its need may be among them",
			(unsigned long long)t->lost,
			(unsigned long long)t->unfollowed);
		suggest_unproven(sg, reason);
		return 0;
	}
	if (!any) {
		sg->proven =
			1; /* nothing to try: nothing of its own was asked */
		return 0;
	}
	if (rq->attached) {
		suggest_unproven(
			sg,
			"capaudit watched a running process and cannot run it again");
		return 0;
	}
	if (rq->no_minimize) {
		suggest_unproven(sg, "--no-minimize: the command ran once");
		return 0;
	}
	if (t->init_ns_state != 1 ||
	    !ops->possible(ops->ctx, why, sizeof(why))) {
		suggest_unproven(
			sg,
			t->init_ns_state != 1
				? "capaudit could not learn its own user namespace"
				: why);
		return 0;
	}
	if (!ops->command_allowed(ops->ctx, rq->path, why, sizeof(why))) {
		suggest_unproven(sg, why);
		return 0;
	}
	/*
	 * The command ended on its own once; a trial the grant lets run on
	 * (a server) would hold capaudit for ever, its output unseen.
	 */
	limit = rq->trial_timeout ? (double)rq->trial_timeout
		: rr->seconds * 10 > TRIAL_TIMEOUT_MIN ? rr->seconds * 10
						       : TRIAL_TIMEOUT_MIN;
	if (ops->begin(ops->ctx, limit, trials_as_root, why, sizeof(why)) < 0) {
		suggest_unproven(sg, why);
		return 0;
	}
	suggest_prove(sg, rq->success, &runner);
	return 1;
}

void suggest_make(const struct suggest_request *rq, const struct tally *t,
		  const struct run_result *rr, const struct trial_ops *ops,
		  struct suggestion *sg)
{
	struct container_runner runner = { ops->run_contained, ops->ctx };
	int began = decide(rq, t, rr, ops, sg);

	/*
	 * The container's user is the trials' (their uid decides what a
	 * runtime gives it). A watched process's user is not known.
	 */
	if (!rq->no_container)
		container_plan(
			sg, rq->user != NULL ? rq->uid : rq->euid,
			rq->user != NULL ? rq->gid : rq->egid,
			rq->attached
				? "capaudit watched a running process, "
				  "whose user in a container it cannot tell"
				: NULL);
	if (!began)
		return;
	if (sg->proven)
		container_prove(sg, rq->success, &runner);
	ops->end(ops->ctx);
}

int trial_judge(struct suggestion *sg, const struct run_result *rr,
		struct tally *t, double limit)
{
	if (rr->left_running) {
		tally_free(t);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"run %d left processes running that capaudit could not end",
			sg->runs);
		return -1;
	}
	/*
	 * Stopped by capaudit's user (^C, which the terminal sends the
	 * trial's command too, as a signal from outside it): said so.
	 */
	if (rr->cut == CUT_STOP) {
		tally_free(t);
		snprintf(sg->unproven, sizeof(sg->unproven), "interrupted");
		return -1;
	}
	/*
	 * What a trial asked for is compared with what the runs before it
	 * asked for: a trial whose checks were lost, or whose threads were
	 * not followed, shows less than it did (and a signal an unfollowed
	 * thread of its own sent looks like one from outside).
	 */
	if (t->lost || t->unfollowed) {
		unsigned long long lost = (unsigned long long)t->lost;
		unsigned long long unfollowed =
			(unsigned long long)t->unfollowed;

		tally_free(t);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"run %d lost %llu checks and %llu threads were not followed, so what it asked for is not known",
			sg->runs, lost, unfollowed);
		return -1;
	}
	/*
	 * kill(2) needs no privilege over a process of one's own user: any
	 * other process of the user's may end a trial, and a trial it made
	 * fail would keep a capability. Counted in the kernel, such signals
	 * are seen.
	 */
	if (t->outside_signals) {
		unsigned long long n = (unsigned long long)t->outside_signals;

		tally_free(t);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"run %d was sent %llu signal%s by a process outside it (any process of the user's own may send one), so what it did proves nothing",
			sg->runs, n, n == 1 ? "" : "s");
		return -1;
	}
	if (rr->cut == CUT_TIME) {
		tally_free(t);
		snprintf(
			sg->unproven, sizeof(sg->unproven),
			"run %d did not end within %.0f s and was ended (a server? wrap it in timeout(1); or --trial-timeout)",
			sg->runs, limit);
		return -1;
	}
	return 0;
}
