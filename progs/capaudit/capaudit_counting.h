/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: counting the checks in the kernel with eBPF, for
 * capaudit_counting.c (whether it is used), capaudit_btf.c (the running
 * kernel's types) and capaudit_bpf.c (the programs, their maps, their
 * counts), one block per file.
 */
#ifndef CAPAUDIT_COUNTING_H
#define CAPAUDIT_COUNTING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct source;
struct sysview;

/* What the programs read in the kernel's own structures (capaudit_btf.c). */
struct counter_layout {
	size_t task_pid;       /* the offset of task_struct.pid */
	size_t task_real_cred; /* and of task_struct.real_cred */
};

/* Counting in the kernel (capaudit_bpf.c), when the tracepoint is the source. */
struct counting {
	int usable; /* the programs loaded and counted a check of capaudit's */
	struct counter_layout layout;
	char why[200]; /* when not usable, and it was tried: why */
};

/* ---- capaudit_counting.c: whether checks are counted in the kernel ---- */

/*
 * Tries counting in the kernel for a tracepoint source (src->counting:
 * usable, or why not), for real: loaded, attached, a check of capaudit's
 * own counted, removed.
 */
void counting_try(const struct sysview *sv, struct source *src, int use_bpf);
/*
 * The source that needs no tracefs: the raw tracepoint cap_capable,
 * counted in the kernel. 0, or -1 with why (why counting cannot be used).
 */
int raw_tracepoint_find(const struct sysview *sv, struct source *src, char *why,
			size_t whylen);
/* One line: counted in the kernel, or one perf sample per check and why. */
void counting_describe(const struct source *src, FILE *out);

/* ---- capaudit_btf.c: the running kernel's types ---- */

/*
 * Reads the kernel's BTF at path: task_struct.pid's offset into lay, and
 * that the raw tracepoints cap_capable, task_newtask and
 * sched_process_exec take the arguments the programs read. 0, or -1
 * with why filled in.
 */
int kernel_shape_read(const char *path, struct counter_layout *lay, char *why,
		      size_t whylen);

/* ---- capaudit_bpf.c: checks counted in the kernel ---- */

struct counter;
struct record;

/* What the kernel could not count: checks, and threads not followed. */
struct counter_losses {
	uint64_t checks, threads;
	uint64_t signals; /* sent to a followed thread by one not followed */
};

/* 1 when capaudit runs in the initial pid namespace (the programs' ids). */
int counter_pidns_initial(void);
/*
 * Creates the maps, loads the programs and attaches them. NULL with
 * errno, and why filled in.
 */
struct counter *counter_open(const struct counting *cfg, char *why,
			     size_t whylen);
/* Follows thread tid (global id) and every thread it creates from now on. */
int counter_follow(struct counter *c, pid_t tid);
/* Follows tid no more (a seed whose id went to another process). */
int counter_unfollow(struct counter *c, pid_t tid);
/*
 * Follows the calling thread for one call of check, which must ask for
 * CAP_SETUID once; keeps that check, the tally's calibration. -1 with
 * EPROTO when the program saw something else (its arguments misread).
 */
int counter_calibrate(struct counter *c, void (*check)(void));
/*
 * Detaches the programs, then hands every count to push as a sample (a
 * run of identical checks: more, last), the calibration first. -1 when
 * push failed.
 */
int counter_collect(struct counter *c,
		    int (*push)(const struct record *, void *), void *arg,
		    struct counter_losses *lost);
void counter_close(struct counter *c);
/*
 * For source_find(): loads, attaches and calibrates once, then removes
 * everything; 0 when counting in the kernel works here, else -1 with
 * cfg->why.
 */
int counter_probe(struct counting *cfg, void (*check)(void));

#endif
