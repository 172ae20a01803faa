/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Option tables for the programs that parse with getopt_long(): one row
 * per option (long name, short letter, argument, handler, help line), from
 * which getopt_long()'s array and optstring and the option list of the
 * usage text are all produced, so no second list has to be kept in step.
 */
#ifndef COMMON_OPTS_H
#define COMMON_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* A handler's "carry on with the next option". */
#define OPTS_NEXT	(-1)

/*
 * One option. At least one of name and letter is set. The handler gets
 * the program's struct opts and optarg (NULL for no_argument); it returns
 * OPTS_NEXT, or an exit status that ends the run (--help, --version). A
 * plain switch needs no handler: OPTS_FLAG names the int member of the
 * program's struct opts that it sets to 1.
 */
struct opt {
	const char *name;	/* long name without "--", or NULL */
	int letter;		/* short option letter, or 0 */
	int arg;		/* no_argument or required_argument */
	int (*handle)(void *opts, const char *arg);
	const char *value;	/* the argument's name in the help ("PATH") */
	/*
	 * The help text, NULL to leave the option out of the list (libcap's
	 * options, which its own usage text describes); a '\n' starts a
	 * continuation line under the text.
	 */
	const char *help;
	size_t flag;		/* OPTS_FLAG(), with a NULL handler */
};

/* The offset of an int member, plus one so that 0 means "none". */
#define OPTS_FLAG(type, member)	(offsetof(type, member) + 1)

/* Long options get getopt_long() values no short option can have. */
#define OPTS_LONG_BASE	256
#define OPTS_MAX	32

/* getopt_long()'s view of a table, built by opts_build(). */
struct opts_getopt {
	const struct opt *rows;
	size_t n;
	struct option longopts[OPTS_MAX + 1];
	char shortopts[2 * OPTS_MAX + 2];	/* [+] letters, ":" after one taking a value */
	int word;	/* after an error: argv index of the word getopt read */
};

/*
 * Fills g from rows[0..n): long options in table order (getopt lists an
 * ambiguous abbreviation's candidates in that order), short letters in
 * table order. Returns 0, or -1 when n exceeds OPTS_MAX.
 */
int opts_build(struct opts_getopt *g, const struct opt *rows, size_t n);

/*
 * Makes getopt stop at the first operand (a leading '+'), for a program
 * that runs a command whose own options follow: capaudit ls -l.
 */
void opts_stop_at_operand(struct opts_getopt *g);

/*
 * The row getopt_long() names by val (its return value, or optopt after
 * an error); NULL for '?' or a letter no row has.
 */
const struct opt *opts_row(const struct opts_getopt *g, int val);

/*
 * Parses argv from optind with getopt_long() and runs each option's
 * handler on opts. Returns 0 when the options are done (optind is at the
 * first operand), 1 when a handler ended the run (*status is the exit
 * status it chose), or -1 at an unknown option or a missing or unwanted
 * argument: getopt's own message (unless opterr is 0) is out and the
 * caller says the rest; optopt is what getopt set, and g->word the index
 * in argv of the word it was reading (optind may have moved past it).
 */
int opts_parse(struct opts_getopt *g, int argc, char **argv,
	       void *opts, int *status);

/*
 * The option list of a usage text: for each row with help, indent, the
 * label ("-x, --one-file-system", "--exclude=PATH", "-c FILE") padded to
 * width columns (or followed by two spaces when longer), then the help;
 * continuation lines are indented to the help's column.
 */
void opts_help(FILE *out, const struct opt *rows, size_t n,
	       const char *indent, int width);

#endif
