/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Starts N sleeping processes for the getpcaps --all benchmark: forked,
 * not executed, so 5,000 of them cost little memory. Every other one
 * becomes uid 65534 (no capabilities left), every fourth drops
 * cap_net_raw from its bounding set, the rest stay root. Prints "ready"
 * once all run, then waits for its standard input to close; the children
 * die with it (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE /* setresuid */
#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#define NET_RAW 13 /* CAP_NET_RAW */

int main(int argc, char *argv[])
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 5000, i;
	char c;

	if (n <= 0)
		errx(2, "usage: sleepers <count>");
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			err(1, "fork (after %ld)", i);
		if (pid > 0)
			continue;
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() == 1)
			_exit(1);
		if (i % 4 == 3 && prctl(PR_CAPBSET_DROP, NET_RAW, 0, 0, 0) < 0)
			_exit(1);
		if (i % 2 == 1 && setresuid(65534, 65534, 65534) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	printf("ready\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
