/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * pathswap A B SECONDS: atomically exchanges the directory entries A and B
 * (renameat2 RENAME_EXCHANGE) as fast as it can for SECONDS, or until
 * SIGTERM, so a program working on A meanwhile sees a regular file and a
 * symlink in turn. Used by the root tier's race tests: a test that counts
 * its attempts ends it with SIGTERM once it made enough. Prints the swap
 * count.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct timespec now, end;
	unsigned long swaps = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: pathswap A B SECONDS\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += atoi(argv[3]);
	do {
		int i;

		for (i = 0; i < 256; i++) {
			if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2],
				      RENAME_EXCHANGE) < 0) {
				perror("renameat2");
				return 1;
			}
			swaps++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (!stop &&
		 (now.tv_sec < end.tv_sec ||
		  (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec)));
	printf("%lu\n", swaps);
	return 0;
}
