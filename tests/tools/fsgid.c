/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * fsgid: a process whose filesystem gid is not its effective gid, which
 * no exec leaves behind (exec sets the filesystem gid to the effective
 * one), for the suites that judge what such a process's exec does.
 *
 *   fsgid GID PROGRAM [ARGS...]   sets the filesystem gid to GID, then
 *                                 executes PROGRAM: the kernel judges that
 *                                 exec by the caller's GID
 *   fsgid GID -                   sets it, prints "ready" and waits until
 *                                 killed, for perfdoctor --pid
 *
 * setfsgid(2) lets a caller without CAP_SETGID take its real, effective
 * or saved gid. It reports no failure, only the old value: the new one is
 * asked for again, and a GID not taken exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long gid;

	if (argc < 3) {
		fprintf(stderr,
			"usage: fsgid GID PROGRAM [ARGS...] | fsgid GID -\n");
		return 2;
	}
	errno = 0;
	gid = strtoul(argv[1], &end, 10);
	if (errno != 0 || end == argv[1] || *end != '\0' || gid >= (gid_t)-1) {
		fprintf(stderr, "fsgid: '%s' is not a gid\n", argv[1]);
		return 2;
	}
	setfsgid((gid_t)gid);
	if ((unsigned long)setfsgid((gid_t)-1) != gid) {
		fprintf(stderr, "fsgid: the filesystem gid %lu was not taken\n",
			gid);
		return 1;
	}
	if (strcmp(argv[2], "-") == 0) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	execv(argv[2], argv + 2);
	fprintf(stderr, "fsgid: %s: %s\n", argv[2], strerror(errno));
	return 126;
}
