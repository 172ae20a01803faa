/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_loop N FILE: a capability-heavy loop for bench/capaudit.sh:
 * N chowns of FILE to uid 1 and 2 in turn; as root each one is a granted
 * cap_chown check (the caller is not the file's owner), so the loop makes
 * N checks in N system calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n, refused = 0;

	if (argc != 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: capaudit_loop N FILE\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (chown(argv[2], (i & 1) ? 1 : 2, (gid_t)-1) < 0)
			refused++;
	if (refused) {
		fprintf(stderr, "capaudit_loop: %ld of %ld chowns refused\n", refused, n);
		return 1;
	}
	return 0;
}
