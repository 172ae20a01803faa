/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * User, group and capability names for messages: the name, or the number
 * when there is none.
 */
#ifndef COMMON_NAMES_H
#define COMMON_NAMES_H

#include <stddef.h>
#include <sys/capability.h>
#include <sys/types.h>

/*
 * Writes uid's name from the passwd database into buf (size len), or the
 * uid in decimal when it has no entry. Returns buf. Not thread-safe
 * (getpwuid(3)); the programs call it from one thread.
 */
const char *names_user(uid_t uid, char *buf, size_t len);

/* The same for a group (getgrgid(3)). */
const char *names_group(gid_t gid, char *buf, size_t len);

/*
 * Writes capability cap's name into buf (size len): cap_to_name()'s, the
 * number for one this library has no name for, or "?" when it cannot be
 * had (out of memory). Returns buf.
 */
const char *names_cap(cap_value_t cap, char *buf, size_t len);

#endif
