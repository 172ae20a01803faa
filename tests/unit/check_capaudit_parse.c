/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's parsers (progs/capaudit): the tracefs format parser and the
 * decoding of raw perf records, samples (every field read whole, an
 * 8-byte value never cut to an int) and side-band records (names, forks,
 * the executable mapping that names the file an exec ran).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>

#include "capaudit_decode.h"
#include "capaudit_source.h"
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
	ck_assert_int_eq(
		format_field(
			"\tfield:int cap;\toffset:32;\tsize:3;\tsigned:1;\n",
			"cap", &f),
		-1);
}
END_TEST

START_TEST(tracepoint_fields_with_and_without_identity)
{
	struct event_spec ev;

	memset(&ev, 0, sizeof(ev));
	ck_assert_int_eq(tracepoint_fields(cap_capable_format, &ev), 0);
	ck_assert_uint_eq(ev.cred.off, 8);
	ck_assert_uint_eq(ev.target_ns.off, 16);
	ck_assert_uint_eq(ev.capable_ns.off, 24);
	ck_assert_uint_eq(ev.capable_ns.size, 8);
	/* An older layout without them: cap and ret still read, the rest absent. */
	memset(&ev, 0xff, sizeof(ev));
	ck_assert_int_eq(
		tracepoint_fields(
			"\tfield:int cap;\toffset:8;\tsize:4;\tsigned:1;\n"
			"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n",
			&ev),
		0);
	ck_assert_uint_eq(ev.cred.size, 0);
	ck_assert_uint_eq(ev.target_ns.size, 0);
	ck_assert_uint_eq(ev.capable_ns.size, 0);
	/* Without ret it is not an event capaudit can read. */
	ck_assert_int_eq(
		tracepoint_fields(
			"\tfield:int cap;\toffset:8;\tsize:4;\tsigned:1;\n",
			&ev),
		-1);
}
END_TEST

static void tracepoint_source(struct source *src)
{
	memset(src, 0, sizeof(*src));
	src->kind = SOURCE_TRACEPOINT;
	src->nevents = 1;
	src->ev[0].role = ROLE_CHECK;
	ck_assert_int_eq(tracepoint_fields(cap_capable_format, &src->ev[0]), 0);
}

/* A sample as the kernel writes it: IDENTIFIER, TID, TIME, RAW. */
static size_t make_sample(unsigned char *buf, uint64_t id, uint32_t pid,
			  uint32_t tid, uint64_t time, const unsigned char *raw,
			  uint32_t rawlen)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	size_t len = sizeof(h) + 8 + 8 + 8 + 4 + rawlen;

	len = (len + 7) & ~(size_t)7;
	memset(buf, 0, len);
	h.size = (uint16_t)len;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &id, 8);
	memcpy(buf + 16, &pid, 4);
	memcpy(buf + 20, &tid, 4);
	memcpy(buf + 24, &time, 8);
	memcpy(buf + 32, &rawlen, 4);
	memcpy(buf + 36, raw, rawlen);
	return len;
}

/* The raw record of cap_capable as 6.18 writes it. */
static void make_raw(unsigned char raw[40], uint64_t cred, uint64_t target,
		     uint64_t capable, int32_t cap, int32_t ret)
{
	memset(raw, 0xee, 8);
	memcpy(raw + 8, &cred, 8);
	memcpy(raw + 16, &target, 8);
	memcpy(raw + 24, &capable, 8);
	memcpy(raw + 32, &cap, 4);
	memcpy(raw + 36, &ret, 4);
}

START_TEST(decodes_tracepoint_samples)
{
	unsigned char buf[256], raw[40];
	struct source src;
	struct record r;
	size_t len;

	tracepoint_source(&src);
	make_raw(raw, 0xffff888001234500ULL, 0xffffffff82a5c0e0ULL, 0,
		 CAP_NET_BIND_SERVICE, -1);
	len = make_sample(buf, 7, 100, 101, 5555, raw, 40);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_SAMPLE);
	ck_assert_int_eq(r.s.pid, 100);
	ck_assert_int_eq(r.s.tid, 101);
	ck_assert_uint_eq(r.s.time, 5555);
	ck_assert_int_eq(r.s.cap, CAP_NET_BIND_SERVICE);
	ck_assert_int_eq(r.s.ret, -1);
	ck_assert(r.s.have_cap && r.s.have_ret && r.s.have_cred &&
		  r.s.have_ns && r.s.have_capable_ns);
	ck_assert_uint_eq(r.s.cred, 0xffff888001234500ULL);
	ck_assert_uint_eq(r.s.target_ns, 0xffffffff82a5c0e0ULL);
	ck_assert_uint_eq(r.s.capable_ns, 0);
	/* Raw data too short for ret: refused, never read past it. */
	len = make_sample(buf, 7, 100, 101, 5555, raw, 38);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), -1);
	/* A header claiming more than the buffer holds. */
	len = make_sample(buf, 7, 100, 101, 5555, raw, 40);
	ck_assert_int_eq(record_decode(buf, len - 8, &src, NULL, NULL, 0, &r),
			 -1);
	/* Ids: found by binary search among several, an unknown one refused. */
	{
		uint64_t ids[5] = { 3, 7, 9, 20, 41 };
		int idx[5] = { 0, 0, 0, 0, 0 };

		ck_assert_int_eq(record_decode(buf, len, &src, ids, idx, 5, &r),
				 0);
		ids[1] = 8;
		ck_assert_int_eq(record_decode(buf, len, &src, ids, idx, 5, &r),
				 -1);
		ck_assert_int_eq(record_decode(buf, len, &src, ids, idx, 1, &r),
				 -1);
	}
}
END_TEST

/*
 * A format with 8-byte cap and ret: the values are read whole. Cast to
 * int, 0x100000001 was capability 1 (cap_dac_override) and a result of
 * 1 << 32 was 0, "granted".
 */
START_TEST(wide_fields_are_read_whole)
{
	unsigned char buf[256], raw[24];
	uint64_t cap = 0x100000001ULL, ret = 1ULL << 32;
	struct source src;
	struct record r;
	size_t len;

	memset(&src, 0, sizeof(src));
	src.kind = SOURCE_TRACEPOINT;
	src.nevents = 1;
	src.ev[0].role = ROLE_CHECK;
	ck_assert_int_eq(
		format_field(
			"\tfield:long cap;\toffset:8;\tsize:8;\tsigned:1;\n",
			"cap", &src.ev[0].cap),
		0);
	ck_assert_int_eq(
		format_field(
			"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n",
			"ret", &src.ev[0].ret),
		0);
	memset(raw, 0, sizeof(raw));
	memcpy(raw + 8, &cap, 8);
	memcpy(raw + 16, &ret, 8);
	len = make_sample(buf, 7, 100, 100, 1, raw, sizeof(raw));
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert(r.s.have_cap && r.s.have_ret);
	ck_assert_int_ne(r.s.cap, CAP_DAC_OVERRIDE);
	ck_assert_int_ne(r.s.ret, 0);
	/* And a real one in the same layout. */
	cap = CAP_CHOWN;
	ret = 0;
	memcpy(raw + 8, &cap, 8);
	memcpy(raw + 16, &ret, 8);
	len = make_sample(buf, 7, 100, 100, 1, raw, sizeof(raw));
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.s.cap, CAP_CHOWN);
	ck_assert_int_eq(r.s.ret, 0);
}
END_TEST

/* The kprobe PMU's registers: cred, namespace, cap in a sample's order. */
START_TEST(decodes_kprobe_registers)
{
	unsigned char buf[128];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	uint64_t v;
	struct source src;
	struct record r;

	memset(&src, 0, sizeof(src));
	src.kind = SOURCE_KPROBE_PMU;
	src.nevents = 2;
	src.ev[0].role = ROLE_ENTRY;
	src.ev[0].regs = (1ULL << 3) | (1ULL << 4) | (1ULL << 5);
	src.ev[0].reg =
		(struct reg_slots){ .cred = 2, .ns = 1, .cap = 0, .ret = -1 };
	src.ev[1].role = ROLE_RETURN;
	src.ev[1].regs = 1;
	src.ev[1].reg = (struct reg_slots){ -1, -1, -1, 0 };
	memset(buf, 0, sizeof(buf));
	h.size = 8 + 24 + 8 + 24;
	memcpy(buf, &h, sizeof(h));
	v = 1;
	memcpy(buf + 32, &v, 8); /* the ABI */
	v = CAP_KILL;
	memcpy(buf + 40, &v, 8); /* DX: cap */
	v = 0x1000;
	memcpy(buf + 48, &v, 8); /* SI: namespace */
	v = 0x2000;
	memcpy(buf + 56, &v, 8); /* DI: cred */
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r),
			 0);
	ck_assert(r.s.have_cap && r.s.have_cred && r.s.have_ns &&
		  !r.s.have_ret);
	ck_assert_int_eq(r.s.cap, CAP_KILL);
	ck_assert_uint_eq(r.s.target_ns, 0x1000);
	ck_assert_uint_eq(r.s.cred, 0x2000);
	/* A sample too short for its registers is refused. */
	ck_assert_int_eq(record_decode(buf, 48, &src, NULL, NULL, 0, &r), -1);
}
END_TEST

/* MMAP2 with sample_id: the file of an executable mapping. */
static size_t make_mmap2(unsigned char *buf, uint32_t pid, uint32_t prot,
			 const char *file, uint64_t time)
{
	struct perf_event_header h = { PERF_RECORD_MMAP2, 0, 0 };
	size_t name = (strlen(file) + 8) & ~(size_t)7;
	uint32_t v32;
	uint64_t v64;

	h.size = (uint16_t)(8 + 64 + name + 24);
	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &pid, 4);
	v32 = 254;
	memcpy(buf + 40, &v32, 4); /* maj */
	v32 = 3;
	memcpy(buf + 44, &v32, 4); /* min */
	v64 = 123456;
	memcpy(buf + 48, &v64, 8); /* ino */
	memcpy(buf + 64, &prot, 4);
	memcpy(buf + 72, file, strlen(file));
	memcpy(buf + 72 + name + 8, &time, 8);
	return h.size;
}

START_TEST(decodes_side_band_records)
{
	unsigned char buf[256];
	struct perf_event_header h;
	struct source src;
	struct record r;
	uint32_t v[4] = { 300, 200, 300, 200 };
	uint64_t lost[2] = { 7, 12 }, time = 99;
	size_t len;

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
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r),
			 0);
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
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r),
			 0);
	ck_assert_int_eq(r.kind, REC_FORK);
	ck_assert_int_eq(r.pid, 300);
	ck_assert_int_eq(r.ppid, 200);
	/* LOST: id, lost */
	h.type = PERF_RECORD_LOST;
	h.size = 8 + 16;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, lost, 16);
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r),
			 0);
	ck_assert_int_eq(r.kind, REC_LOST);
	ck_assert_uint_eq(r.lost, 12);
	h.size = 8 + 8;
	memcpy(buf, &h, sizeof(h));
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r),
			 -1);
	/* MMAP2 of an executable file: its name, device and inode. */
	len = make_mmap2(buf, 300, PROT_READ | PROT_EXEC, "/usr/bin/python3.11",
			 77);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_EXEC_MAP);
	ck_assert_int_eq(r.pid, 300);
	ck_assert_str_eq(r.file, "/usr/bin/python3.11");
	ck_assert_uint_eq(r.maj, 254);
	ck_assert_uint_eq(r.min, 3);
	ck_assert_uint_eq(r.ino, 123456);
	ck_assert_uint_eq(r.s.time, 77);
	record_release(&r);
	ck_assert_ptr_null(r.file);
	/* Data, and anonymous or special mappings, name no file. */
	len = make_mmap2(buf, 300, PROT_READ | PROT_WRITE, "/usr/lib/libc.so.6",
			 78);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_OTHER);
	len = make_mmap2(buf, 300, PROT_EXEC, "[vdso]", 79);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_OTHER);
	/* A name without its end inside the record is refused as a name. */
	len = make_mmap2(buf, 300, PROT_EXEC, "/a", 80);
	memset(buf + 72, 'x', len - 72 - 24);
	ck_assert_int_eq(record_decode(buf, len, &src, NULL, NULL, 0, &r), 0);
	ck_assert_int_eq(r.kind, REC_OTHER);
	ck_assert_ptr_null(r.file);
	/* Too short for its fixed fields. */
	h.type = PERF_RECORD_MMAP2;
	h.misc = 0;
	h.size = 8 + 40;
	memcpy(buf, &h, sizeof(h));
	ck_assert_int_eq(record_decode(buf, h.size, &src, NULL, NULL, 0, &r),
			 -1);
}
END_TEST

static Suite *capaudit_suite(void)
{
	Suite *s = suite_create("capaudit_parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, format_fields_by_name);
	tcase_add_test(tc, tracepoint_fields_with_and_without_identity);
	tcase_add_test(tc, decodes_tracepoint_samples);
	tcase_add_test(tc, wide_fields_are_read_whole);
	tcase_add_test(tc, decodes_kprobe_registers);
	tcase_add_test(tc, decodes_side_band_records);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(capaudit_suite)
