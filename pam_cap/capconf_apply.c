/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Turning a capability.conf grant into process state, now or at pam_end(). */
#include <errno.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <syslog.h>

#include <security/pam_ext.h>

#include "pam_cap.h"

/* libcap's key: other modules may look for the queued grant under it. */
#define DEFER_KEY "pam_cap_iab"

/*
 * pam_end() cleanup for a deferred grant. The application signals "the
 * login succeeded, now apply it" with pam_end(pamh, PAM_SUCCESS |
 * PAM_DATA_SILENT), as it does in the child that will exec the session.
 * Any other status (a failure, or a plain pam_end in the parent) only
 * frees the IAB: applying it there would hand the grant to the wrong
 * process.
 */
static void apply_deferred(pam_handle_t *pamh, void *data, int status)
{
	cap_iab_t iab = data;

	/*
	 * Nothing can be returned from here, so a failure is only logged;
	 * cap_iab_set_proc() applies every restriction (lower I, clear A,
	 * bounding drops) before any raise, so what fails is a grant, and the
	 * session goes on with no ambient capability rather than with less
	 * restriction than configured.
	 */
	if ((status & PAM_DATA_SILENT) && !(status & PAM_DATA_REPLACE) &&
	    (status & ~(PAM_DATA_SILENT | PAM_DATA_REPLACE)) == PAM_SUCCESS) {
		if (cap_iab_set_proc(iab) != 0)
			pam_cap_log(
				pamh, LOG_ERR,
				"deferred capabilities not applied at pam_end, restrictions applied, no ambient grant: %m");
	}
	cap_free(iab);
}

/*
 * "none": clear I now, even with defer (as libcap does), and with it A (the
 * kernel keeps A within I). The bounding set is left alone and keepcaps is
 * not set: there is nothing to keep. Failing to clear them fails setcred
 * (PAM_CRED_ERR): the session must not inherit what the file took away.
 */
static int clear_inheritable(pam_handle_t *pamh,
			     const struct pam_cap_opts *opts)
{
	cap_t caps = cap_get_proc();
	int rc = PAM_CRED_ERR;

	if (caps != NULL && cap_clear_flag(caps, CAP_INHERITABLE) == 0 &&
	    cap_set_proc(caps) == 0)
		rc = PAM_SUCCESS;
	else
		pam_cap_log(pamh, LOG_ERR, "cannot clear inheritable set: %m");
	cap_free(caps);
	if (opts->debug && rc == PAM_SUCCESS)
		pam_cap_log(pamh, LOG_DEBUG,
			    "'none': inheritable and ambient sets cleared");
	return rc;
}

int pam_cap_apply(pam_handle_t *pamh, const struct pam_cap_opts *opts,
		  const char *text)
{
	cap_iab_t iab;
	char *shown;
	int rc = PAM_IGNORE;

	/* "all" (exact, as in libcap): leave inherited capabilities alone. */
	if (strcmp(text, "all") == 0) {
		if (opts->debug)
			pam_cap_log(pamh, LOG_DEBUG,
				    "'all': capabilities left unchanged");
		return PAM_SUCCESS;
	}
	if (strcmp(text, "none") == 0)
		return clear_inheritable(pamh, opts);
	iab = cap_iab_from_text(text);
	if (iab == NULL) {
		/* Fail closed: a line we cannot parse grants nothing. */
		pam_cap_log(pamh, LOG_ERR,
			    "invalid capability text '%s': nothing granted",
			    text);
		return PAM_IGNORE;
	}
	if (opts->debug) {
		shown = cap_iab_to_text(iab);
		pam_cap_log(pamh, LOG_DEBUG, "%s IAB '%s'",
			    opts->defer ? "deferring to pam_end()" : "applying",
			    shown == NULL ? "?" : shown);
		cap_free(shown);
	}
	if (opts->defer) {
		/*
		 * setcred reports IGNORE even though the grant is queued, as
		 * libcap does: the capabilities are not in place yet.
		 */
		if (pam_set_data(pamh, DEFER_KEY, iab, apply_deferred) !=
		    PAM_SUCCESS) {
			pam_cap_log(pamh, LOG_ERR,
				    "cannot queue capabilities for pam_end()");
			cap_free(iab);
			rc = PAM_CRED_ERR;
		}
	} else {
		/*
		 * A refused change fails setcred: IGNORE
		 * would let the login go on as if the line had not matched,
		 * and libcap's PAM_IGNORE here is why a refused ambient raise
		 * once left a configured bounding drop undone without a word.
		 * The library has applied every restriction it could.
		 */
		if (cap_iab_set_proc(iab) == 0) {
			rc = PAM_SUCCESS;
		} else {
			pam_cap_log(
				pamh, LOG_ERR,
				"capabilities '%s' not applied, failing setcred: %m",
				text);
			rc = PAM_CRED_ERR;
		}
		cap_free(iab);
	}
	/*
	 * keepcaps: the application is about to setuid() away from root and
	 * wants to keep P (and so A) across it. Set even when deferred, and
	 * whether or not applying worked, as libcap does.
	 */
	if (opts->keepcaps && cap_prctlw(PR_SET_KEEPCAPS, 1, 0, 0, 0, 0) != 0)
		pam_cap_log(pamh, LOG_ERR, "PR_SET_KEEPCAPS failed: %m");
	return rc;
}
