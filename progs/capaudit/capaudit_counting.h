/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: counting the checks in the kernel with eBPF, for
 * capaudit_counting.c (whether it is used) and bpf/capaudit_bpf.c (the
 * programs' loader, their maps, their counts; capaudit_bpf_none.c in a
 * build without the BPF tool chain), one block per file.
 */
#ifndef CAPAUDIT_COUNTING_H
#define CAPAUDIT_COUNTING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct source;
struct sysview;

/* Counting in the kernel (capaudit_bpf.c), when the tracepoint is the source. */
struct counter;
/* Room for why counting cannot be used: a verifier's refusal is long. */
#define COUNTER_WHY_MAX 512
struct counting {
	int usable; /* the programs loaded and counted a check of capaudit's */
	/*
	 * The counter that proved it, loaded and attached, which the first
	 * counter_open() takes instead of loading again (counting_release()
	 * frees it).
	 */
	struct counter *probed;
	char why[COUNTER_WHY_MAX]; /* when not usable, and it was tried: why */
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

/* ---- bpf/capaudit_bpf.c: checks counted in the kernel ---- */
/* (capaudit_bpf_none.c instead in a build without the BPF tool chain) */

struct record;

/* What the kernel could not count: checks, and threads not followed. */
struct counter_losses {
	uint64_t checks, threads;
	uint64_t signals; /* sent to a followed thread by one not followed */
};

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
 * EPROTO and why when the program saw something else (its arguments
 * misread), or nothing because the kernel is not what it reads.
 */
int counter_calibrate(struct counter *c, void (*check)(void), char *why,
		      size_t whylen);
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
 * For source_find(): loads, attaches and calibrates once; 0 when
 * counting in the kernel works here (the counter kept in cfg->probed for
 * the run), else -1 with cfg->why.
 */
int counter_probe(struct counting *cfg, void (*check)(void));
/* Unloads and frees the probe's counter, if any (source_release()). */
void counting_release(struct counting *cfg);
/*
 * NULL where counting in the kernel is built into capaudit; otherwise
 * why not (built without the BPF tool chain), for --version and --check.
 */
const char *counter_not_built(void);

#endif
