/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * procfloor [threads|audit|processes]: the least a process audit can
 * read, for bench/getpcaps_all.sh's floor rows. Nothing is parsed or
 * printed beyond what choosing the reads takes and one closing count, so
 * what it costs is the kernel's listing and making of those files.
 *   threads    lists /proc, then each process's task directory, and reads
 *              each thread's status once (open, one read, close)
 *   audit      every thread too, with the fewest reads: each process's
 *              status, and only when its Threads line counts more than one,
 *              its task directory and each other thread's status (what
 *              getpcaps --all reads at least)
 *   processes  each process's status once, no other thread: the main
 *              threads alone, the information pscap shows
 */
#define _GNU_SOURCE
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One getdents64(2) record, as the kernel lays it out. */
struct dirent64 {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

struct counts {
	unsigned long files, bytes, gone;
};

/* Calls each(dfd, name, ...) for every numeric entry of the directory dfd. */
static void each_number(int dfd,
			void (*each)(int, const char *, struct counts *),
			struct counts *c)
{
	char buf[65536];
	long got;

	while ((got = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		long at = 0;

		while (at < got) {
			const struct dirent64 *d = (const void *)(buf + at);

			at += d->reclen;
			if (d->name[0] >= '1' && d->name[0] <= '9')
				each(dfd, d->name, c);
		}
	}
	if (got < 0)
		c->gone++; /* a task directory whose process has gone */
}

/*
 * open, one read, close: dfd/name/status into text (NUL-terminated).
 * Returns 0, or -1 when it has gone.
 */
static int status_of(int dfd, const char *name, char *text, size_t size,
		     struct counts *c)
{
	char path[32];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/status", name);
	fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		c->gone++;
		return -1;
	}
	len = read(fd, text, size - 1);
	close(fd);
	if (len <= 0) {
		c->gone++;
		return -1;
	}
	text[len] = '\0';
	c->files++;
	c->bytes += (unsigned long)len;
	return 0;
}

static void read_status(int dfd, const char *name, struct counts *c)
{
	char text[4096];

	status_of(dfd, name, text, sizeof(text), c);
}

/* The other threads of the process pid, whose main thread's status is read. */
static const char *main_tid;

static void read_other_status(int dfd, const char *name, struct counts *c)
{
	if (strcmp(name, main_tid) != 0)
		read_status(dfd, name, c);
}

static void read_threads(int procfd, const char *pid, struct counts *c)
{
	char path[32];
	int taskfd;

	snprintf(path, sizeof(path), "%s/task", pid);
	taskfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (taskfd < 0) {
		c->gone++;
		return;
	}
	each_number(taskfd, read_status, c);
	close(taskfd);
}

static void read_audit(int procfd, const char *pid, struct counts *c)
{
	char text[4096], path[32];
	const char *threads;
	int taskfd;

	if (status_of(procfd, pid, text, sizeof(text), c) < 0)
		return;
	threads = strstr(text, "\nThreads:\t");
	if (threads != NULL && strncmp(threads + 10, "1\n", 2) == 0)
		return;
	snprintf(path, sizeof(path), "%s/task", pid);
	taskfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (taskfd < 0) {
		c->gone++;
		return;
	}
	main_tid = pid;
	each_number(taskfd, read_other_status, c);
	close(taskfd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "threads";
	struct counts c = { 0, 0, 0 };
	void (*each)(int, const char *, struct counts *);
	int procfd;

	if (strcmp(mode, "threads") == 0)
		each = read_threads;
	else if (strcmp(mode, "audit") == 0)
		each = read_audit;
	else if (strcmp(mode, "processes") == 0)
		each = read_status;
	else
		errx(2, "usage: procfloor [threads|audit|processes]");
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		err(1, "/proc");
	each_number(procfd, each, &c);
	close(procfd);
	printf("%lu status files read (%lu bytes), %lu gone meanwhile\n",
	       c.files, c.bytes, c.gone);
	return 0;
}
