/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* libcap's process modes (cap_get_mode, cap_set_mode) and cap_setuid, cap_setgroups. */
#include <errno.h>
#include <linux/securebits.h>
#include <string.h>
#include <sys/prctl.h>

#include "lcap.h"

/*
 * The securebits of a "pure capabilities" mode: root gets no implicit
 * privilege (NOROOT), uid changes do not touch capabilities
 * (NO_SETUID_FIXUP), KEEP_CAPS is locked off, and all of it is locked.
 * Where the kernel has ambient support it is blocked as well.
 */
#define BITS_BASIC                                                       \
	(SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | \
	 SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED)
#define BITS_AMBIENT                                \
	(BITS_BASIC | SECBIT_NO_CAP_AMBIENT_RAISE | \
	 SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED)

/* Returns 1 when some capability below the kernel's limit has v(cap) == 1. */
static int any_set(int (*v)(cap_value_t))
{
	cap_value_t cap;

	for (cap = 0; cap < lcap_kernel_bits(); cap++) {
		if (v(cap) == 1)
			return 1;
	}
	return 0;
}

/*
 * Infers the mode from the current state. It cannot fail: anything that
 * matches no mode exactly is UNCERTAIN.
 */
cap_mode_t cap_get_mode(void)
{
	unsigned bits = cap_get_secbits(), pure;
	cap_t current, empty;
	int saved = errno, differs;
	cap_mode_t mode;

	if (bits == 0)
		return CAP_MODE_HYBRID;
	/*
	 * The pure modes are exactly the bits cap_set_mode() applies: libcap
	 * calls 0x2f UNCERTAIN where ambient exists, and so is any extra bit
	 * such as KEEP_CAPS (0xff), as observed with libcap 2.66.
	 */
	pure = cap_get_ambient(CAP_CHOWN) < 0 ? BITS_BASIC : BITS_AMBIENT;
	if (bits != pure || any_set(cap_get_ambient)) {
		errno = saved;
		return CAP_MODE_UNCERTAIN;
	}
	current = cap_get_proc();
	empty = cap_init();
	if (current == NULL || empty == NULL) {
		mode = CAP_MODE_UNCERTAIN;
		goto out;
	}
	differs = cap_compare(empty, current);
	if (CAP_DIFFERS(differs, CAP_INHERITABLE))
		mode = CAP_MODE_PURE1E;
	else if (CAP_DIFFERS(differs, CAP_PERMITTED) ||
		 CAP_DIFFERS(differs, CAP_EFFECTIVE) || any_set(cap_get_bound))
		mode = CAP_MODE_PURE1E_INIT;
	else
		mode = CAP_MODE_NOPRIV;
out:
	cap_free(current);
	cap_free(empty);
	errno = saved;
	return mode;
}

/* Applies the securebits of a pure mode after emptying the ambient set. */
static int lock_pure_bits(void)
{
	unsigned bits = BITS_AMBIENT;

	if (cap_get_ambient(CAP_CHOWN) < 0)
		bits = BITS_BASIC; /* no ambient support to block */
	else if (cap_reset_ambient() < 0)
		return -1;
	return cap_set_secbits(bits);
}

/* Drops every bounding bit the kernel knows; best effort, as in libcap. */
static void drop_all_bounds(void)
{
	cap_value_t cap;
	int saved = errno;

	for (cap = 0; cap_get_bound(cap) >= 0; cap++)
		cap_drop_bound(cap);
	errno = saved;
}

/* Empties one flag of a plain set. */
static void clear_flag(struct _cap_struct *caps, cap_flag_t flag)
{
	memset(caps->flags[flag], 0, sizeof(caps->flags[flag]));
}

/*
 * Needs CAP_SETPCAP in P. Whatever the outcome, E is empty afterwards:
 * libcap documents that, and callers rely on it to shed privilege. It
 * allocates nothing and takes no lock, so a launcher's child may use it.
 */
int cap_set_mode(cap_mode_t mode)
{
	struct _cap_struct working;
	int rc, saved;

	/* Securebits, bounding and ambient changes all need CAP_SETPCAP. */
	if (lcap_proc_raise(&working, CAP_SETPCAP) < 0)
		return -1;
	switch (mode) {
	case CAP_MODE_NOPRIV:
	case CAP_MODE_PURE1E_INIT:
		/* Nothing is handed down through I in these modes. */
		clear_flag(&working, CAP_INHERITABLE);
		/* fall through */
	case CAP_MODE_PURE1E:
		rc = lock_pure_bits();
		if (rc < 0 || mode != CAP_MODE_NOPRIV)
			break;
		drop_all_bounds();
		clear_flag(&working, CAP_PERMITTED);
		/*
		 * With P, I and the bounding set empty nothing can be regained
		 * anyway; no_new_privs makes that hold for setuid binaries too.
		 */
		lcap_sys_prctl_write(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		break;
	case CAP_MODE_HYBRID:
		rc = cap_set_secbits(0);
		break;
	default:
		errno = EINVAL;
		rc = -1;
		break;
	}
	/* The cleared I and P are applied here too: their failure counts. */
	saved = errno;
	clear_flag(&working, CAP_EFFECTIVE);
	if (lcap_proc_write(&working) < 0 && rc == 0) {
		saved = errno;
		rc = -1;
	}
	errno = saved;
	return rc;
}

/*
 * Changes all uids, keeping P: KEEP_CAPS is set just for the setuid(2),
 * since without it leaving uid 0 empties P. The kernel still clears E and
 * the ambient set when leaving uid 0, and E is cleared here in any case.
 * Needs CAP_SETUID in P. Like cap_setgroups(), it allocates nothing.
 */
int cap_setuid(uid_t uid)
{
	struct _cap_struct working;
	int rc, saved;

	if (lcap_proc_raise(&working, CAP_SETUID) < 0)
		return -1;
	/*
	 * In the pure modes KEEP_CAPS is locked off and this fails with
	 * EPERM; NO_SETUID_FIXUP keeps P there instead, so carry on.
	 */
	lcap_sys_prctl_write(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	rc = lcap_sys_setuid(uid);
	saved = errno;
	lcap_sys_prctl_write(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	errno = saved;
	return lcap_proc_end(&working, rc);
}

/* Sets the gid, then the supplementary groups; needs CAP_SETGID in P. */
int cap_setgroups(gid_t gid, size_t ngroups, const gid_t groups[])
{
	struct _cap_struct working;
	int rc;

	if (ngroups > 0 && groups == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (lcap_proc_raise(&working, CAP_SETGID) < 0)
		return -1;
	rc = lcap_sys_setgid(gid);
	if (rc == 0)
		rc = lcap_sys_setgroups(ngroups, groups);
	return lcap_proc_end(&working, rc);
}
