/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Directories processes hold on mounts that no namespace shows
 * (mountsearch.h).
 *
 * A mount unmounted lazily (umount -l, MNT_DETACH) leaves every
 * namespace at once but lives on, writable as it was, while anything
 * holds it: a descriptor of a directory on it, a working directory, a
 * root. From such a directory a user walks down, or up by ".." to the
 * mount's root, and writes whatever he reaches; no namespace lists the
 * mount. So every directory each process holds is looked at, in every
 * thread (one made by clone(2) without CLONE_FILES or CLONE_FS has a file
 * table, a working directory and a root of its own): one on a mount the
 * search did not judge may reach the directory, whatever file system it
 * is on (a writable mount below it, unmounted with it, is reached through
 * it still). So may a mount namespace that a descriptor holds and whose
 * mounts were not judged (where the kernel could not list every one).
 *
 * A descriptor in flight (sent with SCM_RIGHTS, not yet received) is in
 * no process's table: the socket holding it is judged a way, as its
 * contents cannot be told.
 *
 * Not seen: the processes of another pid namespace; and a file registered
 * with an io_uring (IORING_REGISTER_FILES), which is in no process's
 * table either and which the ring's owner installs in one again when he
 * likes (IORING_OP_FIXED_FD_INSTALL, Linux 6.8); the ring itself may be
 * in no table (IORING_SETUP_REGISTERED_FD_ONLY), and its fdinfo names a
 * registered file's last component alone, never its mount. Nor is the
 * look a snapshot: a user who holds such a directory in a process the
 * look has yet to reach (a higher pid) opens it again, while it looks
 * at others, in one it has passed (through /proc/PID/fd/N of his own
 * process, or pidfd_getfd(2)), and closes the first; each search made
 * again gives him another try, and a try gone wrong only another
 * search.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountkernel.h"
#include "mountsearch.h"

/* include/uapi/linux/kcmp.h */
#define KCMP_FILES 2
#define KCMP_FS	   3

/* A process or thread gone, or a descriptor closed, since it was listed. */
static int gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

/*
 * A process whose links root may not follow (ptrace_may_access() refused
 * by a security module, or a process of a user namespace above root's):
 * its holder is more privileged than root, and may change mounts as it
 * likes whatever is found here; no user reaches its descriptors either.
 */
static int beyond_root(int err)
{
	return err == EACCES || err == EPERM;
}

static int is_number(const char *name)
{
	return name[0] != '\0' && strspn(name, "0123456789") == strlen(name);
}

/*
 * Whether thread tid shares what of process pid (KCMP_FILES, KCMP_FS):
 * then pid's is judged already. Unknown (no kcmp(2)): judged again.
 */
static int shares(long pid, long tid, int what)
{
#ifdef SYS_kcmp
	if (pid == tid)
		return 0;
	return syscall(SYS_kcmp, pid, tid, what, 0, 0) == 0;
#else
	(void)pid;
	(void)tid;
	(void)what;
	return 0;
#endif
}

/*
 * How many descriptors were sent through the socket at path (a /proc
 * link of a descriptor) and not yet received: its fdinfo's "scm_fds"
 * (Linux 5.7; a listening socket's counts those sent to connections not
 * yet accepted). 0 where the kernel does not say; -1 with errno.
 */
static long sent_unreceived(const char *path)
{
	char info[128], text[512], *at;
	const char *fd = strstr(path, "/fd/");
	ssize_t n;
	int f;

	if (fd == NULL) /* cwd or root: never a socket */
		return 0;
	snprintf(info, sizeof(info), "%.*sfdinfo/%s", (int)(fd - path + 1),
		 path, fd + 4);
	f = open(info, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return -1;
	n = read(f, text, sizeof(text) - 1);
	close(f);
	if (n < 0)
		return -1;
	text[n] = '\0';
	at = strstr(text, "\nscm_fds:");
	return at == NULL ? 0 : strtol(at + 9, NULL, 10);
}

/*
 * The held thing at path (a /proc magic link) of process pid: 0 when it
 * is no way to the directory, 1 with why when it may be one, -1 with why
 * when it cannot be told.
 */
static int judge_held(struct view_search *s, const char *path, long pid,
		      dev_t nsfs)
{
	char text[64];
	struct statx sx;
	unsigned long ino;
	ssize_t n;

	/*
	 * What is cached, never asked of the file system: the file may be
	 * on FUSE, whose daemon (a user's) need never answer, and the type
	 * and mount are the kernel's own anyway.
	 */
	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_MOUNT_ID_OLD, &sx) < 0) {
		if (gone(errno) || beyond_root(errno))
			return 0;
		search_say(s, "what process %ld holds cannot be told (%s: %s)",
			   pid, path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(sx.stx_mode)) {
		if (!(sx.stx_mask & STATX_MOUNT_ID_OLD)) {
			search_say(
				s,
				"which mount a directory process %ld holds is on cannot be told",
				pid);
			return -1;
		}
		if (search_mount_seen(s, sx.stx_mnt_id))
			return 0;
		search_say(
			s,
			"process %ld holds a directory on a mount that no mount namespace shows (one unmounted lazily?), by which a write may reach it",
			pid);
		s->unseen = 1;
		return 1;
	}
	if (S_ISSOCK(sx.stx_mode)) {
		/*
		 * A descriptor sent (SCM_RIGHTS) and not yet received is in
		 * no process's table, and neither is what it holds: a
		 * directory on a mount unmounted lazily, kept so while the
		 * search looks, then received and written through. What is
		 * in flight cannot be told; a daemon's fds pass quickly,
		 * and the search is made again (mountlist.c).
		 */
		long sent = sent_unreceived(path);

		if (sent < 0 && (gone(errno) || beyond_root(errno)))
			return 0;
		if (sent < 0) {
			search_say(
				s,
				"what process %ld holds cannot be told (%s: %s)",
				pid, path, strerror(errno));
			return -1;
		}
		if (sent == 0)
			return 0;
		search_say(
			s,
			"process %ld holds a socket with descriptors sent through it and not received (%ld), which may hold a way to it",
			pid, sent);
		s->unseen = 1;
		return 1;
	}
	if (makedev(sx.stx_dev_major, sx.stx_dev_minor) != nsfs)
		return 0;
	n = readlink(path, text, sizeof(text) - 1);
	if (n < 0 && (gone(errno) || beyond_root(errno)))
		return 0;
	if (n < 0) {
		search_say(s, "what process %ld holds cannot be told (%s: %s)",
			   pid, path, strerror(errno));
		return -1;
	}
	text[n] = '\0';
	if (sscanf(text, "mnt:[%lu]", &ino) != 1 ||
	    search_ns_known(s, (ino_t)ino, 0))
		return 0;
	search_say(
		s,
		"process %ld holds mount namespace mnt:[%lu], whose mounts were not judged",
		pid, ino);
	s->unseen = 1;
	return 1;
}

/* Thread tid of process pid: its descriptors, working directory, root. */
static int judge_thread(struct view_search *s, long pid, long tid, dev_t nsfs)
{
	static const char *const fs_links[] = { "cwd", "root" };
	char path[96];
	struct dirent *de;
	size_t i;
	int rc = 0;
	DIR *d;

	for (i = 0; i < 2 && rc == 0 && !shares(pid, tid, KCMP_FS); i++) {
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/%s", pid, tid,
			 fs_links[i]);
		rc = judge_held(s, path, pid, nsfs);
	}
	if (rc != 0 || shares(pid, tid, KCMP_FILES))
		return rc;
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/fd", pid, tid);
	d = opendir(path);
	if (d == NULL)
		return gone(errno) || beyond_root(errno) ? 0 : -1;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (!is_number(de->d_name))
			continue;
		/*
		 * Each descriptor, not each process: a user's threads, each
		 * with a table of its own as large as RLIMIT_NOFILE lets him,
		 * take minutes to look at, and a login must not wait.
		 */
		if (search_budget(s, 0) < 0) {
			rc = -1;
			break;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/fd/%ld", pid,
			 tid, atol(de->d_name));
		rc = judge_held(s, path, pid, nsfs);
	}
	closedir(d);
	return rc;
}

static int judge_process(struct view_search *s, long pid, dev_t nsfs)
{
	char path[64];
	struct dirent *de;
	int rc = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	d = opendir(path);
	if (d == NULL)
		return gone(errno) || beyond_root(errno) ? 0 : -1;
	while (rc == 0 && (de = readdir(d)) != NULL)
		if (is_number(de->d_name))
			rc = search_budget(s, 0) < 0
				     ? -1
				     : judge_thread(s, pid, atol(de->d_name),
						    nsfs);
	closedir(d);
	return rc;
}

int search_held_mounts(struct view_search *s)
{
	struct stat ns;
	struct dirent *de;
	int rc = 0, saved;
	DIR *d;

	if (stat("/proc/thread-self/ns/mnt", &ns) < 0 ||
	    (d = opendir("/proc")) == NULL) {
		if (errno == ENOMEM)
			s->why[0] = '\0';
		else
			search_say(
				s,
				"what processes hold cannot be read (/proc: %s)",
				strerror(errno));
		return -1;
	}
	while (rc == 0 && (errno = 0, de = readdir(d)) != NULL)
		if (is_number(de->d_name) && atol(de->d_name) != (long)getpid())
			rc = search_budget(s, 0) < 0
				     ? -1
				     : judge_process(s, atol(de->d_name),
						     ns.st_dev);
	if (rc == 0 && errno != 0) {
		search_say(s, "/proc cannot be listed (%s)", strerror(errno));
		rc = -1;
	}
	if (rc < 0 && s->why[0] == '\0' && errno != ENOMEM)
		search_say(s, "what processes hold cannot be read (%s)",
			   strerror(errno));
	saved = errno;
	closedir(d);
	errno = saved;
	return rc;
}
