/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * truncopen FILE: open(FILE, O_RDONLY | O_TRUNC), the one way to empty a
 * file that does not break another process's read lease on it (the
 * kernel breaks read leases only for opens for writing), then close it.
 * The opener needs write permission all the same. Used by the root
 * tier's capmanifest lease case.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: truncopen FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	close(fd);
	return 0;
}
