/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxapi [THREADS]: uses every name <sys/psx_syscall.h> declares, so that
 * tests/cli/libpsx_header.sh can build it against our header or Debian's and
 * link it against our libpsx or Debian's (with -Wl,-wrap,pthread_create,
 * as libcap's older documentation has it). With THREADS other threads
 * (default 3), it checks that a broadcast renamed every one of them.
 * Prints one line per check; exit 0 when all hold.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>
#include <sys/syscall.h>
#include <unistd.h>

static int stop; /* atomic */
static int up;	 /* atomic */

static void *idle(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&up, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

/* How many threads do not carry name; -1 unless all threads+1 were read. */
static int misnamed(const char *name, int threads)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;
	int bad = 0, seen = 0;

	if (dir == NULL)
		return -1;
	while ((d = readdir(dir)) != NULL) {
		char path[300], comm[32] = "";
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 d->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		seen++;
		if (strcmp(comm, name) != 0) {
			printf("thread %s is \"%s\"\n", d->d_name, comm);
			bad++;
		}
	}
	closedir(dir);
	return seen == threads + 1 ? bad : -1;
}

#define CHECK(cond, what)                                      \
	do {                                                   \
		int ok_ = (cond);                              \
		printf("%s: %s\n", ok_ ? "ok" : "FAIL", what); \
		failed += !ok_;                                \
	} while (0)

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 3, failed = 0, i;
	long int (*fn3)(long int, long int, long int, long int) = NULL;
	long int (*fn6)(long int, long int, long int, long int, long int,
			long int, long int) = NULL;
	pthread_t *t = calloc((size_t)threads + 1, sizeof(*t));

#ifdef LIBPSX_MAJOR
	printf("header: LIBPSX %d.%d\n", LIBPSX_MAJOR, LIBPSX_MINOR);
#else
	printf("header: no LIBPSX_MAJOR (before libcap 2.73)\n");
#endif
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, idle, NULL) != 0)
			return 2;
	while (__atomic_load_n(&up, __ATOMIC_SEQ_CST) < threads)
		usleep(1000);

	CHECK(psx_syscall(SYS_prctl, PR_SET_NAME, (long int)"psxapi-macro") ==
			      0 &&
		      misnamed("psxapi-macro", threads) == 0,
	      "psx_syscall() reaches every thread");
	CHECK(psx_syscall3(SYS_prctl, PR_SET_NAME, (long int)"psxapi-3", 0) ==
			      0 &&
		      misnamed("psxapi-3", threads) == 0,
	      "psx_syscall3 reaches every thread");
	CHECK(psx_syscall6(SYS_prctl, PR_SET_NAME, (long int)"psxapi-6", 0, 0,
			   0, 0) == 0 &&
		      misnamed("psxapi-6", threads) == 0,
	      "psx_syscall6 reaches every thread");
	/* The ambient query wants its unused arguments zero. */
	CHECK(psx_syscall(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET,
			  0) == 0,
	      "psx_syscall() with three arguments zero-fills the rest");
	CHECK(psx_syscall(SYS_getpid, 0) == getpid(),
	      "the caller's result is returned");
	errno = 0;
	CHECK(psx_syscall3(SYS_prctl, -1, 0, 0) == -1 && errno == EINVAL,
	      "a refused call returns -1 with the caller's errno");
	psx_load_syscalls(&fn3, &fn6);
	CHECK(fn3 == psx_syscall3 && fn6 == psx_syscall6,
	      "psx_load_syscalls hands out psx_syscall3 and psx_syscall6");
	CHECK(fn3(SYS_prctl, PR_SET_NAME, (long int)"psxapi-fn", 0) == 0 &&
		      misnamed("psxapi-fn", threads) == 0,
	      "through the pointer, every thread");
	CHECK(psx_set_sensitivity(PSX_WARNING) == 0 &&
		      psx_set_sensitivity(PSX_ERROR) == 0 &&
		      psx_set_sensitivity(PSX_IGNORE) == 0 &&
		      psx_set_sensitivity((psx_sensitivity_t)7) == -1,
	      "psx_set_sensitivity takes the three levels, refuses others");
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	printf("%s\n", failed ? "psxapi: FAILED" : "psxapi: PASSED");
	return failed ? 1 : 0;
}
