/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_loop [--mixed] [--cpu=N] N FILE [TIMES]: a capability-heavy
 * loop for bench/capaudit.sh.
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
 * wall time also holds whatever else the machine was doing. Then the
 * loop's context switches, voluntary (a thread joined, a wait) and
 * involuntary (another task took its CPU), its threads' included: counts
 * of how much the machine disturbed it.
 *
 * --cpu=N: the loop (and every thread it makes) runs on CPU N alone, so
 * that a tracer's own process, on the other CPUs, never takes the loop's
 * CPU, and a new thread starts on the CPU its creator waits on, as it
 * does under every row alike.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
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

/* Runs the calling thread, and the threads it makes, on CPU cpu alone. */
static int pin_to(const char *cpu)
{
	char *end;
	long n;
	cpu_set_t one;

	errno = 0;
	n = strtol(cpu, &end, 10);
	if (errno != 0 || end == cpu || *end != '\0' || n < 0 ||
	    n >= CPU_SETSIZE) {
		fprintf(stderr, "capaudit_loop: --cpu=%s: not a CPU number\n",
			cpu);
		return -1;
	}
	CPU_ZERO(&one);
	CPU_SET((int)n, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0) {
		fprintf(stderr, "capaudit_loop: running on CPU %ld: %s\n", n,
			strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double start, cpu, took;
	struct rusage before, after;
	long n, refused;
	int mix = 0;
	FILE *times;

	for (; argc > 1 && strncmp(argv[1], "--", 2) == 0; argc--, argv++) {
		if (strcmp(argv[1], "--mixed") == 0)
			mix = 1;
		else if (strncmp(argv[1], "--cpu=", 6) == 0) {
			if (pin_to(argv[1] + 6) < 0)
				return 2;
		} else
			break;
	}
	if ((argc != 3 && argc != 4) || (n = atol(argv[1])) <= 0 ||
	    (mix && n < 2)) {
		fprintf(stderr,
			"usage: capaudit_loop [--mixed] [--cpu=N] N FILE [TIMES]\n");
		return 2;
	}
	/* The whole process's, its joined threads' included. */
	if (getrusage(RUSAGE_SELF, &before) < 0) {
		perror("capaudit_loop: getrusage");
		return 1;
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
	if (getrusage(RUSAGE_SELF, &after) < 0) {
		perror("capaudit_loop: getrusage");
		return 1;
	}
	if (argc == 4) {
		times = fopen(argv[3], "a");
		if (times == NULL ||
		    fprintf(times, "%.6f %.6f %ld %ld\n", took, cpu,
			    after.ru_nvcsw - before.ru_nvcsw,
			    after.ru_nivcsw - before.ru_nivcsw) < 0 ||
		    fclose(times) != 0) {
			perror(argv[3]);
			return 1;
		}
	}
	return 0;
}
