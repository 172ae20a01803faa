/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxprobe: linked with libpsx, cap_set_proc() from one thread must change
 * the capabilities of every thread (libcap picks up psx_load_syscalls).
 * Prints the E flag of the main thread and of a second thread after the
 * main thread cleared E; exit 0 when both are empty. Needs E non-empty.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

static pid_t worker_tid;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int state; /* 1: worker started, 2: main done */

static unsigned long long effective_of(pid_t tid)
{
	char path[64], line[256];
	unsigned long long v = ~0ULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return v;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "CapEff:", 7) == 0)
			sscanf(line + 7, "%llx", &v);
	fclose(f);
	return v;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	worker_tid = (pid_t)syscall(SYS_gettid);
	state = 1;
	pthread_cond_broadcast(&cond);
	while (state != 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t thread;
	cap_t caps = cap_get_proc();
	unsigned long long mine, theirs;

	if (effective_of((pid_t)syscall(SYS_gettid)) == 0) {
		printf("E is already empty\n");
		return 2;
	}
	pthread_create(&thread, NULL, worker, NULL);
	pthread_mutex_lock(&lock);
	while (state != 1)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);

	cap_clear_flag(caps, CAP_EFFECTIVE);
	if (cap_set_proc(caps) != 0) {
		perror("cap_set_proc");
		return 1;
	}
	mine = effective_of((pid_t)syscall(SYS_gettid));
	theirs = effective_of(worker_tid);
	printf("main E %016llx, worker E %016llx\n", mine, theirs);

	pthread_mutex_lock(&lock);
	state = 2;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(thread, NULL);
	cap_free(caps);
	return mine == 0 && theirs == 0 ? 0 : 1;
}
