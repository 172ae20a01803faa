/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest add into the Debian package's trigger directory: what the
 * trigger will and will not do with the registration, said while the
 * administrator is there to act on it, not after the next upgrade. The
 * trigger reads the TRIGGER_DIR files named NAME.manifest only, and after an upgrade it
 * takes a file's new content only where root alone could have put it
 * (restore --accept-new-content): so add refuses a manifest name the
 * trigger never reads, and warns about each file whose new version it
 * would refuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capmanifest.h"
#include "escape.h"

/* 1 when dir (a path) is TRIGGER_DIR or below it; *top set when it is it. */
static int in_trigger_dir(const char *dir, int *top)
{
	char *canon = realpath(dir, NULL), *trig = realpath(TRIGGER_DIR, NULL);
	size_t n;
	int below = 0;

	*top = 0;
	if (canon != NULL && trig != NULL) {
		n = strlen(trig);
		below = strncmp(canon, trig, n) == 0 &&
			(canon[n] == '\0' || canon[n] == '/');
		*top = below && canon[n] == '\0';
	}
	free(canon);
	free(trig);
	return below;
}

/* Would the trigger's pattern (see capmanifest.h) take base? */
static int trigger_reads(const char *base)
{
	size_t len = strlen(base), slen = strlen(TRIGGER_SUFFIX);

	return base[0] != '.' && len > slen &&
	       strcmp(base + len - slen, TRIGGER_SUFFIX) == 0;
}

int register_check_name(const struct target *t, int *for_trigger)
{
	const char *stem = t->base;
	char *name;
	size_t len, slen = strlen(TRIGGER_SUFFIX);
	int top;

	*for_trigger = in_trigger_dir(t->dir, &top);
	if (!*for_trigger || (top && trigger_reads(t->base)))
		return 0;
	/* The name it should have had: no leading dots, the suffix once. */
	while (*stem == '.')
		stem++;
	len = strlen(stem);
	if (len >= slen && strcmp(stem + len - slen, TRIGGER_SUFFIX) == 0)
		len -= slen;
	fputs("capmanifest: ", stderr);
	escape_fputs(t->path, stderr);
	fputs(": refused: the package trigger reads only " TRIGGER_DIR
	      "/*" TRIGGER_SUFFIX
	      " (no name starting with '.', nothing in a subdirectory), so it would never restore these files; name it " TRIGGER_DIR
	      "/",
	      stderr);
	name = len > 0 ? strndup(stem, len) : NULL;
	escape_fputs(name != NULL ? name : "local", stderr);
	fputs(TRIGGER_SUFFIX "\n", stderr);
	free(name);
	return 1;
}

static const char *const watched[] = { TRIGGER_PATHS };

/* Is path ("./usr/bin/perf") in a tree the trigger watches? */
static int watched_path(const char *path)
{
	size_t i, n;

	for (i = 0; i < sizeof(watched) / sizeof(watched[0]); i++) {
		n = strlen(watched[i]);
		if (strncmp(path + 1, watched[i], n) == 0 && path[1 + n] == '/')
			return 1;
	}
	return 0;
}

/* The warning for one entry, or nothing when the trigger would take it. */
static void check_entry(int rootfd, const struct entry *e)
{
	char why[WHY_SIZE];
	struct stat st;
	struct way way;
	int fd, rc = 0;
	size_t i;

	if (!watched_path(e->path)) {
		fputs("capmanifest: warning: ", stderr);
		print_escaped(stderr, e->path);
		fputs(": the package trigger runs when a package installs a file below ",
		      stderr);
		for (i = 0; i < sizeof(watched) / sizeof(watched[0]); i++)
			fprintf(stderr, "%s%s", i == 0 ? "" : ", ", watched[i]);
		fputs(" only: a package replacing this one will not run it\n",
		      stderr);
		return;
	}
	fd = open_checked_beneath(rootfd, e->path, &st, &way);
	why[0] = '\0';
	if (fd < 0) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
	} else if (st.st_uid != 0) {
		snprintf(why, sizeof(why), "uid %u owns it",
			 (unsigned)st.st_uid);
	} else if (way.root_only) {
		rc = writers_besides(fd, &st, 0, why);
		if (rc < 0)
			snprintf(why, sizeof(why), "%s", strerror(errno));
		else if (rc == 0)
			why[0] = '\0';
	}
	if (fd >= 0)
		close(fd);
	if (fd >= 0 && !way.root_only) {
		fputs("capmanifest: warning: ", stderr);
		print_escaped(stderr, e->path);
		fputs(": ", stderr);
		print_way(stderr, &way);
	} else if (why[0] != '\0') {
		fputs("capmanifest: warning: ", stderr);
		print_escaped(stderr, e->path);
		fprintf(stderr, ": %s", why);
	} else {
		return;
	}
	fputs(": after an upgrade replaces it, the package trigger will not take its new content (it takes new content only where root alone could have put it)\n",
	      stderr);
}

void register_check_files(const struct manifest *added)
{
	int rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	size_t i;

	if (rootfd < 0)
		return; /* add itself has just opened it */
	for (i = 0; i < added->count; i++)
		check_entry(rootfd, &added->entries[i]);
	close(rootfd);
}
