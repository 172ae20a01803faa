/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/escape.c: what reaches a terminal from our additions' output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "escape.h"

/* escape_dup() and escape_fputs() must agree; returns the escaped text. */
static char *escaped(const char *in)
{
	char *dup = escape_dup(in), *streamed = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&streamed, &size);

	ck_assert_ptr_nonnull(dup);
	ck_assert_ptr_nonnull(mem);
	escape_fputs(in, mem);
	fclose(mem);
	ck_assert_str_eq(dup, streamed);
	ck_assert_int_eq(escape_is_clean(in), strcmp(in, dup) == 0);
	free(streamed);
	return dup;
}

static void expect(const char *in, const char *want)
{
	char *got = escaped(in);

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(plain_text_passes)
{
	expect("", "");
	expect("/usr/bin/perf cap_perfmon=ep", "/usr/bin/perf cap_perfmon=ep");
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}
END_TEST

START_TEST(controls_become_octal)
{
	/* A file name that forges a line of getcap's output. */
	expect("x\n/usr/bin/fake cap_sys_admin=ep",
	       "x\\012/usr/bin/fake cap_sys_admin=ep");
	expect("alice\r", "alice\\015");
	expect("\033[2J\033]0;t\007", "\\033[2J\\033]0;t\\007");
	expect("tab\there\x7f", "tab\\011here\\177");
	expect("back\\slash", "back\\134slash");
}
END_TEST

START_TEST(unsafe_unicode_is_escaped)
{
	/* C1 CSI (U+009B), bidi override (U+202E), line separator (U+2028). */
	expect("a\xc2\x9b"
	       "b",
	       "a\\302\\233b");
	expect("evil\xe2\x80\xaetxt", "evil\\342\\200\\256txt");
	expect("\xe2\x80\xa8", "\\342\\200\\250");
	expect("\xe2\x81\xa6\xe2\x81\xa9", "\\342\\201\\246\\342\\201\\251");
	/* U+00A0 is the first printable code point after the C1 block. */
	expect("\xc2\xa0", "\xc2\xa0");
}
END_TEST

START_TEST(malformed_utf8_is_escaped)
{
	expect("\xff\xfe", "\\377\\376");
	expect("\xc0\xaf", "\\300\\257");	   /* overlong '/' */
	expect("\xe0\x80\xaf", "\\340\\200\\257"); /* overlong, 3 bytes */
	expect("\xed\xa0\x80", "\\355\\240\\200"); /* a surrogate */
	expect("\xf4\x90\x80\x80", "\\364\\220\\200\\200"); /* > U+10FFFF */
	expect("\xe2\x82", "\\342\\202"); /* cut short by the end */
	expect("\x80z", "\\200z");	  /* stray continuation */
}
END_TEST

START_TEST(every_byte_round_trips)
{
	/* Each single byte is either kept or written as exactly its octal. */
	char in[2] = { 0, 0 }, want[5];
	int b;

	for (b = 1; b < 256; b++) {
		char *got;

		in[0] = (char)b;
		got = escaped(in);
		if (b >= 0x20 && b < 0x7f && b != '\\') {
			ck_assert_str_eq(got, in);
		} else {
			snprintf(want, sizeof(want), "\\%03o", b);
			ck_assert_str_eq(got, want);
		}
		free(got);
	}
}
END_TEST

START_TEST(lines_escape_the_text_not_the_prefix)
{
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);

	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(
		escape_line(mem, "prog: ", "%s: %d", "a\nprog: forged\033", 7),
		0);
	ck_assert_int_eq(escape_line(mem, "", "%s", ""), 0);
	fclose(mem);
	ck_assert_str_eq(out, "prog: a\\012prog: forged\\033: 7\n\n");
	free(out);
}
END_TEST

static Suite *escape_suite(void)
{
	Suite *s = suite_create("common_escape");
	TCase *tc = tcase_create("escape");

	tcase_add_test(tc, plain_text_passes);
	tcase_add_test(tc, controls_become_octal);
	tcase_add_test(tc, unsafe_unicode_is_escaped);
	tcase_add_test(tc, malformed_utf8_is_escaped);
	tcase_add_test(tc, every_byte_round_trips);
	tcase_add_test(tc, lines_escape_the_text_not_the_prefix);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(escape_suite)
