/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * fullns CMD [ARG...]: runs CMD as root of a new user namespace that maps
 * every uid and gid to itself. Run by root. There, CMD holds the full
 * bounding set whatever the caller's was (a container's, a CI runner's),
 * and uid 65534 still exists, which "unshare -r" (one uid mapped) lacks.
 * The child creates the namespace; the parent, root outside, writes its
 * maps (only a process with CAP_SETUID above it may write more than one
 * line), then lets it exec CMD. Exits with CMD's status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_file(pid_t pid, const char *name, const char *text)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	int ready[2], go[2], status;
	char c = 0;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: fullns CMD [ARG...]\n");
		return 2;
	}
	if (pipe(ready) != 0 || pipe(go) != 0)
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(ready[0]);
		close(go[1]);
		if (unshare(CLONE_NEWUSER) != 0) {
			fprintf(stderr, "fullns: unshare: %s\n",
				strerror(errno));
			_exit(1);
		}
		if (write(ready[1], "u", 1) != 1 || read(go[0], &c, 1) != 1 ||
		    c != 'g')
			_exit(1);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "fullns: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1 ||
	    write_file(pid, "uid_map", "0 0 4294967295\n") != 0 ||
	    write_file(pid, "gid_map", "0 0 4294967295\n") != 0) {
		fprintf(stderr, "fullns: cannot map the namespace: %s\n",
			strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	if (write(go[1], "g", 1) != 1)
		return 1;
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
