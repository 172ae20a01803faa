/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: where the checks come from (the capability:cap_capable
 * tracepoint, a kprobe on cap_capable(), or the raw tracepoint the
 * eBPF programs count on) and how the machine is seen.
 */
#ifndef CAPAUDIT_SOURCE_H
#define CAPAUDIT_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capaudit_counting.h"

/* Where one integer field sits in a tracepoint's raw record. */
struct field {
	size_t off, size; /* size 0: not in the record */
	int is_signed;
};

enum event_role {
	ROLE_CHECK,  /* a whole check (the tracepoint) */
	ROLE_ENTRY,  /* a kprobe on entry: cred, namespace, cap */
	ROLE_RETURN, /* a kretprobe: ret only */
};

/* A kprobe PMU event's registers: which set bit of regs holds what (-1: none). */
struct reg_slots {
	int cred, ns, cap, ret;
};

/* One perf event to open per CPU and target thread. */
struct event_spec {
	uint32_t type; /* PERF_TYPE_TRACEPOINT or the kprobe PMU */
	uint64_t config, config1;
	uint64_t regs;	      /* sample_regs_intr (kprobe PMU only) */
	struct reg_slots reg; /* kprobe PMU only */
	enum event_role role;
	/* In the raw record (tracefs events); capable_ns only in the tracepoint. */
	struct field cap, ret, cred, target_ns, capable_ns;
};

enum source_kind {
	SOURCE_TRACEPOINT,    /* capability:cap_capable */
	SOURCE_KPROBE_EVENTS, /* probes we wrote into tracefs kprobe_events */
	SOURCE_KPROBE_PMU,    /* the kprobe PMU, arguments from registers */
	/* cap_capable named to eBPF, counted in the kernel; no tracefs */
	SOURCE_RAW_TRACEPOINT,
};

struct source {
	enum source_kind kind;
	int nevents;
	struct event_spec ev[2];
	char tracefs[256]; /* the tracefs used, "" for the kprobe PMU */
	char group[64];	   /* kprobe_events group to remove at the end */
	int private_mount; /* tracefs mounted in a private namespace */
	struct counting counting;
};

/* The machine as capaudit sees it; root is "" except in tests. */
struct sysview {
	const char *root; /* CAPAUDIT_SYSROOT: a fake /sys and /proc */
};

/*
 * Finds the best source the running kernel offers. Returns 0, or -1
 * after one "capaudit: ..." line on err for everything missing.
 * With check set, only says which source would be used (no kprobe is
 * created). With use_bpf, a tracepoint source counts in the kernel
 * where eBPF works here (src->counting, tried once for real).
 */
int source_find(const struct sysview *sv, struct source *src, int check,
		int use_bpf, FILE *err);
/* Removes what source_find() created (kprobe_events probes). */
void source_release(const struct sysview *sv, struct source *src);
/* One line naming the source, for the report and --check. */
void source_describe(const struct source *src, FILE *out);

/* Parses a tracefs "format" file's text for field name (exported for tests). */
int format_field(const char *format, const char *name, struct field *f);
/*
 * Reads the tracepoint's fields from its format text into ev: cap and ret
 * must be there; cred, target_ns and capable_ns are read when they are
 * (exported for tests). Returns 0, or -1 with errno ENOENT.
 */
int tracepoint_fields(const char *format, struct event_spec *ev);

#endif
