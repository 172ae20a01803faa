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
 * Room for a command's threads and distinct runs, in each hash map (the
 * spill table and the totals). Entries are allocated as they are used
 * (BPF_F_NO_PREALLOC), but the kernel makes a bucket for each when it
 * creates the map, 16 bytes each, set up while capaudit waits: 2 to 3
 * ms for COUNTER_TABLE_DEFAULT's, 16 to 77 ms for a million, most of
 * what an audit of a short command took. What finds no room is counted,
 * never dropped in silence. The loader gives the spill table no more
 * than the machine's thread ids can use, and CAPAUDIT_BPF_ENTRIES sets
 * every table's room, up to COUNTER_TABLE_MAX: smaller for tests that
 * fill the tables, larger for a command that runs hundreds of thousands
 * of processes.
 */
#define COUNTER_TABLE_DEFAULT (1U << 18)
#define COUNTER_TABLE_MAX     (1U << 20)

/*
 * The runs a followed thread keeps in place: a loop of as many different
 * checks in turn counts without touching the totals map.
 */
#define FOLLOW_RUNS 2

/*
 * A run of identical checks, counted in place. What a repeat compares
 * comes first, so that a run at the start of its entry shares one cache
 * line with the entry's owner.
 */
struct follow_run {
	__u64 count; /* checks in the run; 0: no run */
	__u64 cred;  /* its lowest bit set: lent, not the thread's own */
	__u64 target_ns, capable_ns;
	__u64 capret;	/* cap in the low half, ret in the high half */
	__u64 pid_tgid; /* the thread's tid and tgid when it made the run */
	__u64 first; /* its first check, CLOCK_MONOTONIC (bpf_ktime_get_ns()) */
};

/*
 * One followed thread: the runs it is making now; a check unlike all of
 * them moves the run used least lately into the totals map, and takes
 * its place. 128 bytes, two cache lines.
 *
 * Where it is: the direct table's entry at the thread id's low bits (an
 * array, which the kernel reaches without a call), whose owner says
 * whose it is; or, when that entry is another thread's, the value the
 * spill table (a hash map) keeps under the thread id. A thread's entry
 * is written by the thread itself, or by its creator before it runs; an
 * owner changes by an atomic exchange (FOLLOW_FREE to FOLLOW_HELD),
 * never under a thread that may still write in the entry.
 */
struct follow_val {
	__u32 owner;  /* FOLLOW_FREE, FOLLOW_HELD or tid + 1 (direct table) */
	__u32 latest; /* the run that counted the latest check */
	__u64 epoch;  /* new at every fork and exec: a key never spans one */
	struct follow_run run[FOLLOW_RUNS];
};

/* A direct table's entry no thread holds: any may take it. */
#define FOLLOW_FREE 0U
/*
 * One held for no thread: being filled in, or given up while the thread
 * that had it may still be counting in it. Never taken again in a run.
 */
#define FOLLOW_HELD 0xffffffffU

/*
 * The direct table's largest room: a power of two (an entry is found by
 * the thread id's low bits), 128 bytes each, allocated whole when the
 * map is made. Ids that meet at the same entry go to the spill table.
 */
#define DIRECT_TABLE_MAX (1U << 16)

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
	STAT_UNFOLLOWED, /* new threads the follow tables had no room for */
	STAT_EPOCH,	 /* the last epoch handed out */
	STAT_SIGNALS,	 /* signals from outside, pending for one followed */
	STAT_MISMATCH,	 /* enum kernel_mismatch: why nothing is counted */
	STAT_SPILLED,	 /* nonzero once the spill table follows a thread */
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
	MISMATCH_TASK_TGID = 1 << 8,	  /* a 4-byte task_struct.tgid */
	MISMATCH_ALL = (1 << 9) - 1,
};

/* The lowest bit of a counted credential: not the thread's own (lent). */
#define CRED_LENT 1ULL

/* Seeded threads' epochs: above any the programs hand out. */
#define SEED_EPOCH (1ULL << 62)

#endif
