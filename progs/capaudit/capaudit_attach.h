/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --pid: watching a running process. */
#ifndef CAPAUDIT_ATTACH_H
#define CAPAUDIT_ATTACH_H

#include <stddef.h>
#include <sys/types.h>

struct run_result;
struct source;
struct tally;

/*
 * ptrace(2)'s PTRACE_MODE_READ_REALCREDS rule for the process whose
 * /proc directory is open on dfd, with capaudit's own privileges (not the
 * file capabilities it holds to trace): 1 allowed, 0 refused (why says
 * why), -1 with errno when it cannot be read (ESRCH: gone).
 */
int ptrace_read_allowed(int dfd, pid_t pid, char *why, size_t len);
int attach_run(pid_t pid, unsigned long long duration, const struct source *src,
	       struct tally *t, struct run_result *rr);

#endif
