/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Builds the deterministic getcap benchmark tree: files, caps, links, empties. */
#include <err.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define FILES_PER_DIR 100
#define SUBDIRS	      50 /* leaf directories per top-level one */

/* A revision-2 value, little-endian words (see private/cap_xattr.h). */
static void put_caps(int fd, unsigned n)
{
	static const uint32_t lo[] = { 1u << 13, 1u << 12 | 1u << 10, 1u << 5,
				       0, 1u << 21 };
	static const uint32_t hi[] = { 0, 0, 0, 1u << 6, 1u << 7 };
	unsigned char v[20] = { 0 };
	uint32_t w[5];
	int i, j;

	w[0] = 0x02000000u | (n % 3 == 0); /* effective on a third */
	w[1] = lo[n % 5];
	w[2] = n % 7 == 0 ? 1u : 0;
	w[3] = hi[n % 5];
	w[4] = 0;
	for (i = 0; i < 5; i++)
		for (j = 0; j < 4; j++)
			v[4 * i + j] = (unsigned char)(w[i] >> (8 * j));
	if (fsetxattr(fd, "security.capability", v, sizeof(v), 0) < 0)
		err(1, "fsetxattr");
}

int main(int argc, char **argv)
{
	unsigned total, n = 0, top = 0, sub;
	char path[256];

	if (argc != 3)
		errx(2, "usage: gentree <new-dir> <files>");
	total = (unsigned)strtoul(argv[2], NULL, 10);
	if (mkdir(argv[1], 0755) < 0 || chdir(argv[1]) < 0)
		err(1, "%s", argv[1]);
	while (n < total) {
		snprintf(path, sizeof(path), "top%03u", top);
		if (mkdir(path, 0755) < 0)
			err(1, "%s", path);
		for (sub = 0; sub < SUBDIRS && n < total; sub++) {
			unsigned f;

			snprintf(path, sizeof(path), "top%03u/d%02u", top, sub);
			if (mkdir(path, 0755) < 0)
				err(1, "%s", path);
			for (f = 0; f < FILES_PER_DIR && n < total; f++, n++) {
				int fd;

				snprintf(path, sizeof(path),
					 "top%03u/d%02u/f%03u", top, sub, f);
				fd = open(path, O_WRONLY | O_CREAT | O_EXCL,
					  0644);
				if (fd < 0)
					err(1, "%s", path);
				if (n % 100 == 37) /* 1% with capabilities */
					put_caps(fd, n / 100);
				close(fd);
			}
			/* A symlink per directory, and an empty one every tenth. */
			snprintf(path, sizeof(path), "top%03u/d%02u/link", top,
				 sub);
			if (symlink("f000", path) < 0)
				err(1, "%s", path);
			if (sub % 10 == 0) {
				snprintf(path, sizeof(path),
					 "top%03u/d%02u/empty", top, sub);
				if (mkdir(path, 0755) < 0)
					err(1, "%s", path);
			}
		}
		top++;
	}
	return 0;
}
