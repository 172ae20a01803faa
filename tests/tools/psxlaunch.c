/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxlaunch: cap_launch() with a chroot from a threaded program, linked
 * with libpsx as libcap documents (bin/psxlaunch), with libpsx.a and
 * -Wl,-wrap,pthread_create (psxlaunch-static) and without libpsx
 * (psxlaunch-nopsx).
 *
 *   psxlaunch DIR
 *
 * DIR holds "target" (a static program, tests/tools/chroot/target.c),
 * "marker" and an empty proc/self/task, watched with inotify: a child
 * that opens it is using libpsx after its chroot, where our libpsx (as
 * libcap's) lists the threads to broadcast to. Before the fix it opened
 * it to clear E after chroot(2), and in a chroot without that directory
 * libpsx refused, so the child exec'd with E still raised; a libpsx that
 * cannot list threads after its call kills the process instead.
 * With three threads alive the main thread launches:
 *   1. /target chrooted in DIR, after setuid(0), setgroups, mode HYBRID
 *      and the IAB "!cap_sys_module": the child runs target, which exits 0
 *      when it sees /marker and no cap_sys_module in its bounding set;
 *   2. /missing chrooted in DIR: cap_launch() returns -1, errno ECHILD;
 *   3. /target chrooted in DIR/nonexistent: -1, ECHILD as well.
 * and counts the opens of DIR/proc/self/task (none may happen). Then the
 * parent clears E with cap_set_proc(): with libpsx every thread must show
 * CapEff 0 (the launches left the parent's routing alone), without it the
 * three others keep theirs. Prints one line per check; exit 0 when all hold.
 *
 * Runs as root with the full capability sets.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#define NWORKERS 3

/* Defined only when libpsx is linked in. */
long psx_syscall3(long nr, long a1, long a2, long a3) __attribute__((weak));

static int pipefd[2];
static int failures;

static void *worker(void *arg)
{
	char byte;

	(void)arg;
	/* Blocked until the end: a thread libpsx must reach. */
	if (read(pipefd[0], &byte, 1) < 0)
		perror("worker read");
	return NULL;
}

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

/* cap_launch(), then how it ended, as one word for the caller to compare. */
static const char *launch(cap_launch_t attr, char *buf, size_t len)
{
	pid_t pid;
	int status;

	errno = 0;
	pid = cap_launch(attr, NULL);
	if (pid < 0) {
		snprintf(buf, len, "-1/%s", strerrorname_np(errno));
		return buf;
	}
	if (waitpid(pid, &status, 0) != pid)
		snprintf(buf, len, "waitpid: %s", strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	return buf;
}

static cap_launch_t launcher(const char *arg0, const char *root)
{
	static const char *argv[] = { "target", NULL };
	static const gid_t groups[] = { 0 };
	cap_launch_t attr = cap_new_launcher(arg0, argv, NULL);

	if (attr == NULL || cap_launcher_set_chroot(attr, root) < 0 ||
	    cap_launcher_setuid(attr, 0) < 0 ||
	    cap_launcher_setgroups(attr, 0, 1, groups) < 0 ||
	    cap_launcher_set_mode(attr, CAP_MODE_HYBRID) < 0 ||
	    cap_launcher_set_iab(attr, cap_iab_from_text("!cap_sys_module"))) {
		perror("building the launcher");
		exit(2);
	}
	return attr;
}

/* Opens of the watched directory since the last call (-1: unreadable). */
static int opens_seen(int fd)
{
	char buf[4096]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	int opens = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (p < buf + n) {
			const struct inotify_event *ev = (const void *)p;

			opens += (ev->mask & IN_OPEN) != 0;
			p += sizeof(*ev) + ev->len;
		}
	}
	return n < 0 && errno != EAGAIN ? -1 : opens;
}

/* How many threads show a non-zero CapEff. */
static int threads_with_effective(int *threads)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;
	int with = 0;

	*threads = 0;
	while (dir != NULL && (d = readdir(dir)) != NULL) {
		char path[300], line[256];
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status",
			 d->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		++*threads;
		while (fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "CapEff:", 7) == 0 &&
			    strtoull(line + 7, NULL, 16) != 0)
				with++;
		fclose(f);
	}
	if (dir != NULL)
		closedir(dir);
	return with;
}

int main(int argc, char **argv)
{
	pthread_t tids[NWORKERS];
	char path[4096], got[64];
	cap_launch_t attr;
	cap_t caps;
	int i, threads, with, watch, opens, psx = psx_syscall3 != NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: psxlaunch DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("libpsx %s\n", psx ? "linked" : "not linked");
	if (pipe(pipefd) < 0)
		return 2;
	for (i = 0; i < NWORKERS; i++)
		if (pthread_create(&tids[i], NULL, worker, NULL) != 0)
			return 2;

	/* The events are queued by the open itself: none can arrive late. */
	snprintf(path, sizeof(path), "%s/proc/self/task", argv[1]);
	watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (watch < 0 || inotify_add_watch(watch, path, IN_OPEN) < 0) {
		perror(path);
		return 2;
	}

	attr = launcher("/target", argv[1]);
	printf("chroot, run /target: %s\n", launch(attr, got, sizeof(got)));
	check(strcmp(got, "exit 0") == 0, "the target ran in the chroot");
	opens = opens_seen(watch);
	printf("the child listed /proc/self/task in the chroot %d times\n",
	       opens);
	check(opens == 0, "the child broadcast nothing after its chroot");
	cap_free(attr);

	attr = launcher("/missing", argv[1]);
	printf("chroot, run /missing: %s\n", launch(attr, got, sizeof(got)));
	check(strcmp(got, "-1/ECHILD") == 0, "a failed exec is -1, ECHILD");
	check(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	      "the failed child was reaped");
	cap_free(attr);

	snprintf(path, sizeof(path), "%s/nonexistent", argv[1]);
	attr = launcher("/target", path);
	printf("chroot into a missing directory: %s\n",
	       launch(attr, got, sizeof(got)));
	check(strcmp(got, "-1/ECHILD") == 0, "a failed chroot is -1, ECHILD");
	cap_free(attr);

	/* The parent's own changes still reach every thread (or, without
	 * libpsx, only the calling one). */
	caps = cap_get_proc();
	if (caps == NULL || cap_clear_flag(caps, CAP_EFFECTIVE) < 0 ||
	    cap_set_proc(caps) < 0) {
		perror("clearing E");
		return 2;
	}
	cap_free(caps);
	with = threads_with_effective(&threads);
	printf("after cap_set_proc: %d threads, %d with CapEff\n", threads,
	       with);
	check(threads == NWORKERS + 1 && with == (psx ? 0 : NWORKERS),
	      psx ? "the parent still changes every thread"
		  : "without libpsx only the main thread changed");

	for (i = 0; i < NWORKERS; i++)
		if (write(pipefd[1], "x", 1) != 1)
			return 2;
	for (i = 0; i < NWORKERS; i++)
		pthread_join(tids[i], NULL);
	return failures == 0 ? 0 : 1;
}
