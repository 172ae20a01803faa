/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setloop [-naive] PATH SECONDS: calls cap_set_file(PATH, "cap_net_raw=ep")
 * in a tight loop for SECONDS and prints "ok N einval N other N". With
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

int main(int argc, char **argv)
{
	unsigned long ok = 0, einval = 0, other = 0;
	int naive = argc == 4 && strcmp(argv[1], "-naive") == 0;
	const char *path;
	time_t end;
	cap_t caps;

	if (argc != 3 + naive)
		return 2;
	path = argv[1 + naive];
	caps = cap_from_text("cap_net_raw=ep");
	end = time(NULL) + atoi(argv[2 + naive]);
	while (time(NULL) < end) {
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
