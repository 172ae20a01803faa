/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * idmapbind SRC DST ID SHOWN: binds directory SRC on DST through an
 * idmapped mount (open_tree, mount_setattr with MOUNT_ATTR_IDMAP,
 * move_mount; Linux 5.12) on which files SRC's file system says ID owns
 * show SHOWN as their owner and group, as root may make one of a user's
 * directory ("bob's files, shown as root's"). The mapping is a user
 * namespace of a child made for it, ended once the mount holds it. Exit
 * 0, 1 on failure (the step named), 2 on usage. Used by the root tier's
 * idmapped-mount trust case.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/mount.h>

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	char path[64], map[64], c;
	int ready[2], userns, tree, rc = 1;
	pid_t child;

	if (argc != 5) {
		fprintf(stderr, "usage: idmapbind SRC DST ID SHOWN\n");
		return 2;
	}
	if (pipe(ready) < 0)
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		c = unshare(CLONE_NEWUSER) == 0 ? 'r' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1 || c != 'r') {
		fprintf(stderr,
			"idmapbind: no user namespace for the mapping\n");
		goto out;
	}
	/* inside the namespace ID, outside SHOWN: a file of ID shows SHOWN */
	snprintf(map, sizeof(map), "%s %s 1\n", argv[3], argv[4]);
	snprintf(path, sizeof(path), "/proc/%ld/uid_map", (long)child);
	if (write_file(path, map) < 0) {
		perror("idmapbind: uid_map");
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%ld/gid_map", (long)child);
	if (write_file(path, map) < 0) {
		perror("idmapbind: gid_map");
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%ld/ns/user", (long)child);
	userns = open(path, O_RDONLY | O_CLOEXEC);
	tree = (int)syscall(SYS_open_tree, AT_FDCWD, argv[1],
			    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (userns < 0 || tree < 0) {
		perror("idmapbind: open_tree");
		goto out;
	}
	attr.userns_fd = (unsigned long long)userns;
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr,
		    sizeof(attr)) < 0) {
		perror("idmapbind: mount_setattr");
		goto out;
	}
	if (syscall(SYS_move_mount, tree, "", AT_FDCWD, argv[2],
		    MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		perror("idmapbind: move_mount");
		goto out;
	}
	rc = 0;
out:
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return rc;
}
