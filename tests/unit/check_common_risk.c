/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/risk.c: the suggestions, and the file named in their command. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "check_run.h"
#include "risk.h"

#define PERFMON_NOT_ADMIN \
	"perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: "

static cap_t caps_of(const char *text)
{
	cap_t caps = cap_from_text(text);

	ck_assert_ptr_nonnull(caps);
	return caps;
}

/* risk_suggestion_dup(text, path) is want (NULL: no suggestion). */
static void expect(const char *text, const char *path, const char *want)
{
	cap_t caps = caps_of(text);
	char *got;

	errno = ENOMEM; /* must be cleared for "none" */
	got = risk_suggestion_dup(caps, path);
	if (want == NULL) {
		ck_assert_ptr_null(got);
		ck_assert_int_eq(errno, 0);
	} else {
		ck_assert_ptr_nonnull(got);
		ck_assert_str_eq(got, want);
	}
	free(got);
	cap_free(caps);
}

START_TEST(command_names_the_file)
{
	expect("cap_sys_admin=ep", "/usr/bin/perf",
	       PERFMON_NOT_ADMIN
	       "setcap --perf-group=perf_users --perf /usr/bin/perf");
	expect("cap_sys_admin=ep", "/opt/a;touch${IFS}x;#/perf",
	       PERFMON_NOT_ADMIN
	       "setcap --perf-group=perf_users --perf '/opt/a;touch${IFS}x;#/perf'");
	expect("cap_sys_admin=ep", "perf_it's",
	       PERFMON_NOT_ADMIN
	       "setcap --perf-group=perf_users --perf 'perf_it'\\''s'");
	expect("cap_sys_admin=ep", "-d/perf",
	       PERFMON_NOT_ADMIN
	       "setcap --perf-group=perf_users --perf ./-d/perf");
}
END_TEST

START_TEST(unshowable_file_gets_no_command)
{
	static const char *const bad[] = {
		"/tmp/perf_\033[2J",
		"/tmp/x\n/perf",
		"/tmp/perf_\377",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect("cap_sys_admin=ep", bad[i],
		       PERFMON_NOT_ADMIN
		       "run setcap --perf-group=perf_users --perf on this file (no command is shown, as the name holds characters a terminal would not show as they are)");
}
END_TEST

/* The other suggestions hold no file, and say what risk_suggestion() says. */
START_TEST(the_others_as_before)
{
	static const struct {
		const char *text, *path;
	} cases[] = {
		{ "cap_sys_admin,cap_bpf=ep", "/usr/bin/bpftool" },
		{ "cap_sys_ptrace=ep", "/usr/bin/perf" },
		{ "cap_dac_override=ep", "/usr/bin/reader" },
		{ "cap_net_raw=ep", "/usr/bin/ping" },
		{ "cap_sys_admin=ep", "/usr/bin/not-perf" },
		{ "cap_sys_admin=ep", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cap_t caps = caps_of(cases[i].text);

		expect(cases[i].text, cases[i].path,
		       risk_suggestion(caps, cases[i].path));
		cap_free(caps);
	}
	expect("cap_net_raw=ep", "/usr/bin/ping", NULL);
}
END_TEST

/* The root-equivalent capabilities of a mask: those of the RISK_ROOT tier. */
START_TEST(root_mask_keeps_the_root_tier)
{
	uint64_t dac =
		(1ULL << CAP_DAC_OVERRIDE) | (1ULL << CAP_DAC_READ_SEARCH);
	uint64_t low = (1ULL << CAP_NET_BIND_SERVICE) | (1ULL << CAP_NET_RAW) |
		       (1ULL << CAP_PERFMON);
	cap_value_t c;

	ck_assert_uint_eq(risk_root_mask(0), 0);
	ck_assert_uint_eq(risk_root_mask(low), 0);
	ck_assert_uint_eq(risk_root_mask(dac | low), dac);
	for (c = 0; c < 64; c++)
		ck_assert_uint_eq(risk_root_mask(1ULL << c) != 0,
				  risk_tier_of(c) == RISK_ROOT);
}
END_TEST

static Suite *risk_suite(void)
{
	Suite *s = suite_create("common_risk");
	TCase *tc = tcase_create("suggestion");

	tcase_add_test(tc, command_names_the_file);
	tcase_add_test(tc, unshowable_file_gets_no_command);
	tcase_add_test(tc, the_others_as_before);
	tcase_add_test(tc, root_mask_keeps_the_root_tier);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(risk_suite)
