/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The one --version line all our programs print. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "version.h"

/* common/Makefile passes the version Make.Rules sets. */
#ifndef LCP_VERSION
#error "LCP_VERSION must be defined by the build (common/Makefile)"
#endif

int version_print(const char *prog)
{
	printf("%s (libcap-perfmon) %s\n", prog, LCP_VERSION);
	/* A --version that cannot be written must not claim success. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing --version: %s\n", prog,
			strerror(errno));
		return 1;
	}
	return 0;
}
