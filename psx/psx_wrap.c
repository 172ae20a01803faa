/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* __wrap_pthread_create, for programs linked with -Wl,-wrap,pthread_create. */
#include "lpsx.h"

/*
 * Older libcap releases found threads only through this wrapper, so their
 * documentation has programs link with -Wl,-wrap,pthread_create. We find
 * every thread in /proc/self/task instead, so the wrapper only has to
 * start the thread. The names are fixed by ld's --wrap and are libcap's
 * ABI, hence the "__" docs/style.md ("Files and names") otherwise
 * forbids.
 *
 * This file must not define __real_pthread_create (see psx_real.c): in a
 * static link with --wrap, ld binds our reference to the real
 * pthread_create only while it is undefined in this object.
 */
int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			  void *(*start_routine)(void *), void *arg)
{
	return __real_pthread_create(thread, attr, start_routine, arg);
}
