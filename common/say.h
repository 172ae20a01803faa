/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * How our programs print a message of their own (capmanifest, perfdoctor,
 * capcheck, capaudit, and the lines setcap, getcap and capsh add to
 * libcap's): one line, the program's prefix as it is ("capcheck: "), then
 * the printf-formatted text with every byte a terminal could act on
 * escaped (escape.h: file, user and group names and configuration text
 * come from people who may be attackers, and a newline or an ESC
 * sequence in them must not forge or hide a line), then a newline. A
 * failure carries its errno: say_errno(), or "%s" and strerror().
 *
 * Not for libcap's programs' own lines (setcap, getcap, getpcaps and
 * capsh print what libcap prints, byte for byte), nor for pam_cap (it
 * logs through pam_syslog(), and a module never ends its caller), nor in
 * the libraries (which never print).
 */
#ifndef COMMON_SAY_H
#define COMMON_SAY_H

#include <stdarg.h>
#include <stdio.h>

/*
 * A line that cannot be made (out of memory: nothing of it is written)
 * ends the program, after "PROGRAM: Cannot allocate memory" on stderr,
 * with this status: EXIT_FAILURE unless the program documents another
 * for it (perfdoctor: 2). Set once in main(), before any thread starts.
 */
void say_exit_status(int status);

/* prefix as it is, fmt's text escaped, a newline. */
void say(FILE *out, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The same with tail as it is after the escaped text: text a person
 * copies (a capability.conf token, a command line quoted by shquote.h),
 * which the caller has checked a terminal shows as it is, and which
 * escaping would change.
 */
void say_tail(FILE *out, const char *prefix, const char *tail, const char *fmt,
	      ...) __attribute__((format(printf, 4, 5)));
void vsay_tail(FILE *out, const char *prefix, const char *tail, const char *fmt,
	       va_list ap) __attribute__((format(printf, 4, 0)));

/* say(), then ": " and strerror(err): a failure and its errno. */
void say_errno(FILE *out, const char *prefix, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
