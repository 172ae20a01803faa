/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: what it ends itself after a trial. */
#ifndef CAPAUDIT_REAP_H
#define CAPAUDIT_REAP_H

#include <stddef.h>

/* capaudit as the child subreaper (on) or not: 0, or -1 with errno. */
int trial_reaper(int on);
/*
 * Once a trial's launched child has been reaped: kills and reaps every
 * child capaudit has (a trial's init whose launched child capaudit
 * killed, handed to it as the subreaper), until none is left. *ended
 * says how many. 0, or -1 with errno (EAGAIN: some still there after a
 * while of this).
 */
int trial_end_leftovers(size_t *ended);

#endif
