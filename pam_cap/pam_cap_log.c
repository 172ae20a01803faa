/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* pam_cap.so's syslog lines, with every name and token escaped. */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

#include <security/pam_ext.h>

#include "escape.h"
#include "pam_cap.h"

/*
 * A log line quotes what others wrote: the user name the application
 * passes on (whatever was typed at a login prompt), capability.conf's
 * tokens, group names from the directory, the config path. A newline in
 * any of them would forge a second line in the log, an ESC sequence or a
 * CR would rewrite or hide what a terminal shows of it. So the whole
 * formatted line goes through escape_fputs()'s rules (common/escape.h):
 * controls, backslashes, bytes that are not UTF-8, C1 controls and
 * bidirectional marks become \ooo. Our own text has none of them, so it
 * reads the same.
 */
void pam_cap_vlog(pam_handle_t *pamh, int prio, const char *fmt, va_list ap)
{
	char *text = NULL, *esc;

	if (vasprintf(&text, fmt, ap) < 0) { /* %m reads errno first */
		pam_syslog(pamh, LOG_CRIT,
			   "out of memory formatting a log message");
		return;
	}
	esc = escape_dup(text);
	if (esc == NULL)
		pam_syslog(pamh, LOG_CRIT,
			   "out of memory escaping a log message");
	else
		pam_syslog(pamh, prio, "%s", esc);
	free(esc);
	free(text);
}

void pam_cap_log(pam_handle_t *pamh, int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pam_cap_vlog(pamh, prio, fmt, ap);
	va_end(ap);
}
