/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: a trial's processes end with it, and with capaudit. */
#ifndef CAPAUDIT_CONTAIN_H
#define CAPAUDIT_CONTAIN_H

#include <sys/types.h>

/* How a trial's command ended, as its namespace's init saw it. */
struct trial_end {
	int status;    /* the command's wait(2) status */
	unsigned left; /* processes of the trial still there then, ended */
};
/*
 * First thing in a trial's launched child: it dies with the thread of
 * capaudit (pid capaudit) that forked it, which must live until it is
 * reaped. 0, or -1 with errno (ESRCH: capaudit is gone already).
 */
int trial_tie(pid_t capaudit);
/*
 * In a trial's launched child, once plan_apply() is done: a new PID
 * namespace, whose init (a process of capaudit's, pid 1 there, with the
 * namespace's /proc: nsproc_mount()) forks the command's process and
 * ends the namespace when the command ends. Returns 0 in the command's
 * process only; the launched child writes the struct trial_end to
 * report and ends as the command did (exit status or signal). -1 with
 * the failed step in *step and errno set (in the launched child or the
 * init). sigchld_ignored: the command gets SIGCHLD ignored. Only
 * async-signal-safe calls.
 */
int trial_contain(int report, int sigchld_ignored, const char **step);

#endif
