/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * For suites whose files must be root's (pam_cap reads no capability.conf
 * anyone but root could have written, common/path_trust.h): run by
 * another user, the suite goes on in a user namespace of its own where
 * that user is root, so the files it makes are root's there, and those of
 * real root (/, /tmp) show the overflow id, which such a namespace trusts.
 * Without user namespaces it skips (77). The includer defines _GNU_SOURCE
 * (unshare) before its first include.
 */
#ifndef CHECK_USERNS_H
#define CHECK_USERNS_H

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_proc_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		printf("skipped: cannot write %s\n", path);
		exit(77);
	}
	close(fd);
}

static void check_as_root(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (uid == 0)
		return;
	if (unshare(CLONE_NEWUSER) < 0) {
		printf("skipped: not root, and no user namespace to be root in\n");
		exit(77);
	}
	write_proc_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %lu 1\n", (unsigned long)uid);
	write_proc_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %lu 1\n", (unsigned long)gid);
	write_proc_file("/proc/self/gid_map", map);
}

#endif
