/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * IAB values: vectors and their coupling, fill, compare, text, held IABs,
 * /proc reading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"

static char *text_of(cap_iab_t iab)
{
	static char buf[2048];
	char *t = cap_iab_to_text(iab);

	ck_assert_ptr_nonnull(t);
	snprintf(buf, sizeof(buf), "%s", t);
	cap_free(t);
	return buf;
}

START_TEST(ambient_implies_inheritable)
{
	cap_iab_t iab = cap_iab_init();

	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_AMB, CAP_PERFMON, CAP_SET), 0);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_INH, CAP_PERFMON),
			 CAP_SET);
	ck_assert_str_eq(text_of(iab), "^cap_perfmon");
	/* Lowering I takes A with it; lowering A leaves I. */
	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_INH, CAP_PERFMON, CAP_CLEAR),
		0);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_AMB, CAP_PERFMON),
			 CAP_CLEAR);
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_AMB, CAP_BPF, CAP_SET),
			 0);
	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_AMB, CAP_BPF, CAP_CLEAR), 0);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_INH, CAP_BPF),
			 CAP_SET);
	ck_assert_str_eq(text_of(iab), "cap_bpf");
	cap_free(iab);
}
END_TEST

START_TEST(bound_is_independent)
{
	cap_iab_t iab = cap_iab_init();

	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_BOUND, CAP_SYS_ADMIN, CAP_SET),
		0);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_INH, CAP_SYS_ADMIN),
			 CAP_CLEAR);
	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_INH, CAP_SYS_ADMIN, CAP_SET),
		0);
	ck_assert_str_eq(text_of(iab), "!%cap_sys_admin");
	cap_free(iab);
}
END_TEST

START_TEST(set_vector_rejects_bad_arguments)
{
	cap_iab_t iab = cap_iab_init();
	cap_value_t max = cap_max_bits();

	errno = 0;
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_INH, max, CAP_SET),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_INH, -1, CAP_SET), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_INH, 0, (cap_flag_value_t)2),
		-1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(
		cap_iab_set_vector(iab, (cap_iab_vector_t)1, 0, CAP_SET), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_iab_set_vector(NULL, CAP_IAB_INH, 0, CAP_SET), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* A cap_t is not an IAB. */
	{
		cap_t caps = cap_init();

		errno = 0;
		ck_assert_int_eq(cap_iab_set_vector((cap_iab_t)(void *)caps,
						    CAP_IAB_INH, 0, CAP_SET),
				 -1);
		ck_assert_int_eq(errno, EINVAL);
		cap_free(caps);
	}
	ck_assert_int_eq(cap_iab_get_vector(NULL, CAP_IAB_INH, 0), CAP_CLEAR);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_INH, max), CAP_CLEAR);
	ck_assert_str_eq(text_of(iab), "");
	cap_free(iab);
}
END_TEST

START_TEST(fill_bound_takes_the_complement)
{
	cap_iab_t iab = cap_iab_init();
	cap_t caps = cap_from_text("cap_chown,cap_perfmon=p cap_bpf+i");
	cap_value_t c;

	ck_assert_ptr_nonnull(caps);
	ck_assert_int_eq(cap_iab_fill(iab, CAP_IAB_BOUND, caps, CAP_PERMITTED),
			 0);
	for (c = 0; c < cap_max_bits(); c++)
		ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_BOUND, c),
				 c == CAP_CHOWN || c == CAP_PERFMON ? CAP_CLEAR
								    : CAP_SET);
	ck_assert_int_eq(cap_iab_fill(iab, CAP_IAB_AMB, caps, CAP_INHERITABLE),
			 0);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_INH, CAP_BPF),
			 CAP_SET);
	/* Filling I with less drops A outside it. */
	ck_assert_int_eq(cap_iab_fill(iab, CAP_IAB_INH, caps, CAP_EFFECTIVE),
			 0);
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_AMB, CAP_BPF),
			 CAP_CLEAR);
	errno = 0;
	ck_assert_int_eq(cap_iab_fill(iab, CAP_IAB_INH, caps, (cap_flag_t)3),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_iab_fill(iab, CAP_IAB_INH, NULL, CAP_EFFECTIVE),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	cap_free(caps);
	cap_free(iab);
}
END_TEST

START_TEST(compare_and_dup)
{
	cap_iab_t a = cap_iab_from_text("!cap_sys_admin,^cap_perfmon,cap_kill");
	cap_iab_t b = cap_iab_dup(a);
	int cmp;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(cap_iab_compare(a, b), 0);
	cap_iab_set_vector(b, CAP_IAB_AMB, CAP_PERFMON, CAP_CLEAR);
	cmp = cap_iab_compare(a, b);
	ck_assert(CAP_IAB_DIFFERS(cmp, CAP_IAB_AMB));
	ck_assert(!CAP_IAB_DIFFERS(cmp, CAP_IAB_INH));
	ck_assert(!CAP_IAB_DIFFERS(cmp, CAP_IAB_BOUND));
	errno = 0;
	ck_assert_int_eq(cap_iab_compare(a, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_iab_dup(NULL));
	ck_assert_int_eq(errno, EINVAL);
	cap_free(a);
	cap_free(b);
}
END_TEST

START_TEST(text_round_trip)
{
	static const char *const cases[][2] = {
		{ "", "" },
		{ "%^cap_chown", "^cap_chown" },
		{ "cap_setuid,!cap_chown", "!cap_chown,cap_setuid" },
		{ "!cap_chown,^cap_chown", "!^cap_chown" },
		{ "CAP_PERFMON,0x5,", "cap_kill,cap_perfmon" },
		{ "!", "" },
		{ "^63", "" },
	};
	static const char *const rejected[] = {
		"64",
		"all",
		"none",
		",cap_chown",
		"cap_chown cap_kill",
		"cap_chown=ep",
		"cap_chown,,cap_kill",
		"=",
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		cap_iab_t iab = cap_iab_from_text(cases[k][0]);

		ck_assert_ptr_nonnull(iab);
		ck_assert_str_eq(text_of(iab), cases[k][1]);
		cap_free(iab);
	}
	for (k = 0; k < sizeof(rejected) / sizeof(rejected[0]); k++) {
		errno = 0;
		ck_assert_ptr_null(cap_iab_from_text(rejected[k]));
		ck_assert_int_eq(errno, EINVAL);
	}
	{
		cap_iab_t empty = cap_iab_from_text(NULL);

		ck_assert_ptr_nonnull(empty);
		ck_assert_str_eq(text_of(empty), "");
		cap_free(empty);
	}
	errno = 0;
	ck_assert_ptr_null(cap_iab_to_text(NULL));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(launcher_holds_its_iab)
{
	cap_launch_t attr = cap_func_launcher(NULL);
	static const char *const argv[] = { "true", NULL };
	cap_iab_t iab = cap_iab_from_text("^cap_perfmon"), copy, old;

	ck_assert_ptr_null(attr); /* a function launcher needs a function */
	attr = cap_new_launcher("/bin/true", argv, NULL);
	ck_assert_ptr_nonnull(attr);
	ck_assert_ptr_null(cap_launcher_set_iab(attr, iab));
	/* Held: no changes, no cap_free, but copies are free to change. */
	errno = 0;
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_INH, 0, CAP_SET), -1);
	ck_assert_int_eq(errno, EBUSY);
	errno = 0;
	ck_assert_int_eq(cap_free(iab), -1);
	ck_assert_int_eq(errno, EBUSY);
	copy = cap_iab_dup(iab);
	ck_assert_int_eq(cap_iab_set_vector(copy, CAP_IAB_INH, 0, CAP_SET), 0);
	/* Swapping hands the old one back, writable again. */
	old = cap_launcher_set_iab(attr, copy);
	ck_assert_ptr_eq(old, iab);
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_INH, 0, CAP_SET), 0);
	ck_assert_int_eq(cap_free(iab), 0);
	/* The attached copy goes with the launcher. */
	ck_assert_int_eq(cap_free(attr), 0);
}
END_TEST

START_TEST(get_pid_matches_get_proc)
{
	cap_iab_t mine = cap_iab_get_proc(), seen = cap_iab_get_pid(getpid());

	ck_assert_ptr_nonnull(mine);
	ck_assert_ptr_nonnull(seen);
	ck_assert_int_eq(cap_iab_compare(mine, seen), 0);
	cap_free(mine);
	cap_free(seen);
	errno = 0;
	ck_assert_ptr_null(cap_iab_get_pid(-1));
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

static void write_status(const char *dir, const char *body)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/4242", dir);
	ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof(path), "%s/4242/status", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(body, f);
	fclose(f);
}

START_TEST(relocated_proc_root)
{
	char dir[] = "/tmp/check_iab.XXXXXX";
	char *old, *cur;
	cap_iab_t iab;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* A fake procfs: I = cap_kill, B = all but cap_sys_admin, A = none. */
	write_status(dir,
		     "Name:\tfake\nCapInh:\t0000000000000020\n"
		     "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n"
		     "CapBnd:\t000001ffffdfffff\nCapAmb:\t0000000000000000\n");
	old = cap_proc_root(dir);
	ck_assert_ptr_null(old); /* the default, "/proc" */
	iab = cap_iab_get_pid(4242);
	ck_assert_ptr_nonnull(iab);
	ck_assert_str_eq(text_of(iab), "cap_kill,!cap_sys_admin");
	cap_free(iab);
	/* The real pid is not in the fake tree: a clean failure. */
	errno = 0;
	ck_assert_ptr_null(cap_iab_get_pid(getpid()));
	ck_assert_int_eq(errno, ENOENT);
	/* Reading the root back hands over the copy and restores "/proc". */
	cur = cap_proc_root(NULL);
	ck_assert_str_eq(cur, dir);
	ck_assert_int_eq(cap_free(cur), 0);
	iab = cap_iab_get_pid(getpid());
	ck_assert_ptr_nonnull(iab);
	cap_free(iab);
	{
		char path[600];

		snprintf(path, sizeof(path), "rm -rf '%s' # " UNTRACED_FOREIGN,
			 dir);
		ck_assert_int_eq(system(path), 0);
	}
}
END_TEST

START_TEST(status_without_cap_lines)
{
	char dir[] = "/tmp/check_iab.XXXXXX";
	char cmd[600];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_status(dir, "Name:\told\nCapInh:\t0000000000000000\n"
			  "CapBnd:\t000001ffffffffff\n"); /* no CapAmb */
	cap_free(cap_proc_root(dir));
	errno = 0;
	ck_assert_ptr_null(cap_iab_get_pid(4242));
	ck_assert_int_eq(errno, EINVAL);
	cap_free(cap_proc_root(NULL));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' # " UNTRACED_FOREIGN, dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * A status value strtoull() would bend ("-1" negated
 * to all 64 bits, blanks, a sign, "0x", 17 digits) is no value at all:
 * the file reads as lacking the line (EINVAL), never as every capability.
 */
START_TEST(status_values_that_would_wrap)
{
	static const char *const bad[] = {
		"-1",  "-0000000000000001", " 20", "+20", "0x20",
		"20 ", "10000000000000000", "",	   "2g",
	};
	char dir[] = "/tmp/check_iab.XXXXXX";
	char cmd[600], body[256];
	cap_iab_t iab;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	cap_free(cap_proc_root(dir));
	for (n = 0; n < sizeof(bad) / sizeof(bad[0]); n++) {
		snprintf(
			body, sizeof(body),
			"CapInh:\t%s\n"
			"CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n",
			bad[n]);
		write_status(dir, body);
		errno = 0;
		iab = cap_iab_get_pid(4242);
		if (iab != NULL)
			ck_abort_msg("CapInh '%s' read as '%s'", bad[n],
				     text_of(iab));
		ck_assert_int_eq(errno, EINVAL);
	}
	/* Upper-case digits and short values are still hex, as before. */
	write_status(dir, "CapInh:\t20\nCapBnd:\t000001FFFFDFFFFF\n"
			  "CapAmb:\t0\n");
	iab = cap_iab_get_pid(4242);
	ck_assert_ptr_nonnull(iab);
	ck_assert_str_eq(text_of(iab), "cap_kill,!cap_sys_admin");
	cap_free(iab);
	cap_free(cap_proc_root(NULL));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' # " UNTRACED_FOREIGN, dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Capability numbers in text never wrap into range. */
START_TEST(text_numbers_do_not_wrap)
{
	static const char *const bad[] = {
		"4294967296",
		"4294967297",
		"18446744073709551616",
		"18446744073709551617",
		"0x100000001",
		"64",
		"1x",
	};
	cap_value_t cap = -1;
	size_t n;
	char text[64];

	for (n = 0; n < sizeof(bad) / sizeof(bad[0]); n++) {
		ck_assert_ptr_null(cap_iab_from_text(bad[n]));
		snprintf(text, sizeof(text), "%s=ep", bad[n]);
		ck_assert_ptr_null(cap_from_text(text));
		if (strcmp(bad[n], "1x") != 0) /* cap_from_name stops there */
			ck_assert_int_eq(cap_from_name(bad[n], &cap), -1);
	}
}
END_TEST

static Suite *iab_suite(void)
{
	Suite *s = suite_create("iab");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ambient_implies_inheritable);
	tcase_add_test(tc, bound_is_independent);
	tcase_add_test(tc, set_vector_rejects_bad_arguments);
	tcase_add_test(tc, fill_bound_takes_the_complement);
	tcase_add_test(tc, compare_and_dup);
	tcase_add_test(tc, text_round_trip);
	tcase_add_test(tc, launcher_holds_its_iab);
	tcase_add_test(tc, get_pid_matches_get_proc);
	tcase_add_test(tc, relocated_proc_root);
	tcase_add_test(tc, status_without_cap_lines);
	tcase_add_test(tc, status_values_that_would_wrap);
	tcase_add_test(tc, text_numbers_do_not_wrap);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(iab_suite)
