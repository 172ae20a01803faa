/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The one printer of our programs' own lines (say.h). */
#define _GNU_SOURCE /* vasprintf */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "say.h"

/*
 * The program's status for a line it could not print. Written once by
 * main() before any thread starts, read only on the way out: no lock.
 */
static int nomem_status = EXIT_FAILURE;

void say_exit_status(int status)
{
	nomem_status = status;
}

void vsay_tail(FILE *out, const char *prefix, const char *tail, const char *fmt,
	       va_list ap)
{
	char *text = NULL;

	if (vasprintf(&text, fmt, ap) < 0) {
		/* a line cut or left out could mislead: none, and the end */
		int err = errno;

		fflush(out);
		errno = err;
		warn(NULL);
		exit(nomem_status);
	}
	fputs(prefix, out);
	escape_fputs(text, out);
	fputs(tail, out);
	fputc('\n', out);
	free(text);
}

void say_tail(FILE *out, const char *prefix, const char *tail, const char *fmt,
	      ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay_tail(out, prefix, tail, fmt, ap);
	va_end(ap);
}

void say(FILE *out, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay_tail(out, prefix, "", fmt, ap);
	va_end(ap);
}

void say_errno(FILE *out, const char *prefix, int err, const char *fmt, ...)
{
	char tail[256];
	va_list ap;

	snprintf(tail, sizeof(tail), ": %s", strerror(err));
	va_start(ap, fmt);
	vsay_tail(out, prefix, tail, fmt, ap);
	va_end(ap);
}
