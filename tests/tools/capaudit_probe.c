/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_probe DIR: three things that need a capability, for
 * tests/root/capaudit_*.sh: chown DIR/file to another uid (cap_chown),
 * bind port 80 on loopback (cap_net_bind_service) and, in a forked
 * grandchild, open a CPU-wide perf event (cap_perfmon at
 * perf_event_paranoid >= 1). Prints one line per step and
 * "grandchild PID"; exits 0 only when all three succeeded.
 *
 * capaudit_probe --loop N FILE [--stop-parent]: a capability-heavy loop
 * for the benchmark and the lost-sample test: N chowns of FILE, to uid 1
 * and 2 in turn, each one a cap_chown check; with --stop-parent, the
 * parent (capaudit) is stopped meanwhile, so its ring buffer overflows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int try_chown(const char *dir)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		printf("chown: create %s: %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);
	/* uid 1 (daemon on most systems): any uid not ours will do */
	if (chown(path, getuid() == 1 ? 2 : 1, (gid_t)-1) < 0) {
		printf("chown: %s\n", strerror(errno));
		return 1;
	}
	printf("chown: ok\n");
	return 0;
}

static int try_bind(void)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0) {
		printf("bind: socket: %s\n", strerror(errno));
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(80);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
	/* In use: the privilege check came first and passed. */
	if (rc < 0 && errno == EADDRINUSE)
		rc = 0;
	printf("bind: %s\n", rc == 0 ? "ok" : strerror(errno));
	close(fd);
	return rc == 0 ? 0 : 1;
}

static int try_perf(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	printf("perf: %s\n", fd >= 0 ? "ok" : strerror(errno));
	fflush(stdout);
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

/* child -> grandchild -> perf; the status comes back up. */
static int in_grandchild(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		pid_t g;

		g = fork();
		if (g < 0)
			_exit(1);
		if (g == 0)
			_exit(try_perf());
		printf("grandchild %ld\n", (long)g);
		fflush(stdout);
		if (waitpid(g, &status, 0) < 0 || !WIFEXITED(status))
			_exit(1);
		_exit(WEXITSTATUS(status));
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

static int loop(long n, const char *file, int stop_parent)
{
	long i, refused = 0;

	if (stop_parent)
		kill(getppid(), SIGSTOP);
	for (i = 0; i < n; i++)
		if (chown(file, (i & 1) ? 1 : 2, (gid_t)-1) < 0)
			refused++;
	if (stop_parent)
		kill(getppid(), SIGCONT);
	printf("loop: %ld chowns, %ld refused\n", n, refused);
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if ((argc == 4 || argc == 5) && strcmp(argv[1], "--loop") == 0)
		return loop(atol(argv[2]), argv[3],
			    argc == 5 && strcmp(argv[4], "--stop-parent") == 0);

	if (argc != 2) {
		fprintf(stderr, "usage: capaudit_probe DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %ld\n", (long)getpid());
	failed |= try_chown(argv[1]);
	failed |= try_bind();
	failed |= in_grandchild();
	return failed;
}
