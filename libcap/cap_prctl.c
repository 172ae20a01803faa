/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The prctl-controlled vectors: bounding set, ambient set, securebits; cap_prctl(w). */
#include <errno.h>
#include <sys/prctl.h>

#include "lcap.h"

/* Returns 1 or 0, or -1 with EINVAL for a capability the kernel lacks. */
int cap_get_bound(cap_value_t cap)
{
	return lcap_sys_prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
}

/* Needs CAP_SETPCAP in E (EPERM otherwise). Dropping is irreversible. */
int cap_drop_bound(cap_value_t cap)
{
	return lcap_sys_prctl_write(PR_CAPBSET_DROP, cap, 0, 0, 0);
}

/*
 * Returns 1 or 0, or -1 with errno for an unknown capability or a kernel
 * without ambient support.
 *
 * libcap sets errno to the negated return value here, which turns the
 * kernel's EINVAL into EPERM (1). We deliberately keep the kernel's errno
 * instead: EPERM wrongly suggests missing privilege, and no caller can
 * rely on the quirk (CAP_AMBIENT_SUPPORTED() only tests the sign).
 */
int cap_get_ambient(cap_value_t cap)
{
	return lcap_sys_prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0);
}

/* Raising needs the bit in both P and I, and no SECBIT_NO_CAP_AMBIENT_RAISE. */
int cap_set_ambient(cap_value_t cap, cap_flag_value_t set)
{
	long op;

	switch (set) {
	case CAP_SET:
		op = PR_CAP_AMBIENT_RAISE;
		break;
	case CAP_CLEAR:
		op = PR_CAP_AMBIENT_LOWER;
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	return lcap_sys_prctl_write(PR_CAP_AMBIENT, op, cap, 0, 0);
}

/*
 * Clears the whole ambient set. On a kernel without ambient support there
 * is nothing to clear, so that is success, as in libcap.
 */
int cap_reset_ambient(void)
{
	int saved = errno;

	if (cap_get_ambient(CAP_CHOWN) < 0) {
		errno = saved;
		return 0;
	}
	return lcap_sys_prctl_write(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0,
				    0, 0);
}

unsigned cap_get_secbits(void)
{
	return (unsigned)lcap_sys_prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
}

/* Needs CAP_SETPCAP in E; locked bits can never be cleared again. */
int cap_set_secbits(unsigned bits)
{
	return lcap_sys_prctl_write(PR_SET_SECUREBITS, bits, 0, 0, 0);
}

/* A prctl on the calling thread only, whatever cap_set_syscall() says. */
int cap_prctl(long pr_cmd, long arg1, long arg2, long arg3, long arg4,
	      long arg5)
{
	(void)arg5; /* prctl(2) takes four arguments after the command */
	return lcap_sys_prctl(pr_cmd, arg1, arg2, arg3, arg4);
}

/* A "write" prctl: routed like state changes (all threads with libpsx). */
int cap_prctlw(long pr_cmd, long arg1, long arg2, long arg3, long arg4,
	       long arg5)
{
	(void)arg5;
	return lcap_sys_prctl_write(pr_cmd, arg1, arg2, arg3, arg4);
}
