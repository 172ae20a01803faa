/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: which capabilities a command asks the kernel for, observed
 * through the capability:cap_capable tracepoint (Linux 6.14+) or a kprobe
 * on cap_capable(), with perf_event_open(2). What the modules share: the
 * program's name and the outcome of a run; each module's interface is in
 * its own header (capaudit_<module>.h).
 */
#ifndef CAPAUDIT_H
#define CAPAUDIT_H

#include <stddef.h>

#define PROG "capaudit"

/* Why capaudit ended a trial itself: its status says nothing then. */
enum run_cut {
	CUT_NONE,
	CUT_TIME, /* it ran past its time limit */
	CUT_STOP, /* SIGINT, SIGTERM or SIGQUIT */
};

struct run_result {
	int attached; /* --pid: no exit status */
	int status;   /* wait(2) status of the command */
	double seconds;
	enum run_cut cut; /* trials only */
	size_t left;	  /* trials: processes it left behind, ended */
	int left_running; /* trials: some could not be ended */
	size_t left_out;  /* --pid: threads that ended as capaudit attached */
};

#endif
