/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A reason, written into the caller's buffer (why.h). */
#include <stdarg.h>
#include <stdio.h>

#include "why.h"

void why_say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}
