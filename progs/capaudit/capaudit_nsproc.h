/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: a trial's /proc. */
#ifndef CAPAUDIT_NSPROC_H
#define CAPAUDIT_NSPROC_H

/*
 * In a trial's init, in the trial's mount namespace: where /proc is a
 * proc, a proc of this PID namespace over it, with the mounts that were
 * below the old one and its options. 0, or -1 with the failed step in
 * *step and errno set. Only async-signal-safe calls.
 */
int nsproc_mount(const char **step);

#endif
