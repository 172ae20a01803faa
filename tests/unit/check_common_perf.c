/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/perf.c and common/kernel.c: the one perf policy. */
#include <string.h>
#include <sys/utsname.h>

#include "check_run.h"
#include "kernel.h"
#include "mask.h"
#include "perf.h"

START_TEST(subcommands)
{
	ck_assert_int_eq(perf_subcommand_kind("record", 6), PERF_SUB_BUFFERED);
	ck_assert_int_eq(perf_subcommand_kind("stat,top", 4),
			 PERF_SUB_COUNTING);
	ck_assert_int_eq(perf_subcommand_kind("recor", 5), PERF_SUB_UNKNOWN);
	ck_assert_int_eq(perf_subcommand_kind("records", 7), PERF_SUB_UNKNOWN);
	ck_assert_int_eq(perf_subcommand_kind("", 0), PERF_SUB_UNKNOWN);
}
END_TEST

START_TEST(versions)
{
	char text[128];
	struct utsname uts;
	int major = -1, minor = -1;

	ck_assert_int_eq(uname(&uts), 0);
	ck_assert_int_eq(kernel_release(text, sizeof(text), &major, &minor), 0);
	ck_assert_str_eq(text, uts.release);
	ck_assert_int_gt(major, 0);
	ck_assert_int_ge(minor, 0);
	ck_assert_int_eq(kernel_release(NULL, 0, &major, &minor), 0);
	ck_assert_int_eq(kernel_at_least(5, 9, 5, 9), 1);
	ck_assert_int_eq(kernel_at_least(5, 8, 5, 9), 0);
	ck_assert_int_eq(kernel_at_least(6, 0, 5, 9), 1);
	ck_assert_int_eq(kernel_at_least(4, 19, 5, 9), 0);
	ck_assert_int_eq(kernel_at_least(0, 0, 5, 9), 0);
}
END_TEST

START_TEST(preset_follows_the_running_kernel)
{
	cap_value_t list[PERF_PRESET_MAX];
	int major, minor, n, i;

	kernel_release(NULL, 0, &major, &minor);
	n = perf_preset_caps(0, list);
	if (cap_max_bits() <= CAP_PERFMON) {
		ck_assert_int_eq(list[0], CAP_SYS_ADMIN);
		ck_assert_int_eq(n, 2);
	} else if (kernel_at_least(major, minor, 5, 9)) {
		ck_assert_int_eq(n, 2);
		ck_assert_int_eq(list[0], CAP_PERFMON);
	} else {
		ck_assert_int_eq(n, 3);
		ck_assert_int_eq(list[1], CAP_SYS_PTRACE);
	}
	ck_assert_int_eq(list[n - 1], CAP_SYSLOG);
	ck_assert_int_eq(perf_preset_caps(1, list), n + 1);
	ck_assert_int_eq(list[n], CAP_IPC_LOCK);
	for (i = 0; i <= n; i++)
		ck_assert(!perf_knows_perfmon(cap_max_bits()) ||
			  list[i] != CAP_SYS_ADMIN);
}
END_TEST

START_TEST(enough_and_names)
{
	/* 38 capabilities end before CAP_PERFMON (38); 39 include it. */
	ck_assert_int_eq(perf_knows_perfmon(CAP_PERFMON), 0);
	ck_assert_int_eq(perf_knows_perfmon(CAP_PERFMON + 1), 1);
	ck_assert_int_eq(perf_knows_perfmon(64), 1);
	ck_assert_uint_eq(perf_enough(CAP_PERFMON), MASK_BIT(CAP_SYS_ADMIN));
	ck_assert_uint_eq(perf_enough(CAP_PERFMON + 1),
			  MASK_BIT(CAP_SYS_ADMIN) | MASK_BIT(CAP_PERFMON));
	ck_assert_int_eq(perf_is_binary("/usr/bin/perf"), 1);
	ck_assert_int_eq(perf_is_binary("perf_5.10"), 1);
	ck_assert_int_eq(perf_is_binary("/x/perf-6.1"), 1);
	ck_assert_int_eq(perf_is_binary("/usr/bin/perfect"), 0);
	ck_assert_int_eq(perf_is_binary("/perf/bin/top"), 0);
	ck_assert_str_eq(PERF_SETCAP_FIX("<file>"),
			 "setcap --perf-group=perf_users --perf <file>");
}
END_TEST

static Suite *perf_suite(void)
{
	Suite *s = suite_create("common_perf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, subcommands);
	tcase_add_test(tc, versions);
	tcase_add_test(tc, preset_follows_the_running_kernel);
	tcase_add_test(tc, enough_and_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(perf_suite)
