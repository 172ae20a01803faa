/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libreaddir_pause.so, preloaded into getpcaps by getpcaps_threads.sh: the
 * first readdir(3) of /proc/$PAUSE_PID/task returns its first entry, then
 * waits, after creating $PAUSE_DIR/paused, until $PAUSE_DIR/go exists (10
 * seconds at most). glibc has fetched the first getdents(2) batch by then;
 * what the suite does meanwhile (threads exiting) happens between that
 * call and the next, the window a process can hit by timing alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dirent *readdir(DIR *dir)
{
	static struct dirent *(*real)(DIR *);
	static int done;
	const char *pid = getenv("PAUSE_PID"), *where = getenv("PAUSE_DIR");
	char link[64], path[256], want[64], flag[4096];
	struct dirent *e;
	ssize_t len;
	int i, fd;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "readdir");
	e = real(dir);
	if (done || e == NULL || pid == NULL || where == NULL)
		return e;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd(dir));
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return e;
	path[len] = '\0';
	snprintf(want, sizeof(want), "/proc/%s/task", pid);
	if (strcmp(path, want) != 0)
		return e;
	done = 1;
	snprintf(flag, sizeof(flag), "%s/paused", where);
	fd = open(flag, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	snprintf(flag, sizeof(flag), "%s/go", where);
	for (i = 0; i < 1000 && access(flag, F_OK) != 0; i++)
		usleep(10000);
	return e;
}
