/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The records capaudit reads from its perf ring buffers, decoded into
 * struct record, and put back in time order: each CPU writes its own
 * buffer, so a child's first check can be read before the record of the
 * fork that made it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "capaudit_decode.h"
#include "capaudit_source.h"

/* A field's value, sign-extended when the format says it is signed. */
static int64_t get_int(const unsigned char *p, size_t size, int is_signed)
{
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
	} v;

	memcpy(&v, p, size);
	switch (size) {
	case 1:
		return is_signed ? (int64_t)(int8_t)v.u8 : (int64_t)v.u8;
	case 2:
		return is_signed ? (int64_t)(int16_t)v.u16 : (int64_t)v.u16;
	case 4:
		return is_signed ? (int64_t)(int32_t)v.u32 : (int64_t)v.u32;
	default:
		return (int64_t)v.u64;
	}
}

/* 1 and the field's value in *out when the record holds it, else 0. */
static int read_field(const unsigned char *raw, uint32_t len,
		      const struct field *f, int64_t *out)
{
	if (f->size == 0 || f->off + f->size > len)
		return 0;
	*out = get_int(raw + f->off, f->size, f->is_signed);
	return 1;
}

/*
 * Every value is read whole: an 8-byte field cast to int would make
 * 0x100000001 capability 1, or a non-zero result 0 ("granted").
 */
static int cap_of(int64_t v)
{
	return v >= 0 && v < INT_MAX ? (int)v : -1;
}

static int ret_of(int64_t v)
{
	return v == 0 ? 0 : -1;
}

/* The spec of event id: ids ascending, so a binary search. */
static int spec_of(uint64_t id, const uint64_t *ids, const int *idx,
		   size_t nids)
{
	size_t lo = 0, hi = nids;

	if (nids == 0)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] == id)
			return idx[mid];
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1; /* not one of ours */
}

static int decode_regs(const unsigned char *p, size_t len, size_t at,
		       const struct event_spec *ev, struct sample *s)
{
	int nregs = __builtin_popcountll(ev->regs);
	uint64_t abi, v;

	if (len < at + 8 + 8 * (size_t)nregs)
		return -1;
	memcpy(&abi, p + at, 8);
	if (abi == 0)
		return -1; /* PERF_SAMPLE_REGS_ABI_NONE */
	at += 8;
	if (ev->reg.cred >= 0) {
		memcpy(&s->cred, p + at + 8 * (size_t)ev->reg.cred, 8);
		s->have_cred = 1;
	}
	if (ev->reg.ns >= 0) {
		memcpy(&s->target_ns, p + at + 8 * (size_t)ev->reg.ns, 8);
		s->have_ns = 1;
	}
	if (ev->reg.cap >= 0) {
		memcpy(&v, p + at + 8 * (size_t)ev->reg.cap, 8);
		s->cap = cap_of((int32_t)v); /* an int argument */
		s->have_cap = 1;
	}
	if (ev->reg.ret >= 0) {
		memcpy(&v, p + at + 8 * (size_t)ev->reg.ret, 8);
		s->ret = ret_of((int32_t)v);
		s->have_ret = 1;
	}
	return 0;
}

static int decode_raw(const unsigned char *raw, uint32_t rawlen,
		      const struct event_spec *ev, struct sample *s)
{
	int64_t v;

	if (ev->role != ROLE_RETURN && read_field(raw, rawlen, &ev->cap, &v)) {
		s->cap = cap_of(v);
		s->have_cap = 1;
	}
	if (ev->role != ROLE_ENTRY && read_field(raw, rawlen, &ev->ret, &v)) {
		s->ret = ret_of(v);
		s->have_ret = 1;
	}
	if (read_field(raw, rawlen, &ev->cred, &v)) {
		s->cred = (uint64_t)v;
		s->have_cred = 1;
	}
	if (read_field(raw, rawlen, &ev->target_ns, &v)) {
		s->target_ns = (uint64_t)v;
		s->have_ns = 1;
	}
	if (read_field(raw, rawlen, &ev->capable_ns, &v)) {
		s->capable_ns = (uint64_t)v;
		s->have_capable_ns = 1;
	}
	if (ev->role == ROLE_CHECK && !(s->have_cap && s->have_ret))
		return -1;
	if (ev->role == ROLE_ENTRY && !s->have_cap)
		return -1;
	if (ev->role == ROLE_RETURN && !s->have_ret)
		return -1;
	return 0;
}

/* A sample: id, pid/tid, time, then the raw tracepoint or kprobe data. */
static int decode_sample(const unsigned char *p, size_t len,
			 const struct source *src, const uint64_t *ids,
			 const int *idx, size_t nids, struct record *r)
{
	size_t need = sizeof(struct perf_event_header) + 8 + 8 + 8;
	uint64_t id, time;
	uint32_t pid_tid[2], rawlen;

	if (len < need)
		return -1;
	memcpy(&id, p + 8, 8);
	memcpy(pid_tid, p + 16, 8);
	memcpy(&time, p + 24, 8);
	r->kind = REC_SAMPLE;
	r->s.pid = (pid_t)pid_tid[0];
	r->s.tid = (pid_t)pid_tid[1];
	r->s.time = time;
	r->s.idx = spec_of(id, ids, idx, nids);
	if (r->s.idx < 0 || r->s.idx >= src->nevents)
		return -1;
	if (src->kind == SOURCE_KPROBE_PMU)
		return decode_regs(p, len, need, &src->ev[r->s.idx], &r->s);
	if (len < need + 4)
		return -1;
	memcpy(&rawlen, p + need, 4);
	if (rawlen > len - need - 4)
		return -1;
	return decode_raw(p + need + 4, rawlen, &src->ev[r->s.idx], &r->s);
}

/* pid, tid, the name padded to 8 bytes, then sample_id (24). */
static int decode_comm(const unsigned char *p, size_t len, unsigned misc,
		       struct record *r)
{
	uint32_t pt[2];
	size_t n;

	if (len < sizeof(struct perf_event_header) + 8 + 8 + 24)
		return -1;
	memcpy(pt, p + 8, 8);
	r->kind = REC_COMM;
	r->pid = (pid_t)pt[0];
	r->tid = (pid_t)pt[1];
	r->exec = (misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
	n = strnlen((const char *)p + 16, len - 16 - 24);
	if (n >= sizeof(r->comm))
		n = sizeof(r->comm) - 1;
	memcpy(r->comm, p + 16, n);
	r->comm[n] = '\0';
	memcpy(&r->s.time, p + len - 16, 8);
	return 0;
}

/* FORK and EXIT: pid, ppid, tid, ptid, time. */
static int decode_task(const unsigned char *p, size_t len, unsigned type,
		       struct record *r)
{
	uint32_t v[4];

	if (len < sizeof(struct perf_event_header) + 16 + 8)
		return -1;
	memcpy(v, p + 8, 16);
	r->kind = type == PERF_RECORD_FORK ? REC_FORK : REC_EXIT;
	r->pid = (pid_t)v[0];
	r->ppid = (pid_t)v[1];
	r->tid = (pid_t)v[2];
	memcpy(&r->s.time, p + 24, 8);
	return 0;
}

/* LOST: id, how many; the time from sample_id when it is there. */
static int decode_lost(const unsigned char *p, size_t len, struct record *r)
{
	if (len < sizeof(struct perf_event_header) + 16)
		return -1;
	r->kind = REC_LOST;
	memcpy(&r->lost, p + 16, 8);
	if (len >= sizeof(struct perf_event_header) + 16 + 24)
		memcpy(&r->s.time, p + len - 16, 8);
	return 0;
}

/*
 * MMAP2: pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot,
 * flags, the file's name (NUL-padded to 8 bytes), sample_id (24). Only
 * executable mappings of a named file matter: the first after an exec
 * is the file the kernel runs (capaudit_tally.c).
 */
static int decode_mmap2(const unsigned char *p, size_t len, struct record *r)
{
	size_t head = sizeof(struct perf_event_header);
	size_t fixed = 8 + 24 + 8 + 16 + 8;
	uint32_t pt[2], mm[2], prot;
	size_t n;

	if (len < head + fixed + 24 + 1)
		return -1;
	memcpy(pt, p + head, 8);
	memcpy(mm, p + head + 32, 8);
	memcpy(&r->ino, p + head + 40, 8);
	memcpy(&prot, p + head + 56, 4);
	n = strnlen((const char *)p + head + fixed, len - head - fixed - 24);
	if (!(prot & PROT_EXEC) || n == 0 || p[head + fixed] != '/' ||
	    n == len - head - fixed - 24) {
		r->kind =
			REC_OTHER; /* data, anonymous, or no end to its name */
		return 0;
	}
	r->file = strndup((const char *)p + head + fixed, n);
	if (r->file == NULL)
		return -1;
	r->kind = REC_EXEC_MAP;
	r->pid = (pid_t)pt[0];
	r->tid = (pid_t)pt[1];
	r->maj = mm[0];
	r->min = mm[1];
	memcpy(&r->s.time, p + len - 16, 8);
	return 0;
}

int record_whole_check(const struct record *r)
{
	return r->kind == REC_SAMPLE && r->s.have_cap && r->s.have_ret;
}

int record_extend_run(struct record *last, uint64_t time, uint64_t horizon)
{
	struct sample *a = &last->s;

	if (!record_whole_check(last) ||
	    (a->time <= horizon && time > horizon) ||
	    time < (a->more ? a->last : a->time))
		return 0;
	a->more++;
	a->last = time;
	return 1;
}

int record_merge_repeat(struct record *last, const struct record *r,
			uint64_t horizon)
{
	const struct sample *a = &last->s, *b = &r->s;

	if (!record_whole_check(r))
		return 0;
	if (a->pid != b->pid || a->tid != b->tid || a->idx != b->idx ||
	    a->have_cred != b->have_cred || a->have_ns != b->have_ns ||
	    a->have_capable_ns != b->have_capable_ns || a->cap != b->cap ||
	    a->ret != b->ret || a->cred != b->cred ||
	    a->target_ns != b->target_ns || a->capable_ns != b->capable_ns)
		return 0;
	return record_extend_run(last, b->time, horizon);
}

int sample_again(const void *prev, const void *rec, size_t len, uint64_t *time)
{
	const unsigned char *a = prev, *b = rec;
	const size_t at =
		sizeof(struct perf_event_header) + 8 + 8; /* id, pid/tid */
	struct perf_event_header h;

	if (len < at + 8)
		return 0;
	memcpy(&h, b, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE || memcmp(a, b, at) != 0 ||
	    memcmp(a + at + 8, b + at + 8, len - at - 8) != 0)
		return 0;
	memcpy(time, b + at, 8);
	return 1;
}

int record_decode(const void *buf, size_t len, const struct source *src,
		  const uint64_t *ids, const int *idx, size_t nids,
		  struct record *r)
{
	const unsigned char *p = buf;
	struct perf_event_header h;

	memset(r, 0, sizeof(*r));
	r->kind = REC_OTHER;
	if (len < sizeof(h))
		return -1;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) || h.size > len)
		return -1;
	len = h.size;
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		return decode_sample(p, len, src, ids, idx, nids, r);
	case PERF_RECORD_COMM:
		return decode_comm(p, len, h.misc, r);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return decode_task(p, len, h.type, r);
	case PERF_RECORD_LOST:
		return decode_lost(p, len, r);
	case PERF_RECORD_MMAP2:
		return decode_mmap2(p, len, r);
	default:
		return 0;
	}
}

void record_release(struct record *r)
{
	free(r->file);
	r->file = NULL;
}

static int by_time(const void *a, const void *b)
{
	const struct record *x = a, *y = b;

	if (x->s.time != y->s.time)
		return x->s.time < y->s.time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* ring order */
}

size_t records_release(struct record *recs, size_t n, uint64_t horizon,
		       void (*fn)(const struct record *, void *), void *arg)
{
	size_t i, done;

	/*
	 * Mostly in order already (one busy CPU writes in time order): then
	 * no sort. qsort is not stable; the comparison falls back on
	 * reading order.
	 */
	for (i = 1; i < n && by_time(&recs[i - 1], &recs[i]) <= 0; i++)
		;
	if (i < n)
		qsort(recs, n, sizeof(*recs), by_time);
	for (done = 0; done < n && recs[done].s.time <= horizon; done++) {
		fn(&recs[done], arg);
		record_release(&recs[done]);
	}
	return done;
}
