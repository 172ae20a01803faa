/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Option tables for the programs: one row per option (long name, short
 * letter, argument, handler, help line), from which the parse (getopt_long()'s
 * array and optstring, or a hand parser's word lookup), the option list of
 * the usage text and the "did you mean" line are all produced, so no second
 * list has to be kept in step. --help and --version are rows of their own
 * (OPTS_HELP_ROW, OPTS_VERSION_ROW) that every program's table holds.
 */
#ifndef COMMON_OPTS_H
#define COMMON_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* A handler's "carry on with the next option". */
#define OPTS_NEXT (-1)

/* What a row does when it is given, besides a handler or a flag. */
enum opts_action {
	OPTS_RUN,	 /* its handler, or its flag, or nothing */
	OPTS_DO_HELP,	 /* the program's usage text (opts_prog.help) */
	OPTS_DO_VERSION, /* version_print() of the program's name */
};

/*
 * One option. At least one of name and letter is set, except in a row
 * that only carries a usage line (line set, nothing else): prose between
 * the options of a usage text kept in table order. The handler gets the
 * program's struct opts and the option's value (NULL for no_argument, or
 * for an optional_argument given without one); it returns OPTS_NEXT, or
 * an exit status that ends the run. A plain switch needs no handler:
 * OPTS_FLAG names the int member of the program's struct opts that it
 * sets to 1. A row with neither is a word the table knows (for usage and
 * hints) that the program's parser acts on itself (setcap's -r).
 */
struct opt {
	const char *name; /* long name without "--", or NULL */
	int letter;	  /* short option letter, or 0 */
	int arg; /* no_argument, required_argument, optional_argument */
	int (*handle)(void *opts, const char *arg);
	const char *value; /* the argument's name in the help ("PATH") */
	/*
	 * The help text, formatted by opts_help() ("  --name=VALUE  text");
	 * a '\n' starts a continuation line under the text. NULL, with line
	 * NULL too, leaves the option out of the list (options a program's
	 * synopsis or prose describes).
	 */
	const char *help;
	size_t flag; /* OPTS_FLAG(), with a NULL handler */
	/*
	 * The usage line(s) printed as they are, without the last newline,
	 * instead of a formatted help: libcap's text, which no formatting of
	 * ours reproduces byte for byte, stays beside the option it lists.
	 */
	const char *line;
	enum opts_action action;
	unsigned tags; /* the program's own marks (opts_build's only) */
};

/* The offset of an int member, plus one so that 0 means "none". */
#define OPTS_FLAG(type, member) (offsetof(type, member) + 1)

/*
 * The common rows, completed by the program's help text or line. libcap's
 * programs spell help differently (getcap and setcap: -h only; getpcaps
 * also --usage), so the help row names its own spellings.
 */
#define OPTS_HELP_ROW(long_name, short_letter)                             \
	.name = (long_name), .letter = (short_letter), .arg = no_argument, \
	.action = OPTS_DO_HELP
#define OPTS_VERSION_ROW \
	.name = "version", .arg = no_argument, .action = OPTS_DO_VERSION

/* What the common rows need to know about the program. */
struct opts_prog {
	const char *name; /* "getcap", as --version prints it */
	/* Prints the usage text for --help; returns the exit status. */
	int (*help)(void *opts);
	/* The exit status when --version's line cannot be written. */
	int version_fail;
};

/*
 * Does what row asks (action, handler or flag) on opts with the value
 * arg. Returns OPTS_NEXT to carry on, or the exit status that ends the run.
 */
int opts_run(const struct opts_prog *p, const struct opt *row, void *opts,
	     const char *arg);

/* Long options get getopt_long() values no short option can have. */
#define OPTS_LONG_BASE 256
#define OPTS_MAX       32

/* getopt_long()'s view of a table, built by opts_build(). */
struct opts_getopt {
	const struct opts_prog *prog;
	const struct opt *rows;
	size_t n;
	unsigned only; /* opts_build()'s: the rows getopt knows */
	struct option longopts[OPTS_MAX + 1];
	/* [+] letters, ":" or "::" after one taking a value */
	char shortopts[3 * OPTS_MAX + 2];
	int word; /* after an error: argv index of the word getopt read */
};

/*
 * Fills g from the rows of rows[0..n) that carry a tag of only (every row
 * when only is 0): long options in table order (getopt lists an ambiguous
 * abbreviation's candidates in that order), short letters in table
 * order. Returns 0, or -1 when n exceeds OPTS_MAX.
 */
int opts_build(struct opts_getopt *g, const struct opts_prog *p,
	       const struct opt *rows, size_t n, unsigned only);

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
 * Parses argv from optind with getopt_long() and runs each option's row
 * (opts_run()) on opts. Returns 0 when the options are done (optind is at
 * the first operand), 1 when a row ended the run (*status is the exit
 * status it chose), or -1 at an unknown option or a missing or unwanted
 * argument: getopt's own message (unless opterr is 0) is out and the
 * caller says the rest; optopt is what getopt set, and g->word the index
 * in argv of the word it was reading (optind may have moved past it).
 */
int opts_parse(struct opts_getopt *g, int argc, char **argv, void *opts,
	       int *status);

/*
 * For the programs that parse by hand, a word at a time, as libcap's
 * setcap, getpcaps and capsh do: the row word is, or NULL. "-x" is the
 * row of letter x (its value, if any, is the next word: the caller's);
 * "--name" a row without a required value; "--name=VALUE" a row that
 * takes one, *value pointing at VALUE (else *value is NULL).
 */
const struct opt *opts_find(const struct opt *rows, size_t n, const char *word,
			    const char **value);

/*
 * The option list of a usage text: for each row with a line, the line;
 * for each other row with help, indent, the label ("-x, --one-file-system",
 * "--exclude=PATH", "-c FILE") padded to width columns (or followed by
 * two spaces when longer), then the help; continuation lines are indented
 * to the help's column.
 */
void opts_help(FILE *out, const struct opt *rows, size_t n, const char *indent,
	       int width);

/* opts_suggest()'s flags. */
#define OPTS_SUGGEST_LONG 1 /* long spellings only (getopt programs) */

/*
 * The "did you mean" line for word, an option no row has, from the rows
 * carrying a tag of only (all when 0): the nearest spelling ("--name",
 * "--name=" when it takes a value, "-x" unless OPTS_SUGGEST_LONG) by
 * suggest_nearest(). A table whose help row has a letter but no long
 * name (libcap's getcap and setcap: -h) answers "--help" and "--usage",
 * habits rather than typos, with that letter. Always prints the line
 * ("<prog>: unknown option '<word>'" and the guess, if any); returns 1
 * when it named a guess.
 */
int opts_suggest(FILE *out, const char *prog, const char *word,
		 const struct opt *rows, size_t n, unsigned only, int flags);

/*
 * opts_suggest() over the rows getopt knew, for the word it refused, but
 * only a "--word" (getopt names a short letter itself) and only when a
 * guess is near: otherwise getopt's own line named the word already.
 * Returns 1 when printed.
 */
int opts_suggest_getopt(FILE *out, const struct opts_getopt *g,
			const char *word);

#endif
