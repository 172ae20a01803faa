/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest's reasoning (progs/capaudit): candidates file by
 * file from the command's own checks, the least grant found by trials
 * (here a fake runner stands for the command), what counts as success,
 * the file capability a trial's copy carries, the environment of
 * --user, and which programs are interpreters.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capaudit.h"
#include "capaudit_advice.h"
#include "capaudit_decode.h"
#include "capaudit_json.h"
#include "capaudit_launch.h"
#include "capaudit_prove.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_trial.h"
#include "capaudit_warn.h"
#include "capaudit_runs.h"
#include "check_run.h"
#include "cap_xattr.h"
#include "mask.h"

/* The suggestion's text for nobody, then its --json line; caller frees. */
static char *report_of(const struct suggestion *sg, const struct tally *t,
		       const struct run_result *rr)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	suggest_print(sg, t, rr, NULL, "nobody", out);
	suggest_json(sg, t, NULL, out);
	ck_assert_int_eq(fclose(out), 0);
	return text;
}

/* ping: drops cap_setuid and cap_setpcap it asks for; needs cap_net_raw. */
struct fake_ping {
	int runs;
	uint64_t seen[TRIALS_MAX];
};

static int run_ping(void *ctx, struct suggestion *sg, const uint64_t *grant,
		    struct run_result *rr, struct tally *t)
{
	struct fake_ping *f = ctx;

	ck_assert_uint_eq(sg->nfiles, 1);
	f->seen[f->runs++] = grant[0];
	rr->status = grant[0] & BIT(CAP_NET_RAW) ? EXITED(0) : EXITED(2);
	run_tally(t, "/usr/bin/ping",
		  BIT(CAP_SETUID) | BIT(CAP_SETPCAP) |
			  (grant[0] & BIT(CAP_NET_RAW) ? 0 : BIT(CAP_NET_RAW)),
		  grant[0] & BIT(CAP_NET_RAW));
	return 0;
}

START_TEST(ping_needs_cap_net_raw_alone)
{
	struct run_result first = { .status = EXITED(2), .seconds = 0.1 };
	struct fake_ping f = { 0 };
	struct trial_runner runner = { run_ping, &f };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	run_tally(&t, "/usr/bin/ping",
		  BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &first), 0);
	ck_assert_uint_eq(sg.nfiles, 1);
	ck_assert_str_eq(sg.files[0].path, "/usr/bin/ping");
	ck_assert_uint_eq(sg.files[0].candidates, BIT(CAP_SETUID) |
							  BIT(CAP_SETPCAP) |
							  BIT(CAP_NET_RAW));
	ck_assert_uint_eq(sg.incidental, BIT(CAP_SYS_ADMIN));
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_RAW));
	ck_assert_uint_eq(sg.files[0].apart, 0);
	/*
	 * None, every candidate, then without each, the root-equivalent
	 * ones first, and none again.
	 */
	ck_assert_int_eq(sg.runs, 6);
	ck_assert_int_eq(f.runs, 6);
	ck_assert_uint_eq(f.seen[0], 0);
	ck_assert_uint_eq(f.seen[1], BIT(CAP_SETUID) | BIT(CAP_SETPCAP) |
					     BIT(CAP_NET_RAW));
	ck_assert_uint_eq(f.seen[2], BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW));
	ck_assert_uint_eq(f.seen[3], BIT(CAP_NET_RAW));
	ck_assert_uint_eq(f.seen[4], 0);
	ck_assert_uint_eq(f.seen[5], 0);
	ck_assert_int_eq(sg.log[4].success, 0);
	ck_assert_int_eq(sg.log[0].file, PLAIN_RUN);
	ck_assert_int_eq(sg.log[5].file, PLAIN_RUN);
	ck_assert_int_eq(WEXITSTATUS(sg.reference), 0);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * A program whose first refusal hides the next: with cap_net_bind_service
 * it gets further and asks for cap_dac_read_search, which it needs too.
 * path is the program; given, every capability any run gave it.
 */
struct fake_steps {
	const char *path;
	int runs;
	uint64_t given;
};

#define STEPS_SERVER "/usr/local/sbin/stepsd"

static int run_steps(void *ctx, struct suggestion *sg, const uint64_t *grant,
		     struct run_result *rr, struct tally *t)
{
	struct fake_steps *f = ctx;
	uint64_t g = grant[0],
		 need = BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_DAC_READ_SEARCH);

	(void)sg;
	f->runs++;
	f->given |= g;
	rr->status = (g & need) == need ? EXITED(124) : EXITED(1);
	run_tally(t, f->path,
		  (g & BIT(CAP_NET_BIND_SERVICE))
			  ? need & ~g
			  : BIT(CAP_NET_BIND_SERVICE) & ~g,
		  g & need);
	return 0;
}

START_TEST(trials_converge_on_later_needs)
{
	struct run_result first = { .status = EXITED(1), .seconds = 0.1 };
	struct fake_steps f = { .path = STEPS_SERVER };
	struct trial_runner runner;
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	runner.run = run_steps;
	runner.ctx = &f;
	run_tally(&t, f.path, BIT(CAP_NET_BIND_SERVICE), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &first), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_uint_eq(sg.files[0].grant,
			  BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_DAC_READ_SEARCH));
	/*
	 * Two runs to converge (the second asks nothing new), two to
	 * minimize, where neither could go: every candidate once more, as
	 * the reference was, then without each of the two kept again, one
	 * without any capability before and after.
	 */
	ck_assert_int_eq(f.runs, 9);
	ck_assert_int_eq(sg.log[5].file, -1);
	ck_assert_int_eq(sg.log[5].again, 1);
	ck_assert_int_eq(sg.log[5].success, 1);
	ck_assert_int_eq(sg.log[6].again, 1);
	ck_assert_int_eq(sg.log[6].success, 0);
	ck_assert_int_eq(WEXITSTATUS(sg.reference), 124);
	suggest_free(&sg);
	tally_free(&t);

	/* --success=0: the reference (124) is not a success: unproven, said so. */
	f.runs = 0;
	succ.n = 1;
	succ.status[0] = 0;
	run_tally(&t, f.path, BIT(CAP_NET_BIND_SERVICE), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &first), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 0);
	ck_assert_ptr_nonnull(strstr(sg.unproven, "exited with status 124"));
	ck_assert_ptr_nonnull(strstr(sg.unproven, "--success"));
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * The same program as an interpreter, whose code may be its user's: as
 * a user other than root, no run gives it the root-equivalent
 * cap_dac_read_search, which it asks for only once a trial granted
 * cap_net_bind_service (a candidate not there at first is kept from it
 * too); the grant is unproven, said why, and that capability held
 * apart. As uid 0 under SECBIT_NOROOT (root's own code) it is tried as
 * any other.
 */
START_TEST(no_root_equivalent_trial_on_an_interpreter)
{
	struct run_result first = { .status = EXITED(1), .seconds = 0.1 };
	struct fake_steps f = { .path = "/usr/bin/python3.11" };
	struct trial_runner runner = { run_steps, &f };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;
	char *text;

	run_tally(&t, f.path, BIT(CAP_NET_BIND_SERVICE), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &first), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 0);
	ck_assert_uint_eq(f.given & BIT(CAP_DAC_READ_SEARCH), 0);
	ck_assert_uint_eq(f.given, BIT(CAP_NET_BIND_SERVICE));
	ck_assert_str_eq(
		sg.unproven,
		"not tried: /usr/bin/python3.11 is an interpreter: a trial giving it cap_dac_read_search would give cap_dac_read_search to every script it runs, its user's included");
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_BIND_SERVICE));
	ck_assert_uint_eq(sg.files[0].apart, BIT(CAP_DAC_READ_SEARCH));
	text = report_of(&sg, &t, &first);
	ck_assert_ptr_nonnull(strstr(
		text,
		"# capaudit --suggest: NOT PROVEN (not tried: /usr/bin/python3.11 is an interpreter: a trial giving it cap_dac_read_search would give"));
	ck_assert_ptr_nonnull(strstr(
		text,
		"\"proven\":false,\"unproven\":\"not tried: /usr/bin/python3.11 is an interpreter:"));
	free(text);
	suggest_free(&sg);
	tally_free(&t);

	/* As root under SECBIT_NOROOT: tried, and proven as before. */
	memset(&f, 0, sizeof(f));
	f.path = "/usr/bin/python3.11";
	run_tally(&t, f.path, BIT(CAP_NET_BIND_SERVICE), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &first), 0);
	sg.noroot = 1;
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_uint_eq(sg.files[0].grant,
			  BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_DAC_READ_SEARCH));
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

static int run_fails(void *ctx, struct suggestion *sg, const uint64_t *grant,
		     struct run_result *rr, struct tally *t)
{
	(void)ctx;
	(void)grant;
	(void)rr;
	(void)t;
	snprintf(sg->unproven, sizeof(sg->unproven), "no trial can grant it");
	return -1;
}

/*
 * A command that fails now and then, here on its fourth run: the run
 * without cap_setuid (asked for, never needed), which kept it beside the
 * cap_net_bind_service it needs, as a lost packet would for ping.
 */
struct fake_flaky {
	int runs, fail_on;
	uint64_t seen[TRIALS_MAX];
};

static int run_flaky(void *ctx, struct suggestion *sg, const uint64_t *grant,
		     struct run_result *rr, struct tally *t)
{
	struct fake_flaky *f = ctx;
	uint64_t need = BIT(CAP_NET_BIND_SERVICE),
		 asked = need | BIT(CAP_SETUID);

	(void)sg;
	f->seen[f->runs++] = grant[0];
	rr->status = (grant[0] & need) && f->runs + 1 != f->fail_on ? EXITED(0)
								    : EXITED(1);
	run_tally(t, "/opt/flaky", asked & ~grant[0], asked & grant[0]);
	return 0;
}

START_TEST(a_failure_once_is_no_need)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 };
	struct fake_flaky f = { 0 };
	struct trial_runner runner = { run_flaky, &f };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	/* Its first run was 1; run 4 is trial 3, the one without cap_setuid. */
	f.fail_on = 4;
	run_tally(&t, "/opt/flaky", BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_SETUID),
		  0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_uint_eq(f.seen[2], BIT(CAP_NET_BIND_SERVICE));
	ck_assert_msg(sg.proven == 0, "proven: %llx",
		      (unsigned long long)sg.files[0].grant);
	ck_assert_msg(
		strstr(sg.unproven,
		       "the command does not end the same way each time: run 6, without cap_setuid on /opt/flaky, exited with status 0, where run 3 without it failed") !=
			NULL,
		"%s", sg.unproven);
	/* Unproven: cap_setuid held apart, in no line to paste. */
	ck_assert_uint_eq(sg.files[0].apart, BIT(CAP_SETUID));
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_BIND_SERVICE));
	suggest_free(&sg);
	tally_free(&t);

	/* Without the failure: proven, cap_net_bind_service alone. */
	memset(&f, 0, sizeof(f));
	runner.ctx = &f;
	run_tally(&t, "/opt/flaky", BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_SETUID),
		  0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 1);
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_BIND_SERVICE));
	/* One kept: its second look is the run without any capability. */
	ck_assert_int_eq(sg.runs, 5);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * ping whose run with every candidate was killed once (the OOM killer,
 * or another process of the user's: kill(2) needs no privilege over
 * one's own processes): every trial after it "failed" against that
 * reference, and each candidate was kept, cap_setuid and cap_setpcap
 * with cap_net_raw, "proven".
 */
static int run_ping_killed_once(void *ctx, struct suggestion *sg,
				const uint64_t *grant, struct run_result *rr,
				struct tally *t)
{
	struct fake_ping *f = ctx;
	int rc = run_ping(ctx, sg, grant, rr, t);

	if (f->runs == 2)
		rr->status = SIGKILL; /* wait(2)'s status of a SIGKILL */
	return rc;
}

START_TEST(a_reference_killed_once_proves_nothing)
{
	struct run_result first = { .status = EXITED(2), .seconds = 0.1 };
	struct fake_ping f = { 0 };
	struct trial_runner runner = { run_ping_killed_once, &f };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	run_tally(&t, "/usr/bin/ping",
		  BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &first), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_msg(sg.proven == 0, "proven: %llx",
		      (unsigned long long)sg.files[0].grant);
	ck_assert_msg(
		strstr(sg.unproven,
		       "the command does not end the same way each time: run 6, with every candidate granted again, exited with status 0, where run 2 killed by signal 9") !=
			NULL,
		"%s", sg.unproven);
	ck_assert_uint_eq(sg.files[0].apart,
			  BIT(CAP_SETUID) | BIT(CAP_SETPCAP));
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * kill -0 of another user's process: its own run asks for cap_kill,
 * refused. In a trial's PID namespace that process is not there: kill
 * fails without asking anything (ESRCH), granted or not.
 */
static int run_kill_outside(void *ctx, struct suggestion *sg,
			    const uint64_t *grant, struct run_result *rr,
			    struct tally *t)
{
	int *runs = ctx;

	(void)sg;
	(void)grant;
	(*runs)++;
	rr->status = EXITED(1);
	run_tally(t, "/usr/bin/kill", 0, 0);
	return 0;
}

/* The same process inside the trial (a child it made another user's). */
static int run_kill_inside(void *ctx, struct suggestion *sg,
			   const uint64_t *grant, struct run_result *rr,
			   struct tally *t)
{
	int *runs = ctx;
	uint64_t kill = BIT(CAP_KILL);

	(void)sg;
	(*runs)++;
	rr->status = grant[0] & kill ? EXITED(0) : EXITED(1);
	run_tally(t, "/usr/bin/kill", kill & ~grant[0], kill & grant[0]);
	return 0;
}

START_TEST(a_process_outside_the_trial_proves_nothing)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 };
	struct trial_runner runner = { run_kill_outside, NULL };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;
	int runs = 0;

	runner.ctx = &runs;
	run_tally(&t, "/usr/bin/kill", BIT(CAP_KILL), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 0);
	/* Not "what it lacks is not among them": the namespace is why. */
	ck_assert_msg(
		strcmp(sg.unproven,
		       "run 2, with every candidate granted, did not ask for cap_kill on /usr/bin/kill, which the command's own run asked for: a trial runs in a PID namespace of its own, where no process outside it is there to signal, trace or renice") ==
			0,
		"%s", sg.unproven);
	ck_assert_int_eq(runs, 2);
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_KILL));
	suggest_free(&sg);
	tally_free(&t);

	/* Asked for in the trials too: proven as any other. */
	runs = 0;
	runner.run = run_kill_inside;
	run_tally(&t, "/usr/bin/kill", BIT(CAP_KILL), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_msg(sg.proven == 1, "%s", sg.unproven);
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_KILL));
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

START_TEST(unproven_keeps_the_old_rule)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 },
			  ok = { .seconds = 0.1 };
	struct trial_runner runner = { run_fails, NULL };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	run_tally(&t, "/opt/probe", BIT(CAP_DAC_OVERRIDE) | BIT(CAP_PERFMON),
		  BIT(CAP_NET_BIND_SERVICE));
	/* Success: what was granted; refusals it did without. */
	ck_assert_int_eq(suggest_build(&sg, &t, &ok), 0);
	suggest_unproven(&sg, "capaudit is not root");
	ck_assert_int_eq(sg.failed, 0);
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_BIND_SERVICE));
	ck_assert_uint_eq(sg.unused, BIT(CAP_DAC_OVERRIDE) | BIT(CAP_PERFMON));
	ck_assert_str_eq(sg.unproven, "capaudit is not root");
	suggest_free(&sg);
	/* Failure: the refusals may be why; cap_sys_admin never on its own. */
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 0);
	ck_assert_str_eq(sg.unproven, "no trial can grant it");
	/* Unproven, the root-equivalent one is held apart, not granted. */
	ck_assert_uint_eq(sg.files[0].grant,
			  BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_PERFMON));
	ck_assert_uint_eq(sg.files[0].apart, BIT(CAP_DAC_OVERRIDE));
	ck_assert_uint_eq(sg.incidental, BIT(CAP_SYS_ADMIN));
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * A process whose file is not known (its exec record was lost) is named
 * by its comm, which it chooses itself (prctl(PR_SET_NAME)): the
 * suggestion shows it escaped, never a raw ESC that rewrites the screen.
 */
START_TEST(unknown_file_named_escaped)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 };
	struct suggestion sg;
	struct record r;
	struct tally t;
	char *text = NULL;

	tally_init(&t, 10, NULL);
	feed_check(&t, getpid(), CAP_SETUID, 0); /* the calibration */
	memset(&r, 0, sizeof(r));
	r.kind = REC_COMM;
	r.pid = r.tid = 10;
	r.exec = 1;
	r.s.time = clock_now++;
	snprintf(r.comm, sizeof(r.comm), "x\033]0;pwn\007y");
	tally_record(&r, &t); /* no REC_EXEC_MAP: its file is not known */
	feed_check(&t, 10, CAP_NET_RAW, -1);
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_uint_eq(sg.nfiles, 1);
	ck_assert_ptr_null(sg.files[0].path);
	suggest_unproven(&sg, "capaudit is not root");
	text = report_of(&sg, &t, &failed);
	ck_assert_ptr_null(strchr(text, '\033'));
	ck_assert_ptr_null(strchr(text, '\007'));
	ck_assert_ptr_nonnull(
		strstr(text, "the file x\\033]0;pwn\\007y ran is not known"));
	free(text);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * What a file loads (its loader, its libraries) runs with its grant: the
 * mappings after the first are kept, once each, and go with the file
 * into the suggestion; the file's own second mapping is not one.
 */
START_TEST(libraries_go_with_their_file)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 };
	char file[] = "/opt/app", lib[] = "/opt/lib/libplug.so",
	     ld[] = "/lib/ld.so";
	struct suggestion sg;
	struct record r;
	struct tally t;

	tally_init(&t, 10, NULL);
	feed_check(&t, getpid(), CAP_SETUID, 0); /* the calibration */
	memset(&r, 0, sizeof(r));
	r.kind = REC_COMM;
	r.pid = r.tid = 10;
	r.exec = 1;
	r.s.time = clock_now++;
	snprintf(r.comm, sizeof(r.comm), "app");
	tally_record(&r, &t);
	r.kind = REC_EXEC_MAP;
	r.maj = 254;
	r.file = file;
	r.ino = 77;
	tally_record(&r, &t);
	tally_record(&r, &t); /* another segment of its own */
	r.file = ld;
	r.ino = 78;
	tally_record(&r, &t);
	r.file = lib;
	r.ino = 79;
	tally_record(&r, &t);
	r.file = ld;
	r.ino = 78;
	tally_record(&r, &t); /* once each */
	feed_check(&t, 10, CAP_SETUID, -1);
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_uint_eq(t.images[0].nlibs, 2);
	ck_assert_uint_eq(t.nmaps, 2);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_uint_eq(sg.nfiles, 1);
	ck_assert_uint_eq(sg.files[0].nlibs, 2);
	ck_assert_str_eq(sg.files[0].libs[0].path, "/lib/ld.so");
	ck_assert_str_eq(sg.files[0].libs[1].path, "/opt/lib/libplug.so");
	ck_assert_uint_eq(sg.files[0].libs[1].ino, 79);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * Every trial fails: the copies are not the program (it checks its
 * set-id bit). It asks for *ctx, granted or not.
 */
static int run_broken(void *ctx, struct suggestion *sg, const uint64_t *grant,
		      struct run_result *rr, struct tally *t)
{
	uint64_t ask = *(const uint64_t *)ctx;

	(void)sg;
	rr->status = EXITED(1);
	run_tally(t, "/usr/bin/tool", ask & ~grant[0], ask & grant[0]);
	return 0;
}

START_TEST(copies_that_break_the_program_prove_nothing)
{
	struct run_result ok = { .status = EXITED(0), .seconds = 0.1 };
	uint64_t ask = BIT(CAP_SETUID) | BIT(CAP_KILL);
	struct trial_runner runner = { run_broken, &ask };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	run_tally(&t, "/usr/bin/tool", 0, BIT(CAP_SETUID) | BIT(CAP_KILL));
	ck_assert_int_eq(suggest_build(&sg, &t, &ok), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 0);
	ck_assert_ptr_nonnull(strstr(
		sg.unproven,
		"exited with status 1, though it exited with status 0 as it was"));
	/* Unproven: what it was granted, cap_setuid held apart. */
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_KILL));
	ck_assert_uint_eq(sg.files[0].apart, BIT(CAP_SETUID));
	ck_assert_int_eq(sg.runs, 2);
	suggest_free(&sg);
	tally_free(&t);

	/*
	 * It failed as it was, and fails alike with every candidate: the
	 * candidates are not what it lacks; never "nothing needed".
	 */
	{
		struct run_result failed = { .status = EXITED(1),
					     .seconds = 0.1 };

		ask = BIT(CAP_DAC_OVERRIDE);
		run_tally(&t, "/usr/bin/tool", BIT(CAP_DAC_OVERRIDE), 0);
		ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
		ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
		ck_assert_int_eq(sg.proven, 0);
		ck_assert_ptr_nonnull(strstr(
			sg.unproven,
			"still exited with status 1, as it did without"));
		suggest_free(&sg);
		tally_free(&t);
		/* Unless --success says what success is: then it is proven none is needed... */
		succ.n = 1;
		succ.status[0] = 1;
		run_tally(&t, "/usr/bin/tool", BIT(CAP_DAC_OVERRIDE), 0);
		ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
		ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
		ck_assert_int_eq(sg.proven, 1);
		ck_assert_uint_eq(sg.files[0].grant, 0);
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * chown of a root's file to nobody: once a run with cap_chown has done
 * it, the file is nobody's and no run asks again. With net_raw it asks
 * for cap_net_raw too, first, and needs it. With hidden, no check of a
 * run that grants it anything is seen (perf stops watching a program
 * that gains capabilities at an exec another program made), only its
 * wrapper's.
 */
struct fake_chown {
	int owned, net_raw, hidden;
};

static int run_chown(void *ctx, struct suggestion *sg, const uint64_t *grant,
		     struct run_result *rr, struct tally *t)
{
	struct fake_chown *f = ctx;
	uint64_t g = grant[0], asked = 0;
	int ok = 1;

	(void)sg;
	if (f->net_raw) {
		asked |= BIT(CAP_NET_RAW);
		ok = (g & BIT(CAP_NET_RAW)) != 0;
	}
	if (!f->owned) {
		asked |= BIT(CAP_CHOWN);
		f->owned = (g & BIT(CAP_CHOWN)) != 0;
		ok &= f->owned;
	}
	rr->status = ok ? EXITED(0) : EXITED(1);
	if (f->hidden && g != 0)
		run_tally(t, "/usr/bin/timeout", 0, 0);
	else
		run_tally(t, "/usr/bin/chown", asked & ~g, asked & g);
	return 0;
}

/* The first run, nobody's: what the command asked for, all refused. */
static void chown_first(struct tally *t, struct suggestion *sg,
			const struct fake_chown *f)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 };

	run_tally(t, "/usr/bin/chown",
		  BIT(CAP_CHOWN) | (f->net_raw ? BIT(CAP_NET_RAW) : 0), 0);
	ck_assert_int_eq(suggest_build(sg, t, &failed), 0);
}

START_TEST(a_command_that_changes_its_file_proves_nothing)
{
	static const struct fake_chown cases[] = {
		{ 0, 0, 0 }, /* seen: its run without cap_chown asks nothing */
		{ 0, 0, 1 }, /* hidden: its run without any succeeds */
		{ 0, 1,
		  1 }, /* hidden, cap_net_raw kept: run 1 is not repeated */
	};
	static const char *const why[] = {
		"run 3, without cap_chown on /usr/bin/chown, did not ask for it, where run 2 did",
		"run 1, without any capability, exited with status 1, yet later runs without any succeeded",
		"run 5, without any capability as run 1 was, asked for cap_net_raw on /usr/bin/chown where run 1 asked for cap_chown,cap_net_raw",
	};
	struct success succ = { 0 };
	struct trial_runner runner;
	struct fake_chown f;
	struct suggestion sg;
	struct tally t;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = cases[i];
		runner.run = run_chown;
		runner.ctx = &f;
		chown_first(&t, &sg, &f);
		ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
		ck_assert_int_eq(sg.proven, 0);
		ck_assert_msg(strncmp(sg.unproven,
				      "the command changes what it works on: ",
				      38) == 0,
			      "case %zu: %s", i, sg.unproven);
		ck_assert_msg(strstr(sg.unproven, why[i]) != NULL,
			      "case %zu: %s", i, sg.unproven);
		/* Unproven: cap_chown is root-equivalent, held apart. */
		ck_assert_uint_eq(sg.files[0].apart, BIT(CAP_CHOWN));
		ck_assert_uint_eq(sg.files[0].grant,
				  f.net_raw ? BIT(CAP_NET_RAW) : 0);
		suggest_free(&sg);
		tally_free(&t);
	}
}
END_TEST

/*
 * Succeeds with every candidate and with none, fails with some: what
 * the runs without one capability show is not a need, as the run
 * without any says.
 */
static int run_both_or_none(void *ctx, struct suggestion *sg,
			    const uint64_t *grant, struct run_result *rr,
			    struct tally *t)
{
	uint64_t both = BIT(CAP_NET_RAW) | BIT(CAP_NET_ADMIN);

	(void)ctx;
	(void)sg;
	rr->status = grant[0] == 0 || grant[0] == both ? EXITED(0) : EXITED(1);
	run_tally(t, "/opt/both", both & ~grant[0], both & grant[0]);
	return 0;
}

START_TEST(a_plain_success_with_a_grant_proves_nothing)
{
	struct run_result failed = { .status = EXITED(1), .seconds = 0.1 };
	struct trial_runner runner = { run_both_or_none, NULL };
	struct success succ = { 0 };
	struct suggestion sg;
	struct tally t;

	run_tally(&t, "/opt/both", BIT(CAP_NET_RAW) | BIT(CAP_NET_ADMIN), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	ck_assert_int_eq(suggest_prove(&sg, &succ, &runner), 0);
	ck_assert_int_eq(sg.proven, 0);
	ck_assert_msg(
		strstr(sg.unproven,
		       "run 1, without any capability, exited with status 0, which counts as success, yet later runs needed cap_net_admin,cap_net_raw") !=
			NULL,
		"%s", sg.unproven);
	/* No run after the minimization: the first one already says it. */
	ck_assert_int_eq(sg.runs, 4);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * Unproven, ping's root-equivalent candidates are in no line to paste:
 * named apart, in the text and in --json.
 */
START_TEST(unproven_root_equivalents_held_apart)
{
	struct run_result failed = { .status = EXITED(2), .seconds = 0.1 };
	char self[256], line[320], *text = NULL;
	struct suggestion sg;
	struct tally t;
	ssize_t n;

	/* A file that is there, as the kernel names it: this program. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	run_tally(&t, self,
		  BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_RAW), 0);
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	suggest_unproven(&sg, "capaudit is not root");
	ck_assert_uint_eq(sg.files[0].grant, BIT(CAP_NET_RAW));
	ck_assert_uint_eq(sg.files[0].apart,
			  BIT(CAP_SETUID) | BIT(CAP_SETPCAP));
	text = report_of(&sg, &t, &failed);
	snprintf(line, sizeof(line), "\nsetcap cap_net_raw=ep %s\n", self);
	ck_assert_msg(strstr(text, line) != NULL, "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\ncap_net_raw\tnobody\n"));
	ck_assert_ptr_nonnull(
		strstr(text, "\nAmbientCapabilities=CAP_NET_RAW\n"));
	ck_assert_ptr_nonnull(strstr(
		text,
		"\n# held apart: cap_setuid,cap_setpcap: root-equivalent and not proven needed: no line here grants them;"));
	ck_assert_ptr_nonnull(strstr(text, " (held apart: unproven)\n"));
	ck_assert_ptr_nonnull(strstr(
		text,
		"\"capabilities\":[{\"name\":\"cap_net_raw\",\"risk\":\"escalation-adjacent\"}],\"held_apart\":[{\"name\":\"cap_setuid\",\"risk\":\"root-equivalent\"},{\"name\":\"cap_setpcap\",\"risk\":\"root-equivalent\"}],"));
	ck_assert_ptr_nonnull(strstr(
		text, "\"proven\":false,\"same_file\":true,\"capabilities\""));
	ck_assert_ptr_nonnull(strstr(text, ",\"setcap\":\"cap_net_raw\"}"));
	/* No line but the note names a root-equivalent one as a grant. */
	ck_assert_ptr_null(strstr(text, "setcap cap_setuid"));
	ck_assert_ptr_null(strstr(text, "CAP_SETUID"));
	ck_assert_ptr_null(strstr(text, "cap_setuid\tnobody"));
	free(text);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

/*
 * A path that names another file than the kernel's record (replaced
 * since, or a path the kernel gave inside a layer of a nested overlay)
 * gets no setcap line: pasted, it would grant that other file.
 */
START_TEST(no_setcap_line_for_another_file)
{
	struct run_result failed = { .status = EXITED(2), .seconds = 0.1 };
	char *text = NULL;
	struct suggestion sg;
	struct tally t;

	run_tally(&t, "/", BIT(CAP_NET_RAW), 0); /* a directory's name */
	ck_assert_int_eq(suggest_build(&sg, &t, &failed), 0);
	sg.files[0].ino++; /* the record named another inode there */
	suggest_unproven(&sg, "capaudit is not root");
	text = report_of(&sg, &t, &failed);
	ck_assert_ptr_null(strstr(text, "\nsetcap "));
	ck_assert_msg(
		strstr(text,
		       "\n# setcap: /: not the file the command ran (no regular file now): no line for cap_net_raw; find the file it ran first\n") !=
			NULL,
		"%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\"same_file\":false"));
	free(text);
	suggest_free(&sg);
	tally_free(&t);
}
END_TEST

START_TEST(success_is_the_reference_or_the_list)
{
	struct success none = { 0 }, list = { 2, { 0, 124 } };

	ck_assert(success_of(&none, 1, EXITED(124), EXITED(124)));
	ck_assert(!success_of(&none, 1, EXITED(124), EXITED(1)));
	ck_assert(!success_of(&none, 0, EXITED(0), EXITED(0)));
	/* A signal is the same signal, never an exit status. */
	ck_assert(success_of(&none, 1, SIGTERM, SIGTERM));
	ck_assert(!success_of(&none, 1, SIGTERM, EXITED(SIGTERM)));
	ck_assert(success_of(&list, 0, 0, EXITED(124)));
	ck_assert(success_of(&list, 0, 0, EXITED(0)));
	ck_assert(!success_of(&list, 1, EXITED(1), EXITED(1)));
	ck_assert(!success_of(&list, 0, 0, SIGKILL));
}
END_TEST

/* The trial's copy carries what the kernel reads as caps=ep. */
START_TEST(trial_copies_carry_exactly_the_grant)
{
	unsigned char raw[20];
	struct lcap_xattr x;
	uint64_t caps = BIT(CAP_NET_RAW) | BIT(CAP_PERFMON) | BIT(CAP_CHOWN);

	ck_assert_uint_eq(filecap_encode(caps, raw), 20);
	ck_assert_int_eq(lcap_xattr_decode(&x, raw, 20), 0);
	ck_assert_int_eq(x.revision, 2);
	ck_assert_int_eq(x.effective, 1);
	ck_assert_uint_eq(x.permitted[0], (uint32_t)caps);
	ck_assert_uint_eq(x.permitted[1], (uint32_t)(caps >> 32));
	ck_assert_uint_eq(x.inheritable[0] | x.inheritable[1], 0);
	/* Nothing granted: no value at all, so the copy holds none. */
	ck_assert_uint_eq(filecap_encode(0, raw), 0);
}
END_TEST

START_TEST(user_environment)
{
	const char *const env[] = {
		"HOME=/root",
		"USER=root",
		"LOGNAME=root",
		"SHELL=/bin/bash",
		"PATH=/root/.local/bin:/usr/sbin",
		"XDG_RUNTIME_DIR=/run/user/0",
		"MAIL=/var/mail/root",
		"LANG=C.UTF-8",
		"TERM=xterm",
		/* root's places, and what a capable program's libc ignores */
		"TMPDIR=/root/tmp",
		"TMP=/root/tmp",
		"XDG_CONFIG_HOME=/root/.config",
		"XDG_CACHE_HOME=/root/.cache",
		"SSH_AUTH_SOCK=/root/.ssh/agent",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/0/bus",
		"LD_PRELOAD=/root/lib.so",
		"LD_LIBRARY_PATH=/root/lib",
		"GLIBC_TUNABLES=glibc.malloc.check=3",
		"LOCPATH=/root/locale",
		NULL,
	};
	char **out =
		env_for_user(env, "alice", 1000, "/home/alice", "/bin/zsh");
	size_t n = 0, i;
	int lang = 0, home = 0, path = 0, shell = 0, user = 0, logname = 0;

	ck_assert_ptr_nonnull(out);
	for (i = 0; out[i] != NULL; i++, n++) {
		ck_assert_ptr_null(strstr(out[i], "root"));
		ck_assert(strncmp(out[i], "XDG_RUNTIME_DIR=", 16) != 0);
		ck_assert(strncmp(out[i], "MAIL=", 5) != 0);
		ck_assert(strncmp(out[i], "LD_", 3) != 0);
		ck_assert(strncmp(out[i], "GLIBC_TUNABLES=", 15) != 0);
		lang += strcmp(out[i], "LANG=C.UTF-8") == 0;
		home += strcmp(out[i], "HOME=/home/alice") == 0;
		user += strcmp(out[i], "USER=alice") == 0;
		logname += strcmp(out[i], "LOGNAME=alice") == 0;
		shell += strcmp(out[i], "SHELL=/bin/zsh") == 0;
		path += strcmp(out[i], "PATH=/usr/local/bin:/usr/bin:/bin") ==
			0;
	}
	ck_assert_uint_eq(n, 7);
	ck_assert(lang == 1 && home == 1 && user == 1 && logname == 1 &&
		  shell == 1 && path == 1);
	env_free(out);
	/* An empty home and shell in the database: / and /bin/sh. */
	out = env_for_user(NULL, "svc", 0, "", "");
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out[0], "HOME=/");
	ck_assert_str_eq(out[3], "SHELL=/bin/sh");
	ck_assert_ptr_nonnull(strstr(out[4], "/usr/sbin"));
	env_free(out);
}
END_TEST

START_TEST(interpreters_by_name)
{
	ck_assert(is_interpreter("/usr/bin/python3.11"));
	ck_assert(is_interpreter("/usr/bin/python3"));
	ck_assert(is_interpreter("/usr/bin/perl5.36.0"));
	ck_assert(is_interpreter("/bin/sh"));
	ck_assert(is_interpreter("/usr/bin/bash"));
	ck_assert(is_interpreter("node"));
	ck_assert(!is_interpreter("/usr/bin/python3-config"));
	ck_assert(!is_interpreter("/usr/bin/shred"));
	ck_assert(!is_interpreter("/usr/bin/ping"));
	ck_assert(!is_interpreter("/usr/bin/chown"));
	ck_assert(!is_interpreter("/usr/bin/bashful"));
}
END_TEST

static Suite *capaudit_suite(void)
{
	Suite *s = suite_create("capaudit_prove");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ping_needs_cap_net_raw_alone);
	tcase_add_test(tc, trials_converge_on_later_needs);
	tcase_add_test(tc, no_root_equivalent_trial_on_an_interpreter);
	tcase_add_test(tc, a_failure_once_is_no_need);
	tcase_add_test(tc, a_reference_killed_once_proves_nothing);
	tcase_add_test(tc, a_process_outside_the_trial_proves_nothing);
	tcase_add_test(tc, unproven_keeps_the_old_rule);
	tcase_add_test(tc, unknown_file_named_escaped);
	tcase_add_test(tc, libraries_go_with_their_file);
	tcase_add_test(tc, copies_that_break_the_program_prove_nothing);
	tcase_add_test(tc, a_command_that_changes_its_file_proves_nothing);
	tcase_add_test(tc, a_plain_success_with_a_grant_proves_nothing);
	tcase_add_test(tc, unproven_root_equivalents_held_apart);
	tcase_add_test(tc, no_setcap_line_for_another_file);
	tcase_add_test(tc, success_is_the_reference_or_the_list);
	tcase_add_test(tc, trial_copies_carry_exactly_the_grant);
	tcase_add_test(tc, user_environment);
	tcase_add_test(tc, interpreters_by_name);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(capaudit_suite)
