/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libpsx in PID namespaces, on the real kernel, as root: in a child
 * namespace that still sees its parent's /proc (unshare -p -f without a
 * new /proc, as some sandboxes run programs) /proc lists every thread
 * under the parent's ids; libpsx must map them (NSpid) and reach every
 * thread, those made by raw clone(2), which glibc does not know,
 * included. A /proc of a namespace we are not in at all (a child's, here)
 * refuses the call (ENOENT) before anything changed. The state broadcast
 * is the thread name, as in check_psx (see there).
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>

#include "check_run.h"
#include "check_psx.h"

static int raw_stop;		/* atomic futex word */

static int raw_thread(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&raw_stop, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &raw_stop, FUTEX_WAIT, 0, NULL, NULL, 0);
	return 0;
}

/* A thread glibc does not know; its stack is never unmapped. */
static pid_t start_raw_thread(void)
{
	size_t size = 256 * 1024;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (stack == MAP_FAILED)
		return -1;
	return clone(raw_thread, stack + size, CLONE_VM | CLONE_FS | CLONE_FILES |
		     CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM, NULL);
}

static void stop_raw_threads(void)
{
	__atomic_store_n(&raw_stop, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &raw_stop, FUTEX_WAKE, 100, NULL, NULL, 0);
}

/* In the child namespace: pid 1, /proc still the parent's. */
static int in_child_namespace(void)
{
	struct worker w[4];
	pid_t raw[2];
	char self[32];
	ssize_t n;
	int i;

	memset(w, 0, sizeof(w));
	n = readlink("/proc/self", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	if (getpid() != 1 || atoi(self) <= 1)
		FAIL("not pid 1 under the parent's /proc (pid %d, /proc/self %s)",
		     (int)getpid(), self);
	if (start_workers(w, 4))
		return 1;
	for (i = 0; i < 2; i++)
		if ((raw[i] = start_raw_thread()) < 0)
			FAIL("clone: %s", strerror(errno));
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 6)
		usleep(1000);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-pidns") != 0 ||
	    expect_all_named("psx-pidns"))
		FAIL("broadcast in a child PID namespace");
	if (psx_syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		FAIL("NoNewPrivs broadcast");
	{
		pid_t bad;
		int listed = all_named("psx-pidns", &bad);

		printf("pid 1, /proc/self -> %s: %d threads listed, 2 of them "
		       "raw clone(2) threads (ours %d and %d), all reached\n",
		       self, listed, (int)raw[0], (int)raw[1]);
		if (listed != 7)
			FAIL("%d threads listed, expected 7", listed);
	}
	stop_raw_threads();
	return stop_workers(w, 4);
}

static int pid_namespace(void)
{
	pid_t child;
	int status;

	if (unshare(CLONE_NEWPID) < 0)
		FAIL("unshare(CLONE_NEWPID): %s", strerror(errno));
	child = fork();
	if (child == 0) {
		int rc = in_child_namespace();

		fflush(NULL);
		_exit(rc);
	}
	if (child < 0 || waitpid(child, &status, 0) != child)
		FAIL("fork: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(child_pid_namespace_under_parent_proc)
{
	if (geteuid() != 0) {
		printf("skipped: needs root for unshare(CLONE_NEWPID)\n");
		return;
	}
	ck_assert_int_eq(run_child(pid_namespace), 0);
}
END_TEST

/* A thread's name read through a task directory opened beforehand. */
static void comm_at(int dirfd, pid_t tid, char *buf, size_t size)
{
	char name[32];
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "%d/comm", (int)tid);
	buf[0] = '\0';
	fd = openat(dirfd, name, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int foreign_proc(void)
{
	struct worker w[3];
	int taskfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY), i;
	pid_t helper, init;
	char comm[32];
	long r;

	memset(w, 0, sizeof(w));
	if (taskfd < 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		FAIL("private mount namespace: %s", strerror(errno));
	/* A process of a new PID namespace mounts its /proc over ours. */
	helper = fork();
	if (helper == 0) {
		if (unshare(CLONE_NEWPID) < 0)
			_exit(1);
		init = fork();
		if (init == 0)
			_exit(mount("proc", "/proc", "proc", 0, NULL) < 0);
		_exit(init < 0 || waitpid(init, &i, 0) != init || i != 0);
	}
	if (helper < 0 || waitpid(helper, &i, 0) != helper || i != 0)
		FAIL("mounting a foreign /proc failed");
	if (start_workers(w, 3))
		return 1;
	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-foreign");
	if (r != -1 || errno != ENOENT)
		FAIL("expected -1/ENOENT, got %ld/%s", r, strerror(errno));
	comm_at(taskfd, my_tid(), comm, sizeof(comm));
	if (strcmp(comm, "psx-foreign") == 0)
		FAIL("the refused call renamed the caller");
	for (i = 0; i < 3; i++) {
		comm_at(taskfd, w[i].tid, comm, sizeof(comm));
		if (comm[0] == '\0' || strcmp(comm, "psx-foreign") == 0)
			FAIL("thread %d: \"%s\"", (int)w[i].tid, comm);
	}
	printf("a /proc of another PID namespace: refused (ENOENT), nothing renamed\n");
	close(taskfd);
	return stop_workers(w, 3);
}

START_TEST(foreign_proc_refuses_the_call)
{
	if (geteuid() != 0) {
		printf("skipped: needs root for mount namespaces\n");
		return;
	}
	ck_assert_int_eq(run_child(foreign_proc), 0);
}
END_TEST

static Suite *psx_pidns_suite(void)
{
	Suite *s = suite_create("psx_pidns");
	TCase *pidns = tcase_create("pidns");

	tcase_set_timeout(pidns, 120);
	tcase_add_test(pidns, child_pid_namespace_under_parent_proc);
	tcase_add_test(pidns, foreign_proc_refuses_the_call);
	suite_add_tcase(s, pidns);
	return s;
}

int main(void)
{
	SRunner *runner;
	int failed;

	valgrind_now = under_valgrind();
	runner = srunner_create(psx_pidns_suite());
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
