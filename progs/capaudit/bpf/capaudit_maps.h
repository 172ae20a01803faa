/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * What the programs of capaudit.bpf.c and their loader (capaudit_bpf.c)
 * share: the layouts of the maps' keys and values and the stats slots.
 * Both include this one definition, so the kernel's side and ours never
 * disagree on where a field is. Only <linux/types.h> here: the programs
 * are compiled without the C library.
 */
#ifndef CAPAUDIT_MAPS_H
#define CAPAUDIT_MAPS_H

#include <linux/types.h>

/*
 * Room for a command's threads and distinct runs, in each hash map.
 * Entries are allocated as they are used (BPF_F_NO_PREALLOC), but the
 * kernel makes a bucket for each when it creates the map (16 bytes, and
 * some 10 ms for a million); what finds no room is counted, never
 * dropped in silence. The loader gives the follow map no more than the
 * machine's thread ids can use, and may make both smaller
 * (CAPAUDIT_BPF_ENTRIES, for tests that fill the tables).
 */
#define COUNTER_TABLE_MAX (1U << 20)

/*
 * The runs a followed thread keeps in place: a loop of as many different
 * checks in turn counts without touching the totals map.
 */
#define FOLLOW_RUNS 2

/* A run of identical checks, counted in place. */
struct follow_run {
	__u64 count; /* checks in the run; 0: no run */
	__u64 first; /* its first check, CLOCK_MONOTONIC (bpf_ktime_get_ns()) */
	__u64 cred;  /* its lowest bit set: lent, not the thread's own */
	__u64 target_ns, capable_ns;
	__u64 capret;	/* cap in the low half, ret in the high half */
	__u64 pid_tgid; /* the thread's tid and tgid when it made the run */
};

/*
 * One followed thread, the value of the follow map (keyed by its thread
 * id in the initial pid namespace): the runs it is making now; a check
 * unlike all of them moves the run used least lately into the totals
 * map, and takes its place.
 */
struct follow_val {
	struct follow_run run[FOLLOW_RUNS];
	__u64 epoch;  /* new at every fork and exec: a key never spans one */
	__u64 latest; /* the run that counted the latest check */
};

/* A key of the totals map: the run's identity. */
struct total_key {
	__u64 pid_tgid, epoch, cred, target_ns, capable_ns, capret;
};

/*
 * first: the first check of its earliest run; last: when its latest run
 * started (a run's later checks are counted, never timed).
 */
struct total_val {
	__u64 count, first, last;
};

/* The slots of the stats array map. */
enum counter_stat {
	STAT_LOST,	 /* checks the totals map had no room for */
	STAT_UNFOLLOWED, /* new threads the follow map had no room for */
	STAT_EPOCH,	 /* the last epoch handed out */
	STAT_SIGNALS,	 /* signals from outside, pending for one followed */
	STAT_MISMATCH,	 /* enum kernel_mismatch: why nothing is counted */
	NSTATS,
};

/*
 * What of the running kernel is not what the programs read, bit by bit
 * in STAT_MISMATCH. The kernel tells when it loads the programs (CO-RE:
 * each tracepoint's prototype and each field is looked up in its own
 * BTF); a program that finds any bit set counts nothing and stores the
 * bits, which the calibration reads and reports.
 */
enum kernel_mismatch {
	MISMATCH_CAP_CAPABLE = 1 << 0,	      /* the raw tracepoints' */
	MISMATCH_TASK_NEWTASK = 1 << 1,	      /* arguments: number, and */
	MISMATCH_SCHED_PROCESS_EXEC = 1 << 2, /* pointer or integer each */
	MISMATCH_SIGNAL_GENERATE = 1 << 3,
	MISMATCH_TASK_PID = 1 << 4,	  /* a 4-byte task_struct.pid */
	MISMATCH_TASK_REAL_CRED = 1 << 5, /* a task_struct.real_cred pointer */
	MISMATCH_SIGINFO_CODE = 1 << 6,	  /* a 4-byte kernel_siginfo.si_code */
	MISMATCH_TASK_STACK = 1 << 7,	  /* a task_struct.stack pointer */
};

/* The lowest bit of a counted credential: not the thread's own (lent). */
#define CRED_LENT 1ULL

/* Seeded threads' epochs: above any the programs hand out. */
#define SEED_EPOCH (1ULL << 62)

#endif
