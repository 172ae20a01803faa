/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libswap_on_open.so, preloaded into perfdoctor by
 * perfdoctor_seccomp_profile.sh: the first open(2) or openat(2) of the
 * path $SWAP_AT renames $SWAP_FROM over it first, then opens. A program
 * that looked at the path before (stat(2)) and opens it after meets
 * another file than it looked at: the window of a name swapped between
 * a check and its use, which timing alone hits only now and then.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void swap_first(const char *path)
{
	static int done;
	const char *at = getenv("SWAP_AT"), *from = getenv("SWAP_FROM");

	if (done || at == NULL || from == NULL || strcmp(path, at) != 0)
		return;
	done = 1;
	if (rename(from, at) < 0)
		perror("swap_on_open: rename");
}

/* mode is there when flags ask for it (O_CREAT, O_TMPFILE). */
#define MODE_ARG(flags, mode)                          \
	do {                                           \
		if ((flags) & (O_CREAT | O_TMPFILE)) { \
			va_list ap;                    \
			va_start(ap, flags);           \
			mode = va_arg(ap, int);        \
			va_end(ap);                    \
		}                                      \
	} while (0)

#define WRAP_OPEN(name)                                            \
	int name(const char *path, int flags, ...)                 \
	{                                                          \
		static int (*real)(const char *, int, ...);        \
		int mode = 0;                                      \
                                                                   \
		MODE_ARG(flags, mode);                             \
		if (real == NULL)                                  \
			*(void **)&real = dlsym(RTLD_NEXT, #name); \
		swap_first(path);                                  \
		return real(path, flags, mode);                    \
	}

#define WRAP_OPENAT(name)                                          \
	int name(int dfd, const char *path, int flags, ...)        \
	{                                                          \
		static int (*real)(int, const char *, int, ...);   \
		int mode = 0;                                      \
                                                                   \
		MODE_ARG(flags, mode);                             \
		if (real == NULL)                                  \
			*(void **)&real = dlsym(RTLD_NEXT, #name); \
		swap_first(path);                                  \
		return real(dfd, path, flags, mode);               \
	}

WRAP_OPEN(open)
WRAP_OPEN(open64)
WRAP_OPENAT(openat)
WRAP_OPENAT(openat64)
