/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libpsx on the real kernel: a broadcast system call is made by every
 * thread (idle, busy, blocked in read(2) or nanosleep(2), blocking SIGSYS
 * for a while, created and exiting in a churn), the caller gets its own
 * result, a thread whose result differs is ignored, reported or kills
 * the process as the sensitivity says, foreign SIGSYS still reach the
 * program, and a child forked from any thread can broadcast.
 *
 * The state broadcast is the thread name (prctl PR_SET_NAME), which any
 * user may set and /proc/self/task/TID/comm shows from outside the thread,
 * and NoNewPrivs, a per-thread security flag. Each scenario runs in a
 * child of its own (run_child), as valgrind runs Check without forking.
 *
 * Under valgrind the thread scenarios are left to check_psx_valgrind,
 * which is this file built with libpsx's sources and another signal:
 * valgrind 3.19 aborts whenever a SIGSYS is sent to another thread.
 */
#define _GNU_SOURCE	/* CLONE_FILES */
#include <check.h>
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"

/* The signal libpsx was built with (check_psx_valgrind sets another). */
#ifndef PSX_SIG
#define PSX_SIG SIGSYS
#endif

#define FAIL(...)	do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } while (0)

static int under_valgrind(void)
{
	return getenv("VALGRIND") != NULL && strcmp(getenv("VALGRIND"), "1") == 0;
}

/* Read once in main: the workers ask it in their loops. */
static int valgrind_now;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static pid_t my_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* ---- reading every thread from outside ------------------------------ */

/* The comm of one thread, or "" once it has gone. */
static void task_comm(pid_t tid, char *buf, size_t size)
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

/* A "Key:\t..." value of one thread's status as a number, -1 if gone. */
static long task_status(pid_t tid, const char *key)
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

/* A zombie (a main thread after pthread_exit) runs nothing any more. */
static int task_is_zombie(pid_t tid)
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
	return paren != NULL && paren[1] == ' ' && paren[2] == 'Z';
}

/*
 * Every live thread listed now (and still there when read) has comm == want.
 * Returns the number checked; *bad is the first one that differs, or 0.
 */
static int all_named(const char *want, pid_t *bad)
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
			continue;	/* exited meanwhile, or a zombie */
		n++;
		if (strcmp(comm, want) != 0 && *bad == 0)
			*bad = tid;
	}
	closedir(dir);
	return n;
}

static int expect_all_named(const char *want)
{
	pid_t bad;
	char comm[32];
	int n = all_named(want, &bad);

	if (n < 0)
		FAIL("cannot list /proc/self/task");
	if (bad != 0) {
		task_comm(bad, comm, sizeof(comm));
		FAIL("thread %d is named \"%s\", not \"%s\"", (int)bad, comm, want);
	}
	return 0;
}

/* ---- workers in various states --------------------------------------- */

enum kind { IDLE, SPIN, READER, SLEEPER };

struct worker {
	pthread_t thread;
	enum kind kind;
	pid_t tid;
	int pipe[2];		/* READER: the pipe it reads */
	char got;		/* READER: the byte read */
	int read_errno;		/* READER: errno if read failed */
	int eintr;		/* SLEEPER: nanosleeps cut short */
};

static int stop;		/* atomic: workers return when set */
static int started;		/* atomic: workers that have set tid */

static void *worker_main(void *arg)
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

static int start_workers(struct worker *w, int n)
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
	usleep(20000);		/* let readers and sleepers block */
	return 0;
}

static int stop_workers(struct worker *w, int n)
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
					(int)w[i].tid, strerror(w[i].read_errno));
				rc = 1;
			}
		}
	}
	return rc;
}

/* Runs fn in a child process; its exit status, or 128 + signal. */
static int run_child(int (*fn)(void))
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		alarm(under_valgrind() ? 300 : 60);	/* a hang fails, it does not stall */
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

#define NWORKERS 8

/* ---- every thread, every way of calling ------------------------------ */

static int every_thread(void)
{
	struct worker w[NWORKERS];
	int i, rc = 0;
	long r;

	memset(w, 0, sizeof(w));
	if (start_workers(w, NWORKERS))
		return 1;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-macro");
	if (r != 0 || expect_all_named("psx-macro"))
		FAIL("psx_syscall macro: %ld", r);
	r = psx_syscall3(SYS_prctl, PR_SET_NAME, (long)"psx-three", 0);
	if (r != 0 || expect_all_named("psx-three"))
		FAIL("psx_syscall3: %ld", r);
	r = psx_syscall6(SYS_prctl, PR_SET_NAME, (long)"psx-six", 0, 0, 0, 0);
	if (r != 0 || expect_all_named("psx-six"))
		FAIL("psx_syscall6: %ld", r);
	/* A security flag, per thread in the kernel: all or nothing. */
	r = psx_syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (r != 0)
		FAIL("PR_SET_NO_NEW_PRIVS: %ld", r);
	for (i = 0; i < NWORKERS; i++)
		if (task_status(w[i].tid, "NoNewPrivs:") != 1)
			FAIL("thread %d (kind %d) lacks NoNewPrivs",
			     (int)w[i].tid, (int)w[i].kind);
	if (task_status(my_tid(), "NoNewPrivs:") != 1)
		FAIL("the caller lacks NoNewPrivs");
	rc = stop_workers(w, NWORKERS);
	for (i = 0; i < NWORKERS; i++)
		if (w[i].kind == SLEEPER)
			printf("sleeper %d: %d nanosleeps cut short (EINTR)\n",
			       (int)w[i].tid, w[i].eintr);
	return rc;
}

START_TEST(broadcast_reaches_every_thread)
{
	ck_assert_int_eq(run_child(every_thread), 0);
}
END_TEST

/* The caller alone: no other thread, still the syscall's own result. */
START_TEST(single_thread_gets_its_result)
{
	long r = psx_syscall3(SYS_getpid, 0, 0, 0);

	ck_assert_int_eq(r, getpid());
	errno = 1234;
	ck_assert_int_eq(psx_syscall(SYS_getpid, 0), getpid());
	ck_assert_int_eq(errno, 1234);	/* success leaves errno alone */
}
END_TEST

/*
 * The macro counts its arguments and zero-fills the rest: the ambient
 * query refuses (EINVAL) non-zero unused arguments, so leftover values
 * past the count would show.
 */
START_TEST(macro_counts_and_zero_fills)
{
	errno = 0;
	ck_assert_int_eq(psx_syscall(SYS_prctl, PR_CAP_AMBIENT,
				     PR_CAP_AMBIENT_IS_SET, 0), 0);
	ck_assert_int_eq(__psx_syscall(SYS_prctl, (long)PR_CAP_AMBIENT,
				       (long)PR_CAP_AMBIENT_IS_SET, 0L, 99L, 99L,
				       99L, 3L), 0);
	ck_assert_int_eq(__psx_syscall(SYS_prctl, (long)PR_CAP_AMBIENT,
				       (long)PR_CAP_AMBIENT_IS_SET, 0L, 99L, 99L,
				       99L, 5L), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(__psx_syscall(SYS_getpid, 0L, 0L, 0L, 0L, 0L, 0L, 7L), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(__psx_syscall(SYS_getpid, 0L, 0L, 0L, 0L, 0L, 0L, -1L), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(sensitivity_levels)
{
	ck_assert_int_eq(psx_set_sensitivity(PSX_WARNING), 0);
	ck_assert_int_eq(psx_set_sensitivity(PSX_ERROR), 0);
	ck_assert_int_eq(psx_set_sensitivity(PSX_IGNORE), 0);
	errno = 0;
	ck_assert_int_eq(psx_set_sensitivity((psx_sensitivity_t)3), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(psx_set_sensitivity((psx_sensitivity_t)-1), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(load_syscalls_hands_out_ours)
{
	long (*fn3)(long, long, long, long) = NULL;
	long (*fn6)(long, long, long, long, long, long, long) = NULL;

	psx_load_syscalls(&fn3, &fn6);
	ck_assert_ptr_eq((void *)fn3, (void *)psx_syscall3);
	ck_assert_ptr_eq((void *)fn6, (void *)psx_syscall6);
	psx_load_syscalls(NULL, NULL);	/* tolerated */
}
END_TEST

/* ---- results that differ --------------------------------------------- */

/*
 * Per-thread state that makes one call fail in one thread only, for any
 * user and under valgrind: a thread that unshares its file descriptor
 * table (unshare(CLONE_FILES)) no longer sees descriptors the others open
 * later, so fcntl(fd, F_SETFD, FD_CLOEXEC) on such a descriptor gives
 * EBADF there and succeeds everywhere else.
 */
static int private_fd_table(void)
{
	return (int)syscall(SYS_unshare, CLONE_FILES);
}

/* Whether fd has FD_CLOEXEC in thread tid's table: 1, 0, or -1 (none). */
static int task_cloexec(pid_t tid, int fd)
{
	char path[80], line[128];
	long flags = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/fdinfo/%d", (int)tid, fd);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "flags:", 6) == 0)
			flags = strtol(line + 6, NULL, 8);
	fclose(f);
	return flags < 0 ? -1 : (flags & O_CLOEXEC) != 0;
}

static pid_t refuser_tid;
static int refuser_ready;	/* atomic */

static void *refuser_main(void *arg)
{
	(void)arg;
	if (private_fd_table() < 0)
		fprintf(stderr, "unshare(CLONE_FILES): %s\n", strerror(errno));
	refuser_tid = my_tid();
	__atomic_store_n(&refuser_ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static int start_refuser(pthread_t *t)
{
	__atomic_store_n(&stop, 0, __ATOMIC_SEQ_CST);
	if (pthread_create(t, NULL, refuser_main, NULL) != 0)
		return -1;
	while (!__atomic_load_n(&refuser_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	return 0;
}

/* stderr goes to a file the parent reads back. */
static const char *stderr_file(void)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/check_psx.%d.err", (int)getpid());
	return path;
}

static int mismatch_at(psx_sensitivity_t level)
{
	struct worker w[3];
	pthread_t t;
	long r;
	int fd, i;

	if (freopen(stderr_file(), "w", stderr) == NULL)
		return 2;
	setvbuf(stderr, NULL, _IONBF, 0);
	memset(w, 0, sizeof(w));
	if (start_refuser(&t) < 0 || start_workers(w, 3))
		FAIL("cannot start the threads");
	fd = open("/dev/null", O_RDONLY);	/* not in the refuser's table */
	if (fd < 0 || psx_set_sensitivity(level) < 0)
		FAIL("setup: %s", strerror(errno));
	r = psx_syscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
	/* Only PSX_ERROR stops us before this line. */
	printf("caller got %ld\n", r);
	if (r != 0 || task_cloexec(my_tid(), fd) != 1)
		FAIL("the caller did not get its own result: %ld", r);
	for (i = 0; i < 3; i++)
		if (task_cloexec(w[i].tid, fd) != 1)
			FAIL("worker %d: no FD_CLOEXEC", (int)w[i].tid);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	return stop_workers(w, 3);
}

static int mismatch_ignore(void) { return mismatch_at(PSX_IGNORE); }
static int mismatch_warning(void) { return mismatch_at(PSX_WARNING); }
static int mismatch_error(void) { return mismatch_at(PSX_ERROR); }

/* What the child wrote to stderr; caller frees. */
static char *child_stderr(pid_t child)
{
	char path[64], *text = calloc(1, 8192);
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/check_psx.%d.err", (int)child);
	f = fopen(path, "r");
	if (f != NULL) {
		size_t n = fread(text, 1, 8191, f);

		text[n] = '\0';
		fclose(f);
	}
	unlink(path);
	return text;
}

/* run_child, but also hands back the child's stderr. */
static int run_child_err(int (*fn)(void), char **err)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		alarm(60);
		{
			int rc = fn();

			fflush(NULL);
			_exit(rc);
		}
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	*err = child_stderr(pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(mismatch_ignored_by_default)
{
	char *err;

	ck_assert_int_eq(run_child_err(mismatch_ignore, &err), 0);
	ck_assert_msg(strstr(err, "libpsx") == NULL, "unexpected report: %s", err);
	free(err);
}
END_TEST

START_TEST(mismatch_warned)
{
	char *err;
	int rc = run_child_err(mismatch_warning, &err);

	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "libpsx: threads differ on system call") != NULL &&
		      strstr(err, "returned -1 (errno 9: ") != NULL,
		      "no report naming the refusing thread: %s", err);
	free(err);
}
END_TEST

START_TEST(mismatch_kills_on_error)
{
	char *err;
	int rc = run_child_err(mismatch_error, &err);

	ck_assert_msg(rc == 128 + SIGKILL, "exit %d, not SIGKILL: %s", rc, err);
	ck_assert_msg(strstr(err, "libpsx: PSX_ERROR: killing process") != NULL,
		      "no report: %s", err);
	free(err);
}
END_TEST

/*
 * When the caller's own call fails, nobody else makes it: here the caller
 * has a private descriptor table without fd, the others would succeed.
 */
static int caller_refused(void)
{
	struct worker w[4];
	long r;
	int fd, i;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 4))
		return 1;
	/* A high number, which libpsx's own descriptors never reuse. */
	fd = dup2(0, 200);
	if (fd < 0 || private_fd_table() < 0 || close(fd) < 0)
		FAIL("setup: %s", strerror(errno));
	errno = 0;
	r = psx_syscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
	if (r != -1 || errno != EBADF)
		FAIL("expected -1/EBADF, got %ld/%s", r, strerror(errno));
	for (i = 0; i < 4; i++)
		if (task_cloexec(w[i].tid, fd) != 0)
			FAIL("worker %d made the call the caller was refused",
			     (int)w[i].tid);
	return stop_workers(w, 4);
}

START_TEST(caller_failure_is_not_broadcast)
{
	ck_assert_int_eq(run_child(caller_refused), 0);
}
END_TEST

/*
 * The list of threads is opened before the call: a broadcast chroot(2)
 * into a tree without /proc completes (the other threads, sharing the
 * root, then fail and are ignored), and the next broadcast, which can no
 * longer list the threads, is refused before anything changes.
 */
static char chroot_dir[] = "/tmp/check_psx.XXXXXX";

static int chroot_then_refuse(void)
{
	struct worker w[2];
	char name[16];
	long r;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2) ||
	    psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-root") != 0)
		FAIL("setup");
	r = psx_syscall(SYS_chroot, (long)chroot_dir);
	if (r != 0)
		FAIL("chroot through libpsx: %ld (%s)", r, strerror(errno));
	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-noproc");
	if (r != -1 || errno != ENOENT)
		FAIL("without /proc: expected -1/ENOENT, got %ld/%s", r, strerror(errno));
	/* Nothing changed, not even in the caller. */
	if (prctl(PR_GET_NAME, (long)name, 0, 0, 0) != 0 || strcmp(name, "psx-root") != 0)
		FAIL("the refused call renamed the caller (%s)", name);
	printf("chroot broadcast completed; without /proc the next call was refused (ENOENT)\n");
	return 0;
}

START_TEST(chroot_keeps_the_list_and_no_proc_refuses)
{
	if (geteuid() != 0 || under_valgrind()) {
		printf("skipped: needs root for chroot(2), and no valgrind "
		       "(it reads /proc itself)\n");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(chroot_dir));
	ck_assert_int_eq(run_child(chroot_then_refuse), 0);
	rmdir(chroot_dir);
}
END_TEST

/* ---- SIGSYS shared with the program ---------------------------------- */

static int own_count;		/* atomic */
static int own_code;

static void own_handler(int sig, siginfo_t *info, void *ctx)
{
	(void)sig;
	(void)ctx;
	own_code = info->si_code;
	__atomic_add_fetch(&own_count, 1, __ATOMIC_SEQ_CST);
}

static void install_own(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = own_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(PSX_SIG, &sa, NULL);
}

static int chains_to_program(void)
{
	struct worker w[4];

	memset(w, 0, sizeof(w));
	install_own();			/* before our first broadcast */
	if (start_workers(w, 4))
		return 1;
	raise(PSX_SIG);
	if (own_count != 1)
		FAIL("program handler ran %d times before any broadcast", own_count);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-chain1") != 0 ||
	    expect_all_named("psx-chain1"))
		FAIL("broadcast with a program handler installed");
	if (own_count != 1)
		FAIL("our signals reached the program's handler (%d)", own_count);
	raise(PSX_SIG);
	if (own_count != 2 || own_code != SI_TKILL)
		FAIL("a raised SIGSYS was not passed on (%d, code %d)",
		     own_count, own_code);
	install_own();			/* replaces ours: reclaimed next time */
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-chain2") != 0 ||
	    expect_all_named("psx-chain2"))
		FAIL("broadcast after the program replaced our handler");
	if (own_count != 2)
		FAIL("our signals reached the program's handler (%d)", own_count);
	raise(PSX_SIG);
	if (own_count != 3)
		FAIL("SIGSYS not passed on after reclaiming (%d)", own_count);
	printf("program handler ran %d times, for its own signals only\n", own_count);
	return stop_workers(w, 4);
}

START_TEST(foreign_sigsys_reaches_the_program)
{
	ck_assert_int_eq(run_child(chains_to_program), 0);
}
END_TEST

/* seccomp's SECCOMP_RET_TRAP raises SIGSYS: the program must get it. */
static int seccomp_trap_passed_on(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	struct worker w[2];

	memset(w, 0, sizeof(w));
	install_own();
	if (start_workers(w, 2))
		return 1;
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-trap") != 0)
		FAIL("broadcast");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		FAIL("seccomp: %s", strerror(errno));
	syscall(SYS_getppid);
	if (own_count != 1 || own_code != 1 /* SYS_SECCOMP */)
		FAIL("seccomp's SIGSYS not passed on (%d, code %d)", own_count, own_code);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-trap2") != 0 ||
	    expect_all_named("psx-trap2"))
		FAIL("broadcast after a seccomp trap");
	return stop_workers(w, 2);
}

START_TEST(seccomp_sigsys_reaches_the_program)
{
	if (PSX_SIG != SIGSYS) {
		printf("skipped: libpsx built with another signal than SIGSYS\n");
		return;
	}
	ck_assert_int_eq(run_child(seccomp_trap_passed_on), 0);
}
END_TEST

/* With no handler of the program's, SIGSYS keeps its default: death. */
static int default_sigsys_kills(void)
{
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-dfl") != 0)
		return 1;
	raise(PSX_SIG);
	return 0;		/* survived: wrong */
}

static int ignored_sigsys_ignored(void)
{
	signal(PSX_SIG, SIG_IGN);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-ign") != 0)
		return 1;
	raise(PSX_SIG);
	return psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-ign2") == 0 ? 0 : 1;
}

START_TEST(sigsys_default_and_ignore_kept)
{
	if (under_valgrind() && PSX_SIG == SIGSYS) {
		printf("default action skipped under valgrind (it would report the core)\n");
	} else {
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);	/* no core file */
		ck_assert_int_eq(run_child(default_sigsys_kills), 128 + PSX_SIG);
	}
	ck_assert_int_eq(run_child(ignored_sigsys_ignored), 0);
}
END_TEST

/* ---- threads that cannot answer at once ------------------------------ */

static int blocker_ready;	/* atomic */

/*
 * Blocks the signal for 300 ms, then unblocks it, when the call runs. With
 * a non-NULL arg it also sets SIG_IGN halfway, as a program might, which
 * discards the copy pending for this thread.
 */
static void *blocker_main(void *arg)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, PSX_SIG);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	__atomic_store_n(&blocker_ready, 1, __ATOMIC_SEQ_CST);
	usleep(150 * 1000);
	if (arg != NULL)
		signal(PSX_SIG, SIG_IGN);
	usleep(150 * 1000);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static int blocked_for_a_while(void)
{
	pthread_t t;
	double t0, waited;

	if (pthread_create(&t, NULL, blocker_main, NULL) != 0)
		return 1;
	while (!__atomic_load_n(&blocker_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	t0 = now_s();
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-late") != 0)
		FAIL("broadcast");
	waited = now_s() - t0;
	printf("broadcast waited %.3f s for the thread blocking the signal\n", waited);
	if (expect_all_named("psx-late"))
		return 1;
	if (waited < 0.15)
		FAIL("returned after %.3f s, before the blocking thread could run it", waited);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	return 0;
}

START_TEST(thread_blocking_sigsys_is_waited_for)
{
	ck_assert_int_eq(run_child(blocked_for_a_while), 0);
}
END_TEST

/*
 * The program sets SIG_IGN for the signal in the middle of a broadcast,
 * which discards the copy pending for a thread that blocks it: libpsx
 * must take the signal back and send again, or wait for ever.
 */
static int ignored_mid_broadcast(void)
{
	static int ignore = 1;
	pthread_t t;

	if (pthread_create(&t, NULL, blocker_main, &ignore) != 0)
		return 1;
	while (!__atomic_load_n(&blocker_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-reclaim") != 0 ||
	    expect_all_named("psx-reclaim"))
		FAIL("broadcast across a change of disposition");
	raise(PSX_SIG);		/* the program's SIG_IGN is honoured */
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	printf("SIG_IGN set mid-broadcast: signal taken back, every thread reached\n");
	return 0;
}

START_TEST(disposition_changed_mid_broadcast)
{
	ck_assert_int_eq(run_child(ignored_mid_broadcast), 0);
}
END_TEST

/* The main thread has called pthread_exit(): a zombie that never answers. */
static int zombie_rc = 1;

static void *after_main_exits(void *arg)
{
	(void)arg;
	usleep(100 * 1000);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-zombie") == 0 &&
	    expect_all_named("psx-zombie") == 0)
		zombie_rc = 0;
	/* _exit: main() never returns here, so a leak check would misfire. */
	fflush(NULL);
	_exit(zombie_rc);
}

static int zombie_leader(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, after_main_exits, NULL) != 0)
		return 1;
	pthread_exit(NULL);
}

/*
 * In a fresh process (this program again, with --zombie): a main thread
 * gone with pthread_exit() takes the only pointers to the test runner's
 * memory along, which a leak checker would then report.
 */
static const char *self_path;	/* argv[0]: not /proc/self/exe, valgrind's */

static int exec_zombie(void)
{
	execl(self_path, self_path, "--zombie", (char *)NULL);
	return 126;
}

START_TEST(zombie_main_thread_does_not_hang)
{
	ck_assert_int_eq(run_child(exec_zombie), 0);
}
END_TEST

/* ---- churn: threads come and go while we broadcast -------------------- */

#define SPAWNERS 3

static long churn_created;	/* atomic */

static void *short_lived(void *arg)
{
	volatile int spin;

	(void)arg;
	for (spin = 0; spin < 1000; spin++)
		;
	return NULL;
}

static void *spawner(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		pthread_t t[4];
		int i, n = 0;

		for (i = 0; i < 4; i++)
			if (pthread_create(&t[n], NULL, short_lived, NULL) == 0)
				n++;
		for (i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		__atomic_add_fetch(&churn_created, n, __ATOMIC_SEQ_CST);
		/*
		 * Valgrind runs one thread at a time: spawners that never
		 * pause starve the broadcast (2 rounds in 17 s, one of them
		 * 9 s), so there they leave it room between batches.
		 */
		if (under_valgrind())
			usleep(2000);
	}
	return NULL;
}

static int churn(void)
{
	pthread_t sp[SPAWNERS];
	int spawners = under_valgrind() ? 1 : SPAWNERS;
	double budget = under_valgrind() ? 8.0 : 4.0, t0 = now_s(), slowest = 0;
	long rounds = 0, checked = 0;
	char name[16];
	int i;

	__atomic_store_n(&stop, 0, __ATOMIC_SEQ_CST);
	for (i = 0; i < spawners; i++)
		if (pthread_create(&sp[i], NULL, spawner, NULL) != 0)
			return 1;
	while (now_s() - t0 < budget) {
		double t1 = now_s();
		pid_t bad;
		int n;

		snprintf(name, sizeof(name), "churn-%ld", rounds % 100000);
		if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)name) != 0)
			FAIL("broadcast %ld failed", rounds);
		if (now_s() - t1 > slowest)
			slowest = now_s() - t1;
		/*
		 * Every thread alive now must carry the name: those that
		 * existed ran the call, and those created since were created
		 * by threads that had.
		 */
		n = all_named(name, &bad);
		if (bad != 0) {
			char comm[32];

			task_comm(bad, comm, sizeof(comm));
			if (comm[0] != '\0')	/* not gone meanwhile */
				FAIL("round %ld: thread %d missed it (\"%s\")",
				     rounds, (int)bad, comm);
		}
		checked += n;
		rounds++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < spawners; i++)
		pthread_join(sp[i], NULL);
	printf("churn: %ld broadcasts in %.1f s while %ld threads were created "
	       "and exited; %ld thread states checked; slowest broadcast %.3f s\n",
	       rounds, now_s() - t0, churn_created, checked, slowest);
	if (rounds < (under_valgrind() ? 3 : 10) || churn_created < 10)
		FAIL("too little churn to mean anything");
	return 0;
}

START_TEST(churn_loses_no_thread)
{
	ck_assert_int_eq(run_child(churn), 0);
}
END_TEST

/* ---- fork ---------------------------------------------------------- */

static int child_broadcasts(const char *name)
{
	struct worker w[3];

	memset(w, 0, sizeof(w));
	if (start_workers(w, 3))
		return 1;
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)name) != 0 ||
	    expect_all_named(name))
		return 1;
	return stop_workers(w, 3);
}

static int fork_rounds, fork_failures;	/* atomic */

/* Forks from a non-main thread while the main thread keeps broadcasting. */
static void *forker(void *arg)
{
	int i, rounds = *(int *)arg;

	for (i = 0; i < rounds; i++) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			alarm(30);
			_exit(child_broadcasts("psx-child"));
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			__atomic_add_fetch(&fork_failures, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&fork_rounds, 1, __ATOMIC_SEQ_CST);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static int fork_while_broadcasting(void)
{
	pthread_t t;
	struct worker w[2];
	int rounds = under_valgrind() ? 5 : 40;
	long broadcasts = 0;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2))
		return 1;
	if (pthread_create(&t, NULL, forker, &rounds) != 0)
		return 1;
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-parent") != 0)
			FAIL("parent broadcast failed");
		broadcasts++;
	}
	pthread_join(t, NULL);
	printf("fork: %d children forked from a second thread during %ld "
	       "broadcasts; %d failed\n", fork_rounds, broadcasts, fork_failures);
	if (fork_failures != 0)
		return 1;
	/* stop_workers sets stop again, harmlessly. */
	return stop_workers(w, 2);
}

START_TEST(fork_child_can_broadcast)
{
	ck_assert_int_eq(run_child(fork_while_broadcasting), 0);
}
END_TEST

static Suite *psx_suite(void)
{
	Suite *s = suite_create("psx");
	TCase *api = tcase_create("api");
	TCase *threads;

	tcase_add_test(api, single_thread_gets_its_result);
	tcase_add_test(api, macro_counts_and_zero_fills);
	tcase_add_test(api, sensitivity_levels);
	tcase_add_test(api, load_syscalls_hands_out_ours);
	suite_add_tcase(s, api);

	if (under_valgrind() && PSX_SIG == SIGSYS) {
		/* Run by check_psx_valgrind instead: see the top of this file. */
		printf("thread tests left to check_psx_valgrind: valgrind 3.19 "
		       "aborts when a SIGSYS is sent to another thread\n");
		return s;
	}
	threads = tcase_create("threads");
	tcase_set_timeout(threads, 120);
	tcase_add_test(threads, broadcast_reaches_every_thread);
	tcase_add_test(threads, caller_failure_is_not_broadcast);
	tcase_add_test(threads, chroot_keeps_the_list_and_no_proc_refuses);
	tcase_add_test(threads, mismatch_ignored_by_default);
	tcase_add_test(threads, mismatch_warned);
	tcase_add_test(threads, mismatch_kills_on_error);
	tcase_add_test(threads, foreign_sigsys_reaches_the_program);
	tcase_add_test(threads, seccomp_sigsys_reaches_the_program);
	tcase_add_test(threads, sigsys_default_and_ignore_kept);
	tcase_add_test(threads, thread_blocking_sigsys_is_waited_for);
	tcase_add_test(threads, disposition_changed_mid_broadcast);
	tcase_add_test(threads, zombie_main_thread_does_not_hang);
	tcase_add_test(threads, churn_loses_no_thread);
	tcase_add_test(threads, fork_child_can_broadcast);
	suite_add_tcase(s, threads);
	return s;
}

int main(int argc, char **argv)
{
	SRunner *runner;
	int failed;

	if (argc == 2 && strcmp(argv[1], "--zombie") == 0)
		return zombie_leader();
	self_path = argv[0];
	valgrind_now = under_valgrind();
#ifdef PSX_VALGRIND_ONLY
	if (!under_valgrind()) {
		puts("skipped: this build is for the valgrind pass; check_psx "
		     "runs these tests with SIGSYS");
		return 77;
	}
#endif
	runner = srunner_create(psx_suite());
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
