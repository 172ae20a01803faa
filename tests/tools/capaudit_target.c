/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Processes for capaudit --pid to watch, for tests/root/capaudit_attach.sh.
 *   capaudit_target --dumpable SECONDS     sleeps
 *   capaudit_target --nodumpable SECONDS   prctl(PR_SET_DUMPABLE, 0), sleeps
 *   capaudit_target --thread-exit SECONDS  a thread sleeps SECONDS; the main
 *                                          thread leaves after 1 s, and its
 *                                          perf events say POLLHUP from then on
 *   capaudit_target --mixed-creds SECONDS  started by root: a thread stays
 *                                          root and sleeps; the main thread
 *                                          alone becomes nobody (raw
 *                                          setresuid(2)), dumpable, and sleeps
 * Each prints "pid N" once it is ready.
 *   capaudit_target --cpu COMMAND [ARG...] runs COMMAND and prints the CPU
 *                                          time it used: "cpu SECONDS"
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned seconds;

static void *sleeper(void *arg)
{
	(void)arg;
	sleep(seconds);
	return NULL;
}

static int cpu(char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return 1;
	printf("cpu %.3f\n",
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
			       1e6);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc >= 3 && strcmp(argv[1], "--cpu") == 0)
		return cpu(argv + 2);
	if (argc != 3) {
		fprintf(stderr,
			"usage: capaudit_target --dumpable|--nodumpable|--thread-exit|"
			"--mixed-creds SECONDS\n");
		return 2;
	}
	seconds = (unsigned)atoi(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(argv[1], "--nodumpable") == 0 &&
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return 1;
	if (strcmp(argv[1], "--thread-exit") == 0) {
		if (pthread_create(&t, NULL, sleeper, NULL) != 0)
			return 1;
		printf("pid %ld\n", (long)getpid());
		sleep(1);
		pthread_exit(NULL);
	}
	if (strcmp(argv[1], "--mixed-creds") == 0) {
		if (pthread_create(&t, NULL, sleeper, NULL) != 0)
			return 1;
		/* This thread only: the raw calls, not libc's broadcast. */
		if (syscall(SYS_setgroups, 0, NULL) < 0 ||
		    syscall(SYS_setresgid, 65534, 65534, 65534) < 0 ||
		    syscall(SYS_setresuid, 65534, 65534, 65534) < 0 ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			return 1;
	}
	printf("pid %ld\n", (long)getpid());
	sleep(seconds);
	return 0;
}
