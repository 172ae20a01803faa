/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A trial's processes end with it. A trial's command runs with the
 * capabilities under test; a daemon it starts would keep them, and the
 * capable copies with them (they live on in the trial's mount namespace
 * for as long as a process of it does), after capaudit is done.
 *
 * So capaudit is the child subreaper while it makes trials
 * (PR_SET_CHILD_SUBREAPER): a process whose parent ends is handed to
 * capaudit rather than to init, and once a trial's command has ended
 * and been reaped, every child capaudit still has is one the trial left
 * running. capaudit kills each, reaps it, and looks again: the children
 * of what it killed are its own now. A process cannot leave that tree;
 * one that is still there after TRIAL_END_SECONDS of this (forking
 * faster than capaudit kills) is said to be left running.
 *
 * A PID namespace would end them all at once, but the command would not
 * see the machine's processes in it: kill, renice, strace -p and the
 * like would fail in every trial for a reason that is not theirs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.h"

/* How long capaudit keeps killing what a trial left before it gives up. */
#define TRIAL_END_SECONDS 10

int trial_reaper(int on)
{
	return prctl(PR_SET_CHILD_SUBREAPER, on ? 1 : 0, 0, 0, 0);
}

/* The parent in /proc/PID/stat: the field after the state, after the last ')'. */
static pid_t parent_of(int proc, const char *name)
{
	char path[64], buf[512], *end;
	ssize_t n;
	long ppid;
	int fd;

	snprintf(path, sizeof(path), "%s/stat", name);
	fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	end = strrchr(buf, ')'); /* the name may hold ')' itself */
	if (end == NULL || end[1] != ' ' || end[2] == '\0' || end[3] != ' ')
		return -1;
	ppid = strtol(end + 4, NULL, 10);
	return ppid > 0 ? (pid_t)ppid : -1;
}

/*
 * The children of this process, from /proc (every thread's: a process
 * handed to a subreaper may go to any of its threads). -1 (ENOMEM, or
 * /proc unreadable), else how many are in *pids (caller frees).
 */
static long children(pid_t **pids)
{
	pid_t self = getpid(), *q;
	size_t n = 0, size = 0;
	struct dirent *d;
	int proc;
	DIR *dir;

	*pids = NULL;
	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0 || (dir = fdopendir(proc)) == NULL) {
		if (proc >= 0)
			close(proc);
		return -1;
	}
	while ((d = readdir(dir)) != NULL) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end != '\0' || pid <= 0 ||
		    parent_of(proc, d->d_name) != self)
			continue;
		if (n == size) {
			size = size ? size * 2 : 16;
			q = reallocarray(*pids, size, sizeof(*q));
			if (q == NULL) {
				free(*pids);
				*pids = NULL;
				closedir(dir);
				errno = ENOMEM;
				return -1;
			}
			*pids = q;
		}
		(*pids)[n++] = (pid_t)pid;
	}
	closedir(dir);
	return (long)n;
}

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int trial_end_leftovers(size_t *ended)
{
	double give_up = seconds_now() + TRIAL_END_SECONDS;
	pid_t *pids;
	long n, i;

	*ended = 0;
	for (;;) {
		n = children(&pids);
		if (n <= 0) {
			free(pids);
			return n == 0 ? 0 : -1;
		}
		if (seconds_now() > give_up) {
			free(pids);
			errno = EAGAIN;
			return -1;
		}
		/*
		 * A child of ours keeps its pid until we reap it, even once
		 * it has ended: the number cannot name another process.
		 */
		for (i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		/* Reaped, its own children are ours before the next look. */
		for (i = 0; i < n; i++) {
			while (waitpid(pids[i], NULL, __WALL) < 0 &&
			       errno == EINTR)
				;
			(*ended)++;
		}
		free(pids);
	}
}
