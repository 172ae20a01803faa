/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* cap_from_name's hash index: every name, any case, and the near misses. */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/capability.h>

#include "check_run.h"

/* Every capability private/caps.def names, the newest included. */
#define CAP_FACT(number, ...) +1
static const cap_value_t named = 0
#include "caps.def"
	;
#undef CAP_FACT

START_TEST(every_name_in_any_case)
{
	cap_value_t cap;

	for (cap = 0; cap < named; cap++) {
		char *name = cap_to_name(cap);
		char upper[32], mixed[32];
		cap_value_t got = -1;
		size_t i, len;

		ck_assert_ptr_nonnull(name);
		len = strlen(name);
		ck_assert_uint_lt(len, sizeof(upper));
		for (i = 0; i <= len; i++) {
			upper[i] = (char)toupper((unsigned char)name[i]);
			mixed[i] = i % 2 ? upper[i] : name[i];
		}
		ck_assert_int_eq(cap_from_name(name, &got), 0);
		ck_assert_int_eq(got, cap);
		got = -1;
		ck_assert_int_eq(cap_from_name(upper, &got), 0);
		ck_assert_int_eq(got, cap);
		got = -1;
		ck_assert_int_eq(cap_from_name(mixed, &got), 0);
		ck_assert_int_eq(got, cap);
		cap_free(name);
	}
}
END_TEST

START_TEST(near_misses_are_unknown)
{
	static const char *const misses[] = {
		"cap_chow",
		"cap_chownx",
		"cap_chown_",
		"chown",
		"cap_",
		"cap",
		"",
		"cap_setgidd",
		"cap_setgi",
		"cap_sys_admi",
		"cap_mac_overrid",
		"cap_dac_overridex",
		"cap_checkpoint_restor",
		"cap_checkpoint_restorex",
		"cap_net_admin_",
		"kap_chown",
		"cap-chown",
		"cap_chownchownchownchownchown",
		"all",
	};
	size_t i;

	for (i = 0; i < sizeof(misses) / sizeof(misses[0]); i++) {
		cap_value_t got = -99;

		errno = 0;
		ck_assert_msg(cap_from_name(misses[i], &got) == -1,
			      "\"%s\" was taken for %d", misses[i], got);
		ck_assert_int_eq(got, -99);
		ck_assert_int_eq(errno, 0);
	}
}
END_TEST

/* The look-up ignores what follows a name, bar letters and '_'. */
START_TEST(what_follows_a_name)
{
	cap_value_t got = -1;

	ck_assert_int_eq(cap_from_name("cap_kill2", &got), 0);
	ck_assert_int_eq(got, CAP_KILL);
	ck_assert_int_eq(cap_from_name("cap_perfmon=ep", &got), 0);
	ck_assert_int_eq(got, CAP_PERFMON);
	ck_assert_int_eq(cap_from_name("cap_bpf,cap_kill", &got), 0);
	ck_assert_int_eq(got, CAP_BPF);
	ck_assert_int_eq(cap_from_name("0x26", &got), 0);
	ck_assert_int_eq(got, CAP_PERFMON);
	ck_assert_int_eq(cap_from_name("63", &got), 0);
	ck_assert_int_eq(got, 63);
	ck_assert_int_eq(cap_from_name("64", &got), -1);
}
END_TEST

static Suite *names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("lookup");

	tcase_add_test(tc, every_name_in_any_case);
	tcase_add_test(tc, near_misses_are_unknown);
	tcase_add_test(tc, what_follows_a_name);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(names_suite)
