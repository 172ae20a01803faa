/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Words for a person to paste into a POSIX shell. Our programs print
 * commands to run as fixes ("setcap cap_net_raw=ep /usr/bin/ping",
 * "usermod -aG perf_users alice"); the names in them come from the file
 * system and the user database, where anyone may have chosen them. A path
 * such as "ch;touch${IFS}x;#" printed as it is makes the pasted line run
 * more than it says. Every operand of such a line goes through here.
 */
#ifndef COMMON_SHQUOTE_H
#define COMMON_SHQUOTE_H

#include <stdio.h>

/*
 * Writes s to out as one shell word that the POSIX shell (and bash, zsh,
 * interactive or not) reads back as exactly s, with no expansion: s as it
 * is when it is not empty and every byte is in [A-Za-z0-9_@%+=:,./-];
 * otherwise inside single quotes, each ' written as '\''. Meant for
 * operands: a bare word in command position that looks like an
 * assignment ("a=b") is the caller's concern.
 *
 * Returns 0, or -1 with errno EILSEQ, writing nothing, when s holds
 * anything a terminal would not show as it is (control characters, bytes
 * that are not UTF-8, bidirectional controls: escape_is_shown_as_is()):
 * a word cannot be both pasted back exactly and shown safely, so such a
 * name never appears in a command line. The caller says so instead.
 */
int shquote_fputs(const char *s, FILE *out);

/* The same word as a new string; caller frees with free(). NULL with
 * errno EILSEQ (as above) or ENOMEM. */
char *shquote_dup(const char *s);

/*
 * The same word for a name inside a line of words, which is printed
 * escaped (say(), escape.h: a backslash comes out as \134): each '
 * written as '"'"', so that the quoting holds no backslash for that to
 * change, and the name's own backslashes stay inside single quotes,
 * where \134 expands to nothing. A person who pastes the whole line runs
 * nothing it names. NULL as shquote_dup(). For a command printed as it
 * is, shquote_dup().
 */
char *shquote_words_dup(const char *s);

/* 1 when shquote_fputs() would write s without quotes. */
int shquote_is_bare(const char *s);

/*
 * A file operand: path as one word naming the same file that no command
 * takes for an option ("-rf" is "./-rf", as "chown root -rf" would read
 * options), quoted as by shquote_dup(). Caller frees with free(). NULL
 * with errno EILSEQ (as shquote_dup()) or ENOMEM.
 */
char *shquote_path_dup(const char *path);

/*
 * The reason to give, in place of the command, for a name shquote
 * refused; the message names it through escape.h.
 */
#define SHQUOTE_UNSHOWN                           \
	"no command is shown, as the name holds " \
	"characters a terminal would not show as they are"

#endif
