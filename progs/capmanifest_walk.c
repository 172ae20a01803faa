/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capmanifest: recording which regular files below a root carry capabilities. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capmanifest.h"

/* nftw() offers no closure argument: the walk's state lives here. */
static struct manifest *walk_manifest;
static size_t walk_root_len;
static int walk_status;

static int record_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	char relative[4096];
	cap_t caps;
	char *text;

	(void)ftw;
	if (type == FTW_DNR) {
		fprintf(stderr, "capmanifest: cannot read directory %s: %s\n",
			path, strerror(EACCES));
		walk_status = -1;
		return 0;
	}
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	caps = cap_get_file(path);
	if (caps == NULL) {
		if (errno != ENODATA && errno != ENOTSUP && errno != ENOENT) {
			fprintf(stderr, "capmanifest: %s: %s\n", path, strerror(errno));
			walk_status = -1;
		}
		return 0;
	}
	if ((size_t)snprintf(relative, sizeof(relative), ".%s",
			     path + walk_root_len) >= sizeof(relative)) {
		/* A cut path would name another file: refuse, never record it. */
		fprintf(stderr, "capmanifest: %s: %s\n", path,
			strerror(ENAMETOOLONG));
		walk_status = -1;
		cap_free(caps);
		return 0;
	}
	text = cap_to_text(caps, NULL);
	if (text == NULL ||
	    manifest_add(walk_manifest, relative, text, cap_get_nsowner(caps)) < 0) {
		fprintf(stderr, "capmanifest: %s: %s\n", path, strerror(errno));
		walk_status = -1;
	}
	cap_free(text);
	cap_free(caps);
	return 0;
}

int manifest_record(struct manifest *m, const char *root, int one_fs)
{
	struct stat st;
	size_t len = strlen(root);

	if (lstat(root, &st) < 0) {
		fprintf(stderr, "capmanifest: %s: %s\n", root, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "capmanifest: %s: not a directory\n", root);
		return -1;
	}
	while (len > 1 && root[len - 1] == '/')
		len--;		/* "tree/" and "tree" record the same paths */
	walk_manifest = m;
	walk_root_len = len == 1 && root[0] == '/' ? 0 : len;
	walk_status = 0;
	/* FTW_PHYS: never follow symlinks; FTW_MOUNT: stay on one filesystem. */
	if (nftw(root, record_one, 64, FTW_PHYS | (one_fs ? FTW_MOUNT : 0)) < 0) {
		fprintf(stderr, "capmanifest: %s: %s\n", root, strerror(errno));
		return -1;
	}
	manifest_sort(m);
	return walk_status;
}
