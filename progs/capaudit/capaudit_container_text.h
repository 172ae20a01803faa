/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: the grant in a container, as text. */
#ifndef CAPAUDIT_CONTAINER_TEXT_H
#define CAPAUDIT_CONTAINER_TEXT_H

#include <stdio.h>

struct container_context;
struct container_flags;
struct suggestion;

/*
 * The flags as one line for a POSIX shell, each word quoted as
 * shquote.h quotes an operand: 0, or -1 with errno (EILSEQ: a word a
 * terminal would not show as it is; ENOMEM), having written nothing.
 */
int container_flags_fputs(const struct container_flags *f, FILE *out);
/* The securityContext as YAML, every string double-quoted. */
void container_context_fputs(const struct container_context *k, FILE *out);
/* sg->container's lines, after the systemd unit's. */
void container_print(const struct suggestion *sg, FILE *out);

#endif
