/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The running kernel's release, as uname(2) gives it, and its version. */
#ifndef COMMON_KERNEL_H
#define COMMON_KERNEL_H

#include <stddef.h>

/*
 * Writes the release ("6.1.0-18-amd64") into text (size len; text may be
 * NULL when len is 0), "" when uname() fails, and its first two numbers
 * into *major and *minor: both 0 when they cannot be read, so a caller
 * comparing versions takes an unreadable release for an old kernel.
 * Returns 0, or -1 when the version is unknown.
 */
int kernel_release(char *text, size_t len, int *major, int *minor);

/*
 * The first two numbers of a release text ("6.18.0-1-amd64\n") into *major
 * and *minor; both 0 and -1 returned when they are not there.
 */
int kernel_version_parse(const char *release, int *major, int *minor);

/*
 * kernel.perf_event_paranoid from the file at path (normally
 * /proc/sys/kernel/perf_event_paranoid): one whole decimal int and a
 * newline. Returns 0, or -1 with errno (open's or read's; EINVAL for a
 * text that is not a number), *level untouched.
 */
int kernel_perf_paranoid(const char *path, int *level);

/* 1 when major.minor is want_major.want_minor or later. */
int kernel_at_least(int major, int minor, int want_major, int want_minor);

/*
 * 1 when the caller runs in the initial user namespace, 0 in any other
 * (where capabilities count for that namespace's objects only: perf
 * events, for one, ask capable() in the initial namespace), -1 when it
 * cannot tell (no /proc).
 */
int kernel_in_initial_userns(void);

#endif
