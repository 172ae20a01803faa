/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_loop [--mixed] N FILE [TIMES]: a capability-heavy loop for
 * bench/capaudit.sh.
 *
 * Plain: N chowns of FILE to uid 1 and 2 in turn; as root each one is a
 * granted cap_chown check (the caller is not the file's owner), so the
 * loop makes N checks in N system calls, all alike: the best case for a
 * counter that counts runs of identical checks.
 *
 * --mixed: N checks, no two in a row alike, and new threads among them:
 * the worst case for such a counter. A chown (cap_chown) and a lowered
 * nice value (cap_sys_nice, as RLIMIT_NICE is 0; setting it back up is
 * no check) in turn, so every check ends a run and starts one; and every
 * THREAD_EVERY such pairs, one pair is made by a new thread, joined at
 * once, so the counter also follows new threads and keeps runs under
 * thread ids it has not seen. No exec: one costs as much as thousands of
 * checks, and would hide what a check costs.
 *
 * With TIMES, the loop's own wall time in seconds is appended to that
 * file: a tracer's start-up and tear-down are then no part of what is
 * compared. Its CPU time follows on the same line: the tracer's cost in
 * the kernel is charged to the loop (its threads' included), while the
 * wall time also holds whatever else the machine was doing.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* One pair in this many is made by a thread of its own. */
#define THREAD_EVERY 256

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct pair {
	const char *file;
	long i;
	int failed;
};

/* cap_chown, then cap_sys_nice: two checks unlike each other. */
static int checks_in_turn(const char *file, long i)
{
	if (chown(file, (i & 1) ? 1 : 2, (gid_t)-1) < 0)
		return -1;
	if (setpriority(PRIO_PROCESS, 0, -1) < 0 ||
	    setpriority(PRIO_PROCESS, 0, 0) < 0)
		return -1;
	return 0;
}

static void *pair_in_thread(void *arg)
{
	struct pair *p = arg;

	p->failed = checks_in_turn(p->file, p->i) < 0;
	return NULL;
}

/* Returns the pairs that failed; -1 when a thread could not be made. */
static long mixed(long n, const char *file)
{
	struct rlimit none = { 0, 0 };
	long i, failed = 0;

	/* With RLIMIT_NICE 0, only cap_sys_nice lowers the nice value. */
	if (setrlimit(RLIMIT_NICE, &none) < 0) {
		perror("capaudit_loop: setrlimit(RLIMIT_NICE)");
		return -1;
	}
	for (i = 0; i < n / 2; i++) {
		struct pair p = { file, i, 0 };
		pthread_t t;
		int rc;

		if (i % THREAD_EVERY != THREAD_EVERY - 1) {
			failed += checks_in_turn(file, i) < 0;
			continue;
		}
		rc = pthread_create(&t, NULL, pair_in_thread, &p);
		if (rc == 0)
			rc = pthread_join(t, NULL);
		if (rc != 0) {
			fprintf(stderr, "capaudit_loop: a thread: %s\n",
				strerror(rc));
			return -1;
		}
		failed += p.failed;
	}
	return failed;
}

static long alike(long n, const char *file)
{
	long i, refused = 0;

	for (i = 0; i < n; i++)
		if (chown(file, (i & 1) ? 1 : 2, (gid_t)-1) < 0)
			refused++;
	return refused;
}

int main(int argc, char **argv)
{
	int mix = argc > 1 && strcmp(argv[1], "--mixed") == 0;
	double start, cpu, took;
	long n, refused;
	FILE *times;

	argc -= mix;
	argv += mix;
	if ((argc != 3 && argc != 4) || (n = atol(argv[1])) <= 0 ||
	    (mix && n < 2)) {
		fprintf(stderr,
			"usage: capaudit_loop [--mixed] N FILE [TIMES]\n");
		return 2;
	}
	start = now(CLOCK_MONOTONIC);
	cpu = now(CLOCK_PROCESS_CPUTIME_ID);
	refused = mix ? mixed(n, argv[2]) : alike(n, argv[2]);
	took = now(CLOCK_MONOTONIC) - start;
	cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	if (refused < 0)
		return 1;
	if (refused) {
		fprintf(stderr, "capaudit_loop: %ld of %ld %s refused\n",
			refused, mix ? n / 2 : n,
			mix ? "chown and nice pairs" : "chowns");
		return 1;
	}
	if (argc == 4) {
		times = fopen(argv[3], "a");
		if (times == NULL ||
		    fprintf(times, "%.6f %.6f\n", took, cpu) < 0 ||
		    fclose(times) != 0) {
			perror(argv[3]);
			return 1;
		}
	}
	return 0;
}
