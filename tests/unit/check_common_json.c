/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/json.c: every --json output's strings. Whatever a process, a file
 * name or a user name holds, the result is one line of valid JSON, and
 * nothing a terminal or a viewer would act on (C0 and C1 controls, line
 * separators, bidirectional controls) is written raw.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "json.h"

/* What json_string() writes for in (caller frees). */
static char *string_of(const char *in)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(mem);
	json_string(mem, in);
	ck_assert_int_eq(fclose(mem), 0);
	return text;
}

static void expect(const char *in, const char *want)
{
	char *got = string_of(in);

	ck_assert_str_eq(got, want);
	free(got);
}

/* No byte of the output is a control or outside printable ASCII... */
static int ascii_clean(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

START_TEST(plain_text_and_utf8_pass)
{
	expect("", "\"\"");
	expect("cap_perfmon=ep", "\"cap_perfmon=ep\"");
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	       "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* U+00A0 and U+2030 border the escaped ranges and pass. */
	expect("\xc2\xa0\xe2\x80\xb0", "\"\xc2\xa0\xe2\x80\xb0\"");
}
END_TEST

START_TEST(json_syntax_escaped)
{
	expect("a\"b\\c", "\"a\\\"b\\\\c\"");
	expect("l1\nl2\tx", "\"l1\\nl2\\tx\"");
	expect("\x1b[2J\r\x7f\x01", "\"\\u001b[2J\\u000d\\u007f\\u0001\"");
}
END_TEST

START_TEST(c1_controls_escaped)
{
	/* U+0080, U+0085 (NEL), U+009B (CSI), U+009F */
	expect("\xc2\x80\xc2\x85\xc2\x9b"
	       "31m\xc2\x9f",
	       "\"\\u0080\\u0085\\u009b31m\\u009f\"");
}
END_TEST

START_TEST(separators_and_bidi_escaped)
{
	/* U+061C, U+200E, U+200F, U+2028 .. U+202E, U+2066 .. U+2069 */
	expect("\xd8\x9c", "\"\\u061c\"");
	expect("\xe2\x80\x8e\xe2\x80\x8f", "\"\\u200e\\u200f\"");
	expect("\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae",
	       "\"\\u2028\\u2029\\u202a\\u202b\\u202c\\u202d\\u202e\"");
	expect("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
	       "\"\\u2066\\u2067\\u2068\\u2069\"");
	/* "Trojan Source": an override hiding the end of a name */
	expect("ls\xe2\x80\xae"
	       "fdp.exe",
	       "\"ls\\u202efdp.exe\"");
}
END_TEST

START_TEST(invalid_utf8_is_replacement_char)
{
	/* Stray continuation, overlong NUL, surrogate, past U+10FFFF, cut. */
	expect("a\x80z", "\"a\\ufffdz\"");
	expect("\xc0\x80", "\"\\ufffd\\ufffd\"");
	expect("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	expect("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	expect("\xe2\x80", "\"\\ufffd\\ufffd\"");
	/* An overlong form of U+202E is no way around the bidi escape. */
	expect("\xf0\x82\x80\xae", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	ck_assert_int_eq(json_is_utf8("a\x80z"), 0);
	ck_assert_int_eq(json_is_utf8("caf\xc3\xa9"), 1);
}
END_TEST

/* Every code point of the escaped ranges, and all 256 lone bytes. */
START_TEST(every_hidden_code_point_leaves_ascii)
{
	static const unsigned ranges[][2] = {
		{ 0x80, 0x9f },	    { 0x61c, 0x61c },	{ 0x200e, 0x200f },
		{ 0x2028, 0x202e }, { 0x2066, 0x2069 },
	};
	char in[8], *got;
	size_t r;
	unsigned cp;
	int b;

	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		for (cp = ranges[r][0]; cp <= ranges[r][1]; cp++) {
			char want[16];

			if (cp < 0x800) {
				in[0] = (char)(0xc0 | cp >> 6);
				in[1] = (char)(0x80 | (cp & 0x3f));
				in[2] = '\0';
			} else {
				in[0] = (char)(0xe0 | cp >> 12);
				in[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
				in[2] = (char)(0x80 | (cp & 0x3f));
				in[3] = '\0';
			}
			snprintf(want, sizeof(want), "\"\\u%04x\"", cp);
			expect(in, want);
		}
	}
	for (b = 1; b < 256; b++) {
		in[0] = (char)b;
		in[1] = '\0';
		got = string_of(in);
		ck_assert_msg(ascii_clean(got), "byte %02x: %s", b, got);
		free(got);
	}
}
END_TEST

START_TEST(path_keeps_exact_bytes_in_hex)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(mem);
	json_path(mem, "exe", "/tmp/a\xff\xc2\x9b");
	fputc(' ', mem);
	json_path(mem, "exe", "/tmp/\xc2\x9b");
	ck_assert_int_eq(fclose(mem), 0);
	ck_assert_str_eq(
		text,
		"\"exe\":\"/tmp/a\\ufffd\\u009b\",\"exe_hex\":\"2f746d702f61ffc29b\" \"exe\":\"/tmp/\\u009b\"");
	free(text);
}
END_TEST

/* The opener every program's objects start with, byte for byte. */
START_TEST(object_opener)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(mem);
	json_object_open(mem, NULL);
	fputs("\"a\":1} ", mem);
	json_object_open(mem, "summary");
	fputs("\"b\":2}", mem);
	ck_assert_int_eq(fclose(mem), 0);
	ck_assert_str_eq(
		text,
		"{\"schema\":1,\"a\":1} {\"schema\":1,\"type\":\"summary\",\"b\":2}");
	free(text);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("common_json");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, plain_text_and_utf8_pass);
	tcase_add_test(tc, json_syntax_escaped);
	tcase_add_test(tc, c1_controls_escaped);
	tcase_add_test(tc, separators_and_bidi_escaped);
	tcase_add_test(tc, invalid_utf8_is_replacement_char);
	tcase_add_test(tc, every_hidden_code_point_leaves_ascii);
	tcase_add_test(tc, path_keeps_exact_bytes_in_hex);
	tcase_add_test(tc, object_opener);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(json_suite)
