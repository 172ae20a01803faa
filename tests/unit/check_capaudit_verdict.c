/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest's verdict (progs/capaudit/capaudit_verdict.c)
 * without root: suggest_make() is given a finished run and fake trial
 * ops, which stand for the machine (may trials be made here, may this
 * command be run by them, getting ready, each trial, the end) and
 * record each call. Proven: which gate stops the trials before any is
 * made, and with what reason; that a trial is made only past every
 * gate, in the order possible, command, begin, the runs, end, with the
 * time limit and SECBIT_NOROOT decided from the options; which grants
 * the runs are given, in order; and how a trial's outcome (a failed
 * run, one ended at its limit, a command that changes, --success)
 * becomes the verdict. trial_judge(): what a trial's end proves. The
 * container runs: made only after a proven grant, one for each way the
 * trials' user gets it in a container, each under that way's sets (the
 * fake kernel below gives the command only what those sets give it at
 * execve), each way proven only when its run succeeded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "capaudit.h"
#include "capaudit_prove.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_verdict.h"
#include "capaudit_runs.h"
#include "check_run.h"

#define PING	  "/usr/bin/ping"
#define CRED_LENT 0xffff888002000000ULL

/* The machine and the command, as the fake ops show them. */
struct fake {
	char calls[1024]; /* each op called, in order, one word each */
	int not_possible; /* possible() says no */
	int not_allowed;  /* command_allowed() says no */
	int begin_fails;
	const char *path; /* what command_allowed() was asked about */
	double limit;	  /* what begin() was given */
	int noroot;	  /* what begin() was given */
	int fail_run;	  /* that run fails (0: none) */
	int cut_run;	  /* that run is ended at its limit (0: none) */
	int changes; /* the command ends otherwise from its 2nd plain run */
	int runs;    /* trials made */
	uint64_t grants[TRIALS_MAX];
	uid_t uid;	    /* who the trials run as, for the fake kernel */
	int contained;	    /* container runs made */
	int contained_cut;  /* that container run ends at its limit */
	int contained_fail; /* that container run fails */
	int contained_numbers[4]; /* sg->runs during each */
	struct container_sets sets[4];
	uint64_t file_grants[4]; /* the copy's file capabilities in each */
};

static void called(struct fake *f, const char *op)
{
	size_t len = strlen(f->calls);

	snprintf(f->calls + len, sizeof(f->calls) - len, "%s%s", len ? " " : "",
		 op);
}

static int fake_possible(void *ctx, char *why, size_t len)
{
	struct fake *f = ctx;

	called(f, "possible");
	snprintf(why, len, "capaudit is not root");
	return !f->not_possible;
}

static int fake_command_allowed(void *ctx, const char *path, char *why,
				size_t len)
{
	struct fake *f = ctx;

	called(f, "command");
	f->path = path;
	snprintf(why, len, "%s is a script others may change", path);
	return !f->not_allowed;
}

static int fake_begin(void *ctx, double limit, int noroot, char *why,
		      size_t len)
{
	struct fake *f = ctx;

	called(f, "begin");
	f->limit = limit;
	f->noroot = noroot;
	if (!f->begin_fails)
		return 0;
	snprintf(why, len, "/dev/null for the trials: %s", strerror(EMFILE));
	return -1;
}

/*
 * ping: asks for cap_setuid and cap_setpcap, which it drops, and for
 * cap_net_raw, without which it exits 2. A command that changes exits
 * 3 instead without any capability, from its second such run on.
 */
static int fake_run(void *ctx, struct suggestion *sg, const uint64_t *grant,
		    struct run_result *rr, struct tally *t)
{
	struct fake *f = ctx;
	uint64_t g = grant[0], raw = BIT(CAP_NET_RAW);
	int plain_runs = 0, i;

	called(f, "run");
	ck_assert_uint_eq(sg->nfiles, 1);
	ck_assert_int_eq(sg->runs, f->runs + 1);
	f->grants[f->runs++] = g;
	if (f->runs == f->fail_run) {
		snprintf(sg->unproven, sizeof(sg->unproven),
			 "a trial run failed (capaudit said why above)");
		return -1;
	}
	for (i = 0; i < f->runs; i++)
		plain_runs += f->grants[i] == 0;
	rr->status = g & raw			    ? EXITED(0)
		     : f->changes && plain_runs > 1 ? EXITED(3)
						    : EXITED(2);
	run_tally(t, PING, BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | (raw & ~g),
		  g & raw);
	if (f->runs == f->cut_run)
		rr->cut = CUT_TIME;
	return trial_judge(sg, rr, t, f->limit);
}

static void fake_end(void *ctx)
{
	called(ctx, "end");
}

/*
 * A container run of ping, which needs cap_net_raw in its effective set
 * after execve: the fake kernel gives root the bounding set, another
 * user the file's capabilities within the bounding set (nothing under
 * no_new_privs, which makes them gain nothing) or else the ambient set.
 */
static int fake_run_contained(void *ctx, struct suggestion *sg,
			      const uint64_t *grant,
			      const struct container_sets *cs,
			      struct run_result *rr, struct tally *t)
{
	struct fake *f = ctx;
	uint64_t eff, raw = BIT(CAP_NET_RAW);

	called(f, "contained");
	ck_assert_uint_eq(sg->nfiles, 1);
	ck_assert_int_lt(f->contained, 4);
	f->contained_numbers[f->contained] = sg->runs;
	f->sets[f->contained] = *cs;
	f->file_grants[f->contained] = grant[0];
	f->contained++;
	if (f->uid == 0)
		eff = cs->bounding;
	else if (grant[0] != 0)
		eff = cs->no_new_privs ? 0 : grant[0] & cs->bounding;
	else
		eff = cs->ambient;
	rr->status = eff & raw && f->contained != f->contained_fail ? EXITED(0)
								    : EXITED(2);
	run_tally(t, PING, BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | (raw & ~eff),
		  eff & raw);
	if (f->contained == f->contained_cut)
		rr->cut = CUT_TIME;
	return trial_judge(sg, rr, t, f->limit);
}

/* suggest_make() on the run t, which ended as rr, with f's machine. */
static void make(const struct suggest_request *rq, struct fake *f,
		 const struct tally *t, const struct run_result *rr,
		 struct suggestion *sg)
{
	struct trial_ops ops = { .possible = fake_possible,
				 .command_allowed = fake_command_allowed,
				 .begin = fake_begin,
				 .run = fake_run,
				 .end = fake_end,
				 .run_contained = fake_run_contained,
				 .ctx = f };

	f->uid = rq->user != NULL ? rq->uid : rq->euid;
	suggest_make(rq, t, rr, &ops, sg);
}

static const struct success any_success = { 0 };

/* --suggest as root, no other option: every gate open. */
static struct suggest_request request(void)
{
	struct suggest_request rq = { .euid = 0,
				      .success = &any_success,
				      .path = PING };

	return rq;
}

/* ping run once without capabilities: it failed for cap_net_raw. */
static const struct run_result first_run = { .status = EXITED(2),
					     .seconds = 0.1 };

static void ping_run(struct tally *t)
{
	run_tally(t, PING,
		  BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW), 0);
}

/*
 * Unproven for why: ping's grant by the old rule (what was refused,
 * after a failure), its root-equivalent candidates (cap_setuid,
 * cap_setpcap) held apart.
 */
static void expect_unproven(const struct suggestion *sg, const char *why)
{
	ck_assert_int_eq(sg->proven, 0);
	ck_assert_str_eq(sg->unproven, why);
	ck_assert_uint_eq(sg->files[0].grant, BIT(CAP_NET_RAW));
	ck_assert_uint_eq(sg->files[0].apart,
			  BIT(CAP_SETUID) | BIT(CAP_SETPCAP));
}

START_TEST(trials_prove_the_least_grant_in_order)
{
	static const uint64_t order[] = {
		0,
		BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW),
		BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW),
		BIT(CAP_NET_RAW),
		0,
		0,
	};
	struct suggest_request rq = request();
	struct fake f = { 0 };
	struct suggestion sg;
	struct tally t;
	size_t i;

	ping_run(&t);
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_str_eq(f.calls, "possible command begin run run run run run "
				  "run contained end");
	ck_assert_str_eq(f.path, PING);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_str_eq(sg.unproven, "");
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_RAW));
	ck_assert_uint_eq(sg.files[0].apart, 0);
	/*
	 * None, every candidate, then without each, the root-equivalent
	 * first, then none again: the run 1 started from.
	 */
	ck_assert_int_eq(sg.runs, 6);
	for (i = 0; i < 6; i++)
		ck_assert_msg(f.grants[i] == order[i], "run %zu: grant %#llx",
			      i + 1, (unsigned long long)f.grants[i]);
	/* As root, the trials are made under SECBIT_NOROOT. */
	ck_assert_int_eq(f.noroot, 1);
	ck_assert_int_eq(sg.noroot, 1);
	ck_assert_str_eq(sg.user, "root");
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/* Only the command's own checks make candidates: none, nothing to try. */
START_TEST(nothing_of_its_own_needs_no_trial)
{
	struct suggest_request rq = request();
	struct run_result ok = { .status = EXITED(0), .seconds = 0.1 };
	struct fake f = { 0 };
	struct suggestion sg;
	struct tally t;

	run_tally(&t, PING, 0, 0); /* cap_sys_admin alone: the kernel's own */
	make(&rq, &f, &t, &ok, &sg);
	ck_assert_str_eq(f.calls, "");
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_int_eq(sg.runs, 0);
	ck_assert_uint_eq(sg.incidental, BIT(CAP_SYS_ADMIN));
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * The trials start from what the command's run asked for, and "nothing
 * to grant" rests on it alone: a run that lost checks, or whose threads
 * the kernel's tables had no room to follow (CAPAUDIT_BPF_ENTRIES small,
 * a command of many processes), may have lost its need, or a check over
 * a process outside that no trial makes again. Unproven, saying so, and
 * nothing is run: with nothing seen of its own, and with ping's
 * candidates.
 */
START_TEST(a_run_with_counts_lost_is_unproven)
{
	static const struct {
		uint64_t lost, unfollowed;
		int candidates;
		const char *why;
	} runs[] = {
		{ 0, 2, 0,
		  "the command's run lost 0 checks and 2 threads were not "
		  "followed, so its need may be among them" },
		{ 7, 0, 0,
		  "the command's run lost 7 checks and 0 threads were not "
		  "followed, so its need may be among them" },
		{ 3, 1, 1,
		  "the command's run lost 3 checks and 1 threads were not "
		  "followed, so its need may be among them" },
	};
	struct suggest_request rq = request();
	struct run_result ok = { .status = EXITED(0), .seconds = 0.1 };
	struct suggestion sg;
	struct tally t;
	size_t i, j;

	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct fake f = { 0 };

		if (runs[i].candidates)
			ping_run(&t);
		else
			run_tally(&t, PING, 0, 0);
		t.lost = runs[i].lost;
		t.unfollowed = runs[i].unfollowed;
		make(&rq, &f, &t, runs[i].candidates ? &first_run : &ok, &sg);
		ck_assert_str_eq(f.calls, "");
		ck_assert_int_eq(sg.proven, 0);
		ck_assert_int_eq(sg.runs, 0);
		if (runs[i].candidates) {
			expect_unproven(&sg, runs[i].why);
		} else {
			ck_assert_str_eq(sg.unproven, runs[i].why);
			for (j = 0; j < sg.nfiles; j++)
				ck_assert_uint_eq(sg.files[j].grant, 0);
		}
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * Read from samples, a check under a credential seen inside the span of
 * the thread's own is taken for one lent for a call: with nothing else
 * asked, it may be the command's need all the same, and no trial could
 * tell, so the suggestion is unproven, saying why.
 */
START_TEST(a_lent_guess_is_unproven_without_a_trial)
{
	struct suggest_request rq = request();
	struct fake f = { 0 };
	struct suggestion sg;
	struct tally t;

	start_run(&t, "/opt/server");
	feed_check(&t, 10, CAP_SYS_ADMIN, -1);
	feed_check_cred(&t, 10, CAP_NET_BIND_SERVICE, -1, CRED_LENT);
	feed_check(&t, 10, CAP_SYS_ADMIN, -1);
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_uint_eq(t.lent_guessed, BIT(CAP_NET_BIND_SERVICE));
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_str_eq(f.calls, "");
	ck_assert_int_eq(sg.proven, 0);
	ck_assert_str_eq(sg.unproven,
			 "its checks of cap_net_bind_service were taken for "
			 "checks under a credential lent for one call, a guess "
			 "from samples (the note below)");
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * The gates before any trial, in their order: each leaves the grant
 * unproven with its reason and asks the machine nothing further.
 */
START_TEST(each_gate_stops_the_trials_with_its_reason)
{
	static const struct {
		int attached, no_minimize, lost_ns, not_possible, not_allowed,
			begin_fails;
		const char *calls, *why;
	} gate[] = {
		{ 1, 1, 1, 1, 1, 1, "",
		  "capaudit watched a running process and cannot run it "
		  "again" },
		{ 0, 1, 1, 1, 1, 1, "", "--no-minimize: the command ran once" },
		{ 0, 0, 1, 1, 1, 1, "",
		  "capaudit could not learn its own user namespace" },
		{ 0, 0, 0, 1, 1, 1, "possible", "capaudit is not root" },
		{ 0, 0, 0, 0, 1, 1, "possible command",
		  PING " is a script others may change" },
		{ 0, 0, 0, 0, 0, 1, "possible command begin",
		  "/dev/null for the trials: Too many open files" },
	};
	size_t i;

	for (i = 0; i < sizeof(gate) / sizeof(gate[0]); i++) {
		struct suggest_request rq = request();
		struct fake f = { 0 };
		struct suggestion sg;
		struct tally t;

		rq.attached = gate[i].attached;
		rq.no_minimize = gate[i].no_minimize;
		f.not_possible = gate[i].not_possible;
		f.not_allowed = gate[i].not_allowed;
		f.begin_fails = gate[i].begin_fails;
		ping_run(&t);
		if (gate[i].lost_ns)
			t.init_ns_state =
				-1; /* two answers: no own namespace */
		make(&rq, &f, &t, &first_run, &sg);
		ck_assert_msg(strcmp(f.calls, gate[i].calls) == 0,
			      "gate %zu: called \"%s\"", i, f.calls);
		ck_assert_int_eq(sg.runs, 0);
		expect_unproven(&sg, gate[i].why);
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * uid 0 would get every capability at each execve, whatever the copies
 * carry: the trials run under SECBIT_NOROOT whenever they run as uid 0,
 * with or without --user, and the report names who they ran as.
 */
START_TEST(trials_as_uid_0_run_without_roots_capabilities)
{
	static const struct {
		const char *user;
		uid_t uid, euid;
		int noroot;
		const char *as;
	} who[] = {
		{ NULL, 0, 0, 1, "root" },
		{ NULL, 0, 1000, 0, "you" },
		{ "nobody", 65534, 0, 0, "nobody" },
		{ "toor", 0, 1000, 1, "toor" },
	};
	size_t i;

	for (i = 0; i < sizeof(who) / sizeof(who[0]); i++) {
		struct suggest_request rq = request();
		struct fake f = { 0 };
		struct suggestion sg;
		struct tally t;

		rq.user = who[i].user;
		rq.uid = who[i].uid;
		rq.euid = who[i].euid;
		f.begin_fails = 1;
		f.noroot = -1;
		ping_run(&t);
		make(&rq, &f, &t, &first_run, &sg);
		ck_assert_str_eq(f.calls, "possible command begin");
		ck_assert_int_eq(f.noroot, who[i].noroot);
		ck_assert_int_eq(sg.noroot, who[i].noroot);
		ck_assert_str_eq(sg.user, who[i].as);
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * A trial's time limit: --trial-timeout, or ten times the first run,
 * at least 30 s (a server the grant lets run on would hold capaudit).
 */
START_TEST(trial_time_limit)
{
	static const struct {
		double seconds;
		unsigned long long timeout;
		double limit;
	} lim[] = {
		{ 0.1, 0, 30.0 },
		{ 12.5, 0, 125.0 },
		{ 12.5, 7, 7.0 },
	};
	size_t i;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		struct suggest_request rq = request();
		struct run_result rr = first_run;
		struct fake f = { 0 };
		struct suggestion sg;
		struct tally t;

		rr.seconds = lim[i].seconds;
		rq.trial_timeout = lim[i].timeout;
		f.begin_fails = 1;
		ping_run(&t);
		make(&rq, &f, &t, &rr, &sg);
		ck_assert_double_eq(f.limit, lim[i].limit);
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * How a trial's outcome becomes the verdict: a run that cannot be made,
 * one ended at its time limit (trial_judge()), or a command that ends
 * otherwise when run again as it was (it changes what it works on: the
 * trials did not start from the state its first run did) proves
 * nothing, and says why; the end is made all the same.
 */
START_TEST(a_trials_outcome_becomes_the_verdict)
{
	static const struct {
		int fail_run, cut_run, changes;
		const char *calls, *why;
	} out[] = {
		{ 2, 0, 0, "possible command begin run run end",
		  "a trial run failed (capaudit said why above)" },
		{ 0, 2, 0, "possible command begin run run end",
		  "run 2 did not end within 30 s and was ended (a server? "
		  "wrap it in timeout(1); or --trial-timeout)" },
		{ 0, 0, 1, "possible command begin run run run run run run end",
		  "the command changes what it works on: run 6, without any "
		  "capability as run 1 was, exited with status 3 where run 1 "
		  "exited with status 2 (the runs did not start from the "
		  "same state)" },
	};
	size_t i;

	for (i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		struct suggest_request rq = request();
		struct fake f = { .fail_run = out[i].fail_run,
				  .cut_run = out[i].cut_run,
				  .changes = out[i].changes };
		struct suggestion sg;
		struct tally t;

		ping_run(&t);
		make(&rq, &f, &t, &first_run, &sg);
		ck_assert_str_eq(f.calls, out[i].calls);
		expect_unproven(&sg, out[i].why);
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * --success is what the trials judge by: with exit status 2 counted as
 * success besides 0, ping needs nothing; with 2 alone, its run with
 * every candidate granted (status 0) is no success, and nothing is
 * proven.
 */
START_TEST(success_statuses_reach_the_trials)
{
	static const struct success zero_two = { 2, { 0, 2 } },
				    two = { 1, { 2 } };
	struct suggest_request rq = request();
	struct fake f = { 0 }, g = { 0 };
	struct suggestion sg;
	struct tally t;

	rq.success = &zero_two;
	ping_run(&t);
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_uint_eq(sg.files[0].grant, 0);
	ck_assert_uint_eq(suggest_every_file(&sg, 0), 0);
	suggest_free(&sg);
	rq.success = &two;
	make(&rq, &g, &t, &first_run, &sg);
	expect_unproven(&sg, "with every candidate granted the command exited "
			     "with status 0, which --success does not count as "
			     "success");
	ck_assert_str_eq(g.calls, "possible command begin run run end");
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/* What one trial's end proves, the first reason found first. */
START_TEST(judge_a_trials_end)
{
	static const struct {
		int left_running;
		uint64_t signals;
		enum run_cut cut;
		const char *why; /* NULL: it may be judged */
	} end[] = {
		{ 0, 0, CUT_NONE, NULL },
		{ 1, 2, CUT_TIME,
		  "run 3 left processes running that capaudit could not end" },
		{ 0, 2, CUT_TIME,
		  "run 3 was sent 2 signals by a process outside it (any "
		  "process of the user's own may send one), so what it did "
		  "proves nothing" },
		{ 0, 1, CUT_NONE,
		  "run 3 was sent 1 signal by a process outside it (any "
		  "process of the user's own may send one), so what it did "
		  "proves nothing" },
		{ 0, 0, CUT_STOP, "interrupted" },
		/*
		 * ^C reaches the trial's command too, from the terminal (a
		 * signal from outside it): interrupted is what happened.
		 */
		{ 0, 1, CUT_STOP, "interrupted" },
		{ 0, 0, CUT_TIME,
		  "run 3 did not end within 45 s and was ended (a server? "
		  "wrap it in timeout(1); or --trial-timeout)" },
	};
	size_t i;

	for (i = 0; i < sizeof(end) / sizeof(end[0]); i++) {
		struct run_result rr = { .status = EXITED(0) };
		struct suggestion sg;
		struct tally t;

		memset(&sg, 0, sizeof(sg));
		sg.runs = 3;
		run_tally(&t, PING, 0, BIT(CAP_NET_RAW));
		t.outside_signals = end[i].signals;
		rr.left_running = end[i].left_running;
		rr.cut = end[i].cut;
		if (end[i].why == NULL) {
			ck_assert_int_eq(trial_judge(&sg, &rr, &t, 45.0), 0);
			ck_assert_str_eq(sg.unproven, "");
			/* Kept for the proof: the caller's to free. */
			ck_assert_uint_ne(t.nrows, 0);
			tally_free(&t);
			continue;
		}
		/* Refused, the trial's tally is freed with it. */
		ck_assert_int_eq(trial_judge(&sg, &rr, &t, 45.0), -1);
		ck_assert_str_eq(sg.unproven, end[i].why);
	}
}
END_TEST

/*
 * A trial that lost checks, or did not follow a thread, asked for more
 * than it shows, and what it asked for is compared with the runs before
 * it: it proves nothing.
 */
START_TEST(a_trial_with_counts_lost_proves_nothing)
{
	static const struct {
		uint64_t lost, unfollowed;
		const char *why;
	} end[] = {
		{ 4, 0,
		  "run 3 lost 4 checks and 0 threads were not followed, so "
		  "what it asked for is not known" },
		{ 0, 2,
		  "run 3 lost 0 checks and 2 threads were not followed, so "
		  "what it asked for is not known" },
	};
	uint64_t signals[] = { 0, 5 };
	size_t i;

	for (i = 0; i < sizeof(end) / sizeof(end[0]); i++) {
		struct run_result rr = { .status = EXITED(0) };
		struct suggestion sg;
		struct tally t;

		memset(&sg, 0, sizeof(sg));
		sg.runs = 3;
		run_tally(&t, PING, 0, BIT(CAP_NET_RAW));
		t.lost = end[i].lost;
		t.unfollowed = end[i].unfollowed;
		/*
		 * Its signals from threads of its own it did not follow look
		 * like signals from outside: the loss is the reason.
		 */
		t.outside_signals = signals[i];
		ck_assert_int_eq(trial_judge(&sg, &rr, &t, 45.0), -1);
		ck_assert_str_eq(sg.unproven, end[i].why);
	}
}
END_TEST

/* The container ways' sets, as the runtimes were seen to give them. */
static void expect_sets(const struct container_sets *cs, uint64_t bounding,
			uint64_t inheritable, uint64_t ambient,
			int no_new_privs, int file_caps)
{
	ck_assert_uint_eq(cs->bounding, bounding);
	ck_assert_uint_eq(cs->inheritable, inheritable);
	ck_assert_uint_eq(cs->ambient, ambient);
	ck_assert_int_eq(cs->no_new_privs, no_new_privs);
	ck_assert_int_eq(cs->file_caps, file_caps);
}

/*
 * As root: one container run, after the proof's six, numbered 7, in the
 * sets a container's root gets (bounding the grant, no ambient, no
 * inheritable, no_new_privs), the copy carrying no file capability; the
 * proof's count stays 6, and the way is proven by that run.
 */
START_TEST(a_proven_grant_is_run_in_a_containers_sets_as_root)
{
	struct suggest_request rq = request();
	struct fake f = { 0 };
	struct suggestion sg;
	struct tally t;
	const struct container_proof *p;

	ping_run(&t);
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_str_eq(f.calls, "possible command begin run run run run run "
				  "run contained end");
	ck_assert_int_eq(f.contained_numbers[0], 7);
	expect_sets(&f.sets[0], BIT(CAP_NET_RAW), 0, 0, 1, 0);
	ck_assert_uint_eq(f.file_grants[0], 0);
	ck_assert_int_eq(sg.runs, 6);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_int_eq(sg.container.asked, 1);
	ck_assert_int_eq(sg.container.shown, 1);
	ck_assert_int_eq(sg.container.runs, 1);
	ck_assert_uint_eq(sg.container.uid, 0);
	ck_assert_uint_eq(sg.container.nways, 1);
	p = &sg.container.ways[0];
	ck_assert_int_eq(p->way, WAY_ROOT);
	ck_assert_int_eq(p->ran, 1);
	ck_assert_int_eq(p->proven, 1);
	ck_assert_int_eq(p->run, 7);
	ck_assert_int_eq(p->status, EXITED(0));
	ck_assert_str_eq(p->unproven, "");
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * As nobody: two runs, podman's (the grant in every set, as ambient
 * capabilities, no_new_privs; the copy bare) and docker's and
 * Kubernetes' (the grant as the bounding set only, the copy carrying
 * its file capabilities, no no_new_privs); each proven by its own run,
 * with --user's ids as the container's.
 */
START_TEST(a_proven_grant_is_run_in_each_way_for_another_user)
{
	struct suggest_request rq = request();
	uint64_t raw = BIT(CAP_NET_RAW);
	struct fake f = { 0 };
	struct suggestion sg;
	struct tally t;
	size_t i;

	rq.user = "nobody";
	rq.uid = 65534;
	rq.gid = 65533;
	ping_run(&t);
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_str_eq(f.calls, "possible command begin run run run run run "
				  "run contained contained end");
	ck_assert_int_eq(f.noroot, 0);
	ck_assert_int_eq(f.contained_numbers[0], 7);
	ck_assert_int_eq(f.contained_numbers[1], 8);
	expect_sets(&f.sets[0], raw, raw, raw, 1, 0);
	ck_assert_uint_eq(f.file_grants[0], 0);
	expect_sets(&f.sets[1], raw, 0, 0, 0, 1);
	ck_assert_uint_eq(f.file_grants[1], raw);
	ck_assert_int_eq(sg.runs, 6);
	ck_assert_uint_eq(sg.container.uid, 65534);
	ck_assert_uint_eq(sg.container.gid, 65533);
	ck_assert_uint_eq(sg.container.nways, 2);
	ck_assert_int_eq(sg.container.ways[0].way, WAY_AMBIENT);
	ck_assert_int_eq(sg.container.ways[1].way, WAY_FILE_CAPS);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(sg.container.ways[i].proven, 1);
		ck_assert_int_eq(sg.container.ways[i].run, 7 + (int)i);
	}
	/* What podman's way would give the grant to: every program run. */
	ck_assert_uint_eq(sg.nprograms, 1);
	ck_assert_str_eq(sg.programs[0].path, PING);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * A way is proven only by its run's success. A run that fails (here
 * podman's, as one whose command refuses to run with capabilities it
 * did not gain from a file would) shows the way does not work: said,
 * with the run and how it ended, while the grant stays proven and the
 * other way is run all the same. A run that cannot be judged (ended at
 * its time limit) leaves its way unproven, with trial_judge()'s reason
 * under its own number.
 */
START_TEST(a_container_way_is_proven_only_by_its_runs_success)
{
	struct suggest_request rq = request();
	struct fake f = { .contained_fail = 1 }, g = { .contained_cut = 1 };
	struct suggestion sg;
	struct tally t;
	const struct container_proof *p;

	rq.user = "nobody";
	rq.uid = 65534;
	ping_run(&t);
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_str_eq(f.calls, "possible command begin run run run run run "
				  "run contained contained end");
	p = &sg.container.ways[0];
	ck_assert_int_eq(p->ran, 1);
	ck_assert_int_eq(p->proven, 0);
	ck_assert_int_eq(p->status, EXITED(2));
	ck_assert_str_eq(p->unproven,
			 "run 7, in these sets, exited with status 2, where "
			 "run 2, with every candidate granted as file "
			 "capabilities, exited with status 0");
	ck_assert_int_eq(sg.container.ways[1].proven, 1);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_str_eq(sg.unproven, "");
	suggest_free(&sg);

	make(&rq, &g, &t, &first_run, &sg);
	p = &sg.container.ways[0];
	ck_assert_int_eq(p->ran, 0);
	ck_assert_int_eq(p->proven, 0);
	ck_assert_int_eq(p->run, 7);
	ck_assert_str_eq(p->unproven,
			 "run 7 did not end within 30 s and was ended (a "
			 "server? wrap it in timeout(1); or --trial-timeout)");
	ck_assert_int_eq(sg.container.ways[1].proven, 1);
	ck_assert_int_eq(sg.container.ways[1].run, 8);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_str_eq(sg.unproven, "");
	ck_assert_int_eq(sg.runs, 6);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * No container run without a proven grant: unproven, each way is said
 * to be unproven too, why, and nothing more is run. --no-container asks
 * nothing of containers (not even that); a watched process (--pid) gets
 * no container lines, saying why.
 */
START_TEST(no_container_run_without_a_proven_grant)
{
	struct suggest_request rq = request();
	struct fake f = { .not_possible = 1 }, g = { 0 }, h = { 0 };
	struct suggestion sg;
	struct tally t;

	ping_run(&t);
	rq.user = "nobody";
	rq.uid = 65534;
	make(&rq, &f, &t, &first_run, &sg);
	ck_assert_str_eq(f.calls, "possible");
	ck_assert_int_eq(sg.container.shown, 1);
	ck_assert_uint_eq(sg.container.grant, BIT(CAP_NET_RAW));
	ck_assert_int_eq(sg.container.ways[0].run, 0);
	ck_assert_int_eq(sg.container.ways[0].proven, 0);
	ck_assert_str_eq(sg.container.ways[1].unproven,
			 "the grant itself is not proven, and no run was made "
			 "in these sets");
	suggest_free(&sg);

	rq.no_container = 1;
	make(&rq, &g, &t, &first_run, &sg);
	ck_assert_str_eq(g.calls, "possible command begin run run run run run "
				  "run end");
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_int_eq(sg.container.asked, 0);
	ck_assert_int_eq(sg.container.shown, 0);
	suggest_free(&sg);

	rq.no_container = 0;
	rq.attached = 1;
	make(&rq, &h, &t, &first_run, &sg);
	ck_assert_str_eq(h.calls, "");
	ck_assert_int_eq(sg.container.asked, 1);
	ck_assert_int_eq(sg.container.shown, 0);
	ck_assert_str_eq(sg.container.why_not,
			 "capaudit watched a running process, whose user in a "
			 "container it cannot tell");
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

static Suite *verdict_suite(void)
{
	Suite *s = suite_create("capaudit_verdict");
	TCase *tg = tcase_create("gates");
	TCase *tt = tcase_create("trials");
	TCase *tj = tcase_create("judge");
	TCase *tc = tcase_create("containers");

	tcase_add_test(tg, nothing_of_its_own_needs_no_trial);
	tcase_add_test(tg, a_run_with_counts_lost_is_unproven);
	tcase_add_test(tg, a_lent_guess_is_unproven_without_a_trial);
	tcase_add_test(tg, each_gate_stops_the_trials_with_its_reason);
	tcase_add_test(tg, trials_as_uid_0_run_without_roots_capabilities);
	tcase_add_test(tg, trial_time_limit);
	suite_add_tcase(s, tg);
	tcase_add_test(tt, trials_prove_the_least_grant_in_order);
	tcase_add_test(tt, a_trials_outcome_becomes_the_verdict);
	tcase_add_test(tt, success_statuses_reach_the_trials);
	suite_add_tcase(s, tt);
	tcase_add_test(tc, a_proven_grant_is_run_in_a_containers_sets_as_root);
	tcase_add_test(tc, a_proven_grant_is_run_in_each_way_for_another_user);
	tcase_add_test(tc, a_container_way_is_proven_only_by_its_runs_success);
	tcase_add_test(tc, no_container_run_without_a_proven_grant);
	suite_add_tcase(s, tc);
	tcase_add_test(tj, judge_a_trials_end);
	tcase_add_test(tj, a_trial_with_counts_lost_proves_nothing);
	suite_add_tcase(s, tj);
	return s;
}

CHECK_MAIN(verdict_suite)
