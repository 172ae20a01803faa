/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxiouring: libcap's state changes through libpsx in a process with
 * io_uring's worker threads alive, and what those workers then run with.
 * Linked with libcap and libpsx as libcap documents (bin/psxiouring;
 * bin/psxiouring-static with libpsx.a and -Wl,-wrap,pthread_create).
 * Runs as root with the full capability sets.
 *
 *   psxiouring SECRET
 *
 * SECRET is a file only root may read (owner root, mode 0600, in a
 * directory anyone may search). The program, as root:
 *
 *  1. starts three ordinary threads, and a raw io_uring ring on which a
 *     read of an empty pipe is forced to an io-wq worker (IOSQE_ASYNC):
 *     the worker stays, the read waits for data;
 *  2. cap_setuid(65534) (a broadcast of setuid(2) and capset(2)), then
 *     cap_set_proc() with E raised to P again: each must succeed well
 *     within libpsx's 2 s pre-flight time-out, every ordinary thread
 *     must have uid 65534 and every capability, and the worker, left
 *     out, still uid 0;
 *  3. as uid 65534 with every capability, sets up a second ring with a
 *     submission-queue polling thread (IORING_SETUP_SQPOLL) and
 *     registers a personality on the first; opens
 *     SECRET through the first ring in an io-wq worker (it must succeed:
 *     CAP_DAC_OVERRIDE decides it, so the test tests the capability),
 *     which leaves that worker idle; and submits a read of another empty
 *     pipe linked to an open of SECRET, held back by that read;
 *  4. cap_set_proc() without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH:
 *     it must succeed in time, every ordinary thread's sets (capget(2)
 *     by thread id) must equal the caller's, and every io_uring thread
 *     must still hold CAP_DAC_OVERRIDE in its own credentials (its
 *     status), as it was left out;
 *  5. opens SECRET through the first ring in an io-wq worker again: it
 *     must fail with EACCES, although the worker that ran it (the one of
 *     step 3, idle since; no worker without the capability may exist)
 *     holds CAP_DAC_OVERRIDE in its own credentials: the kernel checked
 *     the submitter's;
 *  6. opens SECRET through the SQPOLL ring: it succeeds, as documented,
 *     since such a ring runs requests with the credentials of the thread
 *     that set it up, taken when it was set up; so does an open naming a
 *     personality registered in step 3 (IORING_REGISTER_PERSONALITY);
 *     and releases the linked open of step 3, which succeeds too: it
 *     runs with the credentials it was submitted with;
 *  7. cap_set_proc() of an empty set with all of these threads alive:
 *     in time, every ordinary thread empty;
 *  8. psx_syscall3(io_uring_setup) of an SQPOLL ring: each thread's
 *     call starts a polling thread after libpsx's check (see
 *     workers_born_of_the_call()): in time, and those left out without
 *     being signalled.
 *
 * First "pid N", then one line per check on stdout: "ok: ..." or
 * "FAIL: ...", and "N check(s) failed" last. Exit 0 when
 * every check held, 1 otherwise, 2 when the set-up failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/psx_syscall.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capget_tid.h"
#include "iou_ring.h"

/* Well under libpsx's 2 s pre-flight time-out, well over any real call. */
#define PROMPT_MS 1000.0
#define NOBODY	  65534
#define NTHREADS  3
#define DAC_CAPS  ((1ull << CAP_DAC_OVERRIDE) | (1ull << CAP_DAC_READ_SEARCH))

static int failures;

static void check(int good, const char *what)
{
	printf("%s: %s\n", good ? "ok" : "FAIL", what);
	failures += !good;
}

static void die(const char *what)
{
	printf("set-up failed: %s: %s\n", what, strerror(errno));
	fflush(stdout);
	_exit(2);
}

static void submit(struct iou_ring *r, unsigned n)
{
	if (iou_submit(r, n) < 0)
		die("io_uring_enter (submit)");
}

static long wait_for(struct iou_ring *r, int ud)
{
	long res;

	if (iou_wait(r, ud, &res) < 0)
		die("io_uring_enter (wait)");
	return res;
}

/* ---- the threads and what they hold --------------------------------- */

static pid_t tids[NTHREADS + 1]; /* atomic; [0] the main thread */
static int quit;		 /* atomic */

static void *ordinary(void *arg)
{
	__atomic_store_n((pid_t *)arg, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&quit, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

/* One line of a thread's status, from its tag on ("CapEff:\t..."). */
static int status_line(pid_t tid, const char *tag, char *out, size_t size)
{
	char path[64], line[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, tag, strlen(tag)) == 0) {
			snprintf(out, size, "%s", line + strlen(tag));
			out[strcspn(out, "\n")] = '\0';
			found = 1;
		}
	fclose(f);
	return found ? 0 : -1;
}

static unsigned long long cap_eff_of(pid_t tid)
{
	char text[64];

	if (status_line(tid, "CapEff:\t", text, sizeof(text)) < 0)
		return 0;
	return strtoull(text, NULL, 16);
}

/* io_uring's threads now, by name: only the kernel names them so here. */
static int io_threads(pid_t *out, int max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		die("/proc/self/task");
	while ((e = readdir(d)) != NULL && n < max) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "re");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL &&
		    strncmp(comm, "iou-", 4) == 0)
			out[n++] = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Waits up to 2 s for at least want io_uring threads; how many there are. */
static int wait_io_threads(int want)
{
	pid_t io[32];
	int i, n = 0;

	for (i = 0; i < 2000 && (n = io_threads(io, 32)) < want; i++)
		usleep(1000);
	return n;
}

/* Every ordinary thread's sets equal the main thread's. */
static int threads_match_main(void)
{
	struct sets want, got = { 0, 0, 0 };
	int i, same = 1;

	if (read_sets(0, &want) < 0)
		return 0;
	for (i = 1; i <= NTHREADS; i++) {
		if (read_sets(tids[i], &got) < 0 || got.eff != want.eff ||
		    got.prm != want.prm || got.inh != want.inh) {
			printf("  thread %d: eff %016llx prm %016llx, main eff %016llx prm %016llx\n",
			       (int)tids[i], got.eff, got.prm, want.eff,
			       want.prm);
			same = 0;
		}
	}
	return same;
}

/* ---- the steps ------------------------------------------------------ */

static double ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) * 1e3 +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e6;
}

/*
 * One change through libpsx, timed: cap_set_proc(caps), which frees
 * caps, or with caps NULL cap_setuid(uid). Reported as a check; a change
 * that failed ends the program (exit 1), as the steps after it would
 * prove nothing.
 */
static void change(const char *what, cap_t caps, uid_t uid)
{
	struct timespec start;
	char line[160];
	double ms;
	int rc, err;

	clock_gettime(CLOCK_MONOTONIC, &start);
	errno = 0;
	rc = caps != NULL ? cap_set_proc(caps) : cap_setuid(uid);
	err = errno;
	ms = ms_since(&start);
	cap_free(caps);
	snprintf(line, sizeof(line), "%s = %d (%s) in %.1f ms", what, rc,
		 rc == 0 ? "success" : strerror(err), ms);
	check(rc == 0 && ms < PROMPT_MS, line);
	if (rc != 0) {
		fflush(stdout);
		_exit(1);
	}
}

static void every_thread_uid(void)
{
	char text[64], want[64], line[128];
	pid_t io[32];
	int i, n, good = 1;

	snprintf(want, sizeof(want), "%d\t%d\t%d\t%d", NOBODY, NOBODY, NOBODY,
		 NOBODY);
	for (i = 0; i <= NTHREADS; i++)
		if (status_line(tids[i], "Uid:\t", text, sizeof(text)) < 0 ||
		    strcmp(text, want) != 0) {
			printf("  thread %d: Uid %s\n", (int)tids[i], text);
			good = 0;
		}
	check(good, "every ordinary thread has uid 65534");
	n = io_threads(io, 32);
	for (i = 0, good = n > 0; i < n; i++)
		if (status_line(io[i], "Uid:\t", text, sizeof(text)) < 0 ||
		    strncmp(text, "0\t", 2) != 0)
			good = 0;
	snprintf(line, sizeof(line),
		 "the %d io_uring thread(s) were left out: still uid 0", n);
	check(good, line);
}

/* Every io_uring thread holds CAP_DAC_OVERRIDE in its own credentials. */
static int io_threads_keep_dac(int *count)
{
	pid_t io[32];
	int i, n = io_threads(io, 32), good = n > 0;

	for (i = 0; i < n; i++)
		if (!(cap_eff_of(io[i]) & (1ull << CAP_DAC_OVERRIDE))) {
			printf("  io_uring thread %d: CapEff %016llx\n",
			       (int)io[i], cap_eff_of(io[i]));
			good = 0;
		}
	*count = n;
	return good;
}

/* Whether some io_uring thread has signal 33 pending (bit 32 of SigPnd). */
static int io_thread_signalled(void)
{
	pid_t io[32];
	int i, n = io_threads(io, 32), found = 0;

	for (i = 0; i < n; i++) {
		char text[64];

		if (status_line(io[i], "SigPnd:\t", text, sizeof(text)) == 0 &&
		    (strtoull(text, NULL, 16) >> 32 & 1)) {
			printf("  io_uring thread %d: SigPnd %s\n", (int)io[i],
			       text);
			found = 1;
		}
	}
	return found;
}

/* How many of io_uring's SQPOLL threads there are now. */
static int sqpoll_threads(void)
{
	pid_t io[32];
	int i, n = io_threads(io, 32), found = 0;

	for (i = 0; i < n; i++) {
		char path[64], comm[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/comm",
			 (int)io[i]);
		f = fopen(path, "re");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL &&
		    strncmp(comm, "iou-sqp-", 8) == 0)
			found++;
		fclose(f);
	}
	return found;
}

/*
 * Step 8. io_uring_setup(2) of an SQPOLL ring made through
 * psx_syscall3(): each thread's call starts a polling thread, inside the
 * call, after libpsx's pre-flight check; those of the other threads even
 * while the broadcast runs. libpsx meets them in its sweeps, threads it
 * has not seen: each must be left out there, not signalled (no signal 33
 * pending on any io_uring thread afterwards), and the call must end in
 * time. Every thread's ring stays open, each with its thread, until the
 * program ends.
 */
static void workers_born_of_the_call(void)
{
	struct io_uring_params params;
	struct timespec start;
	char line[200];
	int before, after = 0, i;
	long fd;
	double ms;

	memset(&params, 0, sizeof(params));
	params.flags = IORING_SETUP_SQPOLL;
	params.sq_thread_idle = 10000;
	before = sqpoll_threads();
	clock_gettime(CLOCK_MONOTONIC, &start);
	fd = psx_syscall3(SYS_io_uring_setup, 8, (long)&params, 0);
	ms = ms_since(&start);
	/* each is a member of the process once its call has returned */
	for (i = 0; i < 2000; i++) {
		after = sqpoll_threads();
		if (after >= before + 1 + NTHREADS)
			break;
		usleep(1000);
	}
	snprintf(
		line, sizeof(line),
		"psx_syscall3(io_uring_setup, SQPOLL) = %s in %.1f ms, starting a polling thread in each thread (%d, then %d)",
		fd >= 0 ? "a ring" : strerror(errno), ms, before, after);
	check(fd >= 0 && ms < PROMPT_MS && after == before + 1 + NTHREADS,
	      line);
	check(!io_thread_signalled(),
	      "... left out, not signalled: no io_uring thread has signal 33 pending");
}

int main(int argc, char **argv)
{
	static char byte1, byte2;
	struct iou_ring plain, sqpoll;
	pthread_t threads[NTHREADS];
	pid_t io[32];
	int worker_pipe[2], link_pipe[2], i, n, personality;
	char line[256];
	const char *secret;
	cap_t caps;
	long res;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: psxiouring SECRET\n");
		return 2;
	}
	secret = argv[1];
	printf("pid %d\n", (int)getpid()); /* for a suite that inspects it */
	{
		struct sets mine;

		if (getuid() != 0 || read_sets(0, &mine) < 0 ||
		    (mine.eff & (DAC_CAPS | 1ull << CAP_SETUID)) !=
			    (DAC_CAPS | 1ull << CAP_SETUID)) {
			fprintf(stderr,
				"psxiouring: needs root with cap_setuid and cap_dac_override\n");
			return 2;
		}
	}
	if (pipe2(worker_pipe, O_CLOEXEC) < 0 ||
	    pipe2(link_pipe, O_CLOEXEC) < 0)
		die("pipe2");

	/* 1. ordinary threads, and an io-wq worker blocked in a read */
	tids[0] = (pid_t)syscall(SYS_gettid);
	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&threads[i], NULL, ordinary, &tids[i + 1]))
			die("pthread_create");
	for (i = 1; i <= NTHREADS; i++)
		while (__atomic_load_n(&tids[i], __ATOMIC_SEQ_CST) == 0)
			usleep(1000);
	if (iou_setup(&plain, 0) < 0)
		die("io_uring_setup");
	iou_push_read(&plain, 1, worker_pipe[0], &byte1, IOSQE_ASYNC);
	submit(&plain, 1);
	n = wait_io_threads(1);
	printf("io_uring threads: %d\n", n);
	if (n < 1)
		die("no io-wq worker appeared");

	/* 2. setuid(65534), keeping the capabilities, with the worker alive */
	change("cap_setuid(65534)", NULL, NOBODY);
	every_thread_uid();
	/* cap_setuid() keeps P; the kernel cleared E: raise it again */
	caps = cap_get_proc();
	if (caps == NULL || cap_fill(caps, CAP_EFFECTIVE, CAP_PERMITTED) < 0)
		die("cap_get_proc");
	change("cap_set_proc(E = P)", caps, 0);
	{
		struct sets main_sets;

		check(read_sets(0, &main_sets) == 0 &&
			      (main_sets.eff & DAC_CAPS) == DAC_CAPS &&
			      threads_match_main(),
		      "every ordinary thread kept the capabilities, cap_dac_override among them (capget by id)");
	}

	/* 3. an SQPOLL ring, a personality; an open the capability decides;
	 * a held open */
	if (iou_setup(&sqpoll, IORING_SETUP_SQPOLL) < 0)
		die("io_uring_setup (SQPOLL)");
	personality = (int)syscall(SYS_io_uring_register, plain.fd,
				   IORING_REGISTER_PERSONALITY, NULL, 0);
	if (personality < 0)
		die("IORING_REGISTER_PERSONALITY");
	iou_push_open(&plain, 2, secret, IOSQE_ASYNC);
	submit(&plain, 1);
	res = wait_for(&plain, 2);
	snprintf(
		line, sizeof(line),
		"as uid 65534 with CAP_DAC_OVERRIDE, an io-wq open of %s = %ld",
		secret, res);
	check(res >= 0, line);
	if (res >= 0)
		close((int)res);
	iou_push_read(&plain, 3, link_pipe[0], &byte2,
		      IOSQE_ASYNC | IOSQE_IO_LINK);
	iou_push_open(&plain, 4, secret, 0);
	submit(&plain, 2);
	printf("io_uring threads: %d\n", io_threads(io, 32));

	/* 4. drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH */
	caps = cap_get_proc();
	if (caps == NULL)
		die("cap_get_proc");
	{
		const cap_value_t dac[] = { CAP_DAC_OVERRIDE,
					    CAP_DAC_READ_SEARCH };

		if (cap_set_flag(caps, CAP_EFFECTIVE, 2, dac, CAP_CLEAR) < 0 ||
		    cap_set_flag(caps, CAP_PERMITTED, 2, dac, CAP_CLEAR) < 0 ||
		    cap_set_flag(caps, CAP_INHERITABLE, 2, dac, CAP_CLEAR) < 0)
			die("cap_set_flag");
	}
	change("cap_set_proc(without cap_dac_override, cap_dac_read_search)",
	       caps, 0);
	{
		struct sets main_sets;

		check(read_sets(0, &main_sets) == 0 &&
			      !(main_sets.eff & DAC_CAPS) &&
			      !(main_sets.prm & DAC_CAPS) &&
			      threads_match_main(),
		      "every ordinary thread dropped them too (capget by id)");
	}
	check(io_threads_keep_dac(&n),
	      "left out, every io_uring thread still holds CAP_DAC_OVERRIDE itself");

	/* 5. a request submitted now: the submitter's credentials decide */
	iou_push_open(&plain, 5, secret, IOSQE_ASYNC);
	submit(&plain, 1);
	res = wait_for(&plain, 5);
	snprintf(line, sizeof(line),
		 "an io-wq open submitted after the drop = %ld (%s)", res,
		 res < 0 ? strerror((int)-res) : "opened");
	check(res == -EACCES, line);
	if (res >= 0)
		close((int)res);
	{
		int good = io_threads_keep_dac(&n);

		snprintf(
			line, sizeof(line),
			"... although the worker that ran it holds CAP_DAC_OVERRIDE itself (%d io_uring threads, none without it)",
			n);
		check(good, line);
	}

	/* 6. what keeps the old credentials, as documented */
	iou_push_open(&sqpoll, 6, secret, 0);
	submit(&sqpoll, 1);
	res = wait_for(&sqpoll, 6);
	snprintf(
		line, sizeof(line),
		"the SQPOLL ring set up before the drop opens it = %ld (its creator's credentials)",
		res);
	check(res >= 0, line);
	if (res >= 0)
		close((int)res);
	iou_push_open(&plain, 7, secret, IOSQE_ASYNC)->personality =
		(unsigned short)personality;
	submit(&plain, 1);
	res = wait_for(&plain, 7);
	snprintf(
		line, sizeof(line),
		"an io-wq open naming a personality registered before the drop = %ld (the credentials registered)",
		res);
	check(res >= 0, line);
	if (res >= 0)
		close((int)res);
	if (write(link_pipe[1], "x", 1) != 1)
		die("write");
	res = wait_for(&plain, 4);
	snprintf(
		line, sizeof(line),
		"the open submitted before the drop, run after it = %ld (the credentials it was submitted with)",
		res);
	check(wait_for(&plain, 3) == 1 && res >= 0, line);
	if (res >= 0)
		close((int)res);

	/* 7. everything dropped, the workers still alive */
	change("cap_set_proc(empty)", cap_init(), 0);
	{
		struct sets main_sets;

		check(read_sets(0, &main_sets) == 0 && main_sets.eff == 0 &&
			      main_sets.prm == 0 && threads_match_main(),
		      "every ordinary thread is empty (capget by id)");
	}

	/* 8. io_uring threads that the broadcast call itself starts */
	workers_born_of_the_call();

	if (write(worker_pipe[1], "x", 1) != 1)
		die("write");
	check(wait_for(&plain, 1) == 1, "the first worker's read completed");
	__atomic_store_n(&quit, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(threads[i], NULL);
	printf("%d check(s) failed\n", failures);
	return failures != 0;
}
