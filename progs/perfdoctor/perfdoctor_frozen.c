/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Is a process frozen by a cgroup v1 freezer: a container paused with
 * podman pause or docker pause where cgroup v1 holds the freezer (the
 * hybrid layout)? Such a process takes no ptrace stop until it is thawed,
 * whatever it was doing, and its state and wait channel do not tell
 * (a task frozen in a freezable sleep keeps both); its cgroup's
 * freezer.state does. perfdoctor_ptrace.c asks before it waits for a
 * stop. cgroup v2's freezer lets a frozen task take the stop, so its
 * cgroups need no answer here.
 */
#define _GNU_SOURCE /* getline */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mounts.h"
#include "perfdoctor.h"

/* Does the comma-separated list hold word? */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (list != NULL && *list != '\0') {
		if (strncmp(list, word, n) == 0 &&
		    (list[n] == ',' || list[n] == '\0'))
			return 1;
		list = strchr(list, ',');
		if (list != NULL)
			list++;
	}
	return 0;
}

/* The process's cgroup in the freezer hierarchy (its /proc dir is dfd). */
static int freezer_cgroup(int dfd, char *buf, size_t len)
{
	char text[16384], *line, *save = NULL;
	int fd = openat(dfd, "cgroup", O_RDONLY | O_CLOEXEC);
	size_t have = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (have < sizeof(text) - 1 &&
	       (n = read(fd, text + have, sizeof(text) - 1 - have)) > 0)
		have += (size_t)n;
	close(fd);
	text[have] = '\0';
	/* hierarchy-id:controllers:path */
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *controllers = strchr(line, ':'), *path;

		path = controllers != NULL ? strchr(controllers + 1, ':')
					   : NULL;
		if (path == NULL)
			continue;
		*path++ = '\0';
		if (has_word(controllers + 1, "freezer") && path[0] == '/' &&
		    strlen(path) < len) {
			strcpy(buf, path);
			return 0;
		}
	}
	return -1;
}

/* Is cgroup (a path in the hierarchy mount m shows) FROZEN or FREEZING? */
static int state_frozen(const struct mount_entry *m, const char *cgroup)
{
	size_t rl = strlen(m->root);
	char file[8192], state[32];
	ssize_t n;
	int fd;

	if (strcmp(m->root, "/") == 0)
		rl = 0;
	else if (strncmp(cgroup, m->root, rl) != 0 ||
		 (cgroup[rl] != '/' && cgroup[rl] != '\0'))
		return 0; /* not below this mount's root */
	if (snprintf(file, sizeof(file), "%s%s/freezer.state",
		     strcmp(m->point, "/") == 0 ? "" : m->point,
		     cgroup + rl) >= (int)sizeof(file))
		return 0;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	n = read(fd, state, sizeof(state) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	state[n] = '\0';
	return strncmp(state, "FROZEN", 6) == 0 ||
	       strncmp(state, "FREEZING", 8) == 0;
}

int process_frozen(int dfd)
{
	char cgroup[4096], *line = NULL;
	struct mount_entry m;
	size_t cap = 0;
	int frozen = 0;
	FILE *f;

	if (freezer_cgroup(dfd, cgroup, sizeof(cgroup)) < 0)
		return 0;
	f = fopen("/proc/self/mountinfo", "re");
	if (f == NULL)
		return 0;
	while (!frozen && getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (mountinfo_parse_line(line, &m) == 0 &&
		    strcmp(m.fstype, "cgroup") == 0 &&
		    has_word(m.super_opts, "freezer"))
			frozen = state_frozen(&m, cgroup);
	}
	free(line);
	fclose(f);
	return frozen;
}
