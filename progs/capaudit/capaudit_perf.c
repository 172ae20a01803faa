/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The perf events capaudit reads: one per CPU (and per thread of an
 * attached process, and per probe), inherited by every child the target
 * creates, written into as few ring buffers as the kernel allows, and
 * read back in time order.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capaudit.h"

#define DATA_PAGES 64		/* per ring buffer: 256 KiB with 4 KiB pages */

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t size;		/* of data, a power of two */
	size_t map_len;
};

struct sentinel {
	int fd, cpu;
};

struct tracer {
	const struct source *src;
	struct sentinel *sentinels;
	size_t nsentinels;
	int *fds;
	uint64_t *ids;
	int *idx;
	size_t nfds, fds_size;
	struct ring *rings;
	size_t nrings, rings_size;
	struct record *recs;
	size_t nrecs, recs_size;
	unsigned char tmp[65536];	/* a record that wraps the buffer */
};

static uint64_t sample_type_of(const struct source *src)
{
	uint64_t t = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

	return t | (src->kind == SOURCE_KPROBE_PMU ? PERF_SAMPLE_REGS_INTR
						   : PERF_SAMPLE_RAW);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = reallocarray(*p, n, elem);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/*
 * first: this event also reports names, forks and exits. tid 0 opens
 * capaudit's own sentinel: disabled, not inherited, no side-band.
 */
static int open_event(const struct source *src, int spec, pid_t tid, int cpu,
		      int first)
{
	const struct event_spec *ev = &src->ev[spec];
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config;
	a.config1 = ev->config1;
	a.config2 = ev->config2;
	a.sample_period = 1;
	a.sample_type = sample_type_of(src);
	a.sample_regs_intr = ev->regs;
	a.inherit = 1;
	a.sample_id_all = 1;
	/*
	 * Names, forks and exits once per thread and CPU: the first event of
	 * each pair is enough (the kernel delivers a side-band record to
	 * every event that asks for it).
	 */
	a.comm = a.task = first;
	a.comm_exec = first;
	if (tid == 0) {
		a.inherit = 0;
		a.disabled = 1;
	}
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(DATA_PAGES * (size_t)sysconf(_SC_PAGESIZE) / 4);
	return (int)syscall(SYS_perf_event_open, &a, tid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static int map_ring(struct tracer *t, int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ring *r;
	void *base;

	if (grow((void **)&t->rings, &t->rings_size, t->nrings + 1,
		 sizeof(*t->rings)) < 0)
		return -1;
	base = mmap(NULL, (DATA_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -1;
	r = &t->rings[t->nrings++];
	r->fd = fd;
	r->meta = base;
	r->data = (unsigned char *)base + page;
	r->size = DATA_PAGES * page;
	r->map_len = (DATA_PAGES + 1) * page;
	return 0;
}

/* The threads to follow: pid itself, or every thread of the process. */
static pid_t *list_threads(pid_t pid, int whole, size_t *n)
{
	pid_t *tids = NULL;
	size_t cap = 0;
	char path[64];
	struct dirent *d;
	DIR *dir;

	*n = 0;
	if (!whole) {
		tids = malloc(sizeof(*tids));
		if (tids != NULL) {
			tids[0] = pid;
			*n = 1;
		}
		return tids;
	}
	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	dir = opendir(path);
	if (dir == NULL)
		return NULL;
	while ((d = readdir(dir)) != NULL) {
		char *end;
		long v = strtol(d->d_name, &end, 10);

		if (*end != '\0' || v <= 0)
			continue;
		if (grow((void **)&tids, &cap, *n + 1, sizeof(*tids)) < 0) {
			free(tids);
			closedir(dir);
			return NULL;
		}
		tids[(*n)++] = (pid_t)v;
	}
	closedir(dir);
	if (*n == 0)
		errno = ESRCH;
	return tids;
}

/* Keeps fd with its id; the ring of its CPU takes its output. */
static int add_fd(struct tracer *t, int fd, int spec)
{
	uint64_t id = 0;

	if (grow((void **)&t->fds, &t->fds_size, t->nfds + 1, sizeof(int)) < 0)
		return -1;
	/* ids and idx grow with fds: same capacity. */
	{
		uint64_t *ids = reallocarray(t->ids, t->fds_size, sizeof(*ids));
		int *idx;

		if (ids == NULL)
			return -1;
		t->ids = ids;
		idx = reallocarray(t->idx, t->fds_size, sizeof(*idx));
		if (idx == NULL)
			return -1;
		t->idx = idx;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -1;
	t->fds[t->nfds] = fd;
	t->ids[t->nfds] = id;
	t->idx[t->nfds] = spec;
	t->nfds++;
	return 0;
}

/*
 * The kernel says it lost records (PERF_RECORD_LOST) only in the next
 * record it manages to write into that buffer. After the command's last
 * check there may be no next record: a loss at the end would go unsaid.
 * So each CPU's buffer also takes the same event on capaudit itself,
 * disabled until tracer_flush() makes one check on every CPU.
 */
static int open_sentinels(struct tracer *t, int ncpu)
{
	size_t r;
	int cpu;

	t->sentinels = calloc((size_t)ncpu, sizeof(*t->sentinels));
	if (t->sentinels == NULL)
		return -1;
	for (cpu = 0; cpu < ncpu; cpu++) {
		int fd = open_event(t->src, 0, 0, cpu, 0);

		if (fd < 0 && errno == ENODEV)
			continue;
		if (fd < 0)
			return -1;
		/* The ring of that CPU is the one that takes it. */
		for (r = 0; r < t->nrings; r++)
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, t->rings[r].fd) == 0)
				break;
		if (r == t->nrings) {
			close(fd);
			continue;	/* no buffer on that CPU: nothing to lose */
		}
		t->sentinels[t->nsentinels].fd = fd;
		t->sentinels[t->nsentinels].cpu = cpu;
		t->nsentinels++;
	}
	return 0;
}

void tracer_flush(struct tracer *t)
{
	long page = sysconf(_SC_PAGESIZE);
	cpu_set_t old, one;
	size_t i;
	void *p;

	if (sched_getaffinity(0, sizeof(old), &old) < 0)
		return;
	for (i = 0; i < t->nsentinels; i++) {
		CPU_ZERO(&one);
		CPU_SET(t->sentinels[i].cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0)
			continue;
		ioctl(t->sentinels[i].fd, PERF_EVENT_IOC_ENABLE, 0);
		/*
		 * A private writable mapping is accounted, and accounting
		 * always asks cap_capable() about cap_sys_admin (the
		 * overcommit reserve): one check, and so one record.
		 */
		p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, (size_t)page);
		ioctl(t->sentinels[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

struct tracer *tracer_open(const struct source *src, pid_t pid,
			   int whole_process, FILE *err)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct tracer *t = calloc(1, sizeof(*t));
	size_t ntids = 0, i;
	pid_t *tids;
	int cpu, spec, opened = 0;

	if (t == NULL) {
		fprintf(err, "%s: %s\n", PROG, strerror(ENOMEM));
		return NULL;
	}
	t->src = src;
	tids = list_threads(pid, whole_process, &ntids);
	if (tids == NULL || ntids == 0) {
		fprintf(err, "%s: process %ld: %s\n", PROG, (long)pid, strerror(errno));
		free(tids);
		tracer_close(t);
		return NULL;
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		int cpu_ring = -1;

		for (i = 0; i < ntids; i++) {
			for (spec = 0; spec < src->nevents; spec++) {
				int fd = open_event(src, spec, tids[i], cpu, spec == 0);

				if (fd < 0 && errno == ENODEV)
					break;	/* this CPU is offline */
				if (fd < 0 && errno == ESRCH && whole_process && ntids > 1)
					break;	/* that thread ended meanwhile */
				if (fd < 0) {
					fprintf(err, "%s: perf_event_open (pid %ld, cpu %d): %s\n",
						PROG, (long)tids[i], cpu, strerror(errno));
					goto fail;
				}
				if (add_fd(t, fd, spec) < 0) {
					close(fd);
					fprintf(err, "%s: perf event: %s\n", PROG, strerror(errno));
					goto fail;
				}
				opened++;
				/*
				 * One ring for everything; the kernel refuses a
				 * buffer of another CPU (EINVAL), and then each
				 * CPU gets its own, merged by time when read.
				 */
				if (t->nrings > 0 &&
				    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, t->rings[0].fd) == 0)
					continue;
				if (cpu_ring >= 0 &&
				    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, cpu_ring) == 0)
					continue;
				if (map_ring(t, fd) < 0) {
					fprintf(err, "%s: mmap of the perf ring buffer: %s\n",
						PROG, strerror(errno));
					goto fail;
				}
				cpu_ring = fd;
			}
		}
	}
	free(tids);
	if (opened == 0) {
		fprintf(err, "%s: no CPU to open perf events on\n", PROG);
		tracer_close(t);
		return NULL;
	}
	if (open_sentinels(t, (int)ncpu) < 0) {
		fprintf(err, "%s: perf_event_open (capaudit itself): %s\n",
			PROG, strerror(errno));
		tracer_close(t);
		return NULL;
	}
	return t;
fail:
	free(tids);
	tracer_close(t);
	return NULL;
}

static uint64_t get_uint(const unsigned char *p, size_t size, int is_signed)
{
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v;

	memcpy(&v, p, size);
	switch (size) {
	case 1: return is_signed ? (uint64_t)(int64_t)(int8_t)v.u8 : v.u8;
	case 2: return is_signed ? (uint64_t)(int64_t)(int16_t)v.u16 : v.u16;
	case 4: return is_signed ? (uint64_t)(int64_t)(int32_t)v.u32 : v.u32;
	default: return v.u64;
	}
}

static int read_field(const unsigned char *raw, uint32_t len,
		      const struct field *f, int *out)
{
	if (f->size == 0 || f->off + f->size > len)
		return 0;
	*out = (int)(int64_t)get_uint(raw + f->off, f->size, f->is_signed);
	return 1;
}

/* A sample: id, pid/tid, time, then the raw tracepoint or kprobe data. */
static int decode_sample(const unsigned char *p, size_t len,
			 const struct source *src, const uint64_t *ids,
			 const int *idx, size_t nids, struct record *r)
{
	size_t need = sizeof(struct perf_event_header) + 8 + 8 + 8;
	uint64_t id, time;
	uint32_t pid_tid[2], rawlen;
	const struct event_spec *ev;
	size_t i;

	if (len < need)
		return -1;
	memcpy(&id, p + 8, 8);
	memcpy(pid_tid, p + 16, 8);
	memcpy(&time, p + 24, 8);
	r->kind = REC_SAMPLE;
	r->s.pid = (pid_t)pid_tid[0];
	r->s.tid = (pid_t)pid_tid[1];
	r->s.time = time;
	for (i = 0; i < nids; i++)
		if (ids[i] == id) {
			r->s.idx = idx[i];
			break;
		}
	if (nids > 0 && i == nids)
		return -1;	/* not one of ours */
	if (r->s.idx < 0 || r->s.idx >= src->nevents)
		return -1;
	ev = &src->ev[r->s.idx];
	if (src->kind == SOURCE_KPROBE_PMU) {
		uint64_t abi, reg;

		if (len < need + 16)
			return -1;
		memcpy(&abi, p + need, 8);
		memcpy(&reg, p + need + 8, 8);
		if (abi == 0)
			return -1;	/* PERF_SAMPLE_REGS_ABI_NONE */
		if (ev->role == ROLE_ENTRY) {
			r->s.cap = (int)(int32_t)reg;
			r->s.have_cap = 1;
		} else {
			r->s.ret = (int)(int32_t)reg;
			r->s.have_ret = 1;
		}
		return 0;
	}
	if (len < need + 4)
		return -1;
	memcpy(&rawlen, p + need, 4);
	if (rawlen > len - need - 4)
		return -1;
	r->s.have_cap = ev->role != ROLE_RETURN &&
			read_field(p + need + 4, rawlen, &ev->cap, &r->s.cap);
	r->s.have_ret = ev->role != ROLE_ENTRY &&
			read_field(p + need + 4, rawlen, &ev->ret, &r->s.ret);
	if (ev->role == ROLE_CHECK && !(r->s.have_cap && r->s.have_ret))
		return -1;
	return 0;
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
	default:
		return 0;
	}
}

static int push_record(struct tracer *t, const struct record *r)
{
	if (grow((void **)&t->recs, &t->recs_size, t->nrecs + 1, sizeof(*r)) < 0)
		return -1;
	t->recs[t->nrecs] = *r;
	t->recs[t->nrecs].seq = t->nrecs;
	t->nrecs++;
	return 0;
}

/* Reads every complete record of one ring; the kernel may write on. */
static int read_ring(struct tracer *t, struct ring *ring)
{
	uint64_t head = __atomic_load_n(&ring->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ring->meta->data_tail;
	int rc = 0;

	while (tail < head) {
		size_t off = (size_t)(tail & (ring->size - 1));
		struct perf_event_header h;
		const unsigned char *rec;
		struct record r;

		if (off + sizeof(h) <= ring->size) {
			memcpy(&h, ring->data + off, sizeof(h));
		} else {
			size_t first = ring->size - off;

			memcpy(&h, ring->data + off, first);
			memcpy((unsigned char *)&h + first, ring->data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* cannot happen; never loop on it */
		if (off + h.size <= ring->size) {
			rec = ring->data + off;
		} else {
			size_t first = ring->size - off;

			memcpy(t->tmp, ring->data + off, first);
			memcpy(t->tmp + first, ring->data, h.size - first);
			rec = t->tmp;
		}
		if (record_decode(rec, h.size, t->src, t->ids, t->idx, t->nfds, &r) == 0 &&
		    r.kind != REC_OTHER && push_record(t, &r) < 0)
			rc = -1;
		tail += h.size;
	}
	__atomic_store_n(&ring->meta->data_tail, tail, __ATOMIC_RELEASE);
	return rc;
}

static int by_time(const void *a, const void *b)
{
	const struct record *x = a, *y = b;

	if (x->s.time != y->s.time)
		return x->s.time < y->s.time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;	/* ring order */
}

int tracer_drain(struct tracer *t, int timeout_ms,
		 void (*fn)(const struct record *, void *), void *arg)
{
	struct pollfd pfd[64];
	size_t i, n = t->nrings < 64 ? t->nrings : 64;
	int rc = 0;

	for (i = 0; i < n; i++) {
		pfd[i].fd = t->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	if (timeout_ms > 0 && poll(pfd, (nfds_t)n, timeout_ms) < 0 && errno != EINTR)
		return -1;
	t->nrecs = 0;
	for (i = 0; i < t->nrings; i++)
		if (read_ring(t, &t->rings[i]) < 0)
			rc = -1;
	/* qsort is not stable; the comparison falls back on reading order. */
	if (t->nrings > 1)
		qsort(t->recs, t->nrecs, sizeof(*t->recs), by_time);
	for (i = 0; i < t->nrecs; i++)
		fn(&t->recs[i], arg);
	return rc;
}

void tracer_close(struct tracer *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrings; i++)
		munmap(t->rings[i].meta, t->rings[i].map_len);
	for (i = 0; i < t->nsentinels; i++)
		close(t->sentinels[i].fd);
	free(t->sentinels);
	for (i = 0; i < t->nfds; i++)
		close(t->fds[i]);
	free(t->fds);
	free(t->ids);
	free(t->idx);
	free(t->rings);
	free(t->recs);
	free(t);
}
