/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxreach: does libpsx reach every thread, or refuse before anything
 * changes? Linked with libcap and libpsx as libcap documents. Runs as root
 * with the full capability sets; every mode starts worker threads, makes
 * one change, then compares every thread's /proc/.../status with what
 * that mode expects, one line per thread, and a last line
 * "N threads, M differ from the expected state". Exit 0 when the call did
 * what the mode expects (success, or the documented refusal) and no
 * thread differs; 1 otherwise; 2 when the set-up failed.
 *
 *   ns-setresuid   psx_syscall3(SYS_setresuid, 65534, 65534, 65534) with
 *                  four pthread_create() threads and two raw clone(2)
 *                  threads (CLONE_THREAD, unknown to glibc). Run under
 *                  "unshare -p -f" (a child PID namespace that still sees
 *                  its parent's /proc) it must still change every thread.
 *   ns-caps        the same threads, cap_set_proc() of an empty set.
 *   foreign-proc   /proc replaced (in a private mount namespace) by the
 *                  /proc of a PID namespace we are not in: the call must
 *                  fail with ENOENT and change no thread, checked through
 *                  the real /proc opened beforehand.
 *   daemon         every thread blocks all signals with sigfillset() and
 *                  pthread_sigmask(), one sits in sigwait(): cap_set_proc()
 *                  must return and change every thread.
 *   rawblock       one thread blocks every signal with a raw
 *                  rt_sigprocmask(), which glibc cannot filter: the call
 *                  must fail with EDEADLK within 8 s, no thread changed.
 *   traced         one thread is held in a ptrace stop by a helper
 *                  process: the same.
 *   stall          one thread waits in vfork() for a child that sleeps,
 *                  uninterruptible, past libpsx's time-out: libpsx must
 *                  kill the process (this mode never exits 0 by itself;
 *                  the suite expects SIGKILL).
 *   setxid         glibc's own setuid()/setgroups() broadcast (signal 33,
 *                  which libpsx shares) before and after libpsx
 *                  broadcasts, the first made before any thread existed:
 *                  every step reaches every thread and none hangs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/psx_syscall.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "psx_noproc.h"

#define NPTHREADS  4
#define NRAW	   2
#define MAXTHREADS (NPTHREADS + NRAW + 2)
#define FULL_CAPS  "000001fffeffffff"

static int stop;	/* atomic; a futex word for the raw threads */
static int ready;	/* atomic: threads that have started */
static int taskfd = -1; /* the task directory the check reads */
static pid_t worker_tids[MAXTHREADS];

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

/* ---- the expected state, and every thread's ------------------------- */

static const char *const fields[] = { "Uid:", "Gid:", "Groups:", "CapPrm:",
				      "CapEff:" };
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

struct state {
	char value[NFIELDS][96];
};

/* A field's value, as /proc prints it, without the tabs around it. */
static int read_state(pid_t tid, struct state *st)
{
	char name[32], line[256];
	FILE *f;
	int fd;
	size_t i;

	memset(st, 0, sizeof(*st));
	snprintf(name, sizeof(name), "%d/status", (int)tid);
	fd = openat(taskfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (f = fdopen(fd, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		for (i = 0; i < NFIELDS; i++)
			if (strncmp(line, fields[i], strlen(fields[i])) == 0) {
				char *v = line + strlen(fields[i]), *end;

				v += strspn(v, " \t");
				end = v + strlen(v);
				while (end > v &&
				       (end[-1] == '\n' || end[-1] == ' '))
					*--end = '\0';
				snprintf(st->value[i], sizeof(st->value[i]),
					 "%s", v);
			}
	fclose(f);
	return 0;
}

static void expect(struct state *want, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i], name) == 0)
			snprintf(want->value[i], sizeof(want->value[i]), "%s",
				 value);
}

/* Prints every thread; returns how many differ from want ("" = any). */
static int compare_threads(const struct state *want)
{
	DIR *dir;
	struct dirent *d;
	int n = 0, bad = 0, fd = dup(taskfd);

	if (fd < 0 || (dir = fdopendir(fd)) == NULL) {
		perror("task directory");
		return 99;
	}
	rewinddir(dir);
	while ((d = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(d->d_name);
		struct state st;
		int differs = 0;
		size_t i;

		if (tid <= 0 || read_state(tid, &st) < 0)
			continue;
		n++;
		printf("thread %d:", (int)tid);
		for (i = 0; i < NFIELDS; i++) {
			printf(" %s %s", fields[i], st.value[i]);
			if (want->value[i][0] != '\0' &&
			    strcmp(want->value[i], st.value[i]) != 0)
				differs = 1;
		}
		printf("%s\n", differs ? "   <-- differs" : "");
		bad += differs;
	}
	closedir(dir);
	printf("%d threads, %d differ from the expected state\n", n, bad);
	return bad;
}

/* ---- threads ------------------------------------------------------- */

enum kind { IDLE, READER, SLEEPER, SPINNER, DAEMON, SIGWAITER, RAWBLOCK };

static int pipefd[2];
static pthread_t pthreads[MAXTHREADS];
static int npthreads;

static void *pworker(void *arg)
{
	enum kind kind = (enum kind)(long)arg;
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	sigset_t all;
	int sig;
	char byte;

	worker_tids[__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST)] = my_tid();
	switch (kind) {
	case READER:
		if (read(pipefd[0], &byte, 1) < 0)
			perror("worker read");
		break;
	case SLEEPER:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			nanosleep(&ts, NULL);
		break;
	case SPINNER:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			;
		break;
	case DAEMON:
		/* The usual daemon worker: no signal for me, ever. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, NULL);
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			nanosleep(&ts, NULL);
		break;
	case SIGWAITER:
		/* ... and one thread that takes every signal synchronously. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, NULL);
		while (sigwait(&all, &sig) == 0 && sig != SIGUSR1)
			;
		break;
	case RAWBLOCK: {
		/* What glibc cannot filter: signal 33 blocked too. */
		unsigned long every = ~0ul;

		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &every, NULL,
			sizeof(every));
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			nanosleep(&ts, NULL);
		break;
	}
	case IDLE:
	default:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			usleep(1000);
		break;
	}
	return NULL;
}

static int start_pthread(enum kind kind)
{
	if (pthread_create(&pthreads[npthreads], NULL, pworker,
			   (void *)(long)kind) != 0)
		return -1;
	npthreads++;
	return 0;
}

/*
 * A thread glibc does not know: clone(2) with CLONE_THREAD and no TLS of
 * its own, waiting on a futex with raw system calls only.
 */
static int raw_main(void *arg)
{
	(void)arg;
	worker_tids[__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST)] = my_tid();
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &stop, FUTEX_WAIT, 0, NULL, NULL, 0);
	return 0;
}

static int wait_ready(int n)
{
	double t0 = now_s();

	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < n) {
		if (now_s() - t0 > 10) {
			fprintf(stderr, "psxreach: threads did not start\n");
			return -1;
		}
		usleep(1000);
	}
	usleep(20000); /* the reader and the sleepers are blocked now */
	return 0;
}

static int start_mixed(int raw)
{
	int i;

	for (i = 0; i < NPTHREADS; i++)
		if (start_pthread((enum kind)i) < 0)
			return -1;
	for (i = 0; i < raw; i++)
		if (noproc_raw_thread(raw_main, NULL) < 0)
			return -1;
	return wait_ready(NPTHREADS + raw);
}

static void stop_threads(void)
{
	int i;

	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &stop, FUTEX_WAKE, 1000, NULL, NULL, 0);
	if (write(pipefd[1], "x", 1) != 1)
		perror("write");
	for (i = 0; i < npthreads; i++)
		pthread_join(pthreads[i], NULL);
}

/* ---- calls ---------------------------------------------------------- */

static int drop_all_caps(void)
{
	cap_t none = cap_init();
	int rc = cap_set_proc(none);
	int err = errno;

	cap_free(none);
	errno = err;
	return rc;
}

/* Makes the call and says what it returned and how long it took. */
static int timed(const char *what, int (*call)(void), double *took)
{
	double t0 = now_s();
	int rc, err;

	errno = 0;
	rc = call();
	err = errno;
	*took = now_s() - t0;
	printf("%s returned %d (%s) after %.2f s\n", what, rc,
	       rc == 0 ? "success" : strerror(err), *took);
	errno = err;
	return rc;
}

static int setresuid_nobody(void)
{
	return (int)psx_syscall3(SYS_setresuid, 65534, 65534, 65534);
}

/* ---- modes --------------------------------------------------------- */

static void say_namespace(void)
{
	char link[64];
	ssize_t n = readlink("/proc/self", link, sizeof(link) - 1);

	link[n > 0 ? n : 0] = '\0';
	printf("pid %d; /proc/self -> %s\n", (int)getpid(),
	       n > 0 ? link : strerror(errno));
}

static int mode_ns(int caps)
{
	struct state want;
	double took;
	int rc;

	say_namespace();
	if (start_mixed(NRAW) < 0)
		return 2;
	memset(&want, 0, sizeof(want));
	if (caps) {
		rc = timed("cap_set_proc(empty)", drop_all_caps, &took);
	} else {
		rc = timed("psx_syscall3(SYS_setresuid, 65534, 65534, 65534)",
			   setresuid_nobody, &took);
		expect(&want, "Uid:", "65534\t65534\t65534\t65534");
	}
	expect(&want, "CapPrm:", "0000000000000000");
	expect(&want, "CapEff:", "0000000000000000");
	if (compare_threads(&want) != 0 || rc != 0)
		return 1;
	stop_threads();
	return 0;
}

/* The calls below must fail before anything changed. */
static int expect_refusal(int rc, int err, int want_errno, double took,
			  double bound)
{
	struct state want;
	int bad;

	memset(&want, 0, sizeof(want));
	expect(&want, "Uid:", "0\t0\t0\t0");
	expect(&want, "CapPrm:", FULL_CAPS);
	expect(&want, "CapEff:", FULL_CAPS);
	bad = compare_threads(&want);
	if (rc != -1 || err != want_errno) {
		printf("expected -1 with %s\n", strerror(want_errno));
		return 1;
	}
	if (took > bound) {
		printf("expected to fail within %.0f s\n", bound);
		return 1;
	}
	return bad != 0;
}

static int mode_foreign_proc(void)
{
	char why[160];
	double took;
	int rc, err;

	/* In a private mount namespace: a PID namespace's own /proc. */
	if (noproc_world("foreign", why, sizeof(why)) < 0) {
		fprintf(stderr, "psxreach: mounting a foreign /proc: %s\n",
			why);
		return 2;
	}
	say_namespace();
	if (start_mixed(NRAW) < 0)
		return 2;
	rc = timed("psx_syscall3(SYS_setresuid, 65534, 65534, 65534)",
		   setresuid_nobody, &took);
	err = errno;
	rc = expect_refusal(rc, err, ENOENT, took, 8);
	stop_threads();
	return rc;
}

static int mode_daemon(void)
{
	struct state want;
	cap_t caps = cap_from_text("cap_chown,cap_net_raw=ep cap_setpcap=p");
	sigset_t all;
	double t0, took;
	int i, rc;

	/* Blocked in main first, so every thread starts with it. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (i = 0; i < NPTHREADS; i++)
		if (start_pthread(DAEMON) < 0)
			return 2;
	if (start_pthread(SIGWAITER) < 0 || wait_ready(NPTHREADS + 1) < 0)
		return 2;
	t0 = now_s();
	rc = cap_set_proc(caps);
	took = now_s() - t0;
	printf("cap_set_proc returned %d (%s) after %.2f s\n", rc,
	       rc == 0 ? "success" : strerror(errno), took);
	memset(&want, 0, sizeof(want));
	expect(&want, "CapPrm:", "0000000000002101");
	expect(&want, "CapEff:", "0000000000002001");
	cap_free(caps);
	if (compare_threads(&want) != 0 || rc != 0)
		return 1;
	pthread_kill(pthreads[npthreads - 1], SIGUSR1);
	stop_threads();
	return 0;
}

static int mode_rawblock(void)
{
	double took;
	int rc, err;

	if (start_pthread(IDLE) < 0 || start_pthread(RAWBLOCK) < 0 ||
	    start_pthread(SLEEPER) < 0 || wait_ready(3) < 0)
		return 2;
	rc = timed("cap_set_proc(empty)", drop_all_caps, &took);
	err = errno;
	rc = expect_refusal(rc, err, EDEADLK, took, 8);
	stop_threads();
	return rc;
}

/* A helper process holds one of our threads in a ptrace stop. */
static int mode_traced(void)
{
	int to_main[2], to_helper[2], status, rc, err;
	pid_t helper, victim;
	double took;
	char byte;

	if (start_pthread(IDLE) < 0 || start_pthread(IDLE) < 0 ||
	    wait_ready(2) < 0 || pipe(to_main) < 0 || pipe(to_helper) < 0)
		return 2;
	victim = worker_tids[1];
	helper = fork();
	if (helper == 0) {
		close(to_main[0]);
		close(to_helper[1]);
		if (ptrace(PTRACE_SEIZE, victim, 0, 0) < 0 ||
		    ptrace(PTRACE_INTERRUPT, victim, 0, 0) < 0 ||
		    waitpid(victim, &status, __WALL) != victim) {
			perror("psxreach helper: ptrace");
			_exit(1);
		}
		if (write(to_main[1], "s", 1) != 1)
			_exit(1);
		/* Until main is done (or gone). */
		if (read(to_helper[0], &byte, 1) < 0)
			_exit(1);
		ptrace(PTRACE_DETACH, victim, 0, 0);
		_exit(0);
	}
	close(to_main[1]);
	close(to_helper[0]);
	if (helper < 0 || read(to_main[0], &byte, 1) != 1) {
		fprintf(stderr,
			"psxreach: the helper could not stop thread %d\n",
			(int)victim);
		return 2;
	}
	printf("thread %d is held in a ptrace stop\n", (int)victim);
	rc = timed("cap_set_proc(empty)", drop_all_caps, &took);
	err = errno;
	rc = expect_refusal(rc, err, EDEADLK, took, 8);
	if (write(to_helper[1], "r", 1) != 1 ||
	    waitpid(helper, &status, 0) != helper)
		return 2;
	stop_threads();
	return rc;
}

/*
 * The vfork() child sleeps in a loop until its parent process is gone
 * (libpsx killed it) or 20 s have passed; meanwhile the thread that
 * called vfork() sleeps uninterruptibly and takes no signal.
 */
static pid_t stall_parent;
static pid_t vforker_tid; /* atomic; the idle thread may start first */

static void *vforker(void *arg)
{
	(void)arg;
	__atomic_store_n(&vforker_tid, my_tid(), __ATOMIC_SEQ_CST);
	worker_tids[__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST)] = my_tid();
	if (vfork() == 0) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		int i;

		for (i = 0; i < 200 && syscall(SYS_getppid) == stall_parent;
		     i++)
			syscall(SYS_nanosleep, &ts, NULL);
		_exit(0);
	}
	return NULL;
}

static char task_state(pid_t tid)
{
	char name[32], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "%d/stat", (int)tid);
	fd = openat(taskfd, name, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' ? p[2] : '?';
}

static int mode_stall(void)
{
	pthread_t t;
	double t0 = now_s(), took;
	int rc;

	stall_parent = getpid();
	if (start_pthread(IDLE) < 0 ||
	    pthread_create(&t, NULL, vforker, NULL) != 0 || wait_ready(2) < 0)
		return 2;
	while (task_state(__atomic_load_n(&vforker_tid, __ATOMIC_SEQ_CST)) !=
	       'D') {
		if (now_s() - t0 > 10) {
			fprintf(stderr,
				"psxreach: the vfork() parent never slept\n");
			return 2;
		}
		usleep(1000);
	}
	printf("thread %d waits in vfork(), state D\n", (int)vforker_tid);
	fflush(stdout);
	rc = timed("cap_set_proc(empty)", drop_all_caps, &took);
	/* Only reached when libpsx did not kill the process. */
	printf("still alive (cap_set_proc returned %d): expected libpsx to kill the process\n",
	       rc);
	return 1;
}

/* ---- glibc's setxid broadcast beside ours ------------------------- */

static void *handler_of_33(void)
{
	unsigned long act[4] = { 0 };

	syscall(SYS_rt_sigaction, 33, NULL, act, 8);
	return (void *)act[0];
}

static int step(const char *what, int rc, struct state *want)
{
	printf("%s: %s\n", what, rc == 0 ? "ok" : strerror(errno));
	if (rc != 0)
		return 1;
	return compare_threads(want) != 0;
}

static int mode_setxid(void)
{
	const gid_t first[] = { 100 }, second[] = { 200, 201 };
	struct state want;
	cap_t caps = cap_from_text("cap_setuid,cap_setgid,cap_chown=ep");
	void *ours, *glibcs;
	int bad = 0, i;

	/* Before any thread: glibc has no handler for 33 yet, ours goes in. */
	if (psx_syscall3(SYS_setresgid, 1000, 1000, 1000) != 0)
		return 2;
	ours = handler_of_33();
	for (i = 0; i < NPTHREADS; i++)
		if (start_pthread((enum kind)i) < 0)
			return 2;
	if (wait_ready(NPTHREADS) < 0)
		return 2;
	glibcs = handler_of_33();
	printf("signal 33: libpsx's handler %p, after the first pthread_create %p (%s)\n",
	       ours, glibcs, ours == glibcs ? "kept" : "glibc's replaced it");

	memset(&want, 0, sizeof(want));
	expect(&want, "Groups:", "100");
	bad += step("glibc setgroups(100)", setgroups(1, first), &want);
	expect(&want, "Gid:", "1001\t1001\t1001\t1001");
	bad += step("libpsx setresgid(1001)",
		    (int)psx_syscall3(SYS_setresgid, 1001, 1001, 1001), &want);
	printf("signal 33 handler now %p (%s)\n", handler_of_33(),
	       handler_of_33() == ours ? "libpsx's" : "another");
	expect(&want, "Groups:", "200 201");
	bad += step("glibc setgroups(200, 201) with libpsx's handler installed",
		    setgroups(2, second), &want);
	expect(&want, "Gid:", "1002\t1002\t1002\t1002");
	bad += step("glibc setresgid(1002)", setresgid(1002, 1002, 1002),
		    &want);
	expect(&want, "CapPrm:", "00000000000000c1");
	expect(&want, "CapEff:", "00000000000000c1");
	bad += step("libcap cap_set_proc(cap_setuid,cap_setgid,cap_chown=ep)",
		    cap_set_proc(caps), &want);
	expect(&want, "Uid:", "65534\t65534\t65534\t65534");
	expect(&want, "CapPrm:", "0000000000000000");
	expect(&want, "CapEff:", "0000000000000000");
	bad += step("glibc setresuid(65534)", setresuid(65534, 65534, 65534),
		    &want);
	cap_free(caps);
	if (bad == 0)
		stop_threads();
	return bad != 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr,
			"usage: psxreach ns-setresuid|ns-caps|foreign-proc|daemon|rawblock|traced|stall|setxid\n");
		return 2;
	}
	/* Opened first: foreign-proc replaces /proc afterwards. */
	taskfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (taskfd < 0 || pipe(pipefd) < 0) {
		perror("psxreach: /proc/self/task");
		return 2;
	}
	if (strcmp(argv[1], "ns-setresuid") == 0)
		return mode_ns(0);
	if (strcmp(argv[1], "ns-caps") == 0)
		return mode_ns(1);
	if (strcmp(argv[1], "foreign-proc") == 0)
		return mode_foreign_proc();
	if (strcmp(argv[1], "daemon") == 0)
		return mode_daemon();
	if (strcmp(argv[1], "rawblock") == 0)
		return mode_rawblock();
	if (strcmp(argv[1], "traced") == 0)
		return mode_traced();
	if (strcmp(argv[1], "stall") == 0)
		return mode_stall();
	if (strcmp(argv[1], "setxid") == 0)
		return mode_setxid();
	fprintf(stderr, "psxreach: unknown mode %s\n", argv[1]);
	return 2;
}
