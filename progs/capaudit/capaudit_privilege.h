/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: whether its privileges are its caller's. */
#ifndef CAPAUDIT_PRIVILEGE_H
#define CAPAUDIT_PRIVILEGE_H

/*
 * 1 when capaudit's capabilities may have come from its own file rather
 * than from its caller (AT_SECURE, or uid 0 under SECBIT_NOROOT running a
 * file with capabilities), or when that cannot be told; else 0.
 */
int privileged_by_own_file(void);
/* getenv(3), or NULL when privileged_by_own_file(): for test variables. */
const char *caller_getenv(const char *name);

#endif
