/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's tally (progs/capaudit/capaudit_tally.c): checks attributed
 * to the process and the file it ran (fork, exec, the executable
 * mapping), our launcher's apart, records put back in time order across
 * drains, and each check classified: the process's own credential
 * against capaudit's user namespace, another user namespace, or a
 * credential lent for one call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "capaudit_decode.h"
#include "capaudit_tally.h"
#include "check_run.h"

#define INIT_NS	 0xffffffff82a5c0e0ULL
#define CHILD_NS 0xffff888004440000ULL
#define CRED_A	 0xffff888001000000ULL
#define CRED_B	 0xffff888002000000ULL
#define CRED_C	 0xffff888003000000ULL

static uint64_t clock_now = 100;

static struct record check(pid_t pid, int cap, int ret, uint64_t cred,
			   uint64_t ns)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.kind = REC_SAMPLE;
	r.s.pid = r.s.tid = pid;
	r.s.time = clock_now++;
	r.s.cap = cap;
	r.s.ret = ret;
	r.s.have_cap = r.s.have_ret = r.s.have_cred = r.s.have_ns = 1;
	r.s.have_capable_ns = 1;
	r.s.cred = cred;
	r.s.target_ns = ns;
	/* Granted: the tracepoint names the credential's own namespace. */
	r.s.capable_ns = ret == 0 ? INIT_NS : 0;
	return r;
}

static struct record side(enum record_kind kind, pid_t pid, pid_t ppid,
			  const char *comm, int exec)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.pid = r.tid = pid;
	r.ppid = ppid;
	r.exec = exec;
	r.s.time = clock_now++;
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return r;
}

static void feed(struct tally *t, struct record r)
{
	tally_record(&r, t);
}

/* capaudit's own setuid(2): the namespace pointer that is its own. */
static void calibrate(struct tally *t, uint64_t ns)
{
	feed(t, check(getpid(), CAP_SETUID, 0, CRED_C, ns));
}

/* An exec of file by pid: its COMM record, then its executable mapping. */
static void exec_file(struct tally *t, pid_t pid, const char *comm,
		      const char *file, uint64_t ino)
{
	struct record r = side(REC_COMM, pid, 0, comm, 1);
	char name[256];

	tally_record(&r, t);
	r = side(REC_EXEC_MAP, pid, 0, "", 0);
	snprintf(name, sizeof(name), "%s", file);
	r.file = name;
	r.maj = 254;
	r.ino = ino;
	tally_record(&r, t);
}

static const struct row *row_of(const struct tally *t, pid_t pid, int cap,
				enum check_class cls)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].pid == pid && t->rows[i].cap == cap &&
		    t->rows[i].cls == cls)
			return &t->rows[i];
	return NULL;
}

START_TEST(attributes_to_processes_and_files)
{
	const struct row *r;
	struct record rec;
	struct tally t;

	tally_init(&t, 100, NULL);
	calibrate(&t, INIT_NS);
	/* The launcher's setuid before the exec is not the command's. */
	feed(&t, check(100, CAP_SETUID, 0, CRED_A, INIT_NS));
	exec_file(&t, 100, "env", "/usr/bin/env", 11);
	feed(&t, check(100, CAP_SYS_NICE, -1, CRED_B, INIT_NS));
	/* env execs python in the same process: a file of its own. */
	exec_file(&t, 100, "python3", "/usr/bin/python3.11", 22);
	feed(&t, check(100, CAP_NET_BIND_SERVICE, -1, CRED_C, INIT_NS));
	feed(&t, side(REC_FORK, 101, 100, "", 0));
	feed(&t, side(REC_FORK, 102, 101, "", 0));
	feed(&t, check(102, CAP_PERFMON, -1, CRED_A, INIT_NS));
	feed(&t, check(102, CAP_PERFMON, -1, CRED_A, INIT_NS));
	/* A thread: same process, no new entry. */
	feed(&t, side(REC_FORK, 100, 100, "", 0));
	feed(&t, check(100, 64, 0, CRED_C, INIT_NS)); /* no such capability */
	rec = side(REC_LOST, 0, 0, "", 0);
	rec.lost = 3;
	feed(&t, rec);
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_int_eq(t.init_ns_state, 1);
	ck_assert_uint_eq(t.launcher, 1);
	ck_assert_uint_eq(t.out_of_range, 1);
	ck_assert_uint_eq(t.lost, 3);
	ck_assert_uint_eq(t.nprocs, 3);
	ck_assert_uint_eq(t.nimages, 2);
	r = row_of(&t, 100, CAP_SYS_NICE, CLASS_OWN);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(t.images[r->image].file, "/usr/bin/env");
	ck_assert_str_eq(r->comm, "env");
	r = row_of(&t, 100, CAP_NET_BIND_SERVICE, CLASS_OWN);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(t.images[r->image].file, "/usr/bin/python3.11");
	ck_assert_uint_eq(t.images[r->image].ino, 22);
	ck_assert_uint_eq(r->refused, 1);
	ck_assert_ptr_null(row_of(&t, 100, CAP_SETUID, CLASS_OWN));
	/* The grandchild runs what its parent ran: python. */
	r = row_of(&t, 102, CAP_PERFMON, CLASS_OWN);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->refused, 2);
	ck_assert_int_eq(r->ppid, 101);
	ck_assert_str_eq(t.images[r->image].file, "/usr/bin/python3.11");
	ck_assert_uint_eq(tally_followed(&t), 3);
	ck_assert_uint_eq(tally_running(&t), 3);
	feed(&t, side(REC_EXIT, 102, 101, "", 0));
	ck_assert_uint_eq(tally_running(&t), 2);
	tally_free(&t);
}
END_TEST

START_TEST(classifies_by_namespace_and_credential)
{
	struct tally t;

	tally_init(&t, 200, NULL);
	calibrate(&t, INIT_NS);
	exec_file(&t, 200, "probe", "/opt/probe", 5);
	/* Its own credential A throughout; B lent inside A's span. */
	feed(&t, check(200, CAP_SYS_ADMIN, -1, CRED_A, INIT_NS));
	feed(&t, check(200, CAP_DAC_OVERRIDE, -1, CRED_B, INIT_NS));
	feed(&t, check(200, CAP_DAC_READ_SEARCH, -1, CRED_B, INIT_NS));
	feed(&t, check(200, CAP_NET_RAW, 0, CRED_A, INIT_NS));
	/* Against a namespace the command made. */
	feed(&t, check(200, CAP_NET_ADMIN, 0, CRED_A, CHILD_NS));
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_ptr_nonnull(row_of(&t, 200, CAP_NET_RAW, CLASS_OWN));
	ck_assert_ptr_nonnull(row_of(&t, 200, CAP_DAC_OVERRIDE, CLASS_CRED));
	ck_assert_ptr_nonnull(row_of(&t, 200, CAP_DAC_READ_SEARCH, CLASS_CRED));
	ck_assert_ptr_nonnull(row_of(&t, 200, CAP_NET_ADMIN, CLASS_USERNS));
	ck_assert_uint_eq(t.class_checks[CLASS_CRED], 2);
	tally_free(&t);

	/*
	 * A credential that replaces the old one for good (setuid(2), then
	 * capset(2)) is its own: nothing of A comes after C starts.
	 */
	tally_init(&t, 210, NULL);
	calibrate(&t, INIT_NS);
	exec_file(&t, 210, "ping", "/usr/bin/ping", 6);
	feed(&t, check(210, CAP_SYS_ADMIN, -1, CRED_A, INIT_NS));
	feed(&t, check(210, CAP_SETUID, -1, CRED_A, INIT_NS));
	feed(&t, check(210, CAP_SETPCAP, -1, CRED_B, INIT_NS));
	feed(&t, check(210, CAP_NET_RAW, -1, CRED_C, INIT_NS));
	feed(&t, check(210, CAP_NET_RAW, -1, CRED_C, INIT_NS));
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_ptr_nonnull(row_of(&t, 210, CAP_SETUID, CLASS_OWN));
	ck_assert_ptr_nonnull(row_of(&t, 210, CAP_SETPCAP, CLASS_OWN));
	ck_assert_ptr_nonnull(row_of(&t, 210, CAP_NET_RAW, CLASS_OWN));
	tally_free(&t);

	/*
	 * unshare(CLONE_NEWUSER): the new credential is granted in the new
	 * namespace, so even its checks against ours are not its own to
	 * ask of a file.
	 */
	tally_init(&t, 220, NULL);
	calibrate(&t, INIT_NS);
	exec_file(&t, 220, "unshare", "/usr/bin/unshare", 7);
	{
		struct record r =
			check(220, CAP_SYS_CHROOT, 0, CRED_B, CHILD_NS);

		r.s.capable_ns = CHILD_NS;
		feed(&t, r);
	}
	feed(&t, check(220, CAP_DAC_OVERRIDE, -1, CRED_B, INIT_NS));
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_ptr_nonnull(row_of(&t, 220, CAP_DAC_OVERRIDE, CLASS_USERNS));
	ck_assert_uint_eq(t.class_checks[CLASS_OWN], 0);
	tally_free(&t);
}
END_TEST

/*
 * A credential's address is reused: A freed, a later credential of the
 * thread gets it (or a file opened under A is checked with A after the
 * thread changed its own), and B, the thread's own between them, looks
 * lent from samples. Counted in the kernel, each check says whether
 * its credential was the thread's own, and that decides.
 */
START_TEST(the_kernels_word_on_lent_credentials_decides)
{
	static const int counted[] = { 0, 1 };
	struct record r;
	struct tally t;
	size_t i;

	for (i = 0; i < 2; i++) {
		tally_init(&t, 230, NULL);
		calibrate(&t, INIT_NS);
		exec_file(&t, 230, "server", "/opt/server", 8);
		r = check(230, CAP_SYS_ADMIN, -1, CRED_A, INIT_NS);
		r.s.counted = counted[i];
		feed(&t, r);
		r = check(230, CAP_NET_BIND_SERVICE, -1, CRED_B, INIT_NS);
		r.s.counted = counted[i];
		feed(&t, r);
		/* A's address again: the socket's credential, not the thread's. */
		r = check(230, CAP_NET_ADMIN, -1, CRED_A, INIT_NS);
		r.s.counted = counted[i];
		r.s.lent = counted[i];
		feed(&t, r);
		ck_assert_int_eq(tally_finish(&t), 0);
		if (counted[i]) {
			ck_assert_ptr_nonnull(row_of(
				&t, 230, CAP_NET_BIND_SERVICE, CLASS_OWN));
			ck_assert_ptr_nonnull(
				row_of(&t, 230, CAP_NET_ADMIN, CLASS_CRED));
			ck_assert_uint_eq(t.lent_guessed, 0);
		} else {
			/* From samples a guess, and said to be one. */
			ck_assert_ptr_nonnull(row_of(
				&t, 230, CAP_NET_BIND_SERVICE, CLASS_CRED));
			ck_assert_uint_eq(t.lent_guessed,
					  1ULL << CAP_NET_BIND_SERVICE);
		}
		tally_free(&t);
	}
}
END_TEST

START_TEST(unknown_namespace_decides_nothing)
{
	struct tally t;

	/* No calibration seen: nothing can be the command's own. */
	tally_init(&t, 300, NULL);
	exec_file(&t, 300, "probe", "/opt/probe", 5);
	feed(&t, check(300, CAP_CHOWN, 0, CRED_A, INIT_NS));
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_ptr_nonnull(row_of(&t, 300, CAP_CHOWN, CLASS_UNKNOWN));
	ck_assert_uint_eq(t.class_checks[CLASS_OWN], 0);
	tally_free(&t);
	/* Two calibrations that disagree: never guess between them. */
	tally_init(&t, 300, NULL);
	calibrate(&t, INIT_NS);
	calibrate(&t, CHILD_NS);
	exec_file(&t, 300, "probe", "/opt/probe", 5);
	feed(&t, check(300, CAP_CHOWN, 0, CRED_A, INIT_NS));
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_int_eq(t.init_ns_state, -1);
	ck_assert_ptr_nonnull(row_of(&t, 300, CAP_CHOWN, CLASS_UNKNOWN));
	tally_free(&t);
	/* A source without cred and namespace fields: unknown as well. */
	tally_init(&t, 300, NULL);
	calibrate(&t, INIT_NS);
	exec_file(&t, 300, "probe", "/opt/probe", 5);
	{
		struct record r = check(300, CAP_CHOWN, 0, 0, 0);

		r.s.have_cred = r.s.have_ns = 0;
		feed(&t, r);
	}
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_ptr_nonnull(row_of(&t, 300, CAP_CHOWN, CLASS_UNKNOWN));
	tally_free(&t);
}
END_TEST

START_TEST(pairs_kprobe_entry_and_return)
{
	struct record r;
	struct tally t;

	tally_init(&t, 50, "daemon");
	calibrate(&t, INIT_NS);
	memset(&r, 0, sizeof(r));
	r.kind = REC_SAMPLE;
	r.s.pid = 50;
	r.s.tid = 51;
	r.s.cap = CAP_NET_RAW;
	r.s.have_cap = r.s.have_cred = r.s.have_ns = 1;
	r.s.cred = CRED_A;
	r.s.target_ns = INIT_NS;
	tally_record(&r, &t);
	r.s.tid = 52;
	r.s.cap = CAP_KILL;
	tally_record(&r, &t);
	memset(&r.s, 0, sizeof(r.s));
	r.s.pid = 50;
	r.s.have_ret = 1;
	r.s.ret = -1;
	r.s.tid = 51;
	tally_record(&r, &t); /* 51's cap_net_raw refused */
	r.s.ret = 0;
	r.s.tid = 52;
	tally_record(&r, &t); /* 52's cap_kill granted */
	tally_record(&r, &t); /* a return with no entry left */
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_uint_eq(row_of(&t, 50, CAP_NET_RAW, CLASS_OWN)->refused, 1);
	ck_assert_uint_eq(row_of(&t, 50, CAP_KILL, CLASS_OWN)->granted, 1);
	ck_assert_uint_eq(t.unpaired, 1);
	tally_free(&t);
}
END_TEST

/*
 * Each CPU writes its own buffer. The fork record (CPU 0, time 10) may
 * be read after the child's first check (CPU 1, time 20); delivered as
 * read, the check was counted as our launcher's. Held back until no
 * earlier record can come, it is the child's.
 */
START_TEST(records_wait_for_their_turn)
{
	struct record recs[4];
	struct tally t;
	size_t n;

	tally_init(&t, 400, NULL);
	calibrate(&t, INIT_NS);
	exec_file(&t, 400, "probe", "/opt/probe", 5);
	memset(recs, 0, sizeof(recs));
	recs[0] = check(401, CAP_CHOWN, 0, CRED_A, INIT_NS);
	recs[0].s.time = 1000020;
	recs[0].seq = 0;
	/* First drain: only the child's check is there, and it is too young. */
	n = records_release(recs, 1, 1000015, tally_record, &t);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(t.launcher, 0);
	/* Second drain: the fork arrives; both go, the fork first. */
	recs[1] = side(REC_FORK, 401, 400, "", 0);
	recs[1].s.time = 1000010;
	recs[1].seq = 1;
	n = records_release(recs, 2, UINT64_MAX, tally_record, &t);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_uint_eq(t.launcher, 0);
	ck_assert_ptr_nonnull(row_of(&t, 401, CAP_CHOWN, CLASS_OWN));
	tally_free(&t);
}
END_TEST

/*
 * A run of identical checks read as one sample (more: how many after the
 * first) counts every one of them, the launcher's and the out-of-range
 * ones included, and its credential's span ends at the last of them.
 */
START_TEST(merged_repeats_count_each_check)
{
	const struct row *r;
	struct record rec;
	struct tally t;

	tally_init(&t, 500, NULL);
	calibrate(&t, INIT_NS);
	rec = check(500, CAP_SETUID, 0, CRED_A, INIT_NS);
	rec.s.more = 2; /* the launcher's, before the exec */
	rec.s.last = rec.s.time + 2;
	feed(&t, rec);
	exec_file(&t, 500, "loop", "/opt/loop", 7);
	rec = check(500, CAP_CHOWN, 0, CRED_B, INIT_NS);
	rec.s.more = 499999;
	rec.s.last = rec.s.time + 1000;
	feed(&t, rec);
	feed(&t, check(500, CAP_CHOWN, -1, CRED_B, INIT_NS));
	rec = check(500, 64, 0, CRED_B, INIT_NS); /* no such capability */
	rec.s.more = 9;
	rec.s.last = rec.s.time + 5;
	feed(&t, rec);
	ck_assert_int_eq(tally_finish(&t), 0);
	ck_assert_uint_eq(t.launcher, 3);
	ck_assert_uint_eq(t.out_of_range, 10);
	r = row_of(&t, 500, CAP_CHOWN, CLASS_OWN);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->granted, 500000);
	ck_assert_uint_eq(r->refused, 1);
	tally_free(&t);
}
END_TEST

/*
 * What makes a run: the same whole check by the same thread, time going
 * forward, never across a drain's horizon; anything that differs (a new
 * credential after an execve, another result, another namespace, half a
 * kprobe pair) starts a new sample.
 */
START_TEST(runs_join_only_the_same_check)
{
	struct record run = check(600, CAP_CHOWN, 0, CRED_A, INIT_NS), r;
	uint64_t t0 = run.s.time;

	r = check(600, CAP_CHOWN, 0, CRED_A, INIT_NS);
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 1);
	ck_assert_uint_eq(run.s.more, 1);
	ck_assert_uint_eq(run.s.last, r.s.time);
	ck_assert_uint_eq(run.s.time, t0);
	ck_assert_int_eq(record_extend_run(&run, r.s.time + 5, UINT64_MAX), 1);
	ck_assert_uint_eq(run.s.more, 2);
	/* Back in time: a new sample. */
	ck_assert_int_eq(record_extend_run(&run, r.s.time, UINT64_MAX), 0);
	clock_now = run.s.last + 1; /* the checks below come later */
	r = check(600, CAP_CHOWN, 0, CRED_B, INIT_NS); /* after an execve */
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 0);
	r = check(600, CAP_CHOWN, -1, CRED_A, INIT_NS);
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 0);
	r = check(600, CAP_CHOWN, 0, CRED_A, CHILD_NS);
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 0);
	r = check(600, CAP_FOWNER, 0, CRED_A, INIT_NS);
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 0);
	r = check(601, CAP_CHOWN, 0, CRED_A, INIT_NS);
	r.s.pid = 600; /* another thread */
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 0);
	r = check(600, CAP_CHOWN, 0, CRED_A, INIT_NS);
	r.s.have_ret = 0; /* a kprobe entry */
	ck_assert_int_eq(record_merge_repeat(&run, &r, UINT64_MAX), 0);
	/* The run is at or before the horizon; a later check is not. */
	r = check(600, CAP_CHOWN, 0, CRED_A, INIT_NS);
	ck_assert_int_eq(record_merge_repeat(&run, &r, r.s.time - 1), 0);
	ck_assert_int_eq(record_merge_repeat(&run, &r, r.s.time), 1);
	ck_assert_uint_eq(run.s.more, 3);
	/* A fork record is no run. */
	r = side(REC_FORK, 602, 600, "", 0);
	ck_assert_int_eq(record_extend_run(&r, r.s.time + 1, UINT64_MAX), 0);
}
END_TEST

static Suite *capaudit_suite(void)
{
	Suite *s = suite_create("capaudit_tally");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, attributes_to_processes_and_files);
	tcase_add_test(tc, classifies_by_namespace_and_credential);
	tcase_add_test(tc, the_kernels_word_on_lent_credentials_decides);
	tcase_add_test(tc, unknown_namespace_decides_nothing);
	tcase_add_test(tc, pairs_kprobe_entry_and_return);
	tcase_add_test(tc, records_wait_for_their_turn);
	tcase_add_test(tc, merged_repeats_count_each_check);
	tcase_add_test(tc, runs_join_only_the_same_check);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(capaudit_suite)
