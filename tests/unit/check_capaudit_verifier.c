/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The verifier's reason for a refusal (progs/capaudit/capaudit_verifier.c):
 * never the statistics line its log ends with, but the line before it,
 * with the instruction and the source line it names. Logs as this kernel
 * writes them, and (as root) a program the running kernel refuses.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capaudit_verifier.h"
#include "check_run.h"

static char out[512];

START_TEST(the_reason_not_the_statistics)
{
	const char *log =
		"func#0 @0\n"
		"0: R1=ctx() R10=fp0\n"
		"0: (bf) r0 = r2\n"
		"R2 !read_ok\n"
		"processed 1 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n";

	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "R2 !read_ok, at instruction 0: (bf) r0 = r2");
}
END_TEST

START_TEST(the_source_line_when_the_log_has_one)
{
	const char *log =
		"func#0 @0\n"
		"; int n = ctx->args[0]; @ check.bpf.c:41\n"
		"0: (79) r2 = *(u64 *)(r1 +0)\n"
		"1: R1=ctx() R2=scalar()\n"
		"; return *(int *)n; @ check.bpf.c:42\n"
		"1: (61) r0 = *(u32 *)(r2 +0)\n"
		"2: R0_w=scalar()\n"
		"2: (07) r0 += 1\n"
		"3: (61) r0 = *(u32 *)(r2 +8)\n"
		"R2 invalid mem access 'scalar'\n"
		"verification time 21 usec\n"
		"stack depth 0\n"
		"processed 4 insns (limit 1000000) max_states_per_insn 0\n\n";

	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_str_eq(
		out,
		"R2 invalid mem access 'scalar', at instruction 3: (61) r0 = *(u32 *)(r2 +8), source: return *(int *)n; @ check.bpf.c:42");
}
END_TEST

START_TEST(no_reason_in_statistics_alone)
{
	ck_assert_int_eq(
		verifier_reason("processed 0 insns\n\n", out, sizeof(out)), -1);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(verifier_reason("", out, sizeof(out)), -1);
	/* a reason with no instruction above it stands alone */
	ck_assert_int_eq(verifier_reason("last insn is not an exit or jmp\n"
					 "processed 0 insns\n",
					 out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "last insn is not an exit or jmp");
	/* cut to the room given, terminated */
	ck_assert_int_eq(
		verifier_reason("0: (bf) r0 = r2\nR2 !read_ok\n", out, 8), 0);
	ck_assert_str_eq(out, "R2 !rea");
}
END_TEST

/* "r0 = r2; exit": r2 is never written, which every verifier refuses. */
START_TEST(the_running_kernel_says_why)
{
	struct bpf_insn insn[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X,
		  .dst_reg = 0,
		  .src_reg = 2 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[16384];
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insns = (uint64_t)(uintptr_t)insn;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t) "Dual BSD/GPL";
	a.log_level = 1;
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	ck_assert_int_lt(syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a)), 0);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_msg(strstr(out, "R2 !read_ok") != NULL &&
			      strstr(out, "processed") == NULL,
		      "the kernel's log %s gave: %s", log, out);
	ck_assert_msg(strstr(out, ", at instruction 0: ") != NULL,
		      "no instruction in: %s", out);
}
END_TEST

static Suite *verifier_suite(void)
{
	Suite *s = suite_create("capaudit_verifier");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, the_reason_not_the_statistics);
	tcase_add_test(tc, the_source_line_when_the_log_has_one);
	tcase_add_test(tc, no_reason_in_statistics_alone);
	/* Loading a program takes root: otherwise left out, and said so. */
	if (geteuid() == 0)
		tcase_add_test(tc, the_running_kernel_says_why);
	else
		printf("note: not root: the running kernel's log is not read\n");
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(verifier_suite)
