/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: what a child of capaudit's that never execs holds of it. Every
 * descriptor capaudit opens is close-on-exec, but a child that runs code
 * of capaudit's and no program keeps them all (the eBPF programs' links,
 * which keep them attached, perf events, pipes) for as long as it lives.
 */
#ifndef CAPAUDIT_FDS_H
#define CAPAUDIT_FDS_H

/*
 * Closes every descriptor but 0, 1, 2 and the n in keep (sorted here).
 * Async-signal-safe: for a child of a threaded process.
 */
void fds_close_except(int *keep, int n);

#endif
