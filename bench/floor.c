/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * floor COMMAND [ARG...]: runs COMMAND with the empty programs of
 * floor.bpf.c attached to capaudit's four raw tracepoints, for
 * bench/capaudit.sh's floor row; exits as COMMAND did. The programs are
 * attached before COMMAND starts and detached once it has ended, as
 * capaudit's are, and fire for every task on the machine, as capaudit's
 * do (theirs return at once for a thread they do not follow). Needs
 * CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN).
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * bpftool's generated loader casts string literals to void * and
 * subtracts void pointers: code we do not write, kept out of the
 * warnings that hold for ours.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "floor.skel.h"
#pragma GCC diagnostic pop

int main(int argc, char **argv)
{
	struct floor *skel;
	int status;
	pid_t pid;

	if (argc < 2 || argv[1][0] == '-')
		errx(2, "usage: floor COMMAND [ARG...]");
	skel = floor__open_and_load();
	if (skel == NULL)
		err(1, "loading the empty programs");
	if (floor__attach(skel) < 0) {
		/* bpf(2)'s errno: the closes must not mask it. */
		int saved = errno;

		floor__destroy(skel);
		errno = saved;
		err(1, "attaching the empty programs");
	}
	pid = fork();
	if (pid < 0) {
		floor__destroy(skel);
		err(1, "fork");
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		warn("%s", argv[1]);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			floor__destroy(skel);
			err(1, "waiting for %s", argv[1]);
		}
	floor__destroy(skel);
	if (WIFSIGNALED(status))
		errx(1, "%s: killed by signal %d", argv[1], WTERMSIG(status));
	return WEXITSTATUS(status);
}
