/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libno_deepbind.so, preloaded after pam_wrapper into a pamcase built with
 * AddressSanitizer (tools/pam_world.sh): pam_wrapper 1.1.4 dlopen()s its
 * copy of libpam with RTLD_DEEPBIND, which the sanitizer runtime refuses
 * outright (a library bound to itself first would reach libc's malloc and
 * free past ASan's). Later pam_wrapper versions leave the flag out when
 * PAM_WRAPPER_DISABLE_DEEPBIND is set, as pam_world.sh sets it; this does
 * the same for this one, so that pam_cap.so, and the programs whose
 * verdicts are compared with a login, run under the sanitizers too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "dlopen");
	return real(file, mode & ~RTLD_DEEPBIND);
}
