/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A reason, written into the caller's buffer for the message it prints. */
#ifndef COMMON_WHY_H
#define COMMON_WHY_H

#include <stddef.h>

/* printf(3)'s format into why (len bytes), cut to fit. */
void why_say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
