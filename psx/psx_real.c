/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A weak __real_pthread_create, for links made without -Wl,-wrap,pthread_create. */
#include "lpsx.h"

/*
 * With -Wl,-wrap,pthread_create, ld turns the program's references to
 * __real_pthread_create into references to pthread_create, and this
 * definition is never used. Without it (or for libpsx.so, which is not
 * linked with --wrap), __wrap_pthread_create still needs something to
 * call: this, which is glibc's pthread_create. It lives in its own object
 * because a definition next to __wrap_pthread_create would capture that
 * function's reference in a static --wrap link and recurse forever. The
 * name is libcap's ABI, hence the "__" docs/style.md ("Files and names")
 * otherwise forbids.
 */
__attribute__((weak)) int __real_pthread_create(pthread_t *thread,
						const pthread_attr_t *attr,
						void *(*start_routine)(void *),
						void *arg)
{
	return pthread_create(thread, attr, start_routine, arg);
}
