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
 * parent (capaudit) is stopped meanwhile and the loop keeps to one CPU,
 * so one ring buffer takes every check unread.
 *
 * capaudit_probe --mix N FILE: N times a chown of FILE (cap_chown) and a
 * nice value below the current one (cap_sys_nice once RLIMIT_NICE is 0;
 * back up needs none), in turn; then it execs
 * "chown 1 FILE", one more cap_chown check, by another file in the same
 * process. No two checks in a row are the same one.
 *
 * capaudit_probe --fork-race N BURST FILE: on CPU 0, N times: BURST
 * chowns of FILE (so the buffer of CPU 0 takes a while to read), then a
 * child that moves to CPU 1 and chowns FILE to uid 3 at once. Its check
 * lands in CPU 1's buffer, its fork record in CPU 0's. Prints "children N".
 *
 * capaudit_probe --capture FILE: what a packet capture tool with file
 * capabilities does: access(2) on FILE (checked under the real ids, with
 * a credential the kernel lends for the call), a raw socket (exit 2 when
 * refused: cap_net_raw), then loopback into promiscuous mode (exit 3
 * when refused: cap_net_admin); 0 when all went through.
 *
 * capaudit_probe --bind80: binds port 80 on loopback; 0 or 1.
 *
 * capaudit_probe --bind80-new-cred: opens a route netlink socket, makes
 * itself a new credential (prctl(PR_SET_KEEPCAPS), as a server's
 * setfsuid(2) per request does), binds port 80 with it, then asks through
 * the socket to change a link, which the kernel checks (cap_net_admin)
 * under the socket's credential, the older one: a check under a
 * credential used before and after the bind's, which is no loan. 0 when
 * the bind worked, else 1.
 *
 * capaudit_probe --ids: prints "uids R E S" and "gids R E S".
 *
 * capaudit_probe --bind80-sets FILE: binds port 80 on loopback (as
 * --bind80), then appends to FILE one line saying how that went and the
 * sets it ran with, as /proc/self/status shows them:
 * "bind ok uid 65534 gid 65534 CapInh 0 CapPrm 400 CapEff 400 CapBnd 400
 * CapAmb 400 NoNewPrivs 1" (the masks in hex, as the kernel writes them,
 * leading zeros gone); 0 when the bind worked, else 1.
 *
 * capaudit_probe --bind80-exec-after N COUNTER PROG [ARG...]: binds port
 * 80 on loopback, then counts its run in the file COUNTER (a number, none
 * at first) and, from its run N+1 on, execs PROG with the ARGs (its
 * argv[0] is PROG): a program that runs something it never ran before,
 * late. 0 when the bind worked, 1 when not, 3 when the exec failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

static int bind80_new_cred(void)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
	} req;
	int nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), rc;

	if (nl < 0 || prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0) {
		printf("bind80-new-cred: %s\n", strerror(errno));
		return 1;
	}
	rc = try_bind();
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = RTM_NEWLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.i.ifi_family = AF_UNSPEC;
	req.i.ifi_index = 1;
	if (send(nl, &req, sizeof(req), 0) < 0)
		printf("netlink: %s\n", strerror(errno));
	close(nl);
	return rc;
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
	fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);
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

	if (stop_parent) {
		cpu_set_t here;
		int cpu = sched_getcpu();

		/* One CPU, so one buffer takes every check. */
		CPU_ZERO(&here);
		if (cpu >= 0) {
			CPU_SET(cpu, &here);
			sched_setaffinity(0, sizeof(here), &here);
		}
		kill(getppid(), SIGSTOP);
	}
	for (i = 0; i < n; i++)
		if (chown(file, (i & 1) ? 1 : 2, (gid_t)-1) < 0)
			refused++;
	if (stop_parent)
		kill(getppid(), SIGCONT);
	printf("loop: %ld chowns, %ld refused\n", n, refused);
	return 0;
}

static int mix(long n, const char *file)
{
	struct rlimit none = { 0, 0 };
	long i;

	/* With RLIMIT_NICE 0, only cap_sys_nice lowers the nice value. */
	if (setrlimit(RLIMIT_NICE, &none) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (chown(file, (i & 1) ? 1 : 2, (gid_t)-1) < 0)
			return 1;
		/* Unlike setuid(2), no new credential: the same check each time. */
		if (setpriority(PRIO_PROCESS, 0, -1) < 0 ||
		    setpriority(PRIO_PROCESS, 0, 0) < 0)
			return 1;
	}
	execlp("chown", "chown", "1", file, (char *)NULL);
	return 1;
}

static int fork_race(long n, long burst, const char *file)
{
	cpu_set_t c0, c1;
	long i, j;

	CPU_ZERO(&c0);
	CPU_SET(0, &c0);
	CPU_ZERO(&c1);
	CPU_SET(1, &c1);
	if (sched_setaffinity(0, sizeof(c0), &c0) < 0)
		return 77;
	for (i = 0; i < n; i++) {
		pid_t pid;

		for (j = 0; j < burst; j++)
			if (chown(file, (j & 1) ? 1 : 2, (gid_t)-1) < 0)
				return 1;
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			sched_setaffinity(0, sizeof(c1), &c1);
			_exit(chown(file, 3, (gid_t)-1) < 0);
		}
	}
	while (wait(NULL) > 0)
		;
	printf("children %ld\n", n);
	return 0;
}

static int capture(const char *file)
{
	struct ifreq ifr;
	int fd;

	/* Refused or not, the check was made; a real tool would go on. */
	if (access(file, R_OK) == 0)
		printf("access: ok\n");
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	printf("raw socket: %s\n", fd >= 0 ? "ok" : strerror(errno));
	if (fd < 0)
		return 2;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_PROMISC;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0) {
			printf("promiscuous: %s\n", strerror(errno));
			close(fd);
			return 3;
		}
	}
	printf("promiscuous: ok\n");
	close(fd);
	return 0;
}

static int ids(void)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return 1;
	printf("uids %u %u %u\ngids %u %u %u\n", (unsigned)ru, (unsigned)eu,
	       (unsigned)su, (unsigned)rg, (unsigned)eg, (unsigned)sg);
	return 0;
}

/* The line --bind80-sets appends: fields of /proc/self/status. */
static int bind80_sets(const char *file)
{
	static const char *const keys[] = { "CapInh", "CapPrm", "CapEff",
					    "CapBnd", "CapAmb", "NoNewPrivs" };
	char line[256], out[512];
	size_t i, len;
	int rc = try_bind(), n;
	FILE *status = fopen("/proc/self/status", "r"), *to;

	if (status == NULL)
		return 1;
	n = snprintf(out, sizeof(out), "bind %s uid %u gid %u",
		     rc == 0 ? "ok" : "refused", (unsigned)getuid(),
		     (unsigned)getgid());
	while (fgets(line, sizeof(line), status) != NULL)
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			len = strlen(keys[i]);
			if (strncmp(line, keys[i], len) == 0 &&
			    line[len] == ':') {
				unsigned long long v =
					strtoull(line + len + 1, NULL, 16);

				n += snprintf(out + n, sizeof(out) - (size_t)n,
					      " %s %llx", keys[i], v);
			}
		}
	fclose(status);
	to = fopen(file, "a");
	if (to == NULL || fprintf(to, "%s\n", out) < 0 || fclose(to) != 0)
		return 1;
	return rc;
}

/* --bind80-exec-after: argv[2] is N, argv[3] COUNTER, argv[4] PROG. */
static int bind80_exec_after(char **argv)
{
	long n = atol(argv[2]), runs = 0;
	int rc = try_bind();
	FILE *f = fopen(argv[3], "r");

	if (f != NULL) {
		if (fscanf(f, "%ld", &runs) != 1)
			runs = 0;
		fclose(f);
	}
	f = fopen(argv[3], "w");
	if (f == NULL || fprintf(f, "%ld\n", runs + 1) < 0 || fclose(f) != 0)
		return 1;
	if (runs < n)
		return rc;
	fflush(stdout);
	execv(argv[4], argv + 4);
	printf("exec %s: %s\n", argv[4], strerror(errno));
	return 3;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if (argc == 5 && strcmp(argv[1], "--fork-race") == 0)
		return fork_race(atol(argv[2]), atol(argv[3]), argv[4]);
	if (argc == 4 && strcmp(argv[1], "--mix") == 0)
		return mix(atol(argv[2]), argv[3]);
	if (argc == 3 && strcmp(argv[1], "--capture") == 0)
		return capture(argv[2]);
	if (argc == 2 && strcmp(argv[1], "--bind80") == 0)
		return try_bind();
	if (argc == 2 && strcmp(argv[1], "--bind80-new-cred") == 0)
		return bind80_new_cred();
	if (argc == 2 && strcmp(argv[1], "--ids") == 0)
		return ids();
	if (argc == 3 && strcmp(argv[1], "--bind80-sets") == 0)
		return bind80_sets(argv[2]);
	if (argc >= 5 && strcmp(argv[1], "--bind80-exec-after") == 0)
		return bind80_exec_after(argv);

	if ((argc == 4 || argc == 5) && strcmp(argv[1], "--loop") == 0)
		return loop(atol(argv[2]), argv[3],
			    argc == 5 && strcmp(argv[4], "--stop-parent") == 0);

	if (argc != 2 || argv[1][0] == '-') {
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
