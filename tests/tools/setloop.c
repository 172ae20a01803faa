/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setloop [-naive] PATH SECONDS: calls cap_set_file(PATH, "cap_net_raw=ep")
 * in a tight loop for SECONDS (a decimal, on the monotonic clock: a loop
 * that ran to the wall clock's next whole second could race for a
 * millisecond) and prints "ok N einval N other N". With
 * pathswap flipping PATH between a file and a symlink, this drives the
 * library's race window far harder than running setcap repeatedly.
 *
 * -naive does what the vulnerable libcap 2.76 did instead (lstat, then
 * setxattr by path), as the race test's control: it shows the test can
 * catch a write that lands on the symlink's target.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>

static int naive_set(const char *path)
{
	static const unsigned char raw[20] = { 1, 0, 0, 2, 0, 0x20 };
	struct stat st;

	if (lstat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	return setxattr(path, "security.capability", raw, sizeof(raw), 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long ok = 0, einval = 0, other = 0;
	int naive = argc == 4 && strcmp(argv[1], "-naive") == 0;
	const char *path;
	double seconds;
	char *rest;
	cap_t caps;

	if (argc != 3 + naive)
		return 2;
	path = argv[1 + naive];
	seconds = strtod(argv[2 + naive], &rest);
	if (*rest != '\0' || !(seconds > 0 && seconds < 3600)) {
		fprintf(stderr, "setloop: %s: not a number of seconds\n",
			argv[2 + naive]);
		return 2;
	}
	caps = cap_from_text("cap_net_raw=ep");
	if (caps == NULL) {
		perror("setloop: cap_from_text");
		return 2;
	}
	for (double start = now(); now() - start < seconds;) {
		int rc = naive ? naive_set(path) : cap_set_file(path, caps);

		if (rc == 0)
			ok++;
		else if (errno == EINVAL)
			einval++;
		else
			other++;
	}
	cap_free(caps);
	printf("ok %lu einval %lu other %lu\n", ok, einval, other);
	return 0;
}
