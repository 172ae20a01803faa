/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: which capabilities a command asks the kernel for, observed
 * through the capability:cap_capable tracepoint (Linux 6.14+) or a kprobe
 * on cap_capable(), with perf_event_open(2). Private declarations, one
 * block per file.
 */
#ifndef CAPAUDIT_H
#define CAPAUDIT_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/capability.h>
#include <sys/types.h>

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

#include "capaudit_table.h"
#include "capaudit_counting.h"
#include "capaudit_source.h"
#include "capaudit_privilege.h"
#include "capaudit_decode.h"
#include "capaudit_perf.h"
#include "capaudit_tally.h"
#include "capaudit_report.h"
#include "capaudit_suggest.h"
#include "capaudit_advice.h"
#include "capaudit_warn.h"
#include "capaudit_prove.h"
#include "capaudit_identity.h"
#include "capaudit_trial.h"
#include "capaudit_contain.h"
#include "capaudit_nsproc.h"
#include "capaudit_reap.h"
#include "capaudit_tty.h"
#include "capaudit_launch.h"
#include "capaudit_why_start.h"
#include "capaudit_attach.h"

#endif
