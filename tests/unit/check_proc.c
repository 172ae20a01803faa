/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Process state without privilege: reads, errno contracts, and the cap_set_syscall seam. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check_run.h"
#include "proc_status.h"

static unsigned long long flag_bits(cap_t caps, cap_flag_t flag)
{
	unsigned long long v = 0;
	cap_value_t c;

	for (c = 0; c < 64; c++) {
		cap_flag_value_t on = CAP_CLEAR;

		ck_assert_int_eq(cap_get_flag(caps, c, flag, &on), 0);
		if (on)
			v |= 1ULL << c;
	}
	return v;
}

START_TEST(get_proc_matches_status)
{
	cap_t caps = cap_get_proc();

	ck_assert_ptr_nonnull(caps);
	ck_assert_uint_eq(flag_bits(caps, CAP_EFFECTIVE),
			  status_vector("CapEff:"));
	ck_assert_uint_eq(flag_bits(caps, CAP_PERMITTED),
			  status_vector("CapPrm:"));
	ck_assert_uint_eq(flag_bits(caps, CAP_INHERITABLE),
			  status_vector("CapInh:"));
	cap_free(caps);
}
END_TEST

START_TEST(get_pid_and_capgetp)
{
	cap_t mine = cap_get_proc(), other = cap_get_pid(getpid());
	cap_t filled = cap_init();

	ck_assert_ptr_nonnull(other);
	ck_assert_int_eq(cap_compare(mine, other), 0);
	ck_assert_int_eq(capgetp(0, filled), 0);
	ck_assert_int_eq(cap_compare(mine, filled), 0);
	errno = 0;
	ck_assert_ptr_null(cap_get_pid(2147483647));
	ck_assert_int_eq(errno, ESRCH);
	errno = 0;
	ck_assert_int_eq(capgetp(0, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* The kernel refuses to set another process's capabilities. */
	errno = 0;
	ck_assert_int_eq(capsetp(1, mine), -1);
	ck_assert_int_eq(errno, EPERM);
	cap_free(mine);
	cap_free(other);
	cap_free(filled);
}
END_TEST

START_TEST(set_proc_rejects_bad_set)
{
	errno = 0;
	ck_assert_int_eq(cap_set_proc(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(bound_and_ambient_reads)
{
	cap_value_t max = cap_max_bits(), c;
	unsigned long long bnd = 0, amb = 0;

	for (c = 0; c < max; c++) {
		int b = cap_get_bound(c), a = cap_get_ambient(c);

		ck_assert(b == 0 || b == 1);
		ck_assert(a == 0 || a == 1);
		bnd |= (unsigned long long)b << c;
		amb |= (unsigned long long)a << c;
	}
	ck_assert_uint_eq(bnd, status_vector("CapBnd:"));
	ck_assert_uint_eq(amb, status_vector("CapAmb:"));
	errno = 0;
	ck_assert_int_eq(cap_get_bound(max), -1);
	ck_assert_int_eq(errno, EINVAL);
	/*
	 * Deliberate fix: libcap turns this EINVAL into EPERM (errno = 1);
	 * we keep the kernel's errno (see cap_prctl.c).
	 */
	errno = 0;
	ck_assert_int_eq(cap_get_ambient(max), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert(CAP_IS_SUPPORTED(CAP_PERFMON));
	ck_assert(!CAP_IS_SUPPORTED(max));
	ck_assert(CAP_AMBIENT_SUPPORTED());
	errno = 0;
	ck_assert_int_eq(cap_set_ambient(CAP_CHOWN, (cap_flag_value_t)7), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(secbits_and_prctl)
{
	ck_assert_uint_eq(cap_get_secbits(),
			  (unsigned)prctl(PR_GET_SECUREBITS, 0, 0, 0, 0));
	ck_assert_int_eq(cap_prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0, 0), 0);
	ck_assert_int_eq(cap_prctlw(PR_SET_KEEPCAPS, 1, 0, 0, 0, 0), 0);
	ck_assert_int_eq(prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0), 1);
}
END_TEST

static int calls3, calls6;
static long last_nr;

static long count3(long nr, long a1, long a2, long a3)
{
	calls3++;
	last_nr = nr;
	return syscall(nr, a1, a2, a3);
}

static long count6(long nr, long a1, long a2, long a3, long a4, long a5,
		   long a6)
{
	calls6++;
	last_nr = nr;
	return syscall(nr, a1, a2, a3, a4, a5, a6);
}

static long refuse3(long nr, long a1, long a2, long a3)
{
	(void)nr, (void)a1, (void)a2, (void)a3;
	errno = EROFS;
	return -1;
}

START_TEST(state_changes_go_through_the_seam)
{
	cap_t caps = cap_get_proc();

	cap_set_syscall(count3, count6);
	ck_assert_int_eq(cap_set_proc(caps), 0);
	ck_assert_int_eq(calls3, 1);
	ck_assert_int_eq(last_nr, SYS_capset);
	ck_assert_int_eq(cap_prctlw(PR_SET_KEEPCAPS, 0, 0, 0, 0, 0), 0);
	ck_assert_int_eq(calls6, 1);
	ck_assert_int_eq(last_nr, SYS_prctl);
	/* Reads and cap_prctl() stay on this thread, unrouted. */
	cap_free(cap_get_proc());
	cap_get_bound(0);
	cap_get_ambient(0);
	cap_get_secbits();
	cap_prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0, 0);
	ck_assert_int_eq(calls3 + calls6, 2);
	/* The routine's failure is the caller's failure. */
	cap_set_syscall(refuse3, count6);
	errno = 0;
	ck_assert_int_eq(cap_set_proc(caps), -1);
	ck_assert_int_eq(errno, EROFS);
	errno = 0;
	ck_assert_int_eq(cap_setuid(getuid()), -1);
	ck_assert_int_eq(errno, EROFS);
	/* NULL restores the default (plain syscalls here: no libpsx). */
	cap_set_syscall(NULL, NULL);
	ck_assert_int_eq(cap_set_proc(caps), 0);
	cap_free(caps);
}
END_TEST

START_TEST(dropping_effective_needs_no_privilege)
{
	cap_t caps = cap_get_proc();

	cap_clear_flag(caps, CAP_EFFECTIVE);
	ck_assert_int_eq(cap_set_proc(caps), 0);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
	cap_free(caps);
}
END_TEST

START_TEST(mode_is_known)
{
	cap_mode_t mode = cap_get_mode();

	/* A normal process here: securebits 0. */
	if (prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) == 0)
		ck_assert_uint_eq(mode, CAP_MODE_HYBRID);
	ck_assert_str_ne(cap_mode_name(mode), "UNKNOWN");
	/* Unknown modes are refused, and E is left empty regardless. */
	errno = 0;
	ck_assert_int_eq(cap_set_mode((cap_mode_t)99), -1);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
}
END_TEST

static Suite *proc_suite(void)
{
	Suite *s = suite_create("proc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, get_proc_matches_status);
	tcase_add_test(tc, get_pid_and_capgetp);
	tcase_add_test(tc, set_proc_rejects_bad_set);
	tcase_add_test(tc, bound_and_ambient_reads);
	tcase_add_test(tc, secbits_and_prctl);
	tcase_add_test(tc, state_changes_go_through_the_seam);
	tcase_add_test(tc, dropping_effective_needs_no_privilege);
	tcase_add_test(tc, mode_is_known);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(proc_suite)
