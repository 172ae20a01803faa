/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * launchexit: what a caller of cap_launch() sees when the launch fails in
 * the child, for tests/cli/libcap_launch_exit.sh (which runs it against
 * our libcap and against libcap 2.75's and 2.78's).
 *
 *   launchexit
 *
 * Standard output must be a file or a pipe (fully buffered). The program
 * registers an atexit() handler that writes "atexit\n" to standard error
 * (unbuffered), leaves "before;" in the stdout buffer, then makes two
 * launches that fail in the child: one of a program that does not exist
 * (execve() fails) and one whose callback refuses. After each it appends
 * "launch=-1 errno=<name>;" to standard output, then a newline, and exits.
 *
 * A child that leaves with exit() flushes the copy of the buffer it
 * inherited ("before;" once more) and runs the handler ("atexit" once
 * more); one that leaves with _exit() does neither. Exits 0 whatever
 * happened: the suite reads the output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

static void at_exit(void)
{
	static const char line[] = "atexit\n";

	if (write(STDERR_FILENO, line, sizeof(line) - 1) < 0)
		abort();
}

static int refuse(void *detail)
{
	(void)detail;
	return -1;
}

static void launch(cap_launch_t attr)
{
	pid_t pid;

	if (attr == NULL) {
		printf("no launcher: %s;", strerror(errno));
		return;
	}
	errno = 0;
	pid = cap_launch(attr, NULL);
	printf("launch=%d errno=%s;", (int)pid,
	       errno == ECHILD ? "ECHILD" : strerror(errno));
	cap_free(attr);
}

int main(void)
{
	static const char *const argv[] = { "missing", NULL };
	cap_launch_t attr;

	if (atexit(at_exit) != 0)
		return 1;
	printf("before;");
	launch(cap_new_launcher("/nonexistent/missing", argv, NULL));
	attr = cap_new_launcher("/bin/true", argv, NULL);
	if (attr != NULL && cap_launcher_callback(attr, refuse) != 0) {
		cap_free(attr);
		attr = NULL;
	}
	launch(attr);
	printf("\n");
	return 0;
}
