/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setloop PATH SECONDS: calls cap_set_file(PATH, "cap_net_raw=ep") in a
 * tight loop for SECONDS and prints "ok N einval N other N". With
 * pathswap flipping PATH between a file and a symlink, this drives the
 * library's race window far harder than running setcap repeatedly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/capability.h>
#include <time.h>

int main(int argc, char **argv)
{
	unsigned long ok = 0, einval = 0, other = 0;
	time_t end;
	cap_t caps;

	if (argc != 3)
		return 2;
	caps = cap_from_text("cap_net_raw=ep");
	end = time(NULL) + atoi(argv[2]);
	while (time(NULL) < end) {
		if (cap_set_file(argv[1], caps) == 0)
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
