/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfprobe: opens a CPU-wide perf event (pid -1, cpu 0, software cpu-clock),
 * which perf_event_paranoid >= 1 allows only with CAP_PERFMON (or
 * CAP_SYS_ADMIN). Exit 0 and "perf_event_open: ok" when it works, exit 1
 * and the errno name otherwise. With -c it also prints its capabilities as
 * /proc/self/status reports them, to show what exec granted.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void print_status_caps(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "Cap", 3) == 0)
			fputs(line, stdout);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long fd;

	if (argc > 1 && strcmp(argv[1], "-c") == 0)
		print_status_caps();
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0) {
		int err = errno;

		printf("perf_event_open: %s (errno %d)\n", strerror(err), err);
		return 1;
	}
	close((int)fd);
	printf("perf_event_open: ok\n");
	return 0;
}
