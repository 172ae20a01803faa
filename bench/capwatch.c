/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capwatch OUT COMMAND [ARG...]: runs COMMAND and, while it runs, counts
 * the eBPF programs attached to the raw tracepoint cap_capable every
 * PERIOD_MS; writes the most it saw to OUT (one number and a newline)
 * and exits as COMMAND did. For bench/capaudit.sh: every such program
 * runs at every capability check on the machine, so another tool's
 * (another capaudit's, on a machine shared with its test suites) slows
 * whatever row of the bench it meets, and only that row. The row's own
 * program (the floor's, capaudit's) is counted too: the bench takes it
 * off. Needs CAP_SYS_ADMIN (bpf(2)'s link listing).
 */
#include <err.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Often enough to meet a test suite's capaudit, which lives some 0.1 s. */
#define PERIOD_MS 10

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

/* 1 when link id is a raw tracepoint's on cap_capable. */
static int on_cap_capable(uint32_t id)
{
	struct bpf_link_info info;
	union bpf_attr a;
	char name[64] = "";
	int fd, yes;

	memset(&a, 0, sizeof(a));
	a.link_id = id;
	fd = (int)sys_bpf(BPF_LINK_GET_FD_BY_ID, &a);
	if (fd < 0)
		return 0; /* gone meanwhile */
	memset(&info, 0, sizeof(info));
	info.raw_tracepoint.tp_name = (uint64_t)(uintptr_t)name;
	info.raw_tracepoint.tp_name_len = sizeof(name);
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	yes = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) == 0 &&
	      info.type == BPF_LINK_TYPE_RAW_TRACEPOINT &&
	      strncmp(name, "cap_capable", sizeof(name)) == 0;
	close(fd);
	return yes;
}

/* The links on cap_capable now, or -1 when they cannot be listed. */
static int count(void)
{
	union bpf_attr a;
	uint32_t id = 0;
	int n = 0;

	for (;;) {
		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_LINK_GET_NEXT_ID, &a) < 0)
			return errno == ENOENT ? n : -1;
		id = a.next_id;
		n += on_cap_capable(id);
	}
}

int main(int argc, char **argv)
{
	struct timespec period = { 0, PERIOD_MS * 1000000L };
	int status, most = 0, n;
	FILE *out;
	pid_t pid, w;

	if (argc < 3)
		errx(2, "usage: capwatch OUT COMMAND [ARG...]");
	if (count() < 0)
		err(1, "listing eBPF links");
	pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		warn("%s", argv[2]);
		_exit(127);
	}
	for (;;) {
		n = count();
		if (n > most)
			most = n;
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			err(1, "waiting for %s", argv[2]);
		nanosleep(&period, NULL);
	}
	out = fopen(argv[1], "w");
	if (out == NULL || fprintf(out, "%d\n", most) < 0 || fclose(out) != 0)
		err(1, "%s", argv[1]);
	if (WIFSIGNALED(status))
		errx(1, "%s: killed by signal %d", argv[2], WTERMSIG(status));
	return WEXITSTATUS(status);
}
