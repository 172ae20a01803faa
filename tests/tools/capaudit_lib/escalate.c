/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A library for tests/root/capaudit_trials.sh, loaded by
 * capaudit_hostile --dlopen: its code runs with whatever the program
 * that loads it holds. escalate(FILE): setuid(0), then creates FILE,
 * which is root's then; 0, or -1 when setuid is refused.
 * record_caps(FILE): appends the CapEff line of /proc/self/status to
 * FILE, what its code ran with; 0, or -1.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int escalate(const char *file);
int record_caps(const char *file);

int record_caps(const char *file)
{
	char buf[4096], *line, *end;
	ssize_t n;
	int fd;

	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	line = strstr(buf, "\nCapEff:");
	if (line == NULL || (end = strchr(++line, '\n')) == NULL)
		return -1;
	fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	n = write(fd, line, (size_t)(end - line + 1));
	close(fd);
	return n == end - line + 1 ? 0 : -1;
}

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
