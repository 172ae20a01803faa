/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* /proc for libpsx: our task directory, whose ids it lists, each thread's status. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "lpsx.h"

/*
 * Whose ids /proc lists. A procfs shows ids of the PID namespace it was
 * mounted for. A process in a child namespace that still sees its
 * parent's /proc (unshare -p -f without a new mount, as several sandboxes
 * do) finds its threads listed under ids that mean nothing to tgkill()
 * in its own namespace: every signal fails with ESRCH, and a broadcast
 * that took that for "the thread has exited" would report success while
 * every other thread kept its privilege.
 *
 * /proc/thread-self names the caller in /proc's namespace ("P/task/T"),
 * and fails with ENOENT when /proc belongs to a namespace that does not
 * contain us (a sibling's or a child's). The NSpid line of a thread's
 * status gives its id in each namespace from /proc's down to its own, so
 * one field means /proc is ours, and with more, the last field is the id
 * our own system calls know it by. Kernels before 4.1 have no NSpid; there
 * /proc is taken to be ours only if it names us by our own pid and tid,
 * and refused otherwise (ENOTSUP) rather than guessed.
 *
 * /proc must be a proc file system: after a chroot(2) into a tree that
 * someone else can write, a directory with a thread-self link and an
 * empty task list would otherwise make every other thread vanish.
 */

/* A decimal id at *p, up to a character not a digit; 0 if none or too big. */
static pid_t parse_id(const char **p)
{
	long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 99999999)
			return 0;
		v = v * 10 + (*s - '0');
	}
	*p = s;
	return (pid_t)v;
}

/* Reads a link below dirfd as a string; -1 with errno. */
static int read_link(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t n = readlinkat(dirfd, name, buf, size - 1);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * Opens our task directory and says how to read it: *self_ptid is the
 * caller's id there, *translate is set when /proc is an ancestor
 * namespace's. -1 with errno ENOENT (no proc file system at /proc here,
 * or one of a namespace we are not in), ENOTSUP (an ancestor's /proc on a kernel without NSpid),
 * or that of open(2).
 */
int lpsx_proc_open(pid_t *self_ptid, int *translate)
{
	pid_t pid = getpid(), tid = lpsx_gettid(), p, t = 0;
	struct lpsx_task me;
	struct statfs fs;
	char link[64], path[32];
	const char *s = link;
	int procfd, dirfd, saved;

	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -1;
	if (fstatfs(procfd, &fs) < 0)
		goto fail;
	if (fs.f_type != PROC_SUPER_MAGIC) {
		errno = ENOENT;
		goto fail;
	}
	if (read_link(procfd, "thread-self", link, sizeof(link)) == 0) {
		p = parse_id(&s);
		if (strncmp(s, "/task/", 6) == 0) {
			s += 6;
			t = parse_id(&s);
		}
	} else if (errno == ENOENT &&
		   read_link(procfd, "self", link, sizeof(link)) == 0) {
		p = parse_id(&s); /* before Linux 3.17: no thread-self */
	} else {
		goto fail;
	}
	if (p == 0) {
		errno = ENOENT;
		goto fail;
	}
	snprintf(path, sizeof(path), "%d/task", (int)p);
	dirfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		goto fail;
	close(procfd);

	*translate = 0;
	*self_ptid = t != 0 ? t : tid;
	me.levels = 0;
	if (t != 0 && lpsx_proc_task(dirfd, t, &me) < 0) {
		saved = errno;
		close(dirfd);
		errno = saved;
		return -1;
	}
	if (me.levels > 1 && me.tid == tid) {
		*translate = 1; /* an ancestor's /proc: map its ids */
		return dirfd;
	}
	if (me.levels <= 1 && p == pid && (t == 0 || t == tid))
		return dirfd; /* ours (or, without NSpid, taken as ours) */
	close(dirfd);
	errno = ENOTSUP;
	return -1;
fail:
	saved = errno;
	close(procfd);
	errno = saved;
	return -1;
}

/*
 * Which thread a listed id names now: the inode number of its directory
 * in the task directory. Ids are reused, at once in a PID namespace with
 * a small pid_max: a thread that made the call can exit and a thread
 * created by one that has not made it yet can get its id, in the middle
 * of a broadcast, and must not be taken for the first. Each proc inode
 * pins the thread it was made for, and a path lookup revalidates it
 * (a name whose thread has gone gets a new inode, numbered afresh), so
 * two threads never share a number while both are known to us. The
 * numbers of readdir's d_ino are not used: they can come from a cached
 * entry that is not looked at again. -1 with errno: ENOENT when the
 * thread has gone.
 */
int lpsx_proc_ino(int dirfd, pid_t ptid, uint64_t *ino)
{
	struct stat st;
	char name[16];

	snprintf(name, sizeof(name), "%d", (int)ptid);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	*ino = (uint64_t)st.st_ino;
	return 0;
}

/* True for the errors of a thread that has exited meanwhile. */
int lpsx_proc_gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

/* The 64 signals of a SigPnd/SigBlk mask: hex, the last digit signals 1-4. */
static int has_signal(const char *hex, int sig)
{
	uint64_t v = 0;

	for (; *hex != '\0' && *hex != '\n'; hex++) {
		unsigned d;

		if (*hex >= '0' && *hex <= '9')
			d = (unsigned)(*hex - '0');
		else if (*hex >= 'a' && *hex <= 'f')
			d = (unsigned)(*hex - 'a' + 10);
		else
			continue;
		v = (v << 4) | d;
	}
	return (int)((v >> (sig - 1)) & 1);
}

/* Returns 1 after SigBlk:, the last line we need (fs/proc/array.c's order). */
static int parse_line(const char *line, struct lpsx_task *task)
{
	const char *s;

	if (strncmp(line, "State:\t", 7) == 0) {
		task->state = line[7];
	} else if (strncmp(line, "Threads:\t", 9) == 0) {
		s = line + 9;
		task->threads = parse_id(&s);
		if (*s != '\0')
			task->threads = -1;
	} else if (strncmp(line, "SigPnd:\t", 8) == 0) {
		task->pending = has_signal(line + 8, LPSX_SIGNAL);
	} else if (strncmp(line, "SigBlk:\t", 8) == 0) {
		task->blocked = has_signal(line + 8, LPSX_SIGNAL);
		return 1;
	} else if (strncmp(line, "NSpid:", 6) == 0) {
		for (s = line + 6; *s == '\t';) {
			pid_t id;

			s++;
			id = parse_id(&s);
			if (id == 0)
				break;
			task->levels++;
			task->tid = id;
		}
	}
	return 0;
}

/*
 * One thread's status, listed as ptid in the task directory dirfd. Lines
 * are read whole up to 95 bytes (ours are shorter; a long Groups: line
 * is skipped, not allowed to push the rest out of a fixed buffer).
 * -1 with errno: ENOENT or ESRCH when the thread has gone.
 */
int lpsx_proc_task(int dirfd, pid_t ptid, struct lpsx_task *task)
{
	char name[32], buf[2048], line[96];
	size_t len = 0;
	ssize_t n, i;
	int fd, saved, done = 0;

	memset(task, 0, sizeof(*task));
	task->threads = -1;
	snprintf(name, sizeof(name), "%d/status", (int)ptid);
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (!done && (n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n && !done; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			done = parse_line(line, task);
			len = 0;
		}
	}
	saved = errno;
	close(fd);
	if (!done && n < 0) {
		errno = saved;
		return -1;
	}
	if (task->state == '\0') { /* an empty file: the thread went */
		errno = ESRCH;
		return -1;
	}
	return 0;
}
