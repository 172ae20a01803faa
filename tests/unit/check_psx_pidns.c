/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libpsx in PID namespaces, on the real kernel, as root: in a child
 * namespace that still sees its parent's /proc (unshare -p -f without a
 * new /proc, as some sandboxes run programs) /proc lists every thread
 * under the parent's ids; libpsx must map them (NSpid) and reach every
 * thread, those made by raw clone(2), which glibc does not know,
 * included. A /proc of a namespace we are not in at all (a child's, here)
 * refuses the call (ENOENT) before anything changed. And a thread id
 * reused in the middle of a broadcast (chosen with ns_last_pid) names a
 * new thread, which must be reached. The state broadcast is the thread
 * name, as in check_psx (see there).
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/psx_syscall.h>

#include "check_run.h"
#include "check_psx.h"
#include "psx_noproc.h"

static int raw_stop; /* atomic futex word */

static int raw_thread(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&raw_stop, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &raw_stop, FUTEX_WAIT, 0, NULL, NULL, 0);
	return 0;
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
		if ((raw[i] = noproc_raw_thread(raw_thread, NULL)) < 0)
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

		printf("pid 1, /proc/self -> %s: %d threads listed, 2 of them raw clone(2) threads (ours %d and %d), all reached\n",
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

static int foreign_proc(void)
{
	struct worker w[3];
	int taskfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY), i;
	char comm[32], why[160];
	long r;

	memset(w, 0, sizeof(w));
	if (taskfd < 0)
		FAIL("/proc/self/task: %s", strerror(errno));
	/* A process of a new PID namespace mounts its /proc over ours. */
	if (noproc_world("foreign", why, sizeof(why)) < 0)
		FAIL("a foreign /proc: %s", why);
	if (start_workers(w, 3))
		return 1;
	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-foreign");
	if (r != -1 || errno != ENOENT)
		FAIL("expected -1/ENOENT, got %ld/%s", r, strerror(errno));
	task_comm_at(taskfd, my_tid(), comm, sizeof(comm));
	if (strcmp(comm, "psx-foreign") == 0)
		FAIL("the refused call renamed the caller");
	for (i = 0; i < 3; i++) {
		task_comm_at(taskfd, w[i].tid, comm, sizeof(comm));
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

/*
 * Thread ids are reused, and in a PID namespace the next one can even be
 * chosen (ns_last_pid), which makes a race libpsx must survive exact:
 * thread K gets a slot and exits, then a thread that has not made the
 * call yet (C) creates Y, which is handed K's id, and only then makes
 * the call itself. Y was born with C's old state; libpsx must not take
 * it for K, which it has already dealt with. C is kept from making the
 * call meanwhile by a full signal queue: RLIMIT_SIGPENDING is 1 and one
 * signal is kept pending, so every copy libpsx sends fails with EAGAIN
 * until the queue is drained (libpsx sends again every 20 ms).
 */
static pid_t reuse_ktid, reuse_ytid;
static int reuse_k_exit, reuse_release, reuse_setup_failed; /* atomic */
static int reuse_stop;					    /* atomic */
static int reuse_holding;				    /* atomic */

static void *reuse_wait_main(void *arg)
{
	pid_t *tid = arg;

	__atomic_store_n(tid, my_tid(), __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&reuse_stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

/* Keeps the real-time signal queue full until told to drain it. */
static void *reuse_holder_main(void *arg)
{
	struct timespec zero = { 0, 0 };
	union sigval v = { 0 };
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	while (pthread_sigqueue(pthread_self(), SIGRTMIN, v) == 0)
		;
	__atomic_store_n(&reuse_holding, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&reuse_release, __ATOMIC_SEQ_CST))
		usleep(1000);
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
	while (!__atomic_load_n(&reuse_stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static void *reuse_goner_main(void *arg)
{
	(void)arg;
	__atomic_store_n(&reuse_ktid, my_tid(), __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&reuse_k_exit, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static int set_last_pid(pid_t last)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	int rc;

	if (f == NULL)
		return -1;
	rc = fprintf(f, "%d", (int)last) < 0;
	return fclose(f) != 0 || rc ? -1 : 0;
}

static void *reuse_creator_main(void *arg)
{
	pthread_attr_t attr;
	pthread_t y;
	char comm[32];

	(void)arg;
	/* The caller has made the call: the broadcast is under way. */
	do {
		usleep(1000);
		task_comm(1, comm, sizeof(comm));
	} while (strcmp(comm, "psx-reused") != 0);
	__atomic_store_n(&reuse_k_exit, 1, __ATOMIC_SEQ_CST);
	while (syscall(SYS_tgkill, getpid(), reuse_ktid, 0) == 0)
		usleep(1000);
	usleep(200 * 1000); /* libpsx has looked at K again and found it gone */
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (set_last_pid(reuse_ktid - 1) < 0 ||
	    pthread_create(&y, &attr, reuse_wait_main, &reuse_ytid) != 0) {
		__atomic_store_n(&reuse_setup_failed, 1, __ATOMIC_SEQ_CST);
	} else {
		while (__atomic_load_n(&reuse_ytid, __ATOMIC_SEQ_CST) == 0)
			usleep(1000);
	}
	__atomic_store_n(&reuse_release, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&reuse_stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

/* In the child namespace, pid 1, with a /proc of its own. */
static int reused_tid_scenario(void)
{
	struct rlimit one = { 1, 1 };
	pthread_t holder, goner, creator;
	char comm[32];
	long r;

	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0)
		FAIL("mount /proc: %s", strerror(errno));
	if (setrlimit(RLIMIT_SIGPENDING, &one) < 0 ||
	    pthread_create(&holder, NULL, reuse_holder_main, NULL) != 0)
		FAIL("setup: %s", strerror(errno));
	while (!__atomic_load_n(&reuse_holding, __ATOMIC_SEQ_CST))
		usleep(1000);
	if (pthread_create(&goner, NULL, reuse_goner_main, NULL) != 0 ||
	    pthread_create(&creator, NULL, reuse_creator_main, NULL) != 0)
		FAIL("pthread_create failed");
	while (__atomic_load_n(&reuse_ktid, __ATOMIC_SEQ_CST) == 0)
		usleep(1000);
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-reused");
	if (r != 0)
		FAIL("the broadcast failed: %s", strerror(errno));
	if (__atomic_load_n(&reuse_setup_failed, __ATOMIC_SEQ_CST))
		FAIL("could not create a thread with a chosen id: %s",
		     strerror(errno));
	if (reuse_ytid != reuse_ktid)
		FAIL("set-up: the new thread got id %d, not %d",
		     (int)reuse_ytid, (int)reuse_ktid);
	task_comm(reuse_ytid, comm, sizeof(comm));
	printf("thread %d exited mid-broadcast; a thread created by one that had not made the call yet got id %d, and is named \"%s\"\n",
	       (int)reuse_ktid, (int)reuse_ytid, comm);
	if (strcmp(comm, "psx-reused") != 0)
		FAIL("thread %d (a reused id) kept its old state: \"%s\"",
		     (int)reuse_ytid, comm);
	if (expect_all_named("psx-reused"))
		return 1;
	__atomic_store_n(&reuse_stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(goner, NULL);
	pthread_join(creator, NULL);
	pthread_join(holder, NULL);
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), rc;

	if (fd < 0)
		return -1;
	rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	return close(fd) < 0 ? -1 : rc;
}

/*
 * A user namespace of its own (root mapped to root) gives the scenario
 * its own count of queued signals: the host's root processes, other test
 * suites among them, share the other one.
 */
static int reused_tid(void)
{
	pid_t child;
	int status;

	if (unshare(CLONE_NEWUSER) < 0 ||
	    write_file("/proc/self/setgroups", "deny") < 0 ||
	    write_file("/proc/self/gid_map", "0 0 1") < 0 ||
	    write_file("/proc/self/uid_map", "0 0 1") < 0)
		FAIL("user namespace: %s", strerror(errno));
	if (unshare(CLONE_NEWNS | CLONE_NEWPID) < 0 ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		FAIL("namespaces: %s", strerror(errno));
	child = fork();
	if (child == 0) {
		int rc = reused_tid_scenario();

		fflush(NULL);
		_exit(rc);
	}
	if (child < 0 || waitpid(child, &status, 0) != child)
		FAIL("fork: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(reused_tid_is_not_taken_for_the_old_thread)
{
	if (geteuid() != 0) {
		printf("skipped: needs root for PID namespaces and ns_last_pid\n");
		return;
	}
	ck_assert_int_eq(run_child(reused_tid), 0);
}
END_TEST

static Suite *psx_pidns_suite(void)
{
	Suite *s = suite_create("psx_pidns");
	TCase *pidns = tcase_create("pidns");

	tcase_set_timeout(pidns, 120);
	tcase_add_test(pidns, child_pid_namespace_under_parent_proc);
	tcase_add_test(pidns, foreign_proc_refuses_the_call);
	tcase_add_test(pidns, reused_tid_is_not_taken_for_the_old_thread);
	suite_add_tcase(s, pidns);
	return s;
}

int main(void)
{
	return run_psx_suite(psx_pidns_suite);
}
