/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Small text files read whole (see textfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "textfile.h"

ssize_t text_file_read(const char *path, char *buf, size_t size)
{
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (got + 1 < size) {
		ssize_t n = read(fd, buf + got, size - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (size > 0)
		buf[got] = '\0';
	return (ssize_t)got;
}
