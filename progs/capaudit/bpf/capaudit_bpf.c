/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Counting a command's capability checks in the kernel: the programs of
 * capaudit.bpf.c, loaded through the light skeleton bpftool generates
 * from them (capaudit.lskel.h, in the build tree: no libbpf at run time,
 * only bpf(2)), attached to the raw tracepoints cap_capable,
 * task_newtask, sched_process_exec and signal_generate, and read back at
 * the end as merged samples the tally takes like any other. Raw
 * tracepoints, not perf events: a perf event on a tracepoint costs the
 * check a record built for it, and its close waits for RCU grace periods
 * (about 80 ms each).
 *
 * Why: a perf sample per check costs the checking process 180 to 250 ns
 * (the kernel writes it); a lookup in a kernel map costs a fraction of
 * that. It needs CAP_BPF (or CAP_SYS_ADMIN) as well as CAP_PERFMON, and
 * the initial pid namespace (the programs see global thread ids); where
 * either is missing capaudit reads samples as before.
 */
#define _GNU_SOURCE
#include <errno.h> /* before the skeleton, which uses it */
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
#include "capaudit_follow.h"
#include "capaudit_mapcmd.h"
#include "capaudit_privilege.h"
#include "capaudit_maps.h"
#include "capaudit_skel.h"
#include "number.h"
#include "textfile.h"

/*
 * The generated skeleton casts its constant data to void * and counts
 * bytes between void pointers, which our warnings refuse in our own
 * code; it is bpftool's, so they are off for it alone.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "capaudit.lskel.h"
#pragma GCC diagnostic pop

/* The initial pid namespace's inode number (PROC_PID_INIT_INO). */
#define INIT_PID_NS_INO 0xEFFFFFFCU

enum { PROG_CHECK, PROG_FORK, PROG_EXEC, PROG_SIGNAL, NPROGS };

struct counter {
	struct capaudit_bpf *skel;
	struct follow_table follow; /* the threads followed */
	int link[NPROGS]; /* the raw tracepoints' descriptors, or -1 */
	int attached;
	struct record calibration;
	int calibrated;
	/*
	 * The one counter_probe() loaded, kept for the run rather than
	 * loaded again (some 15 ms: a map of a million buckets, four
	 * programs verified): owned by the struct counting it was probed
	 * for, lent to the first counter_open().
	 */
	int probed, lent;
	/* Programs the kernel skipped before the run, not the command's. */
	uint64_t missed_before[NPROGS];
};

/*
 * Room for a command's threads and distinct runs. CAPAUDIT_BPF_ENTRIES
 * sets it, smaller so tests can fill the tables, or larger (ignored in a
 * program run with privilege it gained); anything but a number from 2
 * to the most is ignored too (number_parse(): a '-' is no negation).
 */
static unsigned table_size(void)
{
	const char *env = caller_getenv("CAPAUDIT_BPF_ENTRIES");
	unsigned long long v;

	if (env == NULL || number_parse(env, 10, COUNTER_TABLE_MAX, &v) != 0 ||
	    v < 2)
		return COUNTER_TABLE_DEFAULT;
	return (unsigned)v;
}

/* The skeleton's functions as skel_load() takes them. */
static void *skel_open(void)
{
	return capaudit_bpf__open();
}

/*
 * The spill table's room: a thread id is below pid_max (the initial pid
 * namespace's, where the programs' ids live), and the table holds one
 * entry per id, so it never needs more. Each entry of room costs the
 * kernel a bucket when the map is created, 16 MB and some 10 ms for a
 * million, so the room a machine's ids can use is all it gets. pid_max
 * raised during a run gives ids beyond it, which may find no room:
 * counted as not followed, as any thread the tables have no room for.
 */
static unsigned follow_size(unsigned entries)
{
	unsigned long long pid_max;
	char text[32];
	ssize_t n;

	n = text_file_read("/proc/sys/kernel/pid_max", text, sizeof(text));
	if (n <= 0)
		return entries;
	if (text[n - 1] == '\n')
		text[n - 1] = '\0';
	if (number_parse(text, 10, UINT32_MAX, &pid_max) != 0 || pid_max < 2 ||
	    pid_max >= entries)
		return entries;
	return (unsigned)pid_max;
}

/*
 * Before the load: capaudit's own process id (the signal program leaves
 * its signals out) and the tables' room. The direct table's is a power
 * of two, its entries found at a thread id's low bits: as many as the
 * machine's ids where they are few (no two ids meet there then), up to
 * DIRECT_TABLE_MAX (8 MiB, allocated whole) where they are many.
 */
static void skel_prepare(void *p, const void *arg)
{
	struct capaudit_bpf *skel = p;
	unsigned entries = table_size();
	unsigned follow = follow_size(entries);
	unsigned direct = follow_direct_entries(follow);

	(void)arg;
	skel->rodata->self_tgid = (__u32)getpid();
	skel->rodata->direct_mask = direct - 1;
	skel->maps.capaudit_direct.max_entries = direct;
	skel->maps.capaudit_follow.max_entries = follow;
	skel->maps.capaudit_totals.max_entries = entries;
}

static int skel_load_it(void *p)
{
	return capaudit_bpf__load(p);
}

static void skel_destroy(void *p)
{
	capaudit_bpf__destroy(p);
}

static const struct skel_kind capaudit_kind = {
	"the programs", skel_open, skel_prepare, skel_load_it, skel_destroy,
};

static int totals_fd(const struct counter *c)
{
	return c->skel->maps.capaudit_totals.map_fd;
}

static int stats_fd(const struct counter *c)
{
	return c->skel->maps.capaudit_stats.map_fd;
}

static int prog_fd(const struct counter *c, int p)
{
	const struct bpf_prog_desc *d[NPROGS] = {
		[PROG_CHECK] = &c->skel->progs.capaudit_check,
		[PROG_FORK] = &c->skel->progs.capaudit_fork,
		[PROG_EXEC] = &c->skel->progs.capaudit_exec,
		[PROG_SIGNAL] = &c->skel->progs.capaudit_signal,
	};

	return d[p]->prog_fd;
}

static uint64_t stat_read(const struct counter *c, enum counter_stat which)
{
	uint64_t v = 0; /* the kernel writes it, unseen by the compiler */
	uint32_t key = which;

	if (map_lookup(stats_fd(c), &key, &v) < 0)
		return 0;
	return v;
}

/*
 * Closes the raw tracepoints: the programs run no more from now on
 * (one may still be finishing: wait_programs_done()). Through our own
 * copies of the descriptors, cleared in the skeleton: its destroy
 * closes them again otherwise, whatever took their numbers since.
 */
static void detach_progs(struct counter *c)
{
	int p;

	for (p = 0; p < NPROGS; p++) {
		if (c->link[p] >= 0)
			close(c->link[p]);
		c->link[p] = -1;
	}
	c->skel->links.capaudit_check_fd = 0;
	c->skel->links.capaudit_fork_fd = 0;
	c->skel->links.capaudit_exec_fd = 0;
	c->skel->links.capaudit_signal_fd = 0;
}

/*
 * Fork and exec first: no thread may be created unseen once seeded.
 * Each program's own attach, in that order, rather than the skeleton's
 * (which attaches in the order of the source).
 */
static int attach_progs(struct counter *c, char *why, size_t whylen)
{
	static const struct {
		int prog;
		const char *tracepoint;
		int (*attach)(struct capaudit_bpf *);
	} order[NPROGS] = {
		{ PROG_FORK, "task_newtask",
		  capaudit_bpf__capaudit_fork__attach },
		{ PROG_EXEC, "sched_process_exec",
		  capaudit_bpf__capaudit_exec__attach },
		{ PROG_CHECK, "cap_capable",
		  capaudit_bpf__capaudit_check__attach },
		{ PROG_SIGNAL, "signal_generate",
		  capaudit_bpf__capaudit_signal__attach },
	};
	int i;

	for (i = 0; i < NPROGS; i++) {
		int fd = order[i].attach(c->skel);

		if (fd < 0) {
			snprintf(why, whylen,
				 "attaching to the raw tracepoint %s: %s",
				 order[i].tracepoint, strerror(errno));
			return -1;
		}
		c->link[order[i].prog] = fd;
	}
	c->attached = 1;
	return 0;
}

/* 1 when capaudit runs in the initial pid namespace (the programs' ids). */
static int pidns_initial(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 &&
	       st.st_ino == INIT_PID_NS_INO;
}

const char *counter_not_built(void)
{
	return NULL;
}

static struct counter *counter_load(char *why, size_t whylen)
{
	struct counter *c;
	int p, saved;

	if (!pidns_initial()) {
		snprintf(
			why, whylen,
			"capaudit runs in a pid namespace other than the initial one");
		errno = EPERM;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	for (p = 0; p < NPROGS; p++)
		c->link[p] = -1;
	c->skel = skel_load(&capaudit_kind, NULL, why, whylen);
	if (c->skel != NULL &&
	    follow_table_open(&c->follow, c->skel->maps.capaudit_direct.map_fd,
			      c->skel->maps.capaudit_direct.max_entries,
			      c->skel->maps.capaudit_follow.map_fd,
			      stats_fd(c)) < 0) {
		snprintf(why, whylen, "mapping the direct follow table: %s",
			 strerror(errno));
	} else if (c->skel != NULL && attach_progs(c, why, whylen) == 0) {
		return c;
	}
	saved = errno;
	counter_close(c);
	errno = saved;
	return NULL;
}

static uint64_t recursion_misses(const struct counter *c, int p)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)prog_fd(c, p);
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)) < 0)
		return 0;
	return info.recursion_misses;
}

/*
 * The probe's counter, for a run: what it counted until now was not the
 * command's (the calibration's check, a signal to capaudit), so those
 * counts start again from here.
 */
static void lend_probed(struct counter *c)
{
	static const enum counter_stat counts[] = { STAT_LOST, STAT_UNFOLLOWED,
						    STAT_SIGNALS };
	uint64_t zero = 0;
	size_t i;
	int p;

	c->lent = 1;
	c->calibrated = 0;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint32_t key = counts[i];

		map_update(stats_fd(c), &key, &zero, BPF_ANY);
	}
	for (p = 0; p < NPROGS; p++)
		c->missed_before[p] = recursion_misses(c, p);
}

struct counter *counter_open(const struct counting *cfg, char *why,
			     size_t whylen)
{
	struct counter *kept = cfg->probed;

	if (kept != NULL && !kept->lent && kept->skel != NULL) {
		lend_probed(kept);
		return kept;
	}
	return counter_load(why, whylen);
}

int counter_follow(struct counter *c, pid_t tid)
{
	return follow_table_add(&c->follow, (uint32_t)tid,
				SEED_EPOCH + (uint32_t)tid);
}

int counter_unfollow(struct counter *c, pid_t tid)
{
	return follow_table_drop(&c->follow, (uint32_t)tid, 0);
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

static void follow_record(const struct follow_run *v, struct record *r)
{
	as_record(v->pid_tgid, v->cred, v->target_ns, v->capable_ns, v->capret,
		  v->count, v->first, v->first, r);
}

/* What STAT_MISMATCH's bits say, into why. */
static void say_mismatch(uint64_t bits, char *why, size_t whylen)
{
	static const struct {
		uint64_t bit;
		const char *what;
	} parts[] = {
		{ MISMATCH_CAP_CAPABLE,
		  "the arguments of the raw tracepoint cap_capable" },
		{ MISMATCH_TASK_NEWTASK,
		  "the arguments of the raw tracepoint task_newtask" },
		{ MISMATCH_SCHED_PROCESS_EXEC,
		  "the arguments of the raw tracepoint sched_process_exec" },
		{ MISMATCH_SIGNAL_GENERATE,
		  "the arguments of the raw tracepoint signal_generate" },
		{ MISMATCH_TASK_PID, "task_struct.pid (a 4-byte integer)" },
		{ MISMATCH_TASK_TGID, "task_struct.tgid (a 4-byte integer)" },
		{ MISMATCH_TASK_REAL_CRED,
		  "task_struct.real_cred (a pointer)" },
		{ MISMATCH_SIGINFO_CODE,
		  "kernel_siginfo.si_code (a 4-byte integer)" },
		{ MISMATCH_TASK_STACK, "task_struct.stack (a pointer)" },
	};
	size_t i, used;

	snprintf(
		why, whylen,
		"the running kernel's BTF differs from what the programs read (they count nothing there):");
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(bits & parts[i].bit))
			continue;
		used = strlen(why);
		snprintf(why + used, whylen - used, "%s %s",
			 why[used - 1] == ':' ? "" : ",", parts[i].what);
	}
}

int counter_calibrate(struct counter *c, void (*check)(void), char *why,
		      size_t whylen)
{
	uint32_t key = (uint32_t)syscall(SYS_gettid);
	const struct follow_run *run;
	struct follow_val v;
	uint64_t mismatch, checks = 0;
	int rc, i;

	if (counter_follow(c, (pid_t)key) < 0) {
		snprintf(why, whylen, "following capaudit's own check: %s",
			 strerror(errno));
		return -1;
	}
	check();
	memset(&v, 0, sizeof(v));
	rc = follow_table_read(&c->follow, key, &v);
	for (i = 0; i < FOLLOW_RUNS; i++)
		checks += v.run[i].count;
	run = &v.run[v.latest % FOLLOW_RUNS]; /* the run of the latest check */
	/*
	 * Never left followed: what capaudit forks later is not the
	 * command's. Its own entry, which this thread alone counts in, is
	 * free again.
	 */
	follow_table_drop(&c->follow, key, 1);
	mismatch = stat_read(c, STAT_MISMATCH);
	if (mismatch != 0) {
		say_mismatch(mismatch, why, whylen);
		errno = EPROTO;
		return -1;
	}
	/*
	 * The check is setuid(2)'s CAP_SETUID, granted or refused, under
	 * the thread's own credential: anything else means the raw
	 * tracepoint's arguments are not where the program reads them, and
	 * no count could be trusted. (The kernel vouched for their number
	 * and kinds, not for which struct each points to: a credential
	 * read where a namespace is would not be the thread's own.)
	 */
	if (rc < 0 || checks != 1 || run->count != 1 ||
	    (uint32_t)run->capret != CAP_SETUID ||
	    ((int32_t)(run->capret >> 32) != 0 &&
	     (int32_t)(run->capret >> 32) != -EPERM) ||
	    run->cred == 0 || (run->cred & CRED_LENT) || run->target_ns == 0) {
		snprintf(
			why, whylen,
			"the program misread cap_capable's arguments (its own check came out as something else)");
		errno = EPROTO;
		return -1;
	}
	follow_record(run, &c->calibration);
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

struct pushing {
	int (*push)(const struct record *, void *);
	void *arg;
};

/* A followed thread's runs, each as a record. */
static int push_runs(const struct follow_val *v, void *arg)
{
	const struct pushing *p = arg;
	struct record r;
	int i;

	for (i = 0; i < FOLLOW_RUNS; i++) {
		if (v->run[i].count == 0)
			continue;
		follow_record(&v->run[i], &r);
		if (p->push(&r, p->arg) < 0)
			return -1;
	}
	return 0;
}

static int collect_follow(struct counter *c,
			  int (*push)(const struct record *, void *), void *arg)
{
	struct pushing p = { push, arg };

	return follow_table_each(&c->follow, push_runs, &p);
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

	while (map_next(totals_fd(c), first ? NULL : &key, &next) == 0) {
		first = 0;
		key = next;
		if (map_lookup(totals_fd(c), &key, &v) < 0 || v.count == 0)
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
	uint64_t missed;
	int p;

	memset(lost, 0, sizeof(*lost));
	detach_progs(c);
	if (c->attached)
		wait_programs_done();
	c->attached = 0;
	/*
	 * A program the kernel skipped (it was already running on that CPU,
	 * in an interrupted context) lost a check, or a thread to follow;
	 * a signal the signal program missed may have been one from
	 * outside.
	 */
	for (p = 0; p < NPROGS; p++) {
		missed = recursion_misses(c, p) - c->missed_before[p];
		if (p == PROG_CHECK)
			lost->checks += missed;
		else if (p == PROG_SIGNAL)
			lost->signals += missed;
		else
			lost->threads += missed;
	}
	lost->checks += stat_read(c, STAT_LOST);
	lost->threads += stat_read(c, STAT_UNFOLLOWED);
	lost->signals += stat_read(c, STAT_SIGNALS);
	if (c->calibrated && push(&c->calibration, arg) < 0)
		return -1;
	if (collect_follow(c, push, arg) < 0 ||
	    collect_totals(c, push, arg) < 0)
		return -1;
	return 0;
}

int counter_probe(struct counting *cfg, void (*check)(void))
{
	struct counter *c = counter_load(cfg->why, sizeof(cfg->why));

	if (c == NULL)
		return -1;
	if (counter_calibrate(c, check, cfg->why, sizeof(cfg->why)) < 0) {
		counter_close(c);
		return -1;
	}
	/* Kept, loaded and attached, for the run (counter_open()). */
	c->probed = 1;
	cfg->probed = c;
	cfg->usable = 1;
	return 0;
}

/* Everything the kernel holds for c: programs, links and maps. */
static void unload(struct counter *c)
{
	if (c->skel == NULL)
		return;
	detach_progs(c);
	follow_table_close(&c->follow);
	capaudit_bpf__destroy(c->skel);
	c->skel = NULL;
	c->attached = 0;
}

void counter_close(struct counter *c)
{
	if (c == NULL)
		return;
	unload(c);
	/* The probe's stays for counting_release(), which frees it. */
	if (!c->probed)
		free(c);
}

void counting_release(struct counting *cfg)
{
	struct counter *c = cfg->probed;

	cfg->probed = NULL;
	if (c == NULL)
		return;
	unload(c);
	free(c);
}
