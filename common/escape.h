/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Terminal-safe text for the output of our additions (getcap --audit,
 * capcheck, perfdoctor, ...). File names, user names and config text come
 * from people who may be attackers: an ESC sequence can rewrite the screen,
 * a newline can forge a whole line ("x\n/usr/bin/fake cap_sys_admin=ep"),
 * a CR or a bidi override can hide the end of one. libcap's own output
 * formats stay as libcap prints them; everything we add goes through here.
 */
#ifndef COMMON_ESCAPE_H
#define COMMON_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Writes s to out, every byte a terminal could act on as a \ooo octal
 * escape: C0 controls, DEL, the backslash itself (so the form is
 * unambiguous), bytes that are not valid UTF-8, and the UTF-8 encodings
 * of C1 controls (U+0080..U+009F), line and paragraph separators and
 * bidirectional controls. Printable ASCII and other valid UTF-8 pass
 * through unchanged.
 */
void escape_fputs(const char *s, FILE *out);

/* The same, into a new string; caller frees with free(). NULL: ENOMEM. */
char *escape_dup(const char *s);

/* 1 when escape_fputs() would print s unchanged. */
int escape_is_clean(const char *s);

/*
 * 1 when every byte of s is one a terminal shows as it is: escape_is_clean()
 * but for backslashes, which are plain text on a terminal (escape_fputs()
 * escapes them only so that its own \ooo form stays unambiguous).
 */
int escape_is_shown_as_is(const char *s);

/*
 * One line of output: prefix as it is (the program's own text), then the
 * printf-formatted text escaped as by escape_fputs(), then a newline; so
 * names formatted into a message cannot forge or hide a line. Returns 0,
 * or -1 with errno from vasprintf(), ENOMEM (nothing is written then).
 */
int escape_line(FILE *out, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int escape_vline(FILE *out, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
