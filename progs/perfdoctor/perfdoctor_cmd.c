/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's fixes as command lines a person pastes into a shell. The
 * names in them come from the file system and the user database, where
 * anyone may have chosen them: every operand goes through shquote, so a
 * name such as "a;touch${IFS}x;#" arrives as one argument and nothing
 * else runs. A name shquote refuses, or a line that would not fit, gives
 * a fix in words that says why, never a command cut short.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdoctor.h"
#include "shquote.h"

void cmd_init(struct cmd *c)
{
	c->text[0] = c->why[0] = '\0';
	c->len = 0;
}

/* Our own text, as it is. */
void cmd_lit(struct cmd *c, const char *s)
{
	size_t n = strlen(s);

	if (c->why[0] != '\0')
		return;
	if (c->len + n >= sizeof(c->text)) {
		/* Never a command cut short: it would run something else. */
		put(c->why, sizeof(c->why),
		    "no command printed: it would be longer than %zu bytes",
		    sizeof(c->text) - 1);
		return;
	}
	memcpy(c->text + c->len, s, n + 1);
	c->len += n;
}

/* One operand, quoted for the shell; what says what it is, for the why. */
void cmd_word(struct cmd *c, const char *what, const char *word)
{
	char *q;

	if (c->why[0] != '\0')
		return;
	q = shquote_dup(word);
	if (q == NULL) {
		if (errno == EILSEQ)
			put(c->why, sizeof(c->why),
			    "no command printed: the %s '%s' holds characters a terminal would not show as they are",
			    what, word);
		else
			put(c->why, sizeof(c->why), "no command printed: %s",
			    strerror(errno));
		return;
	}
	cmd_lit(c, q);
	free(q);
}

/* A name after a command's options: "--" first if it looks like one. */
void cmd_name(struct cmd *c, const char *what, const char *name)
{
	if (name[0] == '-')
		cmd_lit(c, "-- ");
	cmd_word(c, what, name);
}

/* A file operand that no command can take for an option. */
void cmd_path(struct cmd *c, const char *what, const char *path)
{
	char buf[4200];

	if (path[0] != '-') {
		cmd_word(c, what, path);
		return;
	}
	put(buf, sizeof(buf), "./%s", path);
	cmd_word(c, what, buf);
}

/* The command (or, if it could not be one, its why) as a fix of v. */
void cmd_add(struct verdict *v, const struct cmd *c, const char *note)
{
	struct fix f;

	memset(&f, 0, sizeof(f));
	if (c->why[0] != '\0') {
		put(f.text, sizeof(f.text), "%s", c->why);
	} else {
		memcpy(f.text, c->text, c->len + 1);
		put(f.note, sizeof(f.note), "%s", note != NULL ? note : "");
		f.is_command = 1;
	}
	add_fix_once(v, &f);
}

/* Did every fix of v come out as a command? */
int fixes_all_commands(const struct verdict *v)
{
	int i;

	for (i = 0; i < v->nfixes; i++)
		if (!v->fixes[i].is_command)
			return 0;
	return 1;
}

/*
 * The steps of one fix, into to: all of them when each is a command;
 * otherwise only the reasons why not, since the other steps alone would
 * not do (a setcap restricting perf to a group the user cannot be
 * added to locks the user out).
 */
void commit_fixes(struct verdict *to, const struct verdict *from)
{
	int i, whole = fixes_all_commands(from);

	for (i = 0; i < from->nfixes; i++)
		if (whole || !from->fixes[i].is_command)
			add_fix_once(to, &from->fixes[i]);
}

/*
 * The text for GNU sed's one-line "i", "a" and "c": its backslashes
 * doubled, since sed reads escapes there. No newline can be in it (the
 * callers' lines come from tokens or names shquote accepts).
 */
int sed_text(char *out, size_t len, const char *in)
{
	size_t used = 0;

	for (; *in != '\0'; in++) {
		if (used + 3 > len)
			return -1;
		if (*in == '\\')
			out[used++] = '\\';
		out[used++] = *in;
	}
	out[used] = '\0';
	return 0;
}

/* A line appended to file: sed's "$a" keeps a last line without newline. */
void cmd_append(struct cmd *c, const char *line, const char *file,
		int has_lines)
{
	char script[2200], esc[2100];

	if (!has_lines) {
		cmd_lit(c, "printf '%s\\n' ");
		cmd_word(c, "line", line);
		cmd_lit(c, " >> ");
		cmd_path(c, "file name", file);
		return;
	}
	if (sed_text(esc, sizeof(esc), line) < 0) {
		put(c->why, sizeof(c->why),
		    "no command printed: the line would be too long");
		return;
	}
	put(script, sizeof(script), "$a %s", esc);
	cmd_lit(c, "sed -i ");
	cmd_word(c, "line", script);
	cmd_lit(c, " ");
	cmd_path(c, "file name", file);
}
