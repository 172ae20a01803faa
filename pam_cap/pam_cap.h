/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Internal declarations of pam_cap.so: its options and applying a grant. */
#ifndef PAM_CAP_H
#define PAM_CAP_H

/*
 * The hooks must stay visible under -fvisibility=hidden: declare them
 * (through the PAM header) with default visibility. pam_cap.map then keeps
 * only them exported.
 */
#include <stdarg.h>

#pragma GCC visibility push(default)
#include <security/pam_modules.h>
#pragma GCC visibility pop

/* Module arguments, parsed afresh for every call. */
struct pam_cap_opts {
	int debug;	      /* log each decision at LOG_DEBUG */
	int keepcaps;	      /* PR_SET_KEEPCAPS after applying */
	int autoauth;	      /* authenticate always succeeds */
	int defer;	      /* apply at pam_end(), not setcred */
	const char *config;   /* capability.conf path */
	const char *fallback; /* default=: IAB when no line matches */
};

/*
 * Applies capability text ("all", "none" or IAB text) to the process, or
 * queues it for pam_end() with opts->defer. Returns the PAM code setcred
 * returns: PAM_SUCCESS, or PAM_IGNORE when the text does not parse, the
 * kernel refuses it, or it was deferred.
 */
int pam_cap_apply(pam_handle_t *pamh, const struct pam_cap_opts *opts,
		  const char *text);

/*
 * pam_syslog() with the formatted line escaped (common/escape.h): names
 * and config tokens cannot forge or hide log lines. (pam_cap_log.c)
 */
void pam_cap_log(pam_handle_t *pamh, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void pam_cap_vlog(pam_handle_t *pamh, int prio, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
