/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * What the libpsx unit suites (check_psx, check_psx_signal) share: reading
 * every thread's state from /proc, worker threads in various states, and
 * run_child, which runs each scenario in a process of its own (valgrind
 * runs Check without forking, and a scenario's threads and signal
 * dispositions must not outlive it).
 */
#ifndef CHECK_PSX_H
#define CHECK_PSX_H

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FAIL(...)                             \
	do {                                  \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr);          \
		return 1;                     \
	} while (0)

static inline int under_valgrind(void)
{
	return getenv("VALGRIND") != NULL &&
	       strcmp(getenv("VALGRIND"), "1") == 0;
}

/* Read once in main: the workers ask it in their loops. */
static int valgrind_now;

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline pid_t my_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* ---- reading every thread from outside ------------------------------ */

/* The comm of one thread, or "" once it has gone. */
static inline void task_comm(pid_t tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f == NULL)
		return;
	if (fgets(buf, (int)size, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The same through a task directory opened beforehand ("" once gone). */
static inline void task_comm_at(int dirfd, pid_t tid, char *buf, size_t size)
{
	char name[32];
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "%d/comm", (int)tid);
	buf[0] = '\0';
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* A "Key:\t..." value of one thread's status as a number, -1 if gone. */
static inline long task_status(pid_t tid, const char *key)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, strlen(key)) == 0)
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

/*
 * The state letter of /proc/self/task/TID/stat ('S': asleep in a
 * blocking call), or 0 when it cannot be read (a world without /proc).
 */
static inline char task_state(pid_t tid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren != NULL && paren[1] == ' ' ? paren[2] : 0;
}

/* A zombie (a main thread after pthread_exit) runs nothing any more. */
static inline int task_is_zombie(pid_t tid)
{
	return task_state(tid) == 'Z';
}

/*
 * Every live thread listed now (and still there when read) has comm == want.
 * Returns the number checked; *bad is the first one that differs, or 0.
 */
static inline int all_named(const char *want, pid_t *bad)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;
	char comm[32];
	int n = 0;

	*bad = 0;
	if (dir == NULL)
		return -1;
	while ((d = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(d->d_name);

		if (tid <= 0)
			continue;
		task_comm(tid, comm, sizeof(comm));
		if (comm[0] == '\0' || task_is_zombie(tid))
			continue; /* exited meanwhile, or a zombie */
		n++;
		if (strcmp(comm, want) != 0 && *bad == 0)
			*bad = tid;
	}
	closedir(dir);
	return n;
}

static inline int expect_all_named(const char *want)
{
	pid_t bad;
	char comm[32];
	int n = all_named(want, &bad);

	if (n < 0)
		FAIL("cannot list /proc/self/task");
	if (bad != 0) {
		task_comm(bad, comm, sizeof(comm));
		FAIL("thread %d is named \"%s\", not \"%s\"", (int)bad, comm,
		     want);
	}
	return 0;
}

/* ---- workers in various states --------------------------------------- */

enum kind { IDLE, SPIN, READER, SLEEPER };

struct worker {
	pthread_t thread;
	enum kind kind;
	pid_t tid;
	int pipe[2];	/* READER: the pipe it reads */
	char got;	/* READER: the byte read */
	int read_errno; /* READER: errno if read failed */
	int eintr;	/* SLEEPER: nanosleeps cut short */
};

static int stop;    /* atomic: workers return when set */
static int started; /* atomic: workers that have set tid */

static inline void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct timespec ts = { 0, 20 * 1000 * 1000 }, rem;

	w->tid = my_tid();
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	switch (w->kind) {
	case READER:
		/* Blocked in read(2) while we broadcast; SA_RESTART resumes it. */
		if (read(w->pipe[0], &w->got, 1) != 1)
			w->read_errno = errno;
		break;
	case SLEEPER:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
			while (nanosleep(&ts, &rem) < 0 && errno == EINTR) {
				w->eintr++;
				ts = rem;
			}
			ts.tv_nsec = 20 * 1000 * 1000;
		}
		break;
	case SPIN:
		/*
		 * Valgrind runs one thread at a time and switches on its own
		 * quantum: pure spinners made each broadcast take seconds
		 * (this suite 3 minutes). There they yield, and stay out of
		 * any blocking call; the plain and sanitizer passes spin.
		 */
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			if (valgrind_now)
				sched_yield();
		break;
	case IDLE:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			usleep(1000);
		break;
	}
	return NULL;
}

static inline int start_workers(struct worker *w, int n)
{
	int i;

	__atomic_store_n(&stop, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&started, 0, __ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++) {
		w[i].kind = (enum kind)(i % 4);
		if (w[i].kind == READER && pipe(w[i].pipe) < 0)
			FAIL("pipe: %s", strerror(errno));
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) != 0)
			FAIL("pthread_create failed");
	}
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < n)
		usleep(1000);
	/*
	 * The readers and sleepers are to be blocked when the broadcasts
	 * come: a fixed pause was not enough while the spinners held both
	 * CPUs of a busy machine. Each is watched until the kernel says it
	 * sleeps (a sleeper between two naps may be caught running: it is
	 * looked at again); without /proc, a pause must do.
	 */
	for (i = 0; i < n; i++) {
		int waited = 0;
		char st;

		if (w[i].kind != READER && w[i].kind != SLEEPER)
			continue;
		while ((st = task_state(w[i].tid)) != 'S' && st != 0) {
			if (++waited > 10000)
				FAIL("worker %d never blocked (state %c)",
				     (int)w[i].tid, st);
			usleep(1000);
		}
		if (st == 0)
			usleep(20000);
	}
	return 0;
}

static inline int stop_workers(struct worker *w, int n)
{
	int i, rc = 0;

	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++) {
		if (w[i].kind == READER && write(w[i].pipe[1], "x", 1) != 1)
			rc = 1;
		pthread_join(w[i].thread, NULL);
		if (w[i].kind == READER) {
			close(w[i].pipe[0]);
			close(w[i].pipe[1]);
			if (w[i].got != 'x') {
				fprintf(stderr, "reader %d: read failed: %s\n",
					(int)w[i].tid,
					strerror(w[i].read_errno));
				rc = 1;
			}
		}
	}
	return rc;
}

/* Runs fn in a child process; its exit status, or 128 + signal. */
static inline int run_child(int (*fn)(void))
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		alarm(under_valgrind()
			      ? 300
			      : 60); /* a hang fails, it does not stall */
		{
			int rc = fn();

			fflush(NULL);
			_exit(rc);
		}
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The main() of the libpsx suites: valgrind_now read once, then the
 * suite; EXIT_SUCCESS when no test failed.
 */
static inline int run_psx_suite(Suite *(*make_suite)(void))
{
	SRunner *runner;
	int failed;

	valgrind_now = under_valgrind();
	runner = srunner_create(make_suite());
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
