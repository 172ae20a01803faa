/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor --seccomp-profile's parts, compiled in from progs/perfdoctor/:
 *  - the JSON reader (perfdoctor_jscan.c) takes exactly RFC 8259's JSON
 *    in UTF-8 and refuses what makes readers disagree (a BOM, NUL, a
 *    \u0000 escape, half a surrogate pair, deep nesting), with the offset
 *    of the fault; it records every value's and key's offsets and decodes
 *    strings; keys match fields as Go's encoding/json matches them;
 *  - the splice (perfdoctor_splice.c) edits bytes only where told, in
 *    order, refuses overlapping edits, removes array elements with their
 *    separators and adds values in their neighbours' layout;
 *  - the change (perfdoctor_profile.c) for each shape of profile: exact
 *    output text, what it says, and the refusals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "perfdoctor_jscan.h"
#include "perfdoctor_profile.h"
#include "perfdoctor_splice.h"

/* jscan() of s; the document is freed by the caller. */
static int scan(struct jdoc *d, const char *s)
{
	return jscan(d, s, strlen(s));
}

/* s is refused, at offset at, with a message holding what. */
static void refused(const char *s, size_t len, size_t at, const char *what)
{
	struct jdoc d;

	ck_assert_msg(jscan(&d, s, len) == -1, "accepted: %s", s);
	ck_assert_msg(strstr(d.err, what) != NULL,
		      "'%s': error '%s', want '%s'", s, d.err, what);
	ck_assert_msg(d.err_at == at, "'%s': at %zu, want %zu (%s)", s,
		      d.err_at, at, d.err);
	jscan_free(&d);
}

START_TEST(scan_offsets_and_values)
{
	const char *s =
		" {\"a\" : [1, -2.5e+3, \"x\"], \"b\\u00e9\": null,\"c\":{}} ";
	struct jdoc d;
	int a, b, c, e;

	ck_assert_int_eq(scan(&d, s), 0);
	ck_assert_int_eq(d.n[0].kind, JSCAN_OBJECT);
	ck_assert_uint_eq(d.n[0].start, 1);
	ck_assert_uint_eq(d.n[0].end, strlen(s) - 1);
	ck_assert_int_eq(d.n[0].nchildren, 3);
	a = jscan_member(&d, 0, "a");
	ck_assert_int_ge(a, 0);
	ck_assert_int_eq(d.n[a].kind, JSCAN_ARRAY);
	ck_assert_uint_eq(d.n[a].key_start, 2);
	ck_assert_uint_eq(d.n[a].key_end, 5);
	ck_assert_uint_eq(d.n[a].start, 8);
	ck_assert_int_eq(d.n[a].nchildren, 3);
	e = d.n[a].first_child;
	ck_assert_int_eq(d.n[e].kind, JSCAN_NUMBER);
	e = d.n[e].next;
	ck_assert_int_eq(d.n[e].kind, JSCAN_NUMBER);
	ck_assert_uint_eq(d.n[e].end - d.n[e].start, strlen("-2.5e+3"));
	e = d.n[e].next;
	ck_assert_str_eq(d.n[e].str, "x");
	ck_assert_int_eq(d.n[e].next, -1);
	ck_assert_int_eq(d.n[e].parent, a);
	b = jscan_member(&d, 0, "b\xc3\xa9");
	ck_assert_int_eq(b, -1); /* not a field name of letters */
	b = d.n[a].next;
	ck_assert_str_eq(d.n[b].key, "b\xc3\xa9");
	ck_assert_int_eq(d.n[b].kind, JSCAN_NULL);
	c = jscan_member(&d, 0, "C");
	ck_assert_int_eq(d.n[c].kind, JSCAN_OBJECT);
	ck_assert_int_eq(d.n[c].nchildren, 0);
	jscan_free(&d);
}
END_TEST

START_TEST(scan_decodes_strings)
{
	struct jdoc d;

	ck_assert_int_eq(
		scan(&d,
		     "[\"perf\\u005fevent_open\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\ud83d\\ude00\\u20ac\", \"\"]"),
		0);
	ck_assert_str_eq(d.n[1].str, "perf_event_open");
	ck_assert_str_eq(d.n[2].str, "\"\\/\b\f\n\r\t");
	ck_assert_str_eq(d.n[3].str, "\xf0\x9f\x98\x80\xe2\x82\xac");
	ck_assert_uint_eq(d.n[4].str_len, 0);
	jscan_free(&d);
}
END_TEST

START_TEST(scan_refuses)
{
	char deep[34] = { 0 }, ok[65] = { 0 };

	refused("\xef\xbb\xbf{}", 5, 0, "byte order mark");
	refused("{\"a\":\0 1}", 9, 5, "a NUL byte");
	refused("[\"\xc0\xaf\"]", 6, 2, "invalid UTF-8 (byte 0xc0)");
	refused("[\"\xed\xa0\x80\"]", 7, 2, "invalid UTF-8"); /* a surrogate */
	refused("[\"\xf4\x90\x80\x80\"]", 8, 2,
		"invalid UTF-8");			  /* > U+10FFFF */
	refused("[\"\xe2\x82\"]", 6, 2, "invalid UTF-8"); /* cut short */
	refused("[\"a\tb\"]", 7, 3, "a control character (0x09)");
	refused("[\"\\x\"]", 6, 2, "an unknown escape");
	refused("[\"\\u12\"]", 8, 2, "without four hex digits");
	refused("[\"\\u0000\"]", 10, 2, "U+0000 (NUL)");
	refused("[\"\\ud800x\"]", 11, 2, "first half of a surrogate pair");
	refused("[\"\\ud800\\u0041\"]", 16, 2,
		"first half of a surrogate pair");
	refused("[\"\\udc00\"]", 10, 2, "second half of a surrogate pair");
	refused("[1,]", 4, 3, "a ',' before ']'");
	refused("{\"a\":1,}", 8, 7, "a ',' before '}'");
	refused("[01]", 4, 2, "no ',' or ']'");
	refused("[1.]", 4, 1, "digits after its '.'");
	refused("[1e]", 4, 1, "digits in its exponent");
	refused("[-]", 3, 1, "a number without digits");
	refused("[+1]", 4, 1, "not a JSON value");
	refused("[.5]", 4, 1, "not a JSON value");
	refused("[NaN]", 5, 1, "not a JSON value");
	refused("[tru]", 5, 1, "not a JSON value");
	refused("['a']", 5, 1, "not a JSON value");
	refused("{a:1}", 5, 1, "not a \"key\"");
	refused("{\"a\" 1}", 7, 5, "no ':'");
	refused("[\"abc", 5, 1, "never ends");
	refused("[1 2]", 5, 3, "no ',' or ']'");
	refused("{} {}", 5, 3, "more text");
	refused("/* */ {}", 8, 0, "not a JSON value");
	refused(" \n", 2, 0, "empty");
	refused("", 0, 0, "empty");
	refused("[", 1, 1, "ends where a value should be");
	/* 32 levels are read, 33 are not. */
	memset(ok, '[', 32);
	memset(ok + 32, ']', 32);
	{
		struct jdoc d;

		ck_assert_int_eq(jscan(&d, ok, 64), 0);
		jscan_free(&d);
	}
	memset(deep, '[', 33);
	refused(deep, 33, 32, "nested deeper than 32");
}
END_TEST

START_TEST(keys_match_as_go_does)
{
	ck_assert(jscan_key_is("names", "names"));
	ck_assert(jscan_key_is("Names", "names"));
	ck_assert(jscan_key_is("NAMES", "names"));
	ck_assert(jscan_key_is("name\xc5\xbf", "names")); /* U+017F */
	ck_assert(jscan_key_is("min\xe2\x84\xaa"
			       "ernel",
			       "minKernel")); /* U+212A */
	ck_assert(!jscan_key_is("name", "names"));
	ck_assert(!jscan_key_is("namess", "names"));
	ck_assert(!jscan_key_is("n\xc3\xa1mes", "names"));
	ck_assert(!jscan_key_is("nam\xc5\xbf", "names")); /* U+017F is no e */
	ck_assert(!jscan_key_is("na_es", "names"));
	ck_assert(!jscan_key_is("", "names"));
}
END_TEST

START_TEST(positions)
{
	const char *t = "ab\n\xc3\xa9x\ny";
	unsigned long line, column;

	jscan_position(t, strlen(t), 0, &line, &column);
	ck_assert_uint_eq(line, 1);
	ck_assert_uint_eq(column, 1);
	jscan_position(t, strlen(t), 5, &line, &column); /* the x */
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(column, 2);
	jscan_position(t, strlen(t), 7, &line, &column);
	ck_assert_uint_eq(line, 3);
	ck_assert_uint_eq(column, 1);
}
END_TEST

START_TEST(splice_edits_in_order)
{
	struct splice s;
	size_t len;
	char *out;

	splice_init(&s);
	splice_add(&s, 3, 0, "B", 1);
	splice_add(&s, 0, 1, "x", 1);
	splice_add(&s, 3, 0, "C", 1); /* after B: the order added */
	splice_add(&s, 4, 2, "", 0);
	out = splice_apply(&s, "0123456", 0, 7, &len);
	ck_assert_str_eq(out, "x12BC36");
	ck_assert_uint_eq(len, 7);
	free(out);
	/* A range: the edits in it only. */
	out = splice_apply(&s, "0123456", 1, 4, &len);
	ck_assert_str_eq(out, "12BC3");
	free(out);
	/* Overlapping edits are a bug: refused, not guessed. */
	splice_add(&s, 5, 1, "y", 1);
	errno = 0;
	ck_assert_ptr_null(splice_apply(&s, "0123456", 0, 7, &len));
	ck_assert_int_eq(errno, EINVAL);
	splice_free(&s);
}
END_TEST

static int keep_letters(const struct jdoc *d, int el, void *arg)
{
	(void)arg;
	return d->n[el].kind == JSCAN_STRING;
}

/* in with its numbers removed by splice_keep(), is want. */
static void keep_case(const char *in, const char *want)
{
	struct jdoc d;
	struct splice s;
	size_t len;
	char *out;

	ck_assert_int_eq(scan(&d, in), 0);
	splice_init(&s);
	splice_keep(&s, &d, 0, keep_letters, NULL);
	out = splice_apply(&s, in, 0, strlen(in), &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(strcmp(out, want) == 0, "%s: got %s, want %s", in, out,
		      want);
	free(out);
	splice_free(&s);
	jscan_free(&d);
}

START_TEST(splice_keep_removes_with_separators)
{
	keep_case("[1, \"a\", 2, \"b\", 3]", "[\"a\", \"b\"]");
	keep_case("[1,2,\"a\"]", "[\"a\"]");
	keep_case("[\"a\",1,2]", "[\"a\"]");
	keep_case("[\n\t1,\n\t\"a\",\n\t2\n]", "[\n\t\"a\"\n]");
	keep_case("[\n\t\"a\",\n\t1,\n\t\"b\"\n]", "[\n\t\"a\",\n\t\"b\"\n]");
	keep_case("[ \"a\" ]", "[ \"a\" ]");
}
END_TEST

START_TEST(splice_after_and_style)
{
	const char *in = "{\n  \"a\": [\n    \"x\"\n  ]\n}";
	struct jdoc d;
	struct splice s;
	struct jstyle st;
	struct sbuf b = { NULL, 0, 0, 0 };
	static const char *const items[] = { "p", "q\"" };
	char ind[32];
	size_t len;
	char *out;
	int a;

	ck_assert_int_eq(scan(&d, in), 0);
	jstyle_of(&d, 0, &st);
	ck_assert_int_eq(st.lines, 1);
	ck_assert_str_eq(st.unit, "  ");
	ck_assert_str_eq(st.colon, ": ");
	a = jscan_member(&d, 0, "a");
	splice_indent(in, d.n[a].key_start, ind, sizeof(ind));
	ck_assert_str_eq(ind, "  ");
	gen_string(&b, "b");
	sbuf_str(&b, st.colon);
	gen_member_strings(&b, &st, ind, "c", items, 2);
	splice_init(&s);
	splice_after(&s, &d, a, b.s);
	splice_after(&s, &d, d.n[a].first_child, "\"y\"");
	out = splice_apply(&s, in, 0, strlen(in), &len);
	ck_assert_str_eq(out, "{\n  \"a\": [\n    \"x\",\n    \"y\"\n  ],\n"
			      "  \"b\": {\n    \"c\": [\n      \"p\",\n"
			      "      \"q\\\"\"\n    ]\n  }\n}");
	free(out);
	free(b.s);
	splice_free(&s);
	jscan_free(&d);
	/* One line: no newlines, the blank after commas kept. */
	ck_assert_int_eq(scan(&d, "{\"a\": 1, \"b\": 2}"), 0);
	jstyle_of(&d, 0, &st);
	ck_assert_int_eq(st.lines, 0);
	ck_assert_str_eq(st.unit, " ");
	ck_assert_str_eq(st.colon, ": ");
	jscan_free(&d);
}
END_TEST

/* The change of in is want (or, want NULL, in itself), saying what. */
static void change_case(const char *in, const char *want, const char *what)
{
	struct profile_change c;

	ck_assert_msg(profile_allow_perfmon(in, strlen(in), &c) == 0, "%s: %s",
		      in, c.err);
	ck_assert_msg(strcmp(c.text, want != NULL ? want : in) == 0,
		      "%s:\ngot  %s\nwant %s", in, c.text, want ? want : in);
	ck_assert_int_eq(c.changed, want != NULL);
	ck_assert_msg(strcmp(c.what, what) == 0, "%s: says '%s', want '%s'", in,
		      c.what, what);
	profile_change_free(&c);
}

static void bad_case(const char *in, const char *err)
{
	struct profile_change c;

	errno = 0;
	ck_assert_msg(profile_allow_perfmon(in, strlen(in), &c) == -1,
		      "accepted: %s", in);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(c.text);
	ck_assert_msg(strcmp(c.err, err) == 0, "%s: '%s', want '%s'", in, c.err,
		      err);
	profile_change_free(&c);
}

#define ERRNO_RULE(names, extra) \
	"{\"names\":[" names     \
	"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1" extra "}"
#define NEW_RULE                                                          \
	"{\"names\":[\"perf_event_open\"],\"action\":\"SCMP_ACT_ALLOW\"," \
	"\"includes\":{\"caps\":[\"CAP_PERFMON\"]}}"

START_TEST(profile_shapes)
{
	/* podman's: split, the copy's excludes, the new rule after it */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" ERRNO_RULE(
			"\"bpf\",\"perf_event_open\"",
			",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}") "]}",
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" ERRNO_RULE("\"bpf\"", ",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}") "," ERRNO_RULE(
			"\"perf_event_open\"",
			",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\",\"CAP_PERFMON\"]}") "," NEW_RULE
											"]}",
		"perf_event_open leaves syscalls[0] (SCMP_ACT_ERRNO) for a copy of it that excludes CAP_PERFMON too, right after it; a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it");
	/* perf_event_open alone, twice, escaped: excludes added, no split */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" ERRNO_RULE(
			"\"perf_event_open\",\"perf\\u005fevent_open\"",
			"") "]}",
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" ERRNO_RULE(
			"\"perf_event_open\",\"perf\\u005fevent_open\"",
			",\"excludes\":{\"caps\":[\"CAP_PERFMON\"]}") "," NEW_RULE
								      "]}",
		"syscalls[0] (SCMP_ACT_ERRNO) excludes CAP_PERFMON too; a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it");
	/* excludes null, caps [], caps null, excludes with arches only */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[" ERRNO_RULE("\"perf_event_open\"", ",\"excludes\":null") "," ERRNO_RULE(
			"\"perf_event_open\"",
			",\"excludes\":{\"caps\":[]}") "," ERRNO_RULE("\"perf_event_open\"",
								      ",\"excludes\":{\"caps\":null}") "," ERRNO_RULE("\"perf_event_open\"",
														      ",\"excludes\":{\"arches\":[\"s390x\"]}") "]}",
		"{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[" ERRNO_RULE("\"perf_event_open\"", ",\"excludes\":{\"caps\":[\"CAP_PERFMON\"]}") "," ERRNO_RULE(
			"\"perf_event_open\"",
			",\"excludes\":{\"caps\":[\"CAP_PERFMON\"]}") "," ERRNO_RULE("\"perf_event_open\"",
										     ",\"excludes\":{\"caps\":[\"CAP_PERFMON\"]}") "," ERRNO_RULE("\"perf_event_open\"",
																		  ",\"excludes\":{\"arches\":[\"s390x\"],\"caps\":[\"CAP_PERFMON\"]}") "]}",
		"syscalls[0] (SCMP_ACT_ERRNO) excludes CAP_PERFMON too; syscalls[1] (SCMP_ACT_ERRNO) excludes CAP_PERFMON too; syscalls[2] (SCMP_ACT_ERRNO) excludes CAP_PERFMON too; syscalls[3] (SCMP_ACT_ERRNO) excludes CAP_PERFMON too; the defaultAction, SCMP_ACT_ALLOW, lets perf_event_open() through where no rule refuses it");
	/* a rule that excludes CAP_PERFMON already is left as it is */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[" ERRNO_RULE(
			"\"perf_event_open\"",
			",\"excludes\":{\"caps\":[\"CAP_PERFMON\"]}") "]}",
		NULL,
		"the defaultAction, SCMP_ACT_ALLOW, lets perf_event_open() through where no rule refuses it");
	/* allowed to CAP_PERFMON, or to all: unchanged */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" NEW_RULE
		"]}",
		NULL,
		"syscalls[0] allows perf_event_open() to a container with CAP_PERFMON");
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"name\":\"perf_event_open\",\"action\":\"SCMP_ACT_ALLOW\",\"args\":null,\"includes\":{},\"excludes\":{}}]}",
		NULL,
		"syscalls[0] allows perf_event_open() to every container");
	/* an allow with conditions is not enough: a rule is added */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"perf_event_open\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_PERFMON\"],\"minKernel\":\"9.0\"}}]}",
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"perf_event_open\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_PERFMON\"],\"minKernel\":\"9.0\"}}," NEW_RULE
		"]}",
		"a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it");
	/* no rule at all: a syscalls list made */
	change_case(
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\"}",
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" NEW_RULE
		"]}",
		"a new rule allows perf_event_open() under CAP_PERFMON");
	change_case(
		"{\n\t\"defaultAction\": \"SCMP_ACT_ERRNO\",\n\t\"syscalls\": null\n}",
		"{\n\t\"defaultAction\": \"SCMP_ACT_ERRNO\",\n\t\"syscalls\": [\n\t\t{\n"
		"\t\t\t\"names\": [\n\t\t\t\t\"perf_event_open\"\n\t\t\t],\n"
		"\t\t\t\"action\": \"SCMP_ACT_ALLOW\",\n"
		"\t\t\t\"includes\": {\n\t\t\t\t\"caps\": [\n\t\t\t\t\t\"CAP_PERFMON\"\n"
		"\t\t\t\t]\n\t\t\t}\n\t\t}\n\t]\n}",
		"a new rule allows perf_event_open() under CAP_PERFMON");
	change_case(
		"{}", NULL,
		"no defaultAction and no rules: the runtime runs a container without a seccomp filter, and perf_event_open() is allowed to every container");
	/* keys in another case are the runtime's keys */
	change_case(
		"{\"DefaultAction\":\"SCMP_ACT_ERRNO\",\"SYSCALLS\":[{\"Names\":[\"perf_event_open\"],\"Action\":\"SCMP_ACT_KILL\"}]}",
		"{\"DefaultAction\":\"SCMP_ACT_ERRNO\",\"SYSCALLS\":[{\"Names\":[\"perf_event_open\"],\"Action\":\"SCMP_ACT_KILL\",\"excludes\":{\"caps\":[\"CAP_PERFMON\"]}}," NEW_RULE
		"]}",
		"syscalls[0] (SCMP_ACT_KILL) excludes CAP_PERFMON too; a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it");
}
END_TEST

START_TEST(profile_refusals)
{
	bad_case(
		"[]",
		"not a seccomp profile: the top level is an array, not an object");
	bad_case("{\"syscalls\":{}}",
		 "the top level: \"syscalls\" is an object, not an array");
	bad_case("{\"defaultAction\":1}",
		 "the top level: \"defaultAction\" is a number, not a string");
	bad_case("{\"syscalls\":[\"read\"]}",
		 "syscalls[0] is a string, not an object (a rule)");
	bad_case("{\"syscalls\":[{\"names\":\"read\"}]}",
		 "syscalls[0]: \"names\" is a string, not an array");
	bad_case("{\"syscalls\":[{\"args\":{}}]}",
		 "syscalls[0]: \"args\" is an object, not an array");
	bad_case("{\"syscalls\":[{\"includes\":[]}]}",
		 "syscalls[0]: \"includes\" is an array, not an object");
	bad_case("{\"syscalls\":[{\"includes\":{\"caps\":[1]}}]}",
		 "syscalls[0].includes: \"caps\"[0] is a number, not a string");
	bad_case(
		"{\"syscalls\":[{\"excludes\":{\"minKernel\":4}}]}",
		"syscalls[0].excludes: \"minKernel\" is a number, not a string");
	bad_case(
		"{\"syscalls\":[{\"name\":\"perf_event_open\",\"names\":[\"read\"]}]}",
		"syscalls[0] has both \"name\" and \"names\", which the runtime refuses");
	bad_case(
		"{\"syscalls\":[],\"SysCalls\":[]}",
		"the top level sets \"syscalls\" twice (\"syscalls\" and \"SysCalls\"; the runtime reads keys in any case and keeps the last)");
	bad_case(
		"{\"syscalls\":[{\"action\":\"SCMP_ACT_ALLOW\",\"action\":\"SCMP_ACT_ERRNO\"}]}",
		"syscalls[0] sets \"action\" twice (\"action\" and \"action\"; the runtime reads keys in any case and keeps the last)");
}
END_TEST

/* What the splice made is read again; a change that needs another fails. */
START_TEST(profile_output_needs_no_change)
{
	const char *in =
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" ERRNO_RULE(
			"\"perf_event_open\",\"bpf\",\"perf_event_open\"",
			",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}") "]}";
	struct profile_change c, again;

	ck_assert_int_eq(profile_allow_perfmon(in, strlen(in), &c), 0);
	ck_assert_int_eq(c.changed, 1);
	ck_assert_int_eq(profile_allow_perfmon(c.text, c.len, &again), 0);
	ck_assert_int_eq(again.changed, 0);
	ck_assert_str_eq(again.text, c.text);
	ck_assert_str_eq(
		c.text,
		"{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[" ERRNO_RULE("\"bpf\"", ",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}") "," ERRNO_RULE(
			"\"perf_event_open\"",
			",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\",\"CAP_PERFMON\"]}") "," NEW_RULE
											"]}");
	profile_change_free(&c);
	profile_change_free(&again);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("perfdoctor_profile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, scan_offsets_and_values);
	tcase_add_test(tc, scan_decodes_strings);
	tcase_add_test(tc, scan_refuses);
	tcase_add_test(tc, keys_match_as_go_does);
	tcase_add_test(tc, positions);
	tcase_add_test(tc, splice_edits_in_order);
	tcase_add_test(tc, splice_keep_removes_with_separators);
	tcase_add_test(tc, splice_after_and_style);
	tcase_add_test(tc, profile_shapes);
	tcase_add_test(tc, profile_refusals);
	tcase_add_test(tc, profile_output_needs_no_change);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
