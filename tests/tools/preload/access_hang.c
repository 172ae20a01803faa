/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libaccess_hang.so, preloaded into capaudit by capaudit_user.sh:
 * access(2) of a path under $HANG_DIR, made by a process whose real uid
 * is not 0, never returns (it waits for a signal that ends it), as on a
 * file system that answered the launch and then stopped answering (a
 * FUSE daemon, an NFS server gone, a directory swapped meanwhile for a
 * link to one). Such a file system cannot be made to stop at the right
 * moment from outside: the look for why a launch failed follows it at
 * once. Root's calls, capaudit's own, go through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int access(const char *path, int mode)
{
	static int (*real)(const char *, int);
	const char *dir = getenv("HANG_DIR");

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "access");
	if (getuid() != 0 && dir != NULL && *dir != '\0' &&
	    strncmp(path, dir, strlen(dir)) == 0)
		for (;;)
			pause();
	return real(path, mode);
}
