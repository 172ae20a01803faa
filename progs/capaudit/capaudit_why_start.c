/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Why the launcher could not start the command: cap_launch() reports only
 * that its child failed, not the errno of the execve(2) it made after
 * changing user. The likeliest cause, a directory on the path or the file
 * itself that the user may not search or run (a command in root's 0700
 * home run --user=nobody), is found again here, as that user.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capaudit_fds.h"
#include "capaudit_launch.h"
#include "capaudit_why_start.h"
#include "groups.h"

struct start_verdict {
	int err;	     /* 0: nothing found */
	char path[PATH_MAX]; /* what the user cannot search or run */
};

/*
 * In the diagnosing child, with the user's ids: each directory on the
 * way, then the file. access(2) judges by the real ids, which are the
 * user's here, as they are the launched command's.
 */
static void find_refusal(const char *path, struct start_verdict *v)
{
	size_t len = strlen(path), i;

	if (len >= sizeof(v->path))
		return;
	memcpy(v->path, path, len + 1);
	for (i = 1; i < len; i++) {
		if (path[i] != '/')
			continue;
		v->path[i] = '\0';
		if (access(v->path, X_OK) < 0) {
			v->err = errno;
			return;
		}
		v->path[i] = '/';
	}
	if (access(path, X_OK) < 0)
		v->err = errno;
}

/* Only async-signal-safe calls: capaudit has threads when it forks. */
static void diagnose_as_user(const struct launch *l, const gid_t *groups,
			     int ngroups, int out)
{
	struct start_verdict v;
	ssize_t w;

	/*
	 * Nothing of capaudit's but the answer's pipe, before it is the
	 * user's process: capaudit's descriptors (its eBPF programs' links,
	 * perf events) would live as long as this process, which a file
	 * system that stops answering may hold past SIGKILL, and past
	 * capaudit.
	 */
	fds_close_except(&out, 1);
	memset(&v, 0, sizeof(v));
	if (l->user != NULL && (setgroups((size_t)ngroups, groups) < 0 ||
				setresgid(l->gid, l->gid, l->gid) < 0 ||
				setresuid(l->uid, l->uid, l->uid) < 0))
		_exit(1); /* then nothing is known */
	find_refusal(l->path, &v);
	w = write(out, &v, sizeof(v));
	_exit(w == (ssize_t)sizeof(v) ? 0 : 1);
}

/*
 * The diagnosis's answer within WHY_WAIT_MS: 0 with it in v, 1 when the
 * child ended without one, -1 when it did not come (a file system on the
 * way that answered the launch and stops answering now, a FUSE daemon or
 * an NFS server; a directory swapped for a link to one), or capaudit was
 * told to stop. Never a wait without end: the diagnosis is an aid, not
 * worth holding capaudit for.
 */
#define WHY_WAIT_MS 3000

static int read_verdict(int fd, struct start_verdict *v)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	int waited = 0, rc;
	ssize_t n;

	while (waited < WHY_WAIT_MS && !launch_stop) {
		rc = poll(&pfd, 1, 100);
		if (rc < 0 && errno != EINTR)
			return 1;
		if (rc > 0) {
			do
				n = read(fd, v, sizeof(*v));
			while (n < 0 && errno == EINTR);
			return n == (ssize_t)sizeof(*v) ? 0 : 1;
		}
		waited += 100;
	}
	return -1;
}

int why_not_started(const struct launch *l, char *path, size_t size)
{
	struct start_verdict v;
	gid_t *groups = NULL;
	int fds[2], status, ngroups = 0, rc, waited;
	pid_t pid;

	if (l->user != NULL &&
	    (ngroups = groups_of_user(l->user, l->gid, &groups)) < 0)
		return 0;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(groups);
		return 0;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		diagnose_as_user(l, groups, ngroups, fds[1]);
	}
	free(groups);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return 0;
	}
	rc = read_verdict(fds[0], &v);
	close(fds[0]);
	if (rc < 0) {
		/*
		 * Held in a file system: a FUSE or NFS wait ends at SIGKILL.
		 * One that does not is left to be reaped by init once
		 * capaudit ends, not waited for.
		 */
		kill(pid, SIGKILL);
		for (waited = 0; waited < 1000; waited += 10) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid || (w < 0 && errno != EINTR))
				break;
			poll(NULL, 0, 10);
		}
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc > 0 || v.err == 0)
		return 0;
	v.path[sizeof(v.path) - 1] = '\0';
	snprintf(path, size, "%s", v.path);
	return v.err;
}
