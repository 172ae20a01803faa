/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * threadcreds MODE [N]: a process (started as root with a full set) whose
 * threads hold different credentials, made with raw system calls: glibc's
 * setresuid() would make every thread follow (its setxid broadcast), the
 * syscall changes only the calling thread. Prints "ready <pid> <tid>..."
 * (the main thread first) on stdout once the threads are set, then
 * sleeps until killed.
 *
 *   split      the main thread drops to uid 65534 (and so to no
 *              capabilities); one worker stays root with every capability
 *   mainexit   one worker stays root; the main thread exits
 *              (pthread_exit), leaving the process to the worker
 *   many N     N workers, all dropped to 65534 like the main thread, but
 *              the last, which stays root
 *   groups N   N workers and the main thread, each holding 65536
 *              supplementary groups (gids 100000 onward, set by the main
 *              thread before it starts them: threads start with their
 *              creator's credentials), each worker with a uid of its own
 *              (100000 + its index; the last stays root), so every
 *              thread is a credential set of its own with the whole list.
 *              One setgroups(2): the kernel sorts a 65536-entry list at
 *              each, and 256 of them cost seconds of CPU
 *   hide N     as many N, the root worker last; on SIGUSR1 every other
 *              worker exits, and "gone" is printed once they have: the
 *              threads that a listing of the task directory stood on
 *              vanish while the root one runs on (getpcaps_threads.sh,
 *              with tools/preload/readdir_pause.c holding getpcaps mid-listing)
 *   churn      as split, and CHURNERS more root threads keep starting
 *              short-lived threads, each dropping to uid 70000 + (a
 *              counter % 1000) before it exits: threads appear and vanish
 *              all the time, some while getpcaps reads them
 *   bare       as split, but the worker keeps uid 0 and empties its own
 *              capability sets (capset): it holds nothing now, and its
 *              next execve() gives it the whole bounding set back
 *   fsroot     as split, but the worker takes uid 65534 for its real,
 *              effective and saved ids and keeps filesystem uid 0, with
 *              empty sets: root to every file root owns
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Threads that start short-lived ones, each living 0.2 to 0.8 ms. */
#define CHURNERS 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready_count;
static pid_t *tids;

/* This thread only: gid 65534 and uid uid (the kernel then clears P, E and
 * A). */
static void drop_this_thread(uid_t uid)
{
	if (syscall(SYS_setresgid, 65534, 65534, 65534) != 0 ||
	    syscall(SYS_setresuid, uid, uid, uid) != 0) {
		fprintf(stderr, "threadcreds: setresuid: %s\n",
			strerror(errno));
		exit(1);
	}
}

/* This thread only: E, P and I set to the one capability cap (-1: none). */
static void capset_this_thread(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (cap >= 0)
		d[cap / 32].effective = d[cap / 32].permitted = 1u
								<< (cap % 32);
	if (syscall(SYS_capset, &h, d) != 0) {
		fprintf(stderr, "threadcreds: capset: %s\n", strerror(errno));
		exit(1);
	}
}

/*
 * This thread only: uids 65534 but the filesystem one 0, nothing held.
 * keepcaps keeps CAP_SETUID across the switch, setfsuid(0) needs it.
 */
static void fsroot_this_thread(void)
{
	if (syscall(SYS_prctl, PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_setresgid, 65534, 65534, 65534) != 0 ||
	    syscall(SYS_setresuid, 65534, 65534, 65534) != 0) {
		fprintf(stderr, "threadcreds: setresuid: %s\n",
			strerror(errno));
		exit(1);
	}
	capset_this_thread(CAP_SETUID);
	syscall(SYS_setfsuid, 0);
	/* setfsuid() answers the old id: ask again to see the new one. */
	if (syscall(SYS_setfsuid, -1) != 0) {
		fprintf(stderr, "threadcreds: setfsuid(0) did not take\n");
		exit(1);
	}
	capset_this_thread(-1);
}

static void announce(int index)
{
	pthread_mutex_lock(&lock);
	tids[index] = (pid_t)syscall(SYS_gettid);
	ready_count++;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/* How a worker that keeps root's uid ends up (see the modes). */
enum keep { KEEP_ALL, KEEP_NOTHING, KEEP_FSUID };

struct worker {
	int index, drop, groups;
	enum keep keep;
	int quit_on_signal; /* hide: leaves when told (quit) */
};

static int quit; /* hide: the fillers leave (under lock) */

/* This thread only (and the threads it starts): 65536 groups, from gid
 * first on. */
static void own_groups(gid_t first)
{
	gid_t *g = malloc(65536 * sizeof(*g));
	int i;

	if (g == NULL)
		exit(1);
	for (i = 0; i < 65536; i++)
		g[i] = first + (gid_t)i;
	if (syscall(SYS_setgroups, 65536, g) != 0) {
		fprintf(stderr, "threadcreds: setgroups: %s\n",
			strerror(errno));
		exit(1);
	}
	free(g);
}

static void *worker(void *arg)
{
	const struct worker *w = arg;

	if (w->drop)
		drop_this_thread(w->groups ? 100000 + (uid_t)w->index : 65534);
	else if (w->keep == KEEP_NOTHING)
		capset_this_thread(-1);
	else if (w->keep == KEEP_FSUID)
		fsroot_this_thread();
	announce(w->index);
	if (w->quit_on_signal) {
		pthread_mutex_lock(&lock);
		while (!quit)
			pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	for (;;)
		pause();
	return NULL;
}

static void *short_lived(void *arg)
{
	drop_this_thread((uid_t)(70000 + (unsigned long)arg % 1000));
	usleep(1000 + (unsigned)((unsigned long)arg % 7) * 200);
	return NULL;
}

static void *churner(void *arg)
{
	static unsigned long counter;
	unsigned long n;

	(void)arg;
	for (;;) {
		pthread_t t;

		n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		if (pthread_create(&t, NULL, short_lived, (void *)n) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int n = 1, i, exit_main = 0, churn = 0, groups = 0, hide = 0, sig, rc;
	enum keep keep = KEEP_ALL;
	pthread_t *threads;
	struct worker *w;
	sigset_t usr1;

	if (strcmp(mode, "split") == 0) {
		n = 1;
	} else if (strcmp(mode, "bare") == 0) {
		keep = KEEP_NOTHING;
	} else if (strcmp(mode, "fsroot") == 0) {
		keep = KEEP_FSUID;
	} else if (strcmp(mode, "mainexit") == 0) {
		exit_main = 1;
	} else if (strcmp(mode, "many") == 0 && argc > 2) {
		n = atoi(argv[2]);
	} else if (strcmp(mode, "hide") == 0 && argc > 2) {
		n = atoi(argv[2]);
		hide = 1;
	} else if (strcmp(mode, "groups") == 0 && argc > 2) {
		n = atoi(argv[2]);
		groups = 1;
	} else if (strcmp(mode, "churn") == 0) {
		churn = 1;
	} else {
		fprintf(stderr,
			"usage: threadcreds split|mainexit|churn|bare|fsroot|many N|groups N|hide N\n");
		return 2;
	}
	if (n < 1 || n > 100000)
		return 2;
	if (geteuid() != 0) {
		fprintf(stderr, "threadcreds: must start as root\n");
		return 1;
	}
	tids = calloc((size_t)n + 1, sizeof(*tids));
	w = calloc((size_t)n, sizeof(*w));
	threads = calloc((size_t)n, sizeof(*threads));
	if (tids == NULL || w == NULL || threads == NULL)
		return 1;
	/* hide: SIGUSR1 is taken by sigwait() in the main thread alone. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	if (groups)
		own_groups(100000);
	for (i = 0; i < n; i++) {
		pthread_attr_t attr;

		w[i].index = i + 1;
		w[i].drop = i < n - 1; /* the last one stays root */
		w[i].keep = keep;
		w[i].groups = groups;
		w[i].quit_on_signal = hide && i < n - 1;
		pthread_attr_init(&attr);
		/* Thousands of them: small stacks. */
		pthread_attr_setstacksize(&attr, 64 * 1024);
		rc = pthread_create(&threads[i], &attr, worker, &w[i]);
		pthread_attr_destroy(&attr);
		if (rc != 0) {
			fprintf(stderr, "threadcreds: pthread_create failed\n");
			return 1;
		}
	}
	pthread_mutex_lock(&lock);
	while (ready_count < n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	/* Started as root, so that their threads can drop. */
	for (i = 0; churn && i < CHURNERS; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, churner, NULL) != 0)
			return 1;
	}
	if (!exit_main)
		drop_this_thread(65534);
	tids[0] = getpid();
	printf("ready");
	for (i = 0; i <= n; i++)
		printf(" %d", (int)tids[i]);
	printf("\n");
	fflush(stdout);
	if (exit_main)
		pthread_exit(NULL);
	if (hide) {
		sigwait(&usr1, &sig);
		pthread_mutex_lock(&lock);
		quit = 1;
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
		for (i = 0; i < n - 1; i++)
			pthread_join(threads[i], NULL);
		printf("gone\n");
		fflush(stdout);
	}
	for (;;)
		pause();
}
