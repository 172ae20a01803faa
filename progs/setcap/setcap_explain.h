/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* setcap's additions: lines printed after libcap's own messages, never instead. */
#ifndef SETCAP_EXPLAIN_H
#define SETCAP_EXPLAIN_H

#include <sys/capability.h>

/* Names the clause, and within it the capability name, that cap_from_text refused. */
void explain_text(const char *text);

/* Names the real cause of a failed cap_set_file(file, caps) with errno err. */
void explain_set_error(const char *file, int err, cap_t caps);

/*
 * After libcap 2.76's effective-set error: names the capabilities that
 * break "E empty or E = P | I"; forced says -f lets the write go on.
 */
void explain_effective(const char *file, cap_t caps, int forced);

/* Says why raising CAP_SETFCAP failed. */
void explain_no_setfcap(void);

/* Warns about capabilities in caps that the running kernel does not know. */
void warn_above_kernel(const char *file, cap_t caps);

/*
 * setcap_suggest.c: for an argument that starts with '-' and is no option,
 * "setcap: unknown option '<word>'" and the nearest option.
 */
void suggest_option(const char *word);

#endif
