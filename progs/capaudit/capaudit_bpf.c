/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Counting a command's capability checks in the kernel: the maps and the
 * programs of capaudit_bpf_text.c, loaded with bpf(2) and attached to
 * the raw tracepoints cap_capable, task_newtask and
 * sched_process_exec, and read back at the end as merged samples the
 * tally takes like any other. Raw tracepoints, not perf events: a perf
 * event on a tracepoint costs the check a record built for it, and its
 * close waits for RCU grace periods (about 80 ms each).
 *
 * Why: a perf sample per check costs the checking process 180 to 250 ns
 * (the kernel writes it); a lookup in a kernel map costs a fraction of
 * that. It needs CAP_BPF (or CAP_SYS_ADMIN) as well as CAP_PERFMON, and
 * the initial pid namespace (the programs see global thread ids); where
 * either is missing capaudit reads samples as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capaudit_counting.h"
#include "capaudit_decode.h"
#include "capaudit_privilege.h"
#include "capaudit_bpf.h"
#include "capaudit_verifier.h"

/*
 * Room for a command's threads and distinct runs. Entries are allocated
 * as they are used (BPF_F_NO_PREALLOC), so a large table costs nothing
 * until a command fills it; what finds no room is counted, never
 * dropped in silence. CAPAUDIT_BPF_ENTRIES makes both smaller, so tests
 * can fill them (ignored in a program run with privilege it gained).
 */
#define TABLE_MAX (1U << 20)

static unsigned table_size(void)
{
	const char *env = caller_getenv("CAPAUDIT_BPF_ENTRIES");
	unsigned long v;
	char *end;

	if (env == NULL || *env == '\0')
		return TABLE_MAX;
	errno = 0;
	v = strtoul(env, &end, 10);
	if (errno != 0 || *end != '\0' || v < 2 || v > TABLE_MAX)
		return TABLE_MAX;
	return (unsigned)v;
}

/* The initial pid namespace's inode number (PROC_PID_INIT_INO). */
#define INIT_PID_NS_INO 0xEFFFFFFCU

/* Seeded threads' epochs: above any the programs hand out. */
#define SEED_EPOCH (1ULL << 62)

enum { PROG_CHECK, PROG_FORK, PROG_EXEC, PROG_SIGNAL, NPROGS };

struct counter {
	struct counter_maps maps;
	int prog[NPROGS];
	int link[NPROGS]; /* the raw tracepoints' descriptors */
	int attached;
	struct record calibration;
	int calibrated;
};

static int sys_bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int map_create(enum bpf_map_type type, size_t key, size_t val,
		      unsigned max, unsigned flags, const char *name)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = (uint32_t)key;
	a.value_size = (uint32_t)val;
	a.max_entries = max;
	a.map_flags = flags;
	snprintf(a.map_name, sizeof(a.map_name), "%s", name);
	return sys_bpf(BPF_MAP_CREATE, &a);
}

/*
 * Loads one program. A refusal is loaded again with the verifier's log,
 * whose reason and place go into why (capaudit_verifier.c): what the
 * kernel disliked, not the statistics it ends with.
 */
static int prog_load(enum bpf_prog_type type, const struct bpf_text *t,
		     const char *name, char *why, size_t whylen)
{
	static char log[16384];
	char reason[240];
	union bpf_attr a;
	int fd, saved;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.insns = (uint64_t)(uintptr_t)t->insn;
	a.insn_cnt = (uint32_t)t->n;
	a.license = (uint64_t)(uintptr_t) "Dual BSD/GPL";
	snprintf(a.prog_name, sizeof(a.prog_name), "%s", name);
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd >= 0)
		return fd;
	saved = errno;
	log[0] = '\0';
	a.log_level = 1;
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	if (sys_bpf(BPF_PROG_LOAD, &a) >= 0 || log[0] == '\0') {
		snprintf(why, whylen, "loading %s: %s", name, strerror(saved));
		errno = saved;
		return -1;
	}
	if (verifier_reason(log, reason, sizeof(reason)) < 0)
		snprintf(reason, sizeof(reason), "no reason in its log");
	snprintf(why, whylen, "loading %s: %s (the verifier: %s)", name,
		 strerror(saved), reason);
	errno = saved;
	return -1;
}

static int raw_tracepoint(const char *name, int prog)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t)name;
	a.raw_tracepoint.prog_fd = (uint32_t)prog;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
}

/*
 * One element command: LOOKUP (val: out), UPDATE (val: in, flags),
 * DELETE, GET_NEXT_KEY (key NULL: the first; val: the next key out).
 */
static int map_elem(enum bpf_cmd cmd, int map, const void *key, const void *val,
		    uint64_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)val; /* shared with next_key */
	a.flags = flags;
	return sys_bpf(cmd, &a);
}

#define map_lookup(map, key, val) \
	map_elem(BPF_MAP_LOOKUP_ELEM, map, key, val, 0)
#define map_update(map, key, val, flags) \
	map_elem(BPF_MAP_UPDATE_ELEM, map, key, val, flags)
#define map_delete(map, key) map_elem(BPF_MAP_DELETE_ELEM, map, key, NULL, 0)
#define map_next(map, key, next) \
	map_elem(BPF_MAP_GET_NEXT_KEY, map, key, next, 0)

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static struct counter *counter_new(void)
{
	struct counter *c = calloc(1, sizeof(*c));
	int i;

	if (c == NULL)
		return NULL;
	c->maps.follow = c->maps.totals = c->maps.stats = -1;
	for (i = 0; i < NPROGS; i++)
		c->prog[i] = c->link[i] = -1;
	return c;
}

static int create_maps(struct counter *c, char *why, size_t whylen)
{
	c->maps.follow = map_create(BPF_MAP_TYPE_HASH, sizeof(uint32_t),
				    sizeof(struct follow_val), table_size(),
				    BPF_F_NO_PREALLOC, "capaudit_follow");
	if (c->maps.follow >= 0)
		c->maps.totals =
			map_create(BPF_MAP_TYPE_HASH, sizeof(struct total_key),
				   sizeof(struct total_val), table_size(),
				   BPF_F_NO_PREALLOC, "capaudit_totals");
	if (c->maps.totals >= 0)
		c->maps.stats = map_create(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t),
					   sizeof(uint64_t), NSTATS, 0,
					   "capaudit_stats");
	if (c->maps.stats >= 0)
		return 0;
	snprintf(why, whylen, "creating its maps: %s", strerror(errno));
	return -1;
}

static int load_progs(struct counter *c, const struct counter_layout *lay,
		      char *why, size_t whylen)
{
	static struct bpf_text text; /* large: not on the stack */

	if (text_check(&text, &c->maps, lay) < 0)
		goto too_long;
	c->prog[PROG_CHECK] = prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, &text,
					"capaudit_check", why, whylen);
	if (c->prog[PROG_CHECK] < 0)
		return -1;
	if (text_fork(&text, &c->maps, lay) < 0)
		goto too_long;
	c->prog[PROG_FORK] = prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, &text,
				       "capaudit_fork", why, whylen);
	if (c->prog[PROG_FORK] < 0)
		return -1;
	if (text_exec(&text, &c->maps) < 0)
		goto too_long;
	c->prog[PROG_EXEC] = prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, &text,
				       "capaudit_exec", why, whylen);
	if (c->prog[PROG_EXEC] < 0)
		return -1;
	if (text_signal(&text, &c->maps, lay, (uint32_t)getpid()) < 0)
		goto too_long;
	c->prog[PROG_SIGNAL] = prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, &text,
					 "capaudit_signal", why, whylen);
	return c->prog[PROG_SIGNAL] < 0 ? -1 : 0;
too_long:
	snprintf(why, whylen, "a program did not fit its buffer");
	errno = E2BIG;
	return -1;
}

/* Fork and exec first: no thread may be created unseen once seeded. */
static int attach_progs(struct counter *c, char *why, size_t whylen)
{
	static const char *const name[NPROGS] = {
		[PROG_CHECK] = "cap_capable",
		[PROG_FORK] = "task_newtask",
		[PROG_EXEC] = "sched_process_exec",
		[PROG_SIGNAL] = "signal_generate",
	};
	static const int order[NPROGS] = { PROG_FORK, PROG_EXEC, PROG_CHECK,
					   PROG_SIGNAL };
	int i;

	for (i = 0; i < NPROGS; i++) {
		int p = order[i];

		c->link[p] = raw_tracepoint(name[p], c->prog[p]);
		if (c->link[p] < 0) {
			snprintf(why, whylen,
				 "attaching to the raw tracepoint %s: %s",
				 name[p], strerror(errno));
			return -1;
		}
	}
	c->attached = 1;
	return 0;
}

int counter_pidns_initial(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 &&
	       st.st_ino == INIT_PID_NS_INO;
}

struct counter *counter_open(const struct counting *cfg, char *why,
			     size_t whylen)
{
	struct counter *c;

	if (!counter_pidns_initial()) {
		snprintf(why, whylen,
			 "capaudit runs in a pid namespace other than the "
			 "initial one");
		errno = EPERM;
		return NULL;
	}
	c = counter_new();
	if (c == NULL) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	if (create_maps(c, why, whylen) < 0 ||
	    load_progs(c, &cfg->layout, why, whylen) < 0 ||
	    attach_progs(c, why, whylen) < 0) {
		int saved = errno;

		counter_close(c);
		errno = saved;
		return NULL;
	}
	return c;
}

int counter_follow(struct counter *c, pid_t tid)
{
	struct follow_val v;
	uint32_t key = (uint32_t)tid;

	memset(&v, 0, sizeof(v));
	v.epoch = SEED_EPOCH + key;
	return map_update(c->maps.follow, &key, &v, BPF_ANY);
}

int counter_unfollow(struct counter *c, pid_t tid)
{
	uint32_t key = (uint32_t)tid;

	if (map_delete(c->maps.follow, &key) < 0 && errno != ENOENT)
		return -1;
	return 0;
}

/* A run or a total as the sample it stands for. */
static void as_record(uint64_t pid_tgid, uint64_t cred, uint64_t target_ns,
		      uint64_t capable_ns, uint64_t capret, uint64_t count,
		      uint64_t first, uint64_t last, struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = REC_SAMPLE;
	r->s.pid = (pid_t)(pid_tgid >> 32);
	r->s.tid = (pid_t)(uint32_t)pid_tgid;
	r->pid = r->s.pid;
	r->tid = r->s.tid;
	r->s.time = first;
	r->s.idx = 0;
	r->s.have_cap = r->s.have_ret = r->s.have_cred = r->s.have_ns =
		r->s.have_capable_ns = 1;
	r->s.cap = (int)(int32_t)(uint32_t)capret;
	r->s.ret = (int)(int32_t)(uint32_t)(capret >> 32);
	r->s.cred = cred & ~CRED_LENT;
	r->s.lent = (cred & CRED_LENT) ? 1 : 0;
	r->s.target_ns = target_ns;
	r->s.capable_ns = capable_ns;
	r->s.more = count - 1;
	r->s.last = count > 1 ? last : 0;
	r->s.counted = 1;
}

static void follow_record(const struct follow_val *v, struct record *r)
{
	as_record(v->pid_tgid, v->cred, v->target_ns, v->capable_ns, v->capret,
		  v->count, v->first, v->last, r);
}

int counter_calibrate(struct counter *c, void (*check)(void))
{
	uint32_t key = (uint32_t)syscall(SYS_gettid);
	struct follow_val v;
	int rc;

	if (counter_follow(c, (pid_t)key) < 0)
		return -1;
	check();
	rc = map_lookup(c->maps.follow, &key, &v);
	/* Never left followed: what capaudit forks later is not the command's. */
	map_delete(c->maps.follow, &key);
	if (rc < 0)
		return -1;
	/*
	 * The check is setuid(2)'s CAP_SETUID, granted or refused: anything
	 * else means the raw tracepoint's arguments are not where the
	 * program reads them, and no count could be trusted.
	 */
	if (v.count != 1 || (uint32_t)v.capret != CAP_SETUID ||
	    ((int32_t)(v.capret >> 32) != 0 &&
	     (int32_t)(v.capret >> 32) != -EPERM) ||
	    v.cred == 0 || v.target_ns == 0) {
		errno = EPROTO;
		return -1;
	}
	follow_record(&v, &c->calibration);
	c->calibrated = 1;
	return 0;
}

/*
 * Waits until no program can still be running: a detached program may
 * be finishing on another CPU, and an RCU grace period outlasts it.
 */
static void wait_programs_done(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) < 0)
		nanosleep(&ts, NULL);
}

static uint64_t recursion_misses(int prog)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		return 0;
	return info.recursion_misses;
}

static int collect_follow(struct counter *c,
			  int (*push)(const struct record *, void *), void *arg)
{
	/* Zero first: the kernel writes next, which no compiler can see. */
	uint32_t key = 0, next = 0;
	struct follow_val v;
	struct record r;
	int first = 1;

	while (map_next(c->maps.follow, first ? NULL : &key, &next) == 0) {
		first = 0;
		key = next;
		if (map_lookup(c->maps.follow, &key, &v) < 0 || v.count == 0)
			continue;
		follow_record(&v, &r);
		if (push(&r, arg) < 0)
			return -1;
	}
	return 0;
}

static int collect_totals(struct counter *c,
			  int (*push)(const struct record *, void *), void *arg)
{
	struct total_key key, next;
	struct total_val v;
	struct record r;
	int first = 1;

	/* Zero first: the kernel writes next, which no compiler can see. */
	memset(&key, 0, sizeof(key));
	memset(&next, 0, sizeof(next));

	while (map_next(c->maps.totals, first ? NULL : &key, &next) == 0) {
		first = 0;
		key = next;
		if (map_lookup(c->maps.totals, &key, &v) < 0 || v.count == 0)
			continue;
		as_record(key.pid_tgid, key.cred, key.target_ns, key.capable_ns,
			  key.capret, v.count, v.first, v.last, &r);
		if (push(&r, arg) < 0)
			return -1;
	}
	return 0;
}

int counter_collect(struct counter *c,
		    int (*push)(const struct record *, void *), void *arg,
		    struct counter_losses *lost)
{
	uint64_t stat = 0; /* the kernel writes it, unseen by the compiler */
	uint32_t i;
	int p;

	memset(lost, 0, sizeof(*lost));
	for (p = 0; p < NPROGS; p++)
		close_fd(&c->link[p]);
	if (c->attached)
		wait_programs_done();
	c->attached = 0;
	/*
	 * A program the kernel skipped (it was already running on that CPU,
	 * in an interrupted context) lost a check, or a thread to follow.
	 */
	for (p = 0; p < NPROGS; p++)
		if (c->prog[p] >= 0 && p != PROG_SIGNAL)
			*(p == PROG_CHECK ? &lost->checks : &lost->threads) +=
				recursion_misses(c->prog[p]);
	/* A signal the program missed may have been one from outside. */
	if (c->prog[PROG_SIGNAL] >= 0)
		lost->signals += recursion_misses(c->prog[PROG_SIGNAL]);
	i = STAT_LOST;
	if (map_lookup(c->maps.stats, &i, &stat) == 0)
		lost->checks += stat;
	i = STAT_UNFOLLOWED;
	if (map_lookup(c->maps.stats, &i, &stat) == 0)
		lost->threads += stat;
	i = STAT_SIGNALS;
	if (map_lookup(c->maps.stats, &i, &stat) == 0)
		lost->signals += stat;
	if (c->calibrated && push(&c->calibration, arg) < 0)
		return -1;
	if (collect_follow(c, push, arg) < 0 ||
	    collect_totals(c, push, arg) < 0)
		return -1;
	return 0;
}

int counter_probe(struct counting *cfg, void (*check)(void))
{
	struct counter *c = counter_open(cfg, cfg->why, sizeof(cfg->why));

	if (c == NULL)
		return -1;
	if (counter_calibrate(c, check) < 0) {
		snprintf(cfg->why, sizeof(cfg->why),
			 "the program misread cap_capable's arguments (its "
			 "own check came out as something else)");
		counter_close(c);
		return -1;
	}
	counter_close(c);
	cfg->usable = 1;
	return 0;
}

void counter_close(struct counter *c)
{
	int p;

	if (c == NULL)
		return;
	for (p = 0; p < NPROGS; p++) {
		close_fd(&c->link[p]);
		close_fd(&c->prog[p]);
	}
	close_fd(&c->maps.follow);
	close_fd(&c->maps.totals);
	close_fd(&c->maps.stats);
	free(c);
}
