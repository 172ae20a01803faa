/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/suggest.c: the nearest option or capability name. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "suggest.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(distance_counts_each_edit_once)
{
	ck_assert_uint_eq(suggest_distance("", ""), 0);
	ck_assert_uint_eq(suggest_distance("abc", ""), 3);
	ck_assert_uint_eq(suggest_distance("", "abc"), 3);
	ck_assert_uint_eq(suggest_distance("json", "json"), 0);
	ck_assert_uint_eq(suggest_distance("jsn", "json"), 1);	 /* insert */
	ck_assert_uint_eq(suggest_distance("jsoon", "json"), 1); /* delete */
	ck_assert_uint_eq(suggest_distance("jsan", "json"), 1); /* substitute */
	ck_assert_uint_eq(suggest_distance("recrod", "record"), 1); /* swap */
	ck_assert_uint_eq(suggest_distance("CAP_PERFMN", "cap_perfmon"), 1);
	ck_assert_uint_eq(suggest_distance("kitten", "sitting"), 3);
	ck_assert_uint_eq(suggest_distance("help", "perf"), 3);
	/* Symmetric, swaps included. */
	ck_assert_uint_eq(suggest_distance("ca", "abc"),
			  suggest_distance("abc", "ca"));
}
END_TEST

START_TEST(distance_refuses_overlong_words)
{
	char big[SUGGEST_MAX_LEN + 2];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_uint_gt(suggest_distance(big, "a"), 1000);
	ck_assert_uint_gt(suggest_distance("a", big), 1000);
	big[SUGGEST_MAX_LEN] = '\0'; /* exactly the limit: compared */
	ck_assert_uint_eq(suggest_distance(big, big), 0);
}
END_TEST

START_TEST(nearest_finds_typos_and_nothing_else)
{
	static const char *const opts[] = {
		"--exclude=", "--one-file-system", "--json",
		"--audit",    "--version",
	};
	static const char *const cmds[] = { "record", "verify", "restore" };

	ck_assert_str_eq(suggest_nearest("--jsn", opts, N(opts)), "--json");
	ck_assert_str_eq(suggest_nearest("--JSON", opts, N(opts)), "--json");
	ck_assert_str_eq(suggest_nearest("--audti", opts, N(opts)), "--audit");
	ck_assert_str_eq(suggest_nearest("--verison", opts, N(opts)),
			 "--version");
	/* The value after '=' is not part of the name compared. */
	ck_assert_str_eq(suggest_nearest("--exlcude=/usr/src/linux-headers",
					 opts, N(opts)),
			 "--exclude=");
	ck_assert_str_eq(suggest_nearest("recrod", cmds, N(cmds)), "record");
	ck_assert_str_eq(suggest_nearest("verfy", cmds, N(cmds)), "verify");
	ck_assert_str_eq(suggest_nearest("restor", cmds, N(cmds)), "restore");
	/* Too far: no guess rather than a wrong one. */
	ck_assert_ptr_null(suggest_nearest("--help", opts, N(opts)));
	ck_assert_ptr_null(suggest_nearest("--xyzzy", opts, N(opts)));
	ck_assert_ptr_null(suggest_nearest("list", cmds, N(cmds)));
	ck_assert_ptr_null(suggest_nearest("", cmds, N(cmds)));
	ck_assert_ptr_null(suggest_nearest("record", cmds, 0));
}
END_TEST

START_TEST(nearest_short_words_match_only_exactly)
{
	static const char *const shorts[] = { "-h", "-q", "-v", "-f" };

	/* "-x" is one edit from each of them: any pick would be a guess. */
	ck_assert_ptr_null(suggest_nearest("-x", shorts, N(shorts)));
	ck_assert_str_eq(suggest_nearest("-H", shorts, N(shorts)), "-h");
}
END_TEST

START_TEST(nearest_prefers_closest_then_first)
{
	static const char *const words[] = { "--modes", "--mode", "--mode=" };

	ck_assert_str_eq(suggest_nearest("--mode", words, N(words)), "--mode");
	ck_assert_str_eq(suggest_nearest("--modex", words, N(words)),
			 "--modes");
}
END_TEST

START_TEST(cap_names_are_libcaps_names)
{
	size_t n, k;
	const char *const *names = suggest_cap_names(&n);
	int perfmon = 0;

	ck_assert_uint_ge(n, 41);
	for (k = 0; k < n; k++) {
		ck_assert_msg(strncmp(names[k], "cap_", 4) == 0, "%s",
			      names[k]);
		perfmon |= strcmp(names[k], "cap_perfmon") == 0;
	}
	ck_assert(perfmon);
	ck_assert_str_eq(suggest_nearest("cap_perfmn", names, n),
			 "cap_perfmon");
	ck_assert_str_eq(suggest_nearest("cap_sysadmin", names, n),
			 "cap_sys_admin");
	ck_assert_str_eq(suggest_nearest("CAP_NET_RAWW", names, n),
			 "cap_net_raw");
	ck_assert_ptr_null(suggest_nearest("cap_nothing_like_it", names, n));
}
END_TEST

START_TEST(cap_name_tries_the_cap_prefix)
{
	/* The kernel's spelling of a name, without libcap's prefix. */
	ck_assert_str_eq(suggest_cap_name("perfmon"), "cap_perfmon");
	ck_assert_str_eq(suggest_cap_name("PERFMON"), "cap_perfmon");
	ck_assert_str_eq(suggest_cap_name("sysadmin"), "cap_sys_admin");
	ck_assert_str_eq(suggest_cap_name("cap_perfmn"), "cap_perfmon");
	/*
	 * With the prefix already there, no second try; nothing near stays
	 * NULL.
	 */
	ck_assert_ptr_null(suggest_cap_name("cap_xyzzy"));
	ck_assert_ptr_null(suggest_cap_name("xyzzy"));
	ck_assert_ptr_null(suggest_cap_name(""));
	/*
	 * Judged as the short word it is: "all" is two edits from "kill",
	 * too many for three letters (capsh --drop=all names no guess).
	 */
	ck_assert_ptr_null(suggest_cap_name("all"));
	ck_assert_ptr_null(suggest_cap_name("ALL"));
	ck_assert_str_eq(suggest_cap_name("sys_admn"), "cap_sys_admin");
}
END_TEST

START_TEST(cap_in_text_skips_flags_numbers_and_all)
{
	char *w;

	ck_assert_ptr_null(suggest_cap_in_text("cap_chown=ep cap_kill+i"));
	ck_assert_ptr_null(suggest_cap_in_text("all=ep 38-e"));
	ck_assert_ptr_null(suggest_cap_in_text("=ep"));
	ck_assert_ptr_null(suggest_cap_in_text("cap_chown=epx"));
	w = suggest_cap_in_text("cap_chown,cap_perfmn=ep");
	ck_assert_str_eq(w, "cap_perfmn");
	free(w);
	w = suggest_cap_in_text("all=ep cap_chwon-i");
	ck_assert_str_eq(w, "cap_chwon");
	free(w);
	/* IAB text: names after '!', '^' and '%'. */
	w = suggest_cap_in_text("!cap_sys_admin,^cap_perfmn");
	ck_assert_str_eq(w, "cap_perfmn");
	free(w);
}
END_TEST

/* Runs fn's output into a string; caller frees. */
static char *capture(int (*fn)(FILE *), int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	*ret = fn(out);
	fclose(out);
	return buf;
}

static int say_typo(FILE *out)
{
	static const char *const opts[] = { "--json", "--audit" };

	return suggest_unknown(out, "getcap", "option", "--jsn", opts, 2);
}

static int say_far(FILE *out)
{
	static const char *const opts[] = { "--json", "--audit" };

	return suggest_unknown(out, "getcap", "option", "--xyzzy", opts, 2);
}

static int say_hostile(FILE *out)
{
	static const char *const opts[] = { "--json" };

	/* A newline could forge a line, ESC rewrite the screen. */
	return suggest_unknown(out, "getcap", "option",
			       "--jsn\n/usr/bin/x cap_sys_admin=ep\033[2J",
			       opts, 1);
}

static int say_cap(FILE *out)
{
	return suggest_unknown_cap(out, "capsh", "cap_perfmn") +
	       suggest_unknown_cap(out, "capsh", "cap_nothing_like_it") * 10;
}

static int say_text(FILE *out)
{
	return suggest_cap_text(out, "setcap", "cap_chown=p CAP_KIL+i");
}

START_TEST(lines_name_the_word_and_the_guess)
{
	char *s;
	int ret;

	s = capture(say_typo, &ret);
	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(
		s, "getcap: unknown option '--jsn'; did you mean --json?\n");
	free(s);
	s = capture(say_far, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(s, "getcap: unknown option '--xyzzy'\n");
	free(s);
	s = capture(say_hostile, &ret);
	ck_assert_str_eq(
		s,
		"getcap: unknown option '--jsn\\012/usr/bin/x cap_sys_admin=ep\\033[2J'\n");
	free(s);
	/* Capability lines only come with a guess: libcap named the word. */
	s = capture(say_cap, &ret);
	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(
		s,
		"capsh: unknown capability 'cap_perfmn'; did you mean cap_perfmon?\n");
	free(s);
	s = capture(say_text, &ret);
	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(
		s,
		"setcap: unknown capability 'CAP_KIL'; did you mean cap_kill?\n");
	free(s);
}
END_TEST

static Suite *suggest_suite(void)
{
	Suite *s = suite_create("common_suggest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, distance_counts_each_edit_once);
	tcase_add_test(tc, distance_refuses_overlong_words);
	tcase_add_test(tc, nearest_finds_typos_and_nothing_else);
	tcase_add_test(tc, nearest_short_words_match_only_exactly);
	tcase_add_test(tc, nearest_prefers_closest_then_first);
	tcase_add_test(tc, cap_names_are_libcaps_names);
	tcase_add_test(tc, cap_name_tries_the_cap_prefix);
	tcase_add_test(tc, cap_in_text_skips_flags_numbers_and_all);
	tcase_add_test(tc, lines_name_the_word_and_the_guess);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suggest_suite)
