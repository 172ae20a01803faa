/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Option tables: the parse, the usage text's option list and the hints from one table. */
#include <string.h>

#include "opts.h"
#include "suggest.h"
#include "version.h"

int opts_run(const struct opts_prog *p, const struct opt *row, void *opts,
	     const char *arg)
{
	switch (row->action) {
	case OPTS_DO_HELP:
		return p->help(opts);
	case OPTS_DO_VERSION:
		return version_print(p->name) == 0 ? 0 : p->version_fail;
	case OPTS_RUN:
		break;
	}
	if (row->handle != NULL)
		return row->handle(opts, arg);
	if (row->flag != 0)
		*(int *)(void *)((char *)opts + row->flag - 1) = 1;
	return OPTS_NEXT;
}

static int wanted(const struct opt *r, unsigned only)
{
	return only == 0 || (r->tags & only) != 0;
}

int opts_build(struct opts_getopt *g, const struct opts_prog *p,
	       const struct opt *rows, size_t n, unsigned only)
{
	size_t i, nl = 0, ns = 0;

	memset(g, 0, sizeof(*g));
	if (n > OPTS_MAX)
		return -1;
	g->prog = p;
	g->rows = rows;
	g->n = n;
	g->only = only;
	for (i = 0; i < n; i++) {
		int val = rows[i].letter ? rows[i].letter
					 : OPTS_LONG_BASE + (int)i;

		if (!wanted(&rows[i], only))
			continue;
		if (rows[i].name != NULL) {
			g->longopts[nl].name = rows[i].name;
			g->longopts[nl].has_arg = rows[i].arg;
			g->longopts[nl].flag = NULL;
			g->longopts[nl].val = val;
			nl++;
		}
		if (rows[i].letter) {
			g->shortopts[ns++] = (char)rows[i].letter;
			if (rows[i].arg != no_argument)
				g->shortopts[ns++] = ':';
			if (rows[i].arg == optional_argument)
				g->shortopts[ns++] = ':';
		}
	}
	return 0;
}

void opts_stop_at_operand(struct opts_getopt *g)
{
	size_t len = strlen(g->shortopts);

	/* shortopts has room: three bytes a row at most, then '+' and NUL. */
	if (g->shortopts[0] != '+') {
		memmove(g->shortopts + 1, g->shortopts, len + 1);
		g->shortopts[0] = '+';
	}
}

const struct opt *opts_row(const struct opts_getopt *g, int val)
{
	size_t i;

	if (val >= OPTS_LONG_BASE)
		return (size_t)(val - OPTS_LONG_BASE) < g->n &&
				       wanted(&g->rows[val - OPTS_LONG_BASE],
					      g->only)
			       ? &g->rows[val - OPTS_LONG_BASE]
			       : NULL;
	for (i = 0; val > 0 && i < g->n; i++)
		if (g->rows[i].letter == val && wanted(&g->rows[i], g->only))
			return &g->rows[i];
	return NULL;
}

/*
 * The index of the word getopt_long() was reading when it failed. It
 * skips operands to reach an option after them, so optind before the
 * call says nothing. It moves past every word it has read, except a
 * cluster of short options ("-Qr") that still has letters after the bad
 * one. (For "-Q -xQ" that test names the later cluster; the callers show
 * the word of a long option only, and letters by optopt.)
 */
static int failed_word(int argc, char **argv)
{
	const char *w = optind < argc ? argv[optind] : NULL;

	if (w != NULL && w[0] == '-' && w[1] != '-' && optopt > 0 &&
	    optopt < 256 && strchr(w + 1, optopt) != NULL)
		return optind;
	return optind - 1;
}

int opts_parse(struct opts_getopt *g, int argc, char **argv, void *opts,
	       int *status)
{
	for (;;) {
		int c, rc;
		const struct opt *row;

		c = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
		if (c == -1)
			return 0;
		row = c == '?' || c == ':' ? NULL : opts_row(g, c);
		if (row == NULL) {
			g->word = failed_word(argc, argv);
			return -1;
		}
		rc = opts_run(g->prog, row, opts, optarg);
		if (rc != OPTS_NEXT) {
			*status = rc;
			return 1;
		}
	}
}

const struct opt *opts_find(const struct opt *rows, size_t n, const char *word,
			    const char **value)
{
	size_t i;

	*value = NULL;
	if (word[0] != '-')
		return NULL;
	for (i = 0; i < n; i++) {
		const struct opt *r = &rows[i];
		size_t len;

		if (r->letter && word[1] == r->letter && word[2] == '\0')
			return r;
		if (r->name == NULL || word[1] != '-')
			continue;
		len = strlen(r->name);
		if (strncmp(word + 2, r->name, len) != 0)
			continue;
		if (word[2 + len] == '\0' && r->arg != required_argument)
			return r;
		if (word[2 + len] == '=' && r->arg != no_argument) {
			*value = word + 3 + len;
			return r;
		}
	}
	return NULL;
}

/* "-x, --name=VALUE", "--name=VALUE" or "-x VALUE" into buf. */
static void format_label(const struct opt *r, char *buf, size_t size)
{
	char letter[8] = "", name[96] = "";

	if (r->letter)
		snprintf(letter, sizeof(letter), "-%c", r->letter);
	if (r->name != NULL)
		snprintf(name, sizeof(name), "--%s%s%s", r->name,
			 r->value != NULL ? "=" : "",
			 r->value != NULL ? r->value : "");
	if (r->letter && r->name != NULL)
		snprintf(buf, size, "%s, %s", letter, name);
	else if (r->name != NULL)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s%s%s", letter,
			 r->value != NULL ? " " : "",
			 r->value != NULL ? r->value : "");
}

void opts_help(FILE *out, const struct opt *rows, size_t n, const char *indent,
	       int width)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p;
		char label[128];
		int len;

		if (rows[i].line != NULL) {
			fprintf(out, "%s\n", rows[i].line);
			continue;
		}
		if (rows[i].help == NULL)
			continue;
		format_label(&rows[i], label, sizeof(label));
		len = (int)strlen(label);
		fprintf(out, "%s%s%*s", indent, label,
			len < width ? width - len : 2, "");
		for (p = rows[i].help; *p != '\0';) {
			size_t line = strcspn(p, "\n");

			fwrite(p, 1, line, out);
			fputc('\n', out);
			p += line;
			if (*p == '\n') {
				p++;
				fprintf(out, "%s%*s", indent, width, "");
			}
		}
	}
}

/* Every spelling of an option, "--name=" for one taking a value: up to
 * three a row ("--perf", "--perf=", "-p"). */
#define SPELLINGS (3 * OPTS_MAX)

struct spellings {
	char store[SPELLINGS][SUGGEST_MAX_LEN + 1];
	const char *words[SPELLINGS];
	size_t n;
};

/* "<dashes><word><tail>" as one more spelling, unless too long to be typed. */
static void add_spelling(struct spellings *s, const char *dashes,
			 const char *word, const char *tail)
{
	int len;

	if (s->n == SPELLINGS)
		return;
	len = snprintf(s->store[s->n], sizeof(s->store[0]), "%s%s%s", dashes,
		       word, tail);
	if (len > 0 && (size_t)len < sizeof(s->store[0])) {
		s->words[s->n] = s->store[s->n];
		s->n++;
	}
}

/*
 * The answer for word, or NULL: "--help" and "--usage" are habits, not
 * typos, and get the help row's letter where the table has no long help;
 * else the nearest spelling.
 */
static const char *guess(const char *word, const struct opt *rows, size_t n,
			 unsigned only, int flags, struct spellings *s,
			 char *habit)
{
	static const char *const habits[] = { "--help", "-help", "--usage" };
	const struct opt *help = NULL;
	size_t i;

	s->n = 0;
	for (i = 0; i < n; i++) {
		const struct opt *r = &rows[i];
		char letter[2] = { (char)r->letter, '\0' };

		if (!wanted(r, only) || (r->name == NULL && !r->letter))
			continue;
		if (r->action == OPTS_DO_HELP &&
		    (help == NULL || help->name == NULL))
			help = r;
		if (r->name != NULL && r->arg != required_argument)
			add_spelling(s, "--", r->name, "");
		if (r->name != NULL && r->arg != no_argument)
			add_spelling(s, "--", r->name, "=");
		if (r->letter && !(flags & OPTS_SUGGEST_LONG))
			add_spelling(s, "-", letter, "");
	}
	if (help != NULL && help->name == NULL && help->letter &&
	    suggest_nearest(word, habits, sizeof(habits) / sizeof(habits[0])) !=
		    NULL) {
		habit[0] = '-';
		habit[1] = (char)help->letter;
		habit[2] = '\0';
		return habit;
	}
	return suggest_nearest(word, s->words, s->n);
}

int opts_suggest(FILE *out, const char *prog, const char *word,
		 const struct opt *rows, size_t n, unsigned only, int flags)
{
	struct spellings s;
	char habit[3];

	return suggest_say(out, prog, "option", word,
			   guess(word, rows, n, only, flags, &s, habit));
}

int opts_suggest_getopt(FILE *out, const struct opts_getopt *g,
			const char *word)
{
	struct spellings s;
	char habit[3];
	const char *near;

	if (word == NULL || strncmp(word, "--", 2) != 0 || word[2] == '\0')
		return 0;
	near = guess(word, g->rows, g->n, g->only, OPTS_SUGGEST_LONG, &s,
		     habit);
	if (near == NULL)
		return 0;
	return suggest_say(out, g->prog->name, "option", word, near);
}
