/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Counting in the kernel: where capaudit may load eBPF programs, the
 * command's checks are counted by a program on the cap_capable raw
 * tracepoint instead of being written one perf sample each. Shared by
 * capaudit_bpf.c (maps, loading, attaching, reading back) and
 * capaudit_bpf_text.c (the programs themselves).
 */
#ifndef CAPAUDIT_BPF_H
#define CAPAUDIT_BPF_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

#include "capaudit_counting.h"

/*
 * One followed thread, the value of the follow map (keyed by its thread
 * id in the initial pid namespace): the run of identical checks it is
 * making now, counted in place; a different check moves the run into
 * the totals map. The layout is what the programs read and write.
 */
struct follow_val {
	uint64_t count;	      /* checks in the run; 0: no run */
	uint64_t first, last; /* CLOCK_MONOTONIC, as bpf_ktime_get_ns() */
	uint64_t cred; /* its lowest bit set: lent, not the thread's own */
	uint64_t target_ns, capable_ns;
	uint64_t capret;   /* cap in the low half, ret in the high half */
	uint64_t pid_tgid; /* the thread's tid and tgid when it made the run */
	uint64_t epoch; /* new at every fork and exec: a key never spans one */
};

/* A key of the totals map: the run's identity. */
struct total_key {
	uint64_t pid_tgid, epoch, cred, target_ns, capable_ns, capret;
};

struct total_val {
	uint64_t count, first, last;
};

/* The slots of the stats array map. */
enum counter_stat {
	STAT_LOST,	 /* checks the totals map had no room for */
	STAT_UNFOLLOWED, /* new threads the follow map had no room for */
	STAT_EPOCH,	 /* the last epoch handed out */
	STAT_SIGNALS,	 /* signals sent to a followed thread from outside */
	NSTATS,
};

struct counter_maps {
	int follow, totals, stats;
};

/* A program's instructions, built by the functions below. */
struct bpf_text {
	struct bpf_insn insn[320];
	size_t n;
	int overflow; /* more than insn holds: never loaded */
	/* Jumps to labels not yet placed. */
	struct {
		size_t at;
		int label;
	} fix[64];
	size_t nfix;
	long label_at[32]; /* -1: not placed */
	int nlabels;
};

/* The lowest bit of a counted credential: not the thread's own (lent). */
#define CRED_LENT 1ULL

/*
 * The programs, on raw tracepoints: cap_capable (its arguments cred,
 * target_ns, capable_ns, cap, ret), task_newtask (the new task, clone
 * flags), sched_process_exec (task, old_pid, bprm) and signal_generate.
 * Each returns 0 after building its text, or -1 when the text did not
 * fit.
 */
int text_check(struct bpf_text *p, const struct counter_maps *m,
	       const struct counter_layout *lay);
int text_fork(struct bpf_text *p, const struct counter_maps *m,
	      const struct counter_layout *lay);
int text_exec(struct bpf_text *p, const struct counter_maps *m);
/*
 * On signal_generate (sig, info, task, group, result): a signal delivered
 * to a followed thread by a thread that is not followed and not
 * capaudit's (self_tgid), sent by a process (kill(2), tgkill(2),
 * sigqueue(3)), not by the kernel, is counted in STAT_SIGNALS.
 */
int text_signal(struct bpf_text *p, const struct counter_maps *m,
		const struct counter_layout *lay, uint32_t self_tgid);

#endif
