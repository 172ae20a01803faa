/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* cap_from_text, cap_to_text, cap_from_name, cap_to_name, cap_mode_name, cap_max_bits. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "check_run.h"

/* The library's names, from the one table of capability facts. */
static const char *const table_names[] = {
#define CAP_FACT(number, NAME, name, ...) [number] = "cap_" #name,
#include "caps.def"
#undef CAP_FACT
};
#define TABLE_NAMES \
	((cap_value_t)(sizeof(table_names) / sizeof(table_names[0])))

/* What the running kernel says its last capability is. */
static int kernel_last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = -1;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%d", &last), 1);
	fclose(f);
	return last;
}

/* Input and canonical output, as libcap 2.66 produces them (NULL: rejected). */
static const struct {
	const char *in, *out;
} cases[] = {
	{ "", "=" },
	{ " ", "=" },
	{ "=", "=" },
	{ "all=", "=" },
	{ "all", NULL },
	{ "=ep", "=ep" },
	{ "all=eip", "=eip" },
	{ "all+p", "=p" },
	{ "all-p", "=" },
	{ "+p", NULL },
	{ "-p", NULL },
	{ "=+p", NULL },
	{ "cap_chown+ep", "cap_chown=ep" },
	{ "cap_chown=p cap_chown+e", "cap_chown=ep" },
	{ "CAP_CHOWN=ep", "cap_chown=ep" },
	{ "Cap_Net_Raw+ep", "cap_net_raw=ep" },
	{ "ALL=p", "=p" },
	{ "CAP_ALL=p", NULL },
	{ "cap_chown=PE", NULL },
	{ "cap_perfmon=ep", "cap_perfmon=ep" },
	{ "cap_bpf,cap_perfmon=ep", "cap_perfmon,cap_bpf=ep" },
	{ "cap_sys_admin,cap_perfmon+ep", "cap_sys_admin,cap_perfmon=ep" },
	{ "all=ep cap_perfmon-ep", "=ep cap_perfmon-ep" },
	{ "38=ep", "cap_perfmon=ep" },
	{ "0x26=ep", "cap_perfmon=ep" },
	{ "046=ep", "cap_perfmon=ep" },
	{ "62=ep", "= 62+ep" },
	{ "63=p", "= 63+p" },
	{ "64=p", NULL },
	{ "-1=p", NULL },
	{ "9999999999999999999=p", NULL },
	{ "0x=p", NULL },
	{ "1e=p", NULL },
	{ "all=p 63+p", "=p 63+p" },
	{ "=p 63-p", "=p" },
	{ "=ep 62,63+p", "=ep 62,63+p" },
	{ "cap_chown=e cap_chown=p", "cap_chown=p" },
	{ "cap_fowner=-p", "=" },
	{ "cap_fowner=+pe", "cap_fowner=ep" },
	{ "cap_chown=ep-e", "cap_chown=p" },
	{ "cap_setpcap=p+e-e", "cap_setpcap=p" },
	{ "cap_chown+", NULL },
	{ "cap_chown", NULL },
	{ "cap_chown=", "=" },
	{ "cap_chown=ep junk", NULL },
	{ "cap_chown=epx", NULL },
	{ "cap_chown=ep,", NULL },
	{ "cap_chown,,cap_kill=ep", NULL },
	{ "cap_chown cap_kill=ep", NULL },
	{ "cap_chown=ep;cap_kill=p", NULL },
	{ "cap_chownx=ep", NULL },
	{ "chown=ep", NULL },
	{ "cap_chown=e=p", NULL },
	{ "cap_chown==p", NULL },
	{ "  cap_chown=ep \t cap_kill+p\n", "cap_chown=ep cap_kill+p" },
	{ "cap_dac_override,cap_dac_read_search=ie",
	  "cap_dac_override,cap_dac_read_search=ei" },
	{ "cap_chown,all=p", "=p" },
	{ "all,cap_chown-p", "=" },
	{ "cap_chown=p all+e", "=e cap_chown+p" },
	{ "cap_chown=e cap_kill=i cap_setuid=p",
	  "cap_kill=i cap_setuid+p cap_chown+e" },
	{ "all=ep cap_chown=i", "=ep cap_chown+i-ep" },
	{ "all=eip cap_chown=e", "=eip cap_chown-ip" },
	{ "all=i cap_chown,cap_kill=p", "=i cap_chown,cap_kill+p-i" },
};

START_TEST(canonical_text_table)
{
	size_t n;

	/*
	 * The expected strings hold on any kernel that knows cap_bpf and not
	 * yet 62 (the cases' number without a name) or 63.
	 */
	ck_assert_int_gt(cap_max_bits(), CAP_BPF);
	ck_assert_int_lt(cap_max_bits(), 62);
	ck_assert_int_lt(TABLE_NAMES, 62);
	for (n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) {
		cap_t caps;
		char *text;
		ssize_t len = -7;

		errno = 0;
		caps = cap_from_text(cases[n].in);
		if (cases[n].out == NULL) {
			ck_assert_msg(caps == NULL, "accepted \"%s\"",
				      cases[n].in);
			ck_assert_int_eq(errno, EINVAL);
			continue;
		}
		ck_assert_msg(caps != NULL, "rejected \"%s\"", cases[n].in);
		text = cap_to_text(caps, &len);
		ck_assert_str_eq(text, cases[n].out);
		ck_assert_int_eq(len, (ssize_t)strlen(cases[n].out));
		cap_free(text);
		cap_free(caps);
	}
}
END_TEST

START_TEST(text_rejects_null_and_bad_sets)
{
	errno = 0;
	ck_assert_ptr_null(cap_from_text(NULL));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_to_text(NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* "a,b,c": the names of caps first .. end - 1, as cap_to_text writes them. */
static void join_names(char *out, size_t size, cap_value_t first,
		       cap_value_t end)
{
	size_t len = 0;
	cap_value_t cap;

	out[0] = '\0';
	for (cap = first; cap < end; cap++) {
		char *name = cap_to_name(cap);

		len += (size_t)snprintf(out + len, size - len, "%s%s",
					cap > first ? "," : "", name);
		cap_free(name);
		ck_assert_uint_lt(len, size);
	}
}

START_TEST(majority_picks_the_base)
{
	cap_value_t bits = cap_max_bits(), half = (bits - 1) / 2, cap;
	cap_t caps = cap_from_text("all=p");
	char names[2048], want[2100];
	char *text;

	/* Clear the lowest (bits - 1) / 2: more remain =p, so "=p" is the base. */
	for (cap = 0; cap < half; cap++)
		cap_set_flag(caps, CAP_PERMITTED, 1, &cap, CAP_CLEAR);
	text = cap_to_text(caps, NULL);
	join_names(names, sizeof(names), 0, half);
	snprintf(want, sizeof(want), "=p %s-p", names);
	ck_assert_str_eq(text, want);
	cap_free(text);
	/*
	 * One more cleared: no more =p than not, so none (a tie only when the
	 * kernel's count is even: tie_keeps_the_smaller_combination).
	 */
	cap = half;
	cap_set_flag(caps, CAP_PERMITTED, 1, &cap, CAP_CLEAR);
	text = cap_to_text(caps, NULL);
	join_names(names, sizeof(names), half + 1, bits);
	snprintf(want, sizeof(want), "%s=p", names);
	ck_assert_str_eq(text, want);
	cap_free(text);
	cap_free(caps);
}
END_TEST

/* caps first .. end - 1 get exactly the flags of text ("=p", "=ep", "="). */
static void set_range(cap_t caps, cap_value_t first, cap_value_t end,
		      const char *text)
{
	cap_t flags = cap_from_text(text);
	cap_value_t cap;
	cap_flag_t flag;
	cap_flag_value_t value;

	ck_assert_ptr_nonnull(flags);
	for (flag = CAP_EFFECTIVE; flag <= CAP_INHERITABLE; flag++) {
		ck_assert_int_eq(cap_get_flag(flags, 0, flag, &value), 0);
		for (cap = first; cap < end; cap++)
			ck_assert_int_eq(
				cap_set_flag(caps, flag, 1, &cap, value), 0);
	}
	cap_free(flags);
}

/*
 * Two combinations held by equally many of the kernel's caps: the base is
 * the smaller combination value (e=1, p=2, i=4), as in libcap 2.66's
 * output. Half the caps in each; with an odd count the last one takes a
 * third combination that ties with nothing.
 */
START_TEST(tie_keeps_the_smaller_combination)
{
	static const struct {
		const char *low, *high, *odd; /* the tied pair, the odd one */
		const char *raise, *odd_clause;
	} ties[] = {
		/* none (0) and p (2): the base is empty, "x=p". */
		{ "=", "=p", "=e", "=p", "+e" },
		/* p (2) and ep (3): the base is "=p", ep caps "+e". */
		{ "=p", "=ep", "=", "+e", "-p" },
	};
	cap_value_t bits = cap_max_bits(), half = bits / 2;
	char high[2048], odd[64], want[2200];
	size_t n;

	for (n = 0; n < sizeof(ties) / sizeof(ties[0]); n++) {
		cap_t caps = cap_init();
		char *text;

		set_range(caps, 0, half, ties[n].low);
		set_range(caps, half, 2 * half, ties[n].high);
		set_range(caps, 2 * half, bits, ties[n].odd);
		join_names(high, sizeof(high), half, 2 * half);
		/* An empty base: the first clause takes the "=" ("x=p"). */
		snprintf(want, sizeof(want), "%s%s%s%s",
			 n == 0 ? "" : ties[n].low, n == 0 ? "" : " ", high,
			 ties[n].raise);
		if (bits % 2) {
			join_names(odd, sizeof(odd), 2 * half, bits);
			snprintf(want + strlen(want),
				 sizeof(want) - strlen(want), " %s%s", odd,
				 ties[n].odd_clause);
		}
		text = cap_to_text(caps, NULL);
		ck_assert_ptr_nonnull(text);
		ck_assert_msg(
			strcmp(text, want) == 0,
			"tie-break: %d caps %s and %d caps %s must keep the smaller combination (%s) as the base: got \"%s\", want \"%s\"",
			(int)half, ties[n].low, (int)half, ties[n].high,
			ties[n].low, text, want);
		cap_free(text);
		cap_free(caps);
	}
}
END_TEST

START_TEST(every_name_round_trips)
{
	cap_value_t cap;

	for (cap = 0; cap < TABLE_NAMES; cap++) {
		char *name = cap_to_name(cap);
		cap_value_t back = -1;

		ck_assert_str_eq(name, table_names[cap]);
		ck_assert_int_eq(cap_from_name(name, &back), 0);
		ck_assert_int_eq(back, cap);
		cap_free(name);
	}
	for (cap = TABLE_NAMES; cap < 64; cap++) {
		char *name = cap_to_name(cap), want[16];
		cap_value_t back = -1;

		snprintf(want, sizeof(want), "%d", cap);
		ck_assert_str_eq(name, want);
		ck_assert_int_eq(cap_from_name(name, &back), 0);
		ck_assert_int_eq(back, cap);
		cap_free(name);
	}
}
END_TEST

START_TEST(perfmon_name_and_number)
{
	cap_value_t v = -1;
	char *name = cap_to_name(38);

	ck_assert_int_eq(CAP_PERFMON, 38);
	ck_assert_int_eq(CAP_BPF, 39);
	ck_assert_int_eq(CAP_CHECKPOINT_RESTORE, 40);
	ck_assert_str_eq(name, "cap_perfmon");
	cap_free(name);
	ck_assert_int_eq(cap_from_name("CAP_PERFMON", &v), 0);
	ck_assert_int_eq(v, CAP_PERFMON);
}
END_TEST

START_TEST(from_name_quirks)
{
	cap_value_t v = -1;

	/* What follows a complete item is ignored, and errno is left alone. */
	errno = 1234;
	ck_assert_int_eq(cap_from_name("cap_chown,cap_kill", &v), 0);
	ck_assert_int_eq(v, CAP_CHOWN);
	ck_assert_int_eq(cap_from_name("cap_kill2", &v), 0);
	ck_assert_int_eq(v, CAP_KILL);
	ck_assert_int_eq(cap_from_name("7abc", &v), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(cap_from_name("cap_chown", NULL), 0);
	ck_assert_int_eq(cap_from_name("all", &v), -1);
	ck_assert_int_eq(cap_from_name("", &v), -1);
	ck_assert_int_eq(cap_from_name("-1", &v), -1);
	ck_assert_int_eq(cap_from_name("64", &v), -1);
	ck_assert_int_eq(cap_from_name("chown", &v), -1);
	ck_assert_int_eq(cap_from_name("cap_chownx", &v), -1);
	ck_assert_int_eq(cap_from_name(NULL, &v), -1);
	ck_assert_int_eq(errno, 1234);
}
END_TEST

START_TEST(to_name_prints_unsigned)
{
	char *name = cap_to_name(-1);

	ck_assert_str_eq(name, "4294967295");
	cap_free(name);
	name = cap_to_name(65);
	ck_assert_str_eq(name, "65");
	cap_free(name);
}
END_TEST

START_TEST(mode_names)
{
	ck_assert_str_eq(cap_mode_name(CAP_MODE_UNCERTAIN), "UNCERTAIN");
	ck_assert_str_eq(cap_mode_name(CAP_MODE_NOPRIV), "NOPRIV");
	ck_assert_str_eq(cap_mode_name(CAP_MODE_PURE1E_INIT), "PURE1E_INIT");
	ck_assert_str_eq(cap_mode_name(CAP_MODE_PURE1E), "PURE1E");
	ck_assert_str_eq(cap_mode_name(CAP_MODE_HYBRID), "HYBRID");
	ck_assert_str_eq(cap_mode_name(5), "UNKNOWN");
}
END_TEST

START_TEST(max_bits_matches_kernel)
{
	int last = kernel_last_cap();

	errno = 4321;
	ck_assert_int_eq(cap_max_bits(), last + 1);
	ck_assert_int_eq(errno, 4321); /* probing leaves errno alone */
	ck_assert_int_eq(cap_max_bits(), last + 1); /* cached */
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, canonical_text_table);
	tcase_add_test(tc, text_rejects_null_and_bad_sets);
	tcase_add_test(tc, majority_picks_the_base);
	tcase_add_test(tc, tie_keeps_the_smaller_combination);
	tcase_add_test(tc, every_name_round_trips);
	tcase_add_test(tc, perfmon_name_and_number);
	tcase_add_test(tc, from_name_quirks);
	tcase_add_test(tc, to_name_prints_unsigned);
	tcase_add_test(tc, mode_names);
	tcase_add_test(tc, max_bits_matches_kernel);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(text_suite)
