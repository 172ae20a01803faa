/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A library for tests/root/capaudit_trials.sh, loaded by
 * capaudit_hostile --dlopen: its code runs with whatever the program
 * that loads it holds. escalate(FILE): setuid(0), then creates FILE,
 * which is root's then; 0, or -1 when setuid is refused.
 */
#include <fcntl.h>
#include <unistd.h>

int escalate(const char *file);

int escalate(const char *file)
{
	int fd;

	if (setuid(0) < 0)
		return -1;
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return 0;
}
