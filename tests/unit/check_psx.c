/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libpsx on the real kernel: a broadcast system call is made by every
 * thread (idle, busy, blocked in read(2) or nanosleep(2), created and
 * exiting in a churn), the caller gets its own result, a thread whose
 * result differs is ignored, reported or kills the process as the
 * sensitivity says, and a child forked from any thread can broadcast.
 * How libpsx's signal gets through (blocked signals, glibc's own use of
 * it, PID namespaces) is check_psx_signal's concern.
 *
 * The state broadcast is the thread name (prctl PR_SET_NAME), which any
 * user may set and /proc/self/task/TID/comm shows from outside the thread,
 * and NoNewPrivs, a per-thread security flag. Each scenario runs in a
 * child of its own (run_child), as valgrind runs Check without forking.
 */
#define _GNU_SOURCE /* CLONE_FILES */
#include <check.h>
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "check_psx.h"

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
	ck_assert_int_eq(errno, 1234); /* success leaves errno alone */
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
				     PR_CAP_AMBIENT_IS_SET, 0),
			 0);
	ck_assert_int_eq(__psx_syscall(SYS_prctl, (long)PR_CAP_AMBIENT,
				       (long)PR_CAP_AMBIENT_IS_SET, 0L, 99L,
				       99L, 99L, 3L),
			 0);
	ck_assert_int_eq(__psx_syscall(SYS_prctl, (long)PR_CAP_AMBIENT,
				       (long)PR_CAP_AMBIENT_IS_SET, 0L, 99L,
				       99L, 99L, 5L),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(__psx_syscall(SYS_getpid, 0L, 0L, 0L, 0L, 0L, 0L, 7L),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(__psx_syscall(SYS_getpid, 0L, 0L, 0L, 0L, 0L, 0L, -1L),
			 -1);
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
	psx_load_syscalls(NULL, NULL); /* tolerated */
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

	snprintf(path, sizeof(path), "/proc/self/task/%d/fdinfo/%d", (int)tid,
		 fd);
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
static int refuser_ready; /* atomic */

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

/*
 * Results that differ but are no failure: gettid() succeeds in every
 * thread, with each thread's own id. The sensitivity decides.
 */
static int mismatch_at(psx_sensitivity_t level)
{
	struct worker w[3];
	long r;

	if (freopen(stderr_file(), "w", stderr) == NULL)
		return 2;
	setvbuf(stderr, NULL, _IONBF, 0);
	memset(w, 0, sizeof(w));
	if (start_workers(w, 3))
		FAIL("cannot start the threads");
	if (psx_set_sensitivity(level) < 0)
		FAIL("setup: %s", strerror(errno));
	r = psx_syscall3(SYS_gettid, 0, 0, 0);
	/* Only PSX_ERROR stops us before this line. */
	printf("caller got %ld\n", r);
	if (r != my_tid())
		FAIL("the caller did not get its own result: %ld", r);
	return stop_workers(w, 3);
}

/*
 * A call that changes privileges and fails in one thread only, the
 * caller's having succeeded: that thread keeps what the caller gave up,
 * so the process is killed whatever the sensitivity, PSX_IGNORE (the
 * default) included. The call, for any user and under valgrind:
 * prctl(PR_SET_KEEPCAPS, 0), made to fail in one thread by a seccomp
 * filter of that thread's own (no TSYNC: the others are not filtered).
 */
static pid_t filtered_tid;
static int filtered_ready; /* atomic */

static void *filtered_main(void *arg)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_KEEPCAPS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	(void)arg;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
		fprintf(stderr, "seccomp: %s\n", strerror(errno));
	filtered_tid = my_tid();
	__atomic_store_n(&filtered_ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static int thread_fails(void)
{
	struct worker w[3];
	pthread_t t;
	long r;

	if (freopen(stderr_file(), "w", stderr) == NULL)
		return 2;
	setvbuf(stderr, NULL, _IONBF, 0);
	memset(w, 0, sizeof(w));
	__atomic_store_n(&stop, 0, __ATOMIC_SEQ_CST);
	if (pthread_create(&t, NULL, filtered_main, NULL) != 0)
		FAIL("cannot start the filtered thread");
	while (!__atomic_load_n(&filtered_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	if (start_workers(w, 3))
		FAIL("cannot start the threads");
	fprintf(stderr, "filtered %d\n", (int)filtered_tid);
	r = psx_syscall(SYS_prctl, PR_SET_KEEPCAPS, 0);
	printf("returned %ld: the filtered thread kept its state\n", r);
	return 3;
}

/*
 * Any other call may fail in the other threads with nothing left behind
 * (see chroot below): the sensitivity decides, as for any result that
 * differs. Here a thread with a private descriptor table gives EBADF.
 */
static int other_call_fails(void)
{
	pthread_t t;
	long r;
	int fd;

	if (freopen(stderr_file(), "w", stderr) == NULL)
		return 2;
	setvbuf(stderr, NULL, _IONBF, 0);
	if (start_refuser(&t) < 0)
		FAIL("cannot start the refuser");
	fd = open("/dev/null", O_RDONLY); /* not in the refuser's table */
	if (fd < 0 || psx_set_sensitivity(PSX_WARNING) < 0)
		FAIL("setup: %s", strerror(errno));
	r = psx_syscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
	if (r != 0 || task_cloexec(my_tid(), fd) != 1)
		FAIL("the caller did not get its own result: %ld", r);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	return 0;
}

static int mismatch_ignore(void)
{
	return mismatch_at(PSX_IGNORE);
}
static int mismatch_warning(void)
{
	return mismatch_at(PSX_WARNING);
}
static int mismatch_error(void)
{
	return mismatch_at(PSX_ERROR);
}

/*
 * What the child wrote to stderr, in a buffer the next call reuses: a
 * failed assertion leaves the test before any free(), and under valgrind
 * (no fork) every later child would report that block as lost.
 */
static char *child_stderr(pid_t child)
{
	static char text[8192];
	char path[64];
	FILE *f;

	text[0] = '\0';

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
	ck_assert_msg(strstr(err, "libpsx") == NULL, "unexpected report: %s",
		      err);
}
END_TEST

START_TEST(mismatch_warned)
{
	char *err;
	int rc = run_child_err(mismatch_warning, &err);

	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	char want[64];

	snprintf(want, sizeof(want),
		 "libpsx: threads differ on system call %d(0, 0, 0): thread ",
		 SYS_gettid);
	ck_assert_msg(strstr(err, want) != NULL &&
			      strstr(err, " (the caller) returned ") != NULL,
		      "no report of the differing results: %s", err);
}
END_TEST

START_TEST(privilege_failure_kills_whatever_the_sensitivity)
{
	char *err, want[96];
	const char *line;
	int rc;

	if (under_valgrind()) {
		printf("skipped: valgrind has no seccomp(2) (ENOSYS)\n");
		return;
	}
	rc = run_child_err(thread_fails, &err);
	line = strstr(err, "filtered ");

	ck_assert_msg(rc == 128 + SIGKILL, "exit %d, not SIGKILL: %s", rc, err);
	ck_assert_msg(line != NULL && strstr(err, "seccomp:") == NULL,
		      "set-up failed: %s", err);
	snprintf(want, sizeof(want),
		 "libpsx: system call %d(%d, 0) was made by ", SYS_prctl,
		 PR_SET_KEEPCAPS);
	ck_assert_msg(
		strstr(err, want) != NULL &&
			strstr(err,
			       "but failed in these threads, which keep their old state:") !=
				NULL,
		"no report: %s", err);
	snprintf(want, sizeof(want),
		 "libpsx:   thread %ld: errno 1 (Operation not permitted)\n",
		 strtol(line + 9, NULL, 10));
	ck_assert_msg(strstr(err, want) != NULL, "the thread is not named: %s",
		      err);
	ck_assert_msg(strstr(err, "libpsx: killing process ") != NULL,
		      "no word of the kill: %s", err);
}
END_TEST

START_TEST(other_failure_left_to_the_sensitivity)
{
	char *err;
	int rc = run_child_err(other_call_fails, &err);

	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "libpsx: threads differ on system call") !=
				      NULL &&
			      strstr(err, "returned -1 (errno 9: ") != NULL,
		      "no report naming the refusing thread: %s", err);
}
END_TEST

START_TEST(mismatch_kills_on_error)
{
	char *err;
	int rc = run_child_err(mismatch_error, &err);

	ck_assert_msg(rc == 128 + SIGKILL, "exit %d, not SIGKILL: %s", rc, err);
	ck_assert_msg(strstr(err, "libpsx: PSX_ERROR: killing process") != NULL,
		      "no report: %s", err);
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
		FAIL("without /proc: expected -1/ENOENT, got %ld/%s", r,
		     strerror(errno));
	/* Nothing changed, not even in the caller. */
	if (prctl(PR_GET_NAME, (long)name, 0, 0, 0) != 0 ||
	    strcmp(name, "psx-root") != 0)
		FAIL("the refused call renamed the caller (%s)", name);
	printf("chroot broadcast completed; without /proc the next call was refused (ENOENT)\n");
	return 0;
}

START_TEST(chroot_keeps_the_list_and_no_proc_refuses)
{
	int rc;

	if (geteuid() != 0 || under_valgrind()) {
		printf("skipped: needs root for chroot(2), and no valgrind (it reads /proc itself)\n");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(chroot_dir));
	rc = run_child(chroot_then_refuse);
	rmdir(chroot_dir); /* before any verdict */
	ck_assert_int_eq(rc, 0);
}
END_TEST

/*
 * After a chroot(2) into a tree someone else could write, /proc may be a
 * plain directory made to look like it: a self and a thread-self link,
 * and a task list that holds the caller alone. Believing it would change
 * the caller and no other thread; libpsx must see it is no proc file
 * system and refuse the call (ENOENT) with nothing changed.
 */
static char fake_dir[] = "/tmp/check_psx.XXXXXX";

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int fake_proc_refused(void)
{
	struct worker w[2];
	char path[256], link[64], comm[32];
	int taskfd, i;
	long r;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2) ||
	    psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-real") != 0)
		FAIL("setup");
	taskfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", fake_dir,
		 (int)getpid(), (int)my_tid());
	for (i = (int)strlen(fake_dir) + 1; path[i] != '\0'; i++)
		if (path[i] == '/') {
			path[i] = '\0';
			mkdir(path, 0755);
			path[i] = '/';
		}
	if (taskfd < 0 || mkdir(path, 0755) < 0)
		FAIL("fake /proc: %s", strerror(errno));
	strcat(path, "/status");
	if (write_file(path, "Name:\tpsx-real\nState:\tR (running)\nNSpid:\t1\n"
			     "SigBlk:\t0000000000000000\n") < 0)
		FAIL("fake status: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/proc/self", fake_dir);
	snprintf(link, sizeof(link), "%d", (int)getpid());
	if (symlink(link, path) < 0)
		FAIL("fake self: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/proc/thread-self", fake_dir);
	snprintf(link, sizeof(link), "%d/task/%d", (int)getpid(),
		 (int)my_tid());
	if (symlink(link, path) < 0 || chroot(fake_dir) < 0 || chdir("/") < 0)
		FAIL("fake thread-self, chroot: %s", strerror(errno));
	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-fake");
	if (r != -1 || errno != ENOENT)
		FAIL("a fake /proc: expected -1/ENOENT, got %ld/%s", r,
		     strerror(errno));
	for (i = -1; i < 2; i++) {
		pid_t tid = i < 0 ? my_tid() : w[i].tid;
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%d/comm", (int)tid);
		fd = openat(taskfd, path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, comm, sizeof(comm) - 1);
		comm[n > 0 ? n - 1 : 0] = '\0';
		if (fd >= 0)
			close(fd);
		if (strcmp(comm, "psx-real") != 0)
			FAIL("thread %d is named \"%s\" after the refused call",
			     (int)tid, comm);
	}
	printf("a fake /proc after chroot: refused (ENOENT), nothing renamed\n");
	return stop_workers(w, 2);
}

START_TEST(fake_proc_refuses_the_call)
{
	char rm[64];
	int rc;

	/* valgrind, chrooted, could not remove its /tmp/vgdb-pipe-* files. */
	if (geteuid() != 0 || under_valgrind()) {
		printf("skipped: needs root for chroot(2), and no valgrind (it leaves its files in /tmp when chrooted)\n");
		return;
	}

	ck_assert_ptr_nonnull(mkdtemp(fake_dir));
	rc = run_child(fake_proc_refused);
	/* Removed before any verdict; mkdtemp's name: letters and digits. */
	snprintf(rm, sizeof(rm), "rm -rf %s", fake_dir);
	ck_assert_int_eq(system(rm), 0);
	ck_assert_int_eq(rc, 0);
}
END_TEST

/* ---- a main thread that has gone ------------------------------------ */

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
static const char *self_path; /* argv[0]: not /proc/self/exe, valgrind's */

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

static long churn_created; /* atomic */

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
	double budget = under_valgrind() ? 4.0 : 2.0, t0 = now_s(), slowest = 0;
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
			if (comm[0] != '\0') /* not gone meanwhile */
				FAIL("round %ld: thread %d missed it (\"%s\")",
				     rounds, (int)bad, comm);
		}
		checked += n;
		rounds++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < spawners; i++)
		pthread_join(sp[i], NULL);
	printf("churn: %ld broadcasts in %.1f s while %ld threads were created and exited; %ld thread states checked; slowest broadcast %.3f s\n",
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

/* ---- a signal handler that interrupts the caller's own broadcast ------- */

/*
 * The broadcasting thread takes a signal while it holds libpsx's lock
 * (here: in the middle of its own call, a nanosleep), and the handler
 * broadcasts, or forks. libpsx documents both as not allowed from a
 * handler, but a program that does it anyway must get an error, not a
 * thread that waits for itself for ever.
 */
static long inner_result;
static int inner_errno, inner_fork;
static pthread_t interrupted;

static void broadcast_in_handler(int sig)
{
	(void)sig;
	if (inner_fork) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		inner_result = pid < 0			      ? -1
			       : waitpid(pid, NULL, 0) == pid ? 0
							      : -1;
	} else {
		inner_result = psx_syscall3(SYS_prctl, PR_SET_NAME,
					    (long)"psx-inner", 0);
	}
	inner_errno = errno;
}

static void *interrupt_soon(void *arg)
{
	(void)arg;
	usleep(under_valgrind() ? 500000 : 50000);
	pthread_kill(interrupted, SIGUSR1);
	return NULL;
}

static int handler_inside_broadcast(void)
{
	struct timespec nap = { under_valgrind() ? 3 : 1, 0 };
	struct worker w[2];
	pthread_t t;
	long r;
	int err;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2))
		return 1;
	signal(SIGUSR1, broadcast_in_handler); /* no SA_RESTART: EINTR */
	interrupted = pthread_self();
	if (pthread_create(&t, NULL, interrupt_soon, NULL) != 0)
		FAIL("pthread_create");
	/* The hang this is about fails, it does not stall (not Check's handler). */
	signal(SIGALRM, SIG_DFL);
	alarm(10);
	errno = 0;
	r = psx_syscall3(SYS_nanosleep, (long)&nap, 0, 0);
	err = errno;
	pthread_join(t, NULL);
	if (inner_fork) {
		if (inner_result != 0)
			FAIL("fork in the handler: %ld (%s)", inner_result,
			     strerror(inner_errno));
	} else if (inner_result != -1 || inner_errno != EDEADLK) {
		FAIL("broadcast in the handler: expected -1/EDEADLK, got %ld/%s",
		     inner_result, strerror(inner_errno));
	}
	if (r != -1 || err != EINTR)
		FAIL("the interrupted call: expected -1/EINTR, got %ld/%s", r,
		     strerror(err));
	/* The lock is free again: the next broadcast reaches everybody. */
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-after") != 0 ||
	    expect_all_named("psx-after"))
		FAIL("the broadcast after the handler's");
	alarm(0);
	printf("%s in a handler inside the broadcast: %s; the call went on\n",
	       inner_fork ? "fork" : "broadcast",
	       inner_fork ? "the child was born" : "refused with EDEADLK");
	return stop_workers(w, 2);
}

START_TEST(broadcast_from_handler_is_refused)
{
	inner_fork = 0;
	ck_assert_int_eq(run_child(handler_inside_broadcast), 0);
}
END_TEST

START_TEST(fork_from_handler_does_not_hang)
{
	inner_fork = 1;
	ck_assert_int_eq(run_child(handler_inside_broadcast), 0);
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

static int fork_rounds, fork_failures; /* atomic */

struct fork_plan {
	int rounds;
	int raw; /* _Fork(): no atfork handlers run */
};

/*
 * Forks from a non-main thread while the main thread keeps broadcasting,
 * until the first child that fails. With _Fork() (glibc 2.34), nothing
 * waits for the broadcast in progress: the child is mostly born with the
 * broadcast lock held, by a thread it does not have.
 */
static void *forker(void *arg)
{
	const struct fork_plan *plan = arg;
	int i;

	for (i = 0; i < plan->rounds && fork_failures == 0; i++) {
		pid_t pid = plan->raw ? _Fork() : fork();
		int status;

		if (pid == 0) {
			/* Check's handler would kill the whole test. */
			signal(SIGALRM, SIG_DFL);
			alarm(plan->raw ? 10 : 30);
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

/*
 * 10 children (5 under valgrind): a libpsx whose lock a child could not
 * take over (no atfork handlers, no stale owner taken over) failed at the
 * first child, with fork() and with _Fork(), in each of three runs.
 */
static int fork_while_broadcasting_how(int raw)
{
	pthread_t t;
	struct worker w[2];
	struct fork_plan plan = { under_valgrind() ? 5 : 10, raw };
	long broadcasts = 0;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2))
		return 1;
	if (pthread_create(&t, NULL, forker, &plan) != 0)
		return 1;
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-parent") !=
		    0)
			FAIL("parent broadcast failed");
		broadcasts++;
	}
	pthread_join(t, NULL);
	printf("%s: %d children forked from a second thread during %ld broadcasts; %d failed\n",
	       raw ? "_Fork" : "fork", fork_rounds, broadcasts, fork_failures);
	if (fork_failures != 0)
		return 1;
	/* stop_workers sets stop again, harmlessly. */
	return stop_workers(w, 2);
}

static int fork_while_broadcasting(void)
{
	return fork_while_broadcasting_how(0);
}

static int raw_fork_while_broadcasting(void)
{
	return fork_while_broadcasting_how(1);
}

START_TEST(fork_child_can_broadcast)
{
	ck_assert_int_eq(run_child(fork_while_broadcasting), 0);
}
END_TEST

START_TEST(raw_fork_child_can_broadcast)
{
#ifdef __SANITIZE_ADDRESS__
	/*
	 * The child of _Fork() in a threaded process may only make
	 * async-signal-safe calls; this one starts threads. glibc's malloc
	 * mostly copes, but ASan's allocator and thread registry, taken by
	 * other threads at the moment of the fork, left two runs in four
	 * with a child stuck until its alarm (the plain and valgrind passes run it).
	 */
	printf("skipped under AddressSanitizer: its locks are not reset by _Fork()\n");
	return;
#endif
	ck_assert_int_eq(run_child(raw_fork_while_broadcasting), 0);
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

	threads = tcase_create("threads");
	tcase_set_timeout(threads, 120);
	tcase_add_test(threads, broadcast_reaches_every_thread);
	tcase_add_test(threads, caller_failure_is_not_broadcast);
	tcase_add_test(threads, chroot_keeps_the_list_and_no_proc_refuses);
	tcase_add_test(threads, fake_proc_refuses_the_call);
	tcase_add_test(threads, mismatch_ignored_by_default);
	tcase_add_test(threads, mismatch_warned);
	tcase_add_test(threads, mismatch_kills_on_error);
	tcase_add_test(threads,
		       privilege_failure_kills_whatever_the_sensitivity);
	tcase_add_test(threads, other_failure_left_to_the_sensitivity);
	tcase_add_test(threads, zombie_main_thread_does_not_hang);
	tcase_add_test(threads, churn_loses_no_thread);
	tcase_add_test(threads, fork_child_can_broadcast);
	tcase_add_test(threads, raw_fork_child_can_broadcast);
	tcase_add_test(threads, broadcast_from_handler_is_refused);
	tcase_add_test(threads, fork_from_handler_does_not_hang);
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
	runner = srunner_create(psx_suite());
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
