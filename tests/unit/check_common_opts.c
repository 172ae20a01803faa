/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/opts.c: one option table gives getopt_long()'s arrays, the parse and the help. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "opts.h"

struct seen {
	int all, verbose;
	const char *file;
	int quiet; /* set by its row, no handler */
};

static int on_all(void *p, const char *arg)
{
	ck_assert_ptr_null(arg);
	((struct seen *)p)->all = 1;
	return OPTS_NEXT;
}

static int on_verbose(void *p, const char *arg)
{
	(void)arg;
	((struct seen *)p)->verbose++;
	return OPTS_NEXT;
}

static int on_file(void *p, const char *arg)
{
	((struct seen *)p)->file = arg;
	return OPTS_NEXT;
}

static int on_stop(void *p, const char *arg)
{
	(void)p;
	(void)arg;
	return 7;
}

static const struct opt rows[] = {
	{ .letter = 'a', .handle = on_all },
	{ .name = "verbose",
	  .letter = 'v',
	  .handle = on_verbose,
	  .help = "say more" },
	{ .name = "file",
	  .arg = required_argument,
	  .handle = on_file,
	  .value = "FILE",
	  .help = "read FILE\nand nothing else" },
	{ .letter = 'f',
	  .arg = required_argument,
	  .handle = on_file,
	  .value = "NAME",
	  .help = "the same, short" },
	{ .name = "stop", .handle = on_stop },
	{ .name = "quiet",
	  .letter = 'q',
	  .help = "no news",
	  .flag = OPTS_FLAG(struct seen, quiet) },
};

static int no_help(void *p)
{
	(void)p;
	return 0;
}

static const struct opts_prog prog = { "prog", no_help, 1 };
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/*
 * Parses the space-separated words of line (argv[0] first) from a fresh
 * getopt state; returns opts_parse()'s value. The words live in static
 * storage until the next call, so s->file may point into them.
 */
static int parse(struct opts_getopt *g, struct seen *s, int *status,
		 const char *line)
{
	static char buf[256];
	static char *argv[16];
	int argc = 0;
	char *w;

	ck_assert_uint_lt(strlen(line), sizeof(buf));
	strcpy(buf, line);
	for (w = strtok(buf, " "); w != NULL && argc < 15;
	     w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(opts_build(g, &prog, rows, NROWS, 0), 0);
	optind = 0; /* glibc: a full reset */
	opterr = 0;
	return opts_parse(g, argc, argv, s, status);
}

START_TEST(build_makes_getopt_arrays)
{
	struct opts_getopt g;

	ck_assert_int_eq(opts_build(&g, &prog, rows, NROWS, 0), 0);
	ck_assert_str_eq(g.shortopts, "avf:q");
	ck_assert_str_eq(g.longopts[0].name, "verbose");
	ck_assert_int_eq(g.longopts[0].val, 'v');
	ck_assert_str_eq(g.longopts[1].name, "file");
	ck_assert_int_eq(g.longopts[1].has_arg, required_argument);
	ck_assert_int_eq(g.longopts[1].val, OPTS_LONG_BASE + 2);
	ck_assert_str_eq(g.longopts[2].name, "stop");
	ck_assert_str_eq(g.longopts[3].name, "quiet");
	ck_assert_ptr_null(g.longopts[4].name);
	ck_assert_ptr_eq(opts_row(&g, 'v'), &rows[1]);
	ck_assert_ptr_eq(opts_row(&g, OPTS_LONG_BASE + 2), &rows[2]);
	ck_assert_ptr_null(opts_row(&g, 'z'));
	ck_assert_ptr_null(opts_row(&g, '?'));
	ck_assert_ptr_null(opts_row(&g, OPTS_LONG_BASE + (int)NROWS));
}
END_TEST

START_TEST(build_refuses_too_many_rows)
{
	static struct opt many[OPTS_MAX + 1];
	struct opts_getopt g;

	ck_assert_int_eq(opts_build(&g, &prog, many, OPTS_MAX + 1, 0), -1);
}
END_TEST

START_TEST(parse_runs_handlers_in_order)
{
	struct opts_getopt g;
	struct seen s;
	int status = -5;

	ck_assert_int_eq(parse(&g, &s, &status,
			       "prog -av --verbose --file=x -f y operand"),
			 0);
	ck_assert_int_eq(s.all, 1);
	ck_assert_int_eq(s.verbose, 2);
	ck_assert_str_eq(s.file, "y");
	ck_assert_int_eq(s.quiet, 0);
	ck_assert_int_eq(status, -5);
	ck_assert_int_eq(optind, 6);
}
END_TEST

/* capaudit -v cmd -a: the command's -a is its own, not ours. */
START_TEST(stop_at_operand_leaves_the_command_its_options)
{
	static char w[][10] = { "prog", "-v", "cmd", "-a", "--verbose" };
	char *argv[] = { w[0], w[1], w[2], w[3], w[4], NULL };
	struct opts_getopt g;
	struct seen s;
	int status = -5;

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(opts_build(&g, &prog, rows, NROWS, 0), 0);
	opts_stop_at_operand(&g);
	ck_assert_str_eq(g.shortopts, "+avf:q");
	opts_stop_at_operand(&g); /* once is enough */
	ck_assert_str_eq(g.shortopts, "+avf:q");
	optind = 0;
	opterr = 0;
	ck_assert_int_eq(opts_parse(&g, 5, argv, &s, &status), 0);
	ck_assert_int_eq(s.verbose, 1);
	ck_assert_int_eq(s.all, 0);
	ck_assert_int_eq(optind, 2);
	ck_assert_str_eq(argv[optind], "cmd");
}
END_TEST

START_TEST(flag_rows_set_their_member)
{
	struct opts_getopt g;
	struct seen s;
	int status = 0;

	ck_assert_int_eq(parse(&g, &s, &status, "prog -qa --quiet x"), 0);
	ck_assert_int_eq(s.quiet, 1);
	ck_assert_int_eq(s.all, 1);
	ck_assert_int_eq(s.verbose, 0);
	ck_assert_ptr_null(s.file);
	ck_assert_int_eq(optind, 3);
}
END_TEST

START_TEST(parse_stops_where_a_handler_says)
{
	struct opts_getopt g;
	struct seen s;
	int status = 0;

	ck_assert_int_eq(parse(&g, &s, &status, "prog --stop -a"), 1);
	ck_assert_int_eq(status, 7);
	ck_assert_int_eq(s.all, 0);
}
END_TEST

START_TEST(parse_reports_the_bad_word)
{
	struct opts_getopt g;
	struct seen s;
	int status = 0;

	ck_assert_int_eq(parse(&g, &s, &status, "prog -a --nope"), -1);
	ck_assert_int_eq(g.word, 2);
	ck_assert_int_eq(optopt, 0);
	ck_assert_int_eq(parse(&g, &s, &status, "prog -v --file"), -1);
	ck_assert_int_eq(g.word, 2);
	ck_assert_ptr_eq(opts_row(&g, optopt), &rows[2]);
	ck_assert_int_eq(parse(&g, &s, &status, "prog --verbose=1"), -1);
	ck_assert_ptr_eq(opts_row(&g, optopt), &rows[1]);
	ck_assert_int_eq(parse(&g, &s, &status, "prog -aQ"), -1);
	ck_assert_int_eq(g.word, 1);
	ck_assert_int_eq(optopt, 'Q');
	ck_assert_int_eq(s.all, 1);
	ck_assert_int_eq(parse(&g, &s, &status, "prog -Qa"), -1);
	ck_assert_int_eq(g.word, 1);
	ck_assert_int_eq(optopt, 'Q');
}
END_TEST

/*
 * getopt_long() skips operands to reach an option after them, so the word
 * it was reading is not the one optind stood on before the call: "getcap
 * FILE --bogus" must name --bogus, not FILE (which made getcap print
 * "invalid option -- '\0'").
 */
START_TEST(parse_reports_the_bad_word_after_operands)
{
	struct opts_getopt g;
	struct seen s;
	int status = 0;

	ck_assert_int_eq(parse(&g, &s, &status, "prog x --nope y"), -1);
	ck_assert_int_eq(g.word, 2);
	ck_assert_int_eq(optopt, 0);
	ck_assert_int_eq(parse(&g, &s, &status, "prog x y --verbose=1 z"), -1);
	ck_assert_int_eq(g.word, 3);
	ck_assert_ptr_eq(opts_row(&g, optopt), &rows[1]);
	ck_assert_int_eq(parse(&g, &s, &status, "prog x -a y --file"), -1);
	ck_assert_int_eq(g.word, 4);
	ck_assert_ptr_eq(opts_row(&g, optopt), &rows[2]);
	ck_assert_int_eq(parse(&g, &s, &status, "prog x -aQ y"), -1);
	ck_assert_int_eq(g.word, 2);
	ck_assert_int_eq(optopt, 'Q');
	ck_assert_int_eq(parse(&g, &s, &status, "prog x y -Q"), -1);
	ck_assert_int_eq(g.word, 3);
}
END_TEST

START_TEST(help_lists_rows_with_help)
{
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);

	ck_assert_ptr_nonnull(mem);
	opts_help(mem, rows, NROWS, "  ", 15);
	opts_help(mem, rows + 1, 1, "\t", 4);
	fclose(mem);
	ck_assert_str_eq(out, "  -v, --verbose  say more\n"
			      "  --file=FILE    read FILE\n"
			      "                 and nothing else\n"
			      "  -f NAME        the same, short\n"
			      "  -q, --quiet    no news\n"
			      "\t-v, --verbose  say more\n");
	free(out);
}
END_TEST

/* A hand-parsed program's table, as setcap's and getpcaps' are. */
struct hand {
	int quiet, helped;
	const char *rootid, *group;
};

static int on_rootid(void *p, const char *arg)
{
	((struct hand *)p)->rootid = arg;
	return OPTS_NEXT;
}

static int on_group(void *p, const char *arg)
{
	((struct hand *)p)->group = arg;
	return OPTS_NEXT;
}

static int hand_help(void *p)
{
	((struct hand *)p)->helped++;
	return 3;
}

static const struct opts_prog hand_prog = { "hand", hand_help, 9 };

static const struct opt hand_rows[] = {
	{ .letter = 'r', .help = "remove", .tags = 4 },
	{ .line = " -           from stdin" },
	{ .letter = 'q',
	  .flag = OPTS_FLAG(struct hand, quiet),
	  .help = "quietly",
	  .tags = 1 },
	{ OPTS_HELP_ROW(NULL, 'h'), .help = "this message", .tags = 1 | 2 },
	{ .letter = 'n',
	  .arg = required_argument,
	  .handle = on_rootid,
	  .value = "<rootid>",
	  .help = "a namespace",
	  .tags = 1 },
	{ .name = "perf",
	  .arg = optional_argument,
	  .tags = 4,
	  .line = " --perf[=<x>] <file>  verbatim" },
	{ .name = "perf-group",
	  .arg = required_argument,
	  .handle = on_group,
	  .value = "<group>",
	  .help = "a group",
	  .tags = 2 },
	{ OPTS_VERSION_ROW, .help = "the version", .tags = 2 },
};
#define NHAND (sizeof(hand_rows) / sizeof(hand_rows[0]))

START_TEST(find_takes_words_as_written)
{
	const char *v = "stale";

	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "-q", &v), &hand_rows[2]);
	ck_assert_ptr_null(v);
	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "-n", &v), &hand_rows[4]);
	ck_assert_ptr_null(v); /* -n's value is the next word */
	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "--perf", &v),
			 &hand_rows[5]);
	ck_assert_ptr_null(v);
	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "--perf=record", &v),
			 &hand_rows[5]);
	ck_assert_str_eq(v, "record");
	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "--perf-group=g", &v),
			 &hand_rows[6]);
	ck_assert_str_eq(v, "g");
	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "--perf-group=", &v),
			 &hand_rows[6]);
	ck_assert_str_eq(v, "");
	ck_assert_ptr_eq(opts_find(hand_rows, NHAND, "--version", &v),
			 &hand_rows[7]);
	/* No bundling, no abbreviation, no value where none is taken. */
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "-qv", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "--per", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "--perf-group", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "--version=1", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "-", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "q", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "--", &v));
	ck_assert_ptr_null(opts_find(hand_rows, NHAND, "", &v));
}
END_TEST

START_TEST(run_does_what_the_row_says)
{
	struct hand h;

	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(opts_run(&hand_prog, &hand_rows[2], &h, NULL),
			 OPTS_NEXT);
	ck_assert_int_eq(h.quiet, 1);
	ck_assert_int_eq(opts_run(&hand_prog, &hand_rows[4], &h, "7"),
			 OPTS_NEXT);
	ck_assert_str_eq(h.rootid, "7");
	/* A word the program acts on itself: nothing happens here. */
	ck_assert_int_eq(opts_run(&hand_prog, &hand_rows[0], &h, NULL),
			 OPTS_NEXT);
	ck_assert_int_eq(opts_run(&hand_prog, &hand_rows[3], &h, NULL), 3);
	ck_assert_int_eq(h.helped, 1);
}
END_TEST

/* --version's line on stdout, and the program's status when it cannot be written. */
START_TEST(version_row_prints_the_version)
{
	struct hand h;
	int status;

	memset(&h, 0, sizeof(h));
	stdout_divert("/dev/full");
	status = opts_run(&hand_prog, &hand_rows[7], &h, NULL);
	stdout_restore();
	ck_assert_int_eq(status, 9);
}
END_TEST

START_TEST(help_prints_lines_verbatim_and_formats_the_rest)
{
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);

	ck_assert_ptr_nonnull(mem);
	opts_help(mem, hand_rows, NHAND, " ", 12);
	fclose(mem);
	ck_assert_str_eq(out, " -r          remove\n"
			      " -           from stdin\n"
			      " -q          quietly\n"
			      " -h          this message\n"
			      " -n <rootid> a namespace\n"
			      " --perf[=<x>] <file>  verbatim\n"
			      " --perf-group=<group>  a group\n"
			      " --version   the version\n");
	free(out);
}
END_TEST

/* Parses line with hand_rows' rows tagged only; returns opts_parse(). */
static int parse_hand(struct opts_getopt *g, struct hand *h, int *status,
		      unsigned only, const char *line)
{
	static char buf[256];
	static char *argv[16];
	int argc = 0;
	char *w;

	strcpy(buf, line);
	for (w = strtok(buf, " "); w != NULL && argc < 15;
	     w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	memset(h, 0, sizeof(*h));
	ck_assert_int_eq(opts_build(g, &hand_prog, hand_rows, NHAND, only), 0);
	optind = 0;
	opterr = 0;
	return opts_parse(g, argc, argv, h, status);
}

START_TEST(build_keeps_only_the_tagged_rows)
{
	struct opts_getopt g;
	struct hand h;
	int status = 0;

	ck_assert_int_eq(parse_hand(&g, &h, &status, 1, "p -q -n 5 x"), 0);
	ck_assert_str_eq(g.shortopts, "qhn:");
	ck_assert_int_eq(h.quiet, 1);
	ck_assert_str_eq(h.rootid, "5");
	/* --version is tagged 2 only: unknown with 1. */
	ck_assert_int_eq(parse_hand(&g, &h, &status, 1, "p --version"), -1);
	ck_assert_ptr_null(opts_row(&g, OPTS_LONG_BASE + 7));
	ck_assert_int_eq(parse_hand(&g, &h, &status, 2, "p -q"), -1);
	ck_assert_int_eq(parse_hand(&g, &h, &status, 2, "p --perf-group=g -h"),
			 1);
	ck_assert_str_eq(h.group, "g");
	ck_assert_int_eq(h.helped, 1);
	ck_assert_int_eq(status, 3);
	/* Every row with 0; an optional value takes "::". */
	ck_assert_int_eq(opts_build(&g, &hand_prog, hand_rows, NHAND, 0), 0);
	ck_assert_str_eq(g.shortopts, "rqhn:");
}
END_TEST

static char *suggested(int flags, unsigned only, const char *word, int *ret)
{
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);

	ck_assert_ptr_nonnull(mem);
	*ret = opts_suggest(mem, "hand", word, hand_rows, NHAND, only, flags);
	fclose(mem);
	return out;
}

START_TEST(suggest_names_the_nearest_row)
{
	char *s;
	int ret;

	s = suggested(0, 0, "--perf-grup=x", &ret);
	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(
		s,
		"hand: unknown option '--perf-grup=x'; did you mean --perf-group=?\n");
	free(s);
	s = suggested(0, 0, "--pref", &ret);
	ck_assert_str_eq(
		s, "hand: unknown option '--pref'; did you mean --perf?\n");
	free(s);
	s = suggested(0, 0, "-qq", &ret);
	ck_assert_str_eq(s, "hand: unknown option '-qq'; did you mean -q?\n");
	free(s);
	/* Long spellings only: -q is no guess for a getopt "--word". */
	s = suggested(OPTS_SUGGEST_LONG, 0, "--q", &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(s, "hand: unknown option '--q'\n");
	free(s);
	/* Only the tagged rows: --version is tagged 2. */
	s = suggested(0, 1, "--versoin", &ret);
	ck_assert_int_eq(ret, 0);
	free(s);
	s = suggested(0, 2, "--versoin", &ret);
	ck_assert_str_eq(
		s,
		"hand: unknown option '--versoin'; did you mean --version?\n");
	free(s);
	/* No long help in the table: --help is a habit, answered with -h. */
	s = suggested(0, 0, "--hlep", &ret);
	ck_assert_str_eq(s,
			 "hand: unknown option '--hlep'; did you mean -h?\n");
	free(s);
	s = suggested(0, 0, "--usage", &ret);
	ck_assert_str_eq(s,
			 "hand: unknown option '--usage'; did you mean -h?\n");
	free(s);
	/* The user's word is escaped. */
	s = suggested(0, 0, "--x\033[2J", &ret);
	ck_assert_str_eq(s, "hand: unknown option '--x\\033[2J'\n");
	free(s);
}
END_TEST

START_TEST(suggest_getopt_adds_only_a_guess)
{
	struct opts_getopt g;
	char *out = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&out, &size);
	int said;

	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(opts_build(&g, &prog, rows, NROWS, 0), 0);
	said = opts_suggest_getopt(mem, &g, "--verbsoe");
	said += opts_suggest_getopt(mem, &g, "--fiel=x");
	said += opts_suggest_getopt(mem, &g, "--zzzzzz") * 10;
	said += opts_suggest_getopt(mem, &g, "-v") * 10;
	said += opts_suggest_getopt(mem, &g, "--") * 10;
	said += opts_suggest_getopt(mem, &g, NULL) * 10;
	/* A long help row exists: "--hlep" is no habit to answer with -h. */
	said += opts_suggest_getopt(mem, &g, "--qiuet");
	fclose(mem);
	ck_assert_int_eq(said, 3);
	ck_assert_str_eq(
		out,
		"prog: unknown option '--verbsoe'; did you mean --verbose?\n"
		"prog: unknown option '--fiel=x'; did you mean --file=?\n"
		"prog: unknown option '--qiuet'; did you mean --quiet?\n");
	free(out);
}
END_TEST

static Suite *opts_suite(void)
{
	Suite *s = suite_create("common_opts");
	TCase *tc = tcase_create("opts");

	tcase_add_test(tc, build_makes_getopt_arrays);
	tcase_add_test(tc, build_refuses_too_many_rows);
	tcase_add_test(tc, parse_runs_handlers_in_order);
	tcase_add_test(tc, stop_at_operand_leaves_the_command_its_options);
	tcase_add_test(tc, flag_rows_set_their_member);
	tcase_add_test(tc, parse_stops_where_a_handler_says);
	tcase_add_test(tc, parse_reports_the_bad_word);
	tcase_add_test(tc, parse_reports_the_bad_word_after_operands);
	tcase_add_test(tc, help_lists_rows_with_help);
	tcase_add_test(tc, find_takes_words_as_written);
	tcase_add_test(tc, run_does_what_the_row_says);
	tcase_add_test(tc, version_row_prints_the_version);
	tcase_add_test(tc, help_prints_lines_verbatim_and_formats_the_rest);
	tcase_add_test(tc, build_keeps_only_the_tagged_rows);
	tcase_add_test(tc, suggest_names_the_nearest_row);
	tcase_add_test(tc, suggest_getopt_adds_only_a_guess);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(opts_suite)
