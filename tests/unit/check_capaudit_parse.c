/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's pure parts (progs/capaudit): the tracefs format parser, the
 * decoding of raw perf records, the tally (fork, exec, kprobe pairs) and
 * the suggestion built from it.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "capaudit.h"
#include "check_run.h"

/* The kernel 6.18 format of capability:cap_capable, as tracefs shows it. */
static const char cap_capable_format[] =
	"name: cap_capable\n"
	"ID: 2073\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:const struct cred * cred;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:struct user_namespace * target_ns;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const struct user_namespace * capable_ns;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int cap;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"cred %p, target_ns %p, capable_ns %p, cap %d, ret %d\"\n";

START_TEST(format_fields_by_name)
{
	struct field f;

	ck_assert_int_eq(format_field(cap_capable_format, "cap", &f), 0);
	ck_assert_uint_eq(f.off, 32);
	ck_assert_uint_eq(f.size, 4);
	ck_assert_int_eq(f.is_signed, 1);
	ck_assert_int_eq(format_field(cap_capable_format, "ret", &f), 0);
	ck_assert_uint_eq(f.off, 36);
	ck_assert_int_eq(format_field(cap_capable_format, "cred", &f), 0);
	ck_assert_uint_eq(f.off, 8);
	ck_assert_uint_eq(f.size, 8);
	ck_assert_int_eq(f.is_signed, 0);
	/* "cap" is not "capable_ns", and names must match whole. */
	errno = 0;
	ck_assert_int_eq(format_field(cap_capable_format, "ca", &f), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(format_field(cap_capable_format, "ns", &f), -1);
	ck_assert_int_eq(format_field("", "cap", &f), -1);
	/* A size the decoder cannot read is refused, not trusted. */
	ck_assert_int_eq(format_field("\tfield:int cap;\toffset:32;\tsize:3;\tsigned:1;\n",
				      "cap", &f), -1);
}
END_TEST

static void tracepoint_source(struct source *src)
{
	memset(src, 0, sizeof(*src));
	src->kind = SOURCE_TRACEPOINT;
	src->nevents = 1;
	src->ev[0].role = ROLE_CHECK;
	ck_assert_int_eq(format_field(cap_capable_format, "cap", &src->ev[0].cap), 0);
	ck_assert_int_eq(format_field(cap_capable_format, "ret", &src->ev[0].ret), 0);
}

/* A sample as the kernel writes it: IDENTIFIER, TID, TIME, RAW. */
static size_t make_sample(unsigned char *buf, uint64_t id, uint32_t pid,
			  uint32_t tid, uint64_t time, int32_t cap, int32_t ret,
			  uint32_t rawlen)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	unsigned char raw[44];
	size_t len = sizeof(h) + 8 + 8 + 8 + 4 + rawlen;

	memset(raw, 0xee, sizeof(raw));
	memcpy(raw + 32, &cap, 4);
	memcpy(raw + 36, &ret, 4);
	len = (len + 7) & ~(size_t)7;
	memset(buf, 0, len);
	h.size = (uint16_t)len;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &id, 8);
	memcpy(buf + 16, &pid, 4);
	memcpy(buf + 20, &tid, 4);
	memcpy(buf + 24, &time, 8);
	memcpy(buf + 32, &rawlen, 4);
	memcpy(buf + 36, raw, rawlen < sizeof(raw) ? rawlen : sizeof(raw));
	return len;
}

START_TEST(decodes_tracepoint_samples)
{
	unsigned char buf[256];
	struct source src;
	struct record r;
	size_t len;

	tracepoint_source(&src);
	len = make_sample(buf, 7, 100, 101, 5555, CAP_NET_BIND_SERVICE, -1, 44);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_SAMPLE);
	ck_assert_int_eq(r.s.pid, 100);
	ck_assert_int_eq(r.s.tid, 101);
	ck_assert_uint_eq(r.s.time, 5555);
	ck_assert_int_eq(r.s.cap, CAP_NET_BIND_SERVICE);
	ck_assert_int_eq(r.s.ret, -1);
	ck_assert(r.s.have_cap && r.s.have_ret);
	/* Raw data too short for ret: refused, never read past it. */
	len = make_sample(buf, 7, 100, 101, 5555, CAP_CHOWN, 0, 38);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), -1);
	/* A header claiming more than the buffer holds. */
	len = make_sample(buf, 7, 100, 101, 5555, CAP_CHOWN, 0, 44);
	ck_assert_int_eq(record_decode(buf, len - 8, &src, NULL, NULL, 0, &r), -1);
	/* An id that is none of ours. */
	{
		uint64_t ids[1] = { 8 };
		int idx[1] = { 0 };

		ck_assert_int_eq(record_decode(buf, len, &src, ids, idx, 1, &r), -1);
		ids[0] = 7;
		ck_assert_int_eq(record_decode(buf, len, &src, ids, idx, 1, &r), 0);
	}
}
END_TEST

START_TEST(decodes_side_band_records)
{
	unsigned char buf[128];
	struct perf_event_header h;
	struct source src;
	struct record r;
	uint32_t v[4] = { 300, 200, 300, 200 };
	uint64_t lost[2] = { 7, 12 }, time = 99;

	tracepoint_source(&src);
	/* COMM on exec: pid, tid, "probe\0\0\0", sample_id (pid/tid, time, id). */
	memset(buf, 0, sizeof(buf));
	h.type = PERF_RECORD_COMM;
	h.misc = PERF_RECORD_MISC_COMM_EXEC;
	h.size = 8 + 8 + 8 + 24;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, v, 8);
	memcpy(buf + 16, "probe", 5);
	memcpy(buf + 32, &time, 8);
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_COMM);
	ck_assert_str_eq(r.comm, "probe");
	ck_assert_int_eq(r.exec, 1);
	ck_assert_uint_eq(r.s.time, 99);
	/* FORK: pid, ppid, tid, ptid, time */
	h.type = PERF_RECORD_FORK;
	h.misc = 0;
	h.size = 8 + 16 + 8 + 24;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, v, 16);
	memcpy(buf + 24, &time, 8);
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_FORK);
	ck_assert_int_eq(r.pid, 300);
	ck_assert_int_eq(r.ppid, 200);
	/* LOST: id, lost */
	h.type = PERF_RECORD_LOST;
	h.size = 8 + 16;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, lost, 16);
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_LOST);
	ck_assert_uint_eq(r.lost, 12);
	h.size = 8 + 8;
	memcpy(buf, &h, sizeof(h));
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r), -1);
}
END_TEST

static struct record sample(pid_t pid, int cap, int ret)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.kind = REC_SAMPLE;
	r.s.pid = r.s.tid = pid;
	r.s.cap = cap;
	r.s.ret = ret;
	r.s.have_cap = r.s.have_ret = 1;
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
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return r;
}

static const struct proc *proc_of(const struct tally *t, pid_t pid)
{
	size_t i;

	for (i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	return NULL;
}

START_TEST(tally_attributes_to_processes)
{
	struct record r;
	struct tally t;

	tally_init(&t, 100, NULL);
	/* The launcher's setuid before the exec is not the command's. */
	r = sample(100, CAP_SETUID, 0);
	tally_record(&r, &t);
	r = side(REC_COMM, 100, 0, "probe", 1);
	tally_record(&r, &t);
	r = sample(100, CAP_CHOWN, 0);
	tally_record(&r, &t);
	r = side(REC_FORK, 101, 100, "", 0);
	tally_record(&r, &t);
	r = side(REC_FORK, 102, 101, "", 0);
	tally_record(&r, &t);
	r = sample(102, CAP_PERFMON, -1);
	tally_record(&r, &t);
	r = sample(102, CAP_PERFMON, -1);
	tally_record(&r, &t);
	/* A thread: same process, no new entry. */
	r = side(REC_FORK, 100, 100, "", 0);
	tally_record(&r, &t);
	r = sample(100, 64, 0);		/* no such capability */
	tally_record(&r, &t);
	r = side(REC_LOST, 0, 0, "", 0);
	r.lost = 3;
	tally_record(&r, &t);
	ck_assert_uint_eq(t.launcher, 1);
	ck_assert_uint_eq(t.out_of_range, 1);
	ck_assert_uint_eq(t.lost, 3);
	ck_assert_uint_eq(t.nprocs, 3);
	ck_assert_uint_eq(proc_of(&t, 100)->granted[CAP_CHOWN], 1);
	ck_assert_uint_eq(proc_of(&t, 100)->granted[CAP_SETUID], 0);
	ck_assert_uint_eq(proc_of(&t, 102)->refused[CAP_PERFMON], 2);
	ck_assert_int_eq(proc_of(&t, 102)->ppid, 101);
	ck_assert_str_eq(proc_of(&t, 102)->comm, "probe");
	ck_assert_uint_eq(tally_running(&t), 3);
	r = side(REC_EXIT, 102, 101, "", 0);
	tally_record(&r, &t);
	ck_assert_uint_eq(tally_running(&t), 2);
	tally_free(&t);
}
END_TEST

START_TEST(tally_pairs_kprobe_entry_and_return)
{
	struct record r;
	struct tally t;

	tally_init(&t, 50, "daemon");
	memset(&r, 0, sizeof(r));
	r.kind = REC_SAMPLE;
	r.s.pid = 50;
	r.s.tid = 51;
	r.s.cap = CAP_NET_RAW;
	r.s.have_cap = 1;
	tally_record(&r, &t);
	r.s.tid = 52;
	r.s.cap = CAP_KILL;
	tally_record(&r, &t);
	r.s.have_cap = 0;
	r.s.have_ret = 1;
	r.s.ret = -1;
	r.s.tid = 51;
	tally_record(&r, &t);	/* 51's cap_net_raw refused */
	r.s.ret = 0;
	r.s.tid = 52;
	tally_record(&r, &t);	/* 52's cap_kill granted */
	r.s.tid = 52;
	tally_record(&r, &t);	/* a return with no entry left */
	ck_assert_uint_eq(proc_of(&t, 50)->refused[CAP_NET_RAW], 1);
	ck_assert_uint_eq(proc_of(&t, 50)->granted[CAP_KILL], 1);
	ck_assert_uint_eq(t.unpaired, 1);
	tally_free(&t);
}
END_TEST

START_TEST(suggestion_from_outcomes)
{
	struct run_result ok = { 0, 0, 0.1 }, failed = { 0, 1 << 8, 0.1 };
	struct suggestion sg;
	struct record r;
	struct tally t;

	tally_init(&t, 10, "probe");
	r = sample(10, CAP_NET_BIND_SERVICE, 0);
	tally_record(&r, &t);
	r = sample(10, CAP_SYS_ADMIN, 0);
	tally_record(&r, &t);
	r = sample(10, CAP_DAC_OVERRIDE, -1);
	tally_record(&r, &t);
	r = sample(10, CAP_PERFMON, -1);
	tally_record(&r, &t);
	r = sample(10, CAP_SYS_ADMIN, -1);
	tally_record(&r, &t);
	/* Success: what was granted; refusals it did without. */
	suggest_build(&t, &ok, &sg);
	ck_assert_int_eq(sg.failed, 0);
	ck_assert_uint_eq(sg.need, 1ULL << CAP_NET_BIND_SERVICE);
	ck_assert_uint_eq(sg.unused, (1ULL << CAP_DAC_OVERRIDE) | (1ULL << CAP_PERFMON));
	ck_assert_uint_eq(sg.incidental, 1ULL << CAP_SYS_ADMIN);
	/* Failure: the refusals may be why; cap_sys_admin never on its own. */
	suggest_build(&t, &failed, &sg);
	ck_assert_int_eq(sg.failed, 1);
	ck_assert_uint_eq(sg.need, (1ULL << CAP_NET_BIND_SERVICE) |
			  (1ULL << CAP_DAC_OVERRIDE) | (1ULL << CAP_PERFMON));
	ck_assert_uint_eq(sg.unused, 0);
	ck_assert_uint_eq(sg.incidental, 1ULL << CAP_SYS_ADMIN);
	tally_free(&t);
}
END_TEST

static Suite *capaudit_suite(void)
{
	Suite *s = suite_create("capaudit_parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, format_fields_by_name);
	tcase_add_test(tc, decodes_tracepoint_samples);
	tcase_add_test(tc, decodes_side_band_records);
	tcase_add_test(tc, tally_attributes_to_processes);
	tcase_add_test(tc, tally_pairs_kprobe_entry_and_return);
	tcase_add_test(tc, suggestion_from_outcomes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(capaudit_suite)
