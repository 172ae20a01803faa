/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: the records the perf buffers hold, decoded, and runs of the
 * same check made one record.
 */
#ifndef CAPAUDIT_DECODE_H
#define CAPAUDIT_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct source;

struct sample {
	pid_t pid, tid;
	uint64_t time;
	int idx; /* which event_spec */
	int have_cap, have_ret, have_cred, have_ns, have_capable_ns;
	int cap;	     /* -1 for a value no capability has */
	int ret;	     /* 0 granted, -1 refused */
	uint64_t cred;	     /* the credential checked (a kernel pointer) */
	uint64_t target_ns;  /* the user namespace checked against */
	uint64_t capable_ns; /* where it was granted; 0 when refused */
	/*
	 * Identical checks right after this one in the same buffer, made
	 * one sample by tracer_drain(), and the time of the last of them
	 * (when more > 0): a tight loop is counted without a record each.
	 */
	uint64_t more, last;
	int counted; /* counted in the kernel (capaudit_bpf.c), not read */
	/*
	 * Counted in the kernel, which says whether the credential was the
	 * thread's own (task_struct.real_cred) or lent: 1 when lent. A
	 * sample cannot say, and its credential's spans are judged instead.
	 */
	int lent;
};

/* What the ring buffer said besides samples. */
enum record_kind {
	REC_SAMPLE,
	REC_COMM,
	REC_FORK,
	REC_EXIT,
	REC_LOST,
	REC_EXEC_MAP, /* a file mapped executable (PERF_RECORD_MMAP2) */
	REC_OTHER,
};

struct record {
	enum record_kind kind;
	struct sample s;      /* REC_SAMPLE; s.time for every kind */
	pid_t pid, tid, ppid; /* COMM, FORK (ppid), EXIT, EXEC_MAP */
	int exec;	      /* REC_COMM caused by execve */
	char comm[16];
	uint64_t lost;	     /* REC_LOST: checks */
	uint64_t unfollowed; /* REC_LOST: threads the kernel did not follow */
	uint64_t signals;    /* REC_LOST: signals sent in from outside */
	uint32_t maj, min;   /* REC_EXEC_MAP: the file's device and inode */
	uint64_t ino;
	char *file; /* REC_EXEC_MAP: its path (record_release()) */
	size_t seq; /* reading order, for a stable sort */
};

/*
 * Decodes one perf record (header included) read with the sample layout
 * capaudit asks for. ids[0..nids) are the ids of the events, ascending;
 * idx[i] is the event_spec of ids[i]; with nids 0 every sample is of
 * spec 0. Returns 0, or -1 for a record too short for what it claims or
 * not one of ours (exported for tests). Release r after a 0.
 */
int record_decode(const void *buf, size_t len, const struct source *src,
		  const uint64_t *ids, const int *idx, size_t nids,
		  struct record *r);
void record_release(struct record *r);
/*
 * Runs of the same check: a tight loop read as one sample (more, last).
 * record_whole_check(): a sample with both capability and result, which
 * a run may be made of (never half a kprobe pair).
 * record_extend_run(): 1 after adding one more check at time to the run
 * last; 0 when last is no whole check, or the run would cross horizon
 * (what a drain releases stays exactly what was read before it: see
 * tracer_drain()), or time would go back.
 * record_merge_repeat(): the same, when r is the same check as last
 * (thread, event, capability, result, credential and namespaces): a new
 * credential makes a new run, and an execve always brings one, so a
 * file's checks never join those of the file run before it. The caller
 * makes sure nothing was between them in their buffer.
 */
int record_whole_check(const struct record *r);
int record_extend_run(struct record *last, uint64_t time, uint64_t horizon);
int record_merge_repeat(struct record *last, const struct record *r,
			uint64_t horizon);
/*
 * 1 and rec's time in *time when the sample rec (len bytes) is the
 * sample prev again, byte for byte but for its time (same event, thread
 * and data): it decodes the same, so it need not be decoded.
 */
int sample_again(const void *prev, const void *rec, size_t len, uint64_t *time);

/*
 * The reordering behind tracer_drain(): sorts recs[0..n) by time (reading
 * order on ties), then calls fn for those at or before horizon and
 * releases them. Returns how many that was: the rest stay after them
 * (exported for tests).
 */
size_t records_release(struct record *recs, size_t n, uint64_t horizon,
		       void (*fn)(const struct record *, void *), void *arg);

#endif
