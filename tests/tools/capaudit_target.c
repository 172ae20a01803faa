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
 *   capaudit_target --helper FILE SECONDS  a thread waits for SIGUSR1 and
 *                                          ends, or for SIGUSR2 and runs
 *                                          capaudit_target --helper FILE
 *                                          SECONDS afresh (its id first:
 *                                          "tid T"); the main thread chowns
 *                                          FILE to uid 1 every 20 ms
 *                                          (cap_chown when FILE is uid 1's)
 * Each prints "pid N" once it is ready.
 *   capaudit_target --cpu COMMAND [ARG...] runs COMMAND and prints the CPU
 *                                          time it used: "cpu SECONDS"
 *   capaudit_target --stranger HOW ID FILE SECONDS
 *                                          starts a process with pid ID
 *                                          (HOW: last_pid writes ID - 1 to
 *                                          /proc/sys/kernel/ns_last_pid
 *                                          and forks, in a pid namespace of
 *                                          the test's own; set_tid asks
 *                                          clone3(2) for ID), which chmods
 *                                          FILE every 10 ms for SECONDS
 *                                          (cap_fowner when FILE is not
 *                                          root's); prints "stranger N" and
 *                                          leaves it running
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned seconds;

static void *sleeper(void *arg)
{
	(void)arg;
	sleep(seconds);
	return NULL;
}

static pthread_barrier_t started;
static const char *helper_file, *helper_secs;

/*
 * Ends its thread when the process is sent SIGUSR1, or runs the program
 * again (an execve(2) from a thread other than the first) at SIGUSR2;
 * both are blocked everywhere.
 */
static void *helper(void *arg)
{
	sigset_t *sigs = arg;
	int sig;

	printf("tid %ld\n", (long)syscall(SYS_gettid));
	pthread_barrier_wait(&started);
	if (sigwait(sigs, &sig) == 0 && sig == SIGUSR2) {
		execl("/proc/self/exe", "capaudit_target", "--helper",
		      helper_file, helper_secs, (char *)NULL);
		perror("capaudit_target: execl");
	}
	return NULL;
}

static void every_ms(long ms, unsigned secs, int (*act)(const char *),
		     const char *file)
{
	struct timespec pause = { 0, ms * 1000000L };
	time_t end = time(NULL) + (time_t)secs;

	while (time(NULL) < end) {
		act(file);
		nanosleep(&pause, NULL);
	}
}

static int chown_to_1(const char *file)
{
	return chown(file, 1, (gid_t)-1);
}

static int chmod_same(const char *file)
{
	return chmod(file, 0644);
}

static int helper_mode(const char *file, const char *secs)
{
	static sigset_t sigs;
	pthread_t t;

	helper_file = file;
	helper_secs = secs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGUSR2);
	if (pthread_barrier_init(&started, NULL, 2) != 0 ||
	    pthread_sigmask(SIG_BLOCK, &sigs, NULL) != 0 ||
	    pthread_create(&t, NULL, helper, &sigs) != 0)
		return 1;
	pthread_barrier_wait(&started); /* its "tid" line first */
	printf("pid %ld\n", (long)getpid());
	every_ms(20, (unsigned)atoi(secs), chown_to_1, file);
	return 0;
}

/* A child whose pid is id, by HOW; -1 when it could not be made. */
static pid_t child_with_pid(const char *how, pid_t id)
{
	if (strcmp(how, "last_pid") == 0) {
		char text[32];
		int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
		int n = snprintf(text, sizeof(text), "%ld", (long)id - 1);

		if (fd < 0 || write(fd, text, (size_t)n) != n) {
			perror("ns_last_pid");
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		return fork();
	}
	if (strcmp(how, "set_tid") == 0) {
		struct clone_args ca;

		memset(&ca, 0, sizeof(ca));
		ca.exit_signal = SIGCHLD;
		ca.set_tid = (uint64_t)(uintptr_t)&id;
		ca.set_tid_size = 1;
		return (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
	}
	fprintf(stderr, "capaudit_target: --stranger %s: last_pid or set_tid\n",
		how);
	errno = EINVAL;
	return -1;
}

/*
 * The kernel frees a thread's id a little after its /proc directory goes
 * (release_task() frees the pids it detached last), so a child that did
 * not get the id leaves at once and is made again, for up to 200 ms.
 * Nothing else forks meanwhile: nothing else may take an id between the
 * write to ns_last_pid and the fork.
 */
static int stranger(const char *how, pid_t id, const char *file, unsigned secs)
{
	struct timespec pause = { 0, 2000000L };
	int tries;
	pid_t pid;

	for (tries = 0; tries < 100; tries++) {
		pid = child_with_pid(how, id);
		if (pid == 0) {
			if (getpid() != id)
				_exit(1);
			every_ms(10, secs, chmod_same, file);
			_exit(0);
		}
		if (pid == id)
			break;
		if (pid > 0)
			waitpid(pid, NULL, 0);
		else if (errno != EEXIST)
			break;
		nanosleep(&pause, NULL);
	}
	if (pid != id) {
		fprintf(stderr, "capaudit_target: no child with pid %ld: %s\n",
			(long)id, pid < 0 ? strerror(errno) : "another id");
		return 1;
	}
	printf("stranger %ld\n", (long)pid);
	return 0;
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
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 6 && strcmp(argv[1], "--stranger") == 0)
		return stranger(argv[2], (pid_t)atol(argv[3]), argv[4],
				(unsigned)atoi(argv[5]));
	if (argc == 4 && strcmp(argv[1], "--helper") == 0)
		return helper_mode(argv[2], argv[3]);
	if (argc != 3) {
		fprintf(stderr,
			"usage: capaudit_target --dumpable|--nodumpable|--thread-exit|--mixed-creds SECONDS\n"
			"       capaudit_target --helper FILE SECONDS\n"
			"       capaudit_target --stranger last_pid|set_tid ID FILE SECONDS\n");
		return 2;
	}
	seconds = (unsigned)atoi(argv[2]);
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
