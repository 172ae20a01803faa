/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * What capaudit itself ends after a trial. The kernel ends a trial's
 * processes with the trial's PID namespace (capaudit_contain.c), and
 * the launched child reaps the namespace's init, which the kernel lets
 * go only once every other process of the namespace is gone. When
 * capaudit kills the launched child instead (the time limit, ^C), the
 * init is handed to capaudit, the child subreaper while it makes trials
 * (PR_SET_CHILD_SUBREAPER), and dies of the launched child's death
 * (PR_SET_PDEATHSIG); capaudit reaps it here, so the next trial starts,
 * and the report is written, once nothing of this one is left. Once a
 * trial's launched child has been reaped, every child capaudit still
 * has is one the trial left: capaudit kills each, reaps it, and looks
 * again (the children of what it killed are its own then). One still
 * there after TRIAL_END_SECONDS of this is said to be left running.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capaudit_reap.h"

/*
 * How long capaudit keeps killing what a trial left before it gives up.
 * SIGKILL goes to each at once; what is still there after it is stuck
 * in the kernel, and never runs a trial's code again: a longer wait only
 * holds the report back, and giving up leaves the grant unproven.
 */
#define TRIAL_END_SECONDS 3

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

/*
 * Reaps pid, a child of ours, by give_up at the latest: 1 reaped, 0 not
 * (yet). Never a blocking wait: a trial's init that is killed waits for
 * every process of its namespace, a zombie too, which a process of the
 * command's user outside the trial keeps for as long as it likes by
 * tracing it (PTRACE_SEIZE needs no capability over one's own processes)
 * and never waiting for it.
 */
static int reap_by(pid_t pid, double give_up)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t w;

	for (;;) {
		w = waitpid(pid, NULL, __WALL | WNOHANG);
		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return 0; /* not ours (ECHILD): nothing to reap */
		if (w == 0 && seconds_now() > give_up)
			return 0;
		if (w == 0)
			nanosleep(&tick, NULL);
	}
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
		for (i = 0; i < n; i++)
			*ended += (size_t)reap_by(pids[i], give_up);
		free(pids);
	}
}
