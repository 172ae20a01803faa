/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * check_psx for the valgrind pass. valgrind 3.19 aborts as soon as a
 * SIGSYS is sent to another thread (m_signals.c: "Assertion 'tst->status
 * == VgTs_WaitSys' failed"; Debian's own libpsx and its psx_test abort the
 * same way), so memcheck cannot watch libpsx broadcast with its real
 * signal. This suite compiles libpsx's own sources in, built with SIGUSR2
 * instead (LPSX_SIGNAL, see tests/Makefile), and runs every scenario of
 * check_psx under memcheck. Outside valgrind it skips: check_psx runs the
 * same tests with SIGSYS.
 */
#define PSX_SIG SIGUSR2
#define PSX_VALGRIND_ONLY 1
#include "check_psx.c"
