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
#include <stdio.h>
#include <sys/types.h>

#define PROG "capaudit"
#define NCAPS 64		/* every value a capability mask can name */

/* ---- capaudit_source.c: where the checks come from ---- */

/* Where one integer field sits in a tracepoint's raw record. */
struct field {
	size_t off, size;	/* size 0: not in the record */
	int is_signed;
};

enum event_role {
	ROLE_CHECK,		/* a whole check: cap and ret (the tracepoint) */
	ROLE_ENTRY,		/* a kprobe on entry: cap only */
	ROLE_RETURN,		/* a kretprobe: ret only */
};

/* One perf event to open per CPU and target thread. */
struct event_spec {
	uint32_t type;		/* PERF_TYPE_TRACEPOINT or the kprobe PMU */
	uint64_t config, config1, config2;
	uint64_t regs;		/* sample_regs_intr (kprobe PMU only) */
	enum event_role role;
	struct field cap, ret;	/* in the raw record (tracefs events) */
};

enum source_kind {
	SOURCE_TRACEPOINT,	/* capability:cap_capable */
	SOURCE_KPROBE_EVENTS,	/* probes we wrote into tracefs kprobe_events */
	SOURCE_KPROBE_PMU,	/* the kprobe PMU, arguments from registers */
};

struct source {
	enum source_kind kind;
	int nevents;
	struct event_spec ev[2];
	char tracefs[256];	/* the tracefs used, "" for the kprobe PMU */
	char group[64];		/* kprobe_events group to remove at the end */
	int private_mount;	/* tracefs mounted in a private namespace */
};

/* The machine as capaudit sees it; root is "" except in tests. */
struct sysview {
	const char *root;	/* CAPAUDIT_SYSROOT: a fake /sys and /proc */
};

/*
 * Finds the best source the running kernel offers. Returns 0, or -1
 * after one "capaudit: ..." line on err for everything missing.
 * With check set, only says which source would be used (no kprobe is
 * created).
 */
int source_find(const struct sysview *sv, struct source *src, int check,
		FILE *err);
/* Removes what source_find() created (kprobe_events probes). */
void source_release(const struct sysview *sv, struct source *src);
/* One line naming the source, for the report and --check. */
void source_describe(const struct source *src, FILE *out);

/* Parses a tracefs "format" file's text for field name (exported for tests). */
int format_field(const char *format, const char *name, struct field *f);

/* ---- capaudit_perf.c: the events and their ring buffer ---- */

struct sample {
	pid_t pid, tid;
	uint64_t time;
	int idx;		/* which event_spec */
	int have_cap, have_ret;
	int cap, ret;
};

/* What the ring buffer said besides samples. */
enum record_kind { REC_SAMPLE, REC_COMM, REC_FORK, REC_EXIT, REC_LOST, REC_OTHER };

struct record {
	enum record_kind kind;
	struct sample s;	/* REC_SAMPLE */
	pid_t pid, tid, ppid;	/* COMM, FORK (ppid), EXIT */
	int exec;		/* REC_COMM caused by execve */
	char comm[16];
	uint64_t lost;		/* REC_LOST */
	size_t seq;		/* reading order, for a stable sort */
};

struct tracer;

/*
 * Opens the source's events for each thread of pid (all of /proc/pid/task
 * when whole_process) on every online CPU, inherited by children, all
 * writing into one ring buffer. NULL after a message naming what failed.
 */
struct tracer *tracer_open(const struct source *src, pid_t pid,
			   int whole_process, FILE *err);
/* Waits up to timeout_ms for data; then calls fn for every record. */
int tracer_drain(struct tracer *t, int timeout_ms,
		 void (*fn)(const struct record *, void *), void *arg);
/* Makes every buffer write once more, so a loss at the end is reported. */
void tracer_flush(struct tracer *t);
void tracer_close(struct tracer *t);

/*
 * Decodes one perf record (header included) read with the sample layout
 * capaudit asks for. ids[i] is the id of an event of spec idx[i]; with
 * nids 0 every sample is of spec 0. Returns 0,
 * or -1 for a record too short for what it claims (exported for tests).
 */
int record_decode(const void *buf, size_t len, const struct source *src,
		  const uint64_t *ids, const int *idx, size_t nids,
		  struct record *r);

/* ---- capaudit_tally.c: counts per process and capability ---- */

struct proc {
	pid_t pid, ppid;
	char comm[16];
	int execd;		/* the audited command is running in it */
	int exited;
	uint64_t granted[NCAPS], refused[NCAPS];
};

struct tally {
	struct proc *procs;
	size_t nprocs, procs_size;
	pid_t root;		/* the command, or the process attached to */
	pid_t self;		/* capaudit: its own checks are not counted */
	uint64_t lost;		/* samples the kernel could not write */
	uint64_t launcher;	/* checks by our launcher before the exec */
	uint64_t out_of_range;	/* cap values beyond NCAPS */
	uint64_t unpaired;	/* kprobe returns without an entry */
	struct pending { pid_t tid; int cap; } *pending;
	size_t npending, pending_size;
	int nomem;
};

void tally_init(struct tally *t, pid_t root, const char *root_comm);
void tally_record(const struct record *r, void *tally);
void tally_free(struct tally *t);
/* Processes that were followed: the command and its descendants. */
size_t tally_running(const struct tally *t);

/* ---- capaudit_report.c: the table and --json ---- */

struct run_result {
	int attached;		/* --pid: no exit status */
	int status;		/* wait(2) status of the command */
	double seconds;
};

/* The capability's name (cap_to_name()), into buf. */
void capability_name(int cap, char *buf, size_t size);
void report_table(const struct tally *t, const struct source *src,
		  const struct run_result *rr, FILE *out);
void report_json(const struct tally *t, const struct source *src,
		 const struct run_result *rr, FILE *out);

/* ---- capaudit_suggest.c: the least grant ---- */

struct suggestion {
	uint64_t need;		/* capabilities to grant */
	uint64_t unused;	/* refused, yet the run succeeded */
	uint64_t incidental;	/* checked by the kernel on its own */
	uint64_t checked;	/* every capability checked at all */
	int failed;		/* the command did not exit 0 */
};

void suggest_build(const struct tally *t, const struct run_result *rr,
		   struct suggestion *sg);
void suggest_print(const struct suggestion *sg, const struct tally *t,
		   const struct run_result *rr, const char *command,
		   const char *user, FILE *out);
void suggest_json(const struct suggestion *sg, const char *command, FILE *out);

#endif
