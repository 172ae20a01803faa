/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * ptarget MODE ...: processes that make reading their seccomp filter
 * (perfdoctor --pid, with ptrace) hard, for root/perfdoctor_ptrace.sh.
 *   -b           blocks every signal it can, then waits for SIGKILL
 *   -r FILE      counts SIGRTMIN (a queued signal: none may be lost),
 *                writing the count to FILE at each one, its number to
 *                FILE.sig first; exits on SIGTERM
 *   -v SECONDS   a vfork() parent: its child sleeps SECONDS then exits,
 *                the parent (stuck in an uninterruptible wait meanwhile)
 *                then waits for SIGKILL
 *   -e FILE N    appends its effective uid to FILE, then (N > 0) sleeps
 *                a millisecond and executes itself again with N - 1;
 *                installed set-user-ID root, every line should say 0
 *   -S PID       traces PID (PTRACE_SEIZE, which does not stop it), so
 *                that no other tracer may, then waits for SIGKILL
 *   -m N         two more threads, then waits for SIGKILL; with N 1 each
 *                of the three first installs a filter of its own (no
 *                TSYNC), the last one's refusing perf_event_open() with
 *                EPERM: as many filters for each, not the same ones
 *   -L           a second thread waits for SIGKILL; the main thread
 *                ends (pthread_exit): the process lives on, its leader
 *                a zombie whose root and working directory are gone
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t count, done;

static void on_rt(int sig)
{
	(void)sig;
	count++;
}

static void on_term(int sig)
{
	(void)sig;
	done = 1;
}

static void save_count(const char *file)
{
	char buf[32];
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)count);

	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		_exit(1);
	close(fd);
}

static int count_signals(const char *file)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_rt;
	sigaction(SIGRTMIN, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&none);
	{
		char sig[4096];
		int fd, n;

		snprintf(sig, sizeof(sig), "%s.sig", file);
		fd = open(sig, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		n = snprintf(sig, sizeof(sig), "%d\n", SIGRTMIN);
		if (fd < 0 || write(fd, sig, (size_t)n) != n)
			return 1;
		close(fd);
	}
	save_count(file);
	while (!done) {
		sigsuspend(&none);
		save_count(file);
	}
	return 0;
}

static int record_and_reexec(const char *file, long n)
{
	struct timespec ms = { 0, 1000000 };
	char buf[32], next[32];
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	int len = snprintf(buf, sizeof(buf), "%u\n", (unsigned)geteuid());

	if (fd < 0 || write(fd, buf, (size_t)len) != len)
		return 1;
	close(fd);
	if (n <= 0)
		return 0;
	nanosleep(&ms, NULL);
	snprintf(next, sizeof(next), "%ld", n - 1);
	execl("/proc/self/exe", "ptarget", "-e", file, next, (char *)NULL);
	return 1;
}

/* A filter of this thread's own: perf_event_open() gets action. */
static void own_filter(unsigned action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { 4, f };

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
		_exit(1);
}

static void *idle(void *arg)
{
	if (arg != NULL)
		own_filter(*(unsigned *)arg);
	for (;;)
		pause();
	return NULL;
}

/*
 * Three threads; with own, each installs a filter of its own, as many
 * for each (the count alike), one of them refusing perf_event_open().
 */
static int threads(int own)
{
	static unsigned allow = SECCOMP_RET_ALLOW,
			refuse = SECCOMP_RET_ERRNO | EPERM;
	pthread_t t;

	if (pthread_create(&t, NULL, idle, own ? &allow : NULL) != 0 ||
	    pthread_create(&t, NULL, idle, own ? &refuse : NULL) != 0)
		return 1;
	if (own)
		own_filter(SECCOMP_RET_ALLOW);
	for (;;)
		pause();
}

static void *wait_for_kill(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	sigset_t all;
	pid_t child;

	if (argc >= 2 && strcmp(argv[1], "-b") == 0) {
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		for (;;)
			pause();
	}
	if (argc >= 3 && strcmp(argv[1], "-r") == 0)
		return count_signals(argv[2]);
	if (argc >= 3 && strcmp(argv[1], "-v") == 0) {
		struct timespec t = { atoi(argv[2]), 0 };

		child = vfork();
		if (child == 0) {
			/* Only system calls until _exit(): the parent's memory. */
			nanosleep(&t, NULL);
			_exit(0);
		}
		for (;;)
			pause();
	}
	if (argc >= 3 && strcmp(argv[1], "-S") == 0) {
		if (ptrace(PTRACE_SEIZE, (pid_t)atoi(argv[2]), NULL, NULL) <
		    0) {
			perror("ptarget: PTRACE_SEIZE");
			return 1;
		}
		for (;;)
			pause();
	}
	if (argc >= 3 && strcmp(argv[1], "-m") == 0)
		return threads(atoi(argv[2]) == 1);
	if (argc >= 4 && strcmp(argv[1], "-e") == 0)
		return record_and_reexec(argv[2], strtol(argv[3], NULL, 10));
	if (argc >= 2 && strcmp(argv[1], "-L") == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, wait_for_kill, NULL) != 0)
			return 1;
		pthread_exit(NULL);
	}
	fprintf(stderr,
		"usage: ptarget -b | -r FILE | -v SECONDS | -e FILE N | -S PID | -m N | -L\n");
	return 2;
}
