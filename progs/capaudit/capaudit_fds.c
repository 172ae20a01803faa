/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Closing what a child must not hold (capaudit_fds.h). */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capaudit_fds.h"

/* Closes the descriptors first..last; close_range(2) is Linux 5.9. */
static void close_fds(unsigned first, unsigned last)
{
	struct rlimit rl;
	unsigned fd;

	if (first > last)
		return;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, first, last, 0) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur > 1U << 20)
		rl.rlim_cur = 1U << 20;
	for (fd = first; fd <= last && fd < rl.rlim_cur; fd++)
		close((int)fd);
}

void fds_close_except(int *keep, int n)
{
	unsigned next = 3;
	int i, j, k;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			k = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = k;
		}
	for (i = 0; i < n; i++) {
		if (keep[i] < (int)next)
			continue;
		close_fds(next, (unsigned)keep[i] - 1);
		next = (unsigned)keep[i] + 1;
	}
	close_fds(next, ~0U);
}
