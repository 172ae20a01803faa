/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Option tables: getopt_long()'s arrays and the usage text's option list from one table. */
#include <string.h>

#include "opts.h"

int opts_build(struct opts_getopt *g, const struct opt *rows, size_t n)
{
	size_t i, nl = 0, ns = 0;

	memset(g, 0, sizeof(*g));
	if (n > OPTS_MAX)
		return -1;
	g->rows = rows;
	g->n = n;
	for (i = 0; i < n; i++) {
		int val = rows[i].letter ? rows[i].letter
					 : OPTS_LONG_BASE + (int)i;

		if (rows[i].name != NULL) {
			g->longopts[nl].name = rows[i].name;
			g->longopts[nl].has_arg = rows[i].arg;
			g->longopts[nl].flag = NULL;
			g->longopts[nl].val = val;
			nl++;
		}
		if (rows[i].letter) {
			g->shortopts[ns++] = (char)rows[i].letter;
			if (rows[i].arg == required_argument)
				g->shortopts[ns++] = ':';
		}
	}
	return 0;
}

void opts_stop_at_operand(struct opts_getopt *g)
{
	size_t len = strlen(g->shortopts);

	/* shortopts has room: two bytes a row at most, then '+' and NUL. */
	if (g->shortopts[0] != '+') {
		memmove(g->shortopts + 1, g->shortopts, len + 1);
		g->shortopts[0] = '+';
	}
}

const struct opt *opts_row(const struct opts_getopt *g, int val)
{
	size_t i;

	if (val >= OPTS_LONG_BASE)
		return (size_t)(val - OPTS_LONG_BASE) < g->n ?
		       &g->rows[val - OPTS_LONG_BASE] : NULL;
	for (i = 0; val > 0 && i < g->n; i++)
		if (g->rows[i].letter == val)
			return &g->rows[i];
	return NULL;
}

int opts_parse(struct opts_getopt *g, int argc, char **argv,
	       void *opts, int *status)
{
	for (;;) {
		int before = optind, c, rc;
		const struct opt *row;

		c = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
		if (c == -1)
			return 0;
		row = c == '?' ? NULL : opts_row(g, c);
		if (row == NULL) {
			g->word = before;
			return -1;
		}
		if (row->handle == NULL) {
			*(int *)(void *)((char *)opts + row->flag - 1) = 1;
			continue;
		}
		rc = row->handle(opts, optarg);
		if (rc != OPTS_NEXT) {
			*status = rc;
			return 1;
		}
	}
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

void opts_help(FILE *out, const struct opt *rows, size_t n,
	       const char *indent, int width)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p;
		char label[128];
		int len;

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
