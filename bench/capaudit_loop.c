/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_loop N FILE [TIMES]: a capability-heavy loop for
 * bench/capaudit.sh: N chowns of FILE to uid 1 and 2 in turn; as root
 * each one is a granted cap_chown check (the caller is not the file's
 * owner), so the loop makes N checks in N system calls. With TIMES, the
 * loop's own wall time in seconds is appended to that file: a tracer's
 * start-up and tear-down are then no part of what is compared. Its CPU
 * time follows on the same line: the tracer's cost in the kernel is
 * charged to the loop, while the wall time also holds whatever else the
 * machine was doing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long i, n, refused = 0;
	double start, cpu, took;
	FILE *times;

	if ((argc != 3 && argc != 4) || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: capaudit_loop N FILE [TIMES]\n");
		return 2;
	}
	start = now(CLOCK_MONOTONIC);
	cpu = now(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++)
		if (chown(argv[2], (i & 1) ? 1 : 2, (gid_t)-1) < 0)
			refused++;
	took = now(CLOCK_MONOTONIC) - start;
	cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	if (refused) {
		fprintf(stderr, "capaudit_loop: %ld of %ld chowns refused\n",
			refused, n);
		return 1;
	}
	if (argc == 4) {
		times = fopen(argv[3], "a");
		if (times == NULL ||
		    fprintf(times, "%.6f %.6f\n", took, cpu) < 0 ||
		    fclose(times) != 0) {
			perror(argv[3]);
			return 1;
		}
	}
	return 0;
}
