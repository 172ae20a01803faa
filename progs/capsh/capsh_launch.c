/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh's ways out: -- and -+ run the shell, == and =+ run capsh again. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capsh.h"
#include "path.h"

extern char **environ;

/*
 * argv for the new program: path, then (for capsh itself, when --quiet was
 * seen) "--quiet", then the remaining arguments. Caller frees the array only.
 */
static char **build_argv(const char *path, int quiet, char **rest)
{
	size_t n = 0, i = 0;
	char **argv;

	while (rest[n] != NULL)
		n++;
	argv = calloc(n + 3, sizeof(*argv));
	if (argv == NULL)
		return NULL;
	argv[i++] = (char *)(uintptr_t)path;
	if (quiet)
		argv[i++] = (char *)(uintptr_t) "--quiet";
	memcpy(argv + i, rest, n * sizeof(*argv));
	return argv;
}

/* Replaces capsh; returns only to report the failure (exit status 1). */
static int exec_program(const char *path, int quiet, char **rest)
{
	char **argv = build_argv(path, quiet, rest);

	if (argv == NULL) {
		fprintf(stderr, "insufficient memory for path building\n");
		return 1;
	}
	/* See difference 5 in capsh.c: what --print wrote must not be lost. */
	fflush(stdout);
	execve(path, argv, environ);
	fprintf(stderr, "execve '%s' failed!\n", path);
	free(argv);
	return 1;
}

/*
 * Starts the program in a child through cap_launch() and passes on how it
 * ended: its exit status, or 1 (with a message) if a signal ended it.
 */
static int launch_program(const char *path, int quiet, char **rest)
{
	char **argv = build_argv(path, quiet, rest);
	cap_launch_t launcher;
	int status = 0;
	pid_t pid, got;

	if (argv == NULL) {
		fprintf(stderr, "insufficient memory for path building\n");
		return 1;
	}
	launcher = cap_new_launcher(path, (const char *const *)argv,
				    (const char *const *)environ);
	if (launcher == NULL) {
		fprintf(stderr, "failed to create launcher\n");
		free(argv);
		return 1;
	}
	fflush(stdout);
	pid = cap_launch(launcher, NULL);
	if (pid <= 0) {
		capsh_perror("child failed to start");
		cap_free(launcher);
		free(argv);
		return 1;
	}
	do
		got = waitpid(pid, &status, 0);
	while (got < 0 && errno == EINTR);
	cap_free(launcher);
	free(argv);
	if (got != pid) {
		fprintf(stderr, "failed to wait for PID=%d, result=%x: %s\n",
			(int)pid, status, strerror(errno));
		return 1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "child PID=%d terminated by signo=%d\n",
			(int)pid, WTERMSIG(status));
		return 1;
	}
	fprintf(stderr, "child PID=%d generated result=%0x\n", (int)pid,
		status);
	return 1;
}

int capsh_exec_shell(const struct opts *o, char **args)
{
	return exec_program(o->shell, 0, args);
}

int capsh_launch_shell(const struct opts *o, char **args)
{
	return launch_program(o->shell, 0, args);
}

/*
 * Where capsh itself lives: argv[0] when it holds a '/', otherwise the
 * first executable "<dir>/<argv0>" along PATH (empty entries skipped).
 * Returns a malloc()ed path, or NULL after printing why.
 */
static char *find_self(const char *argv0)
{
	const char *path = getenv("PATH");
	char *found;

	if (strchr(argv0, '/') != NULL) {
		found = strdup(argv0);
		if (found == NULL)
			fprintf(stderr,
				"insufficient memory for path building\n");
		return found;
	}
	if (path == NULL) {
		fprintf(stderr,
			"no PATH environment variable found for re-execing\n");
		return NULL;
	}
	found = path_search(path, argv0, X_OK);
	if (found == NULL && errno == ENOMEM)
		fprintf(stderr, "insufficient memory for path building\n");
	else if (found == NULL)
		fprintf(stderr, "unable to find executable '%s' in PATH\n",
			argv0);
	return found;
}

int capsh_exec_self(const struct opts *o, char **args)
{
	char *self = find_self(o->argv0);
	int status;

	if (self == NULL)
		return 1;
	status = exec_program(self, o->quiet, args);
	free(self);
	return status;
}

int capsh_launch_self(const struct opts *o, char **args)
{
	char *self = find_self(o->argv0);
	int status;

	if (self == NULL)
		return 1;
	status = launch_program(self, o->quiet, args);
	free(self);
	return status;
}
