/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libuname_release.so, preloaded into perfdoctor: uname(2) as the kernel
 * answers it, but with the release UNAME_RELEASE names (when set), for a
 * release that setarch --uname-2.6 cannot show, such as 6.16, whose rule
 * for exec perfdoctor judges both ways.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

int uname(struct utsname *u)
{
	static int (*real)(struct utsname *);
	const char *release = getenv("UNAME_RELEASE");
	int r;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "uname");
	r = real(u);
	if (r == 0 && release != NULL)
		snprintf(u->release, sizeof(u->release), "%s", release);
	return r;
}
