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
	int quiet;		/* set by its row, no handler */
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
	{ .name = "verbose", .letter = 'v', .handle = on_verbose,
	  .help = "say more" },
	{ .name = "file", .arg = required_argument, .handle = on_file,
	  .value = "FILE", .help = "read FILE\nand nothing else" },
	{ .letter = 'f', .arg = required_argument, .handle = on_file,
	  .value = "NAME", .help = "the same, short" },
	{ .name = "stop", .handle = on_stop },
	{ .name = "quiet", .letter = 'q', .help = "no news",
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
	for (w = strtok(buf, " "); w != NULL && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(opts_build(g, &prog, rows, NROWS, 0), 0);
	optind = 0;		/* glibc: a full reset */
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
			       "prog -av --verbose --file=x -f y operand"), 0);
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
	opts_stop_at_operand(&g);		/* once is enough */
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
	ck_assert_str_eq(out,
		"  -v, --verbose  say more\n"
		"  --file=FILE    read FILE\n"
		"                 and nothing else\n"
		"  -f NAME        the same, short\n"
		"  -q, --quiet    no news\n"
		"\t-v, --verbose  say more\n");
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
	tcase_add_test(tc, help_lists_rows_with_help);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(opts_suite)
