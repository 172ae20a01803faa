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

#endif
