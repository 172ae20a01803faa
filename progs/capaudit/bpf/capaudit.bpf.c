/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The eBPF programs that count a command's capability checks in the
 * kernel, on BTF-typed raw tracepoints (tp_btf: the kernel hands them its
 * own pointers, typed, so a field is read by a plain load, not a helper
 * call); compiled by clang, loaded by capaudit_bpf.c through the light
 * skeleton bpftool generates from them.
 *
 * check: on every cap_capable() in the system. A thread not followed
 *   returns at once. A followed thread keeps its FOLLOW_RUNS
 *   latest runs of identical checks in place; a check that repeats one
 *   of them (same credential, namespaces, capability, result and ids;
 *   the credential marked when it is not the thread's own) only counts;
 *   any other check first moves the run used least lately into the
 *   totals map, keyed by everything that tells checks apart, then starts
 *   a new run there, stamped with the time. So a loop of two checks in
 *   turn counts in place as one of one check does; that costs one call
 *   (the thread, bpf_get_current_task_btf()), its follow entry found in
 *   the direct table with no call, a few loads and compares, and an add:
 *   no clock read, for nothing needs a counted run's last check's time
 *   (user space orders a run by its first check, and takes a counted
 *   credential as lent or not by what the program said, never by spans
 *   of time).
 * signal: (signal_generate) a signal a process outside makes the kernel
 *   send a followed thread is counted.
 * fork:  (task_newtask, which every new task passes in the thread that
 *   creates it, io_uring's worker threads too) a followed creator's new
 *   thread or process is followed, with a new epoch; a thread id that
 *   comes back for a process nobody follows drops the stale entry left
 *   by its previous owner (after moving its run), so a recycled id is
 *   never counted. A child whose id cannot be read is counted as not
 *   followed.
 * exec:  the run before the exec is moved, and the thread gets a new
 *   epoch, so no totals key mixes two files. A thread other than the
 *   leader that execs takes the leader's id: its entry moves with it.
 *
 * Only the thread itself touches its entry (fork: before the child can
 * run), so no two programs race on a run; the totals key holds the
 * thread id for the same reason. A thread's entry is in the direct
 * table, at its id's low bits, when that entry was free when it was
 * followed, else in the spill table (capaudit_maps.h, struct follow_val).
 *
 * Every program first asks whether the running kernel is the one it
 * reads (refuse_to_count()); where it is not, it counts nothing and says
 * why in STAT_MISMATCH, which the loader's calibration reports. The
 * check program asks about everything any of them reads before it counts
 * (for a thread not followed, it reads the thread id alone).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "capaudit_kernel.h"
#include "capaudit_maps.h"

/*
 * BPF_PROG() makes each program a function of the tracepoint's arguments
 * and of ctx, which it passes them in; a program uses only some of them.
 */
#pragma clang diagnostic ignored "-Wunused-parameter"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * The direct table: a followed thread's entry at its id's low bits
 * (direct_mask), which the kernel finds inline, with no call (an array's
 * lookup), where a hash map's lookup costs two calls and a hash. The
 * loader reads and seeds it through a mapping of its own (mmap(2)).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DIRECT_TABLE_MAX);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32); /* the thread id's low bits */
	__type(value, struct follow_val);
} capaudit_direct SEC(".maps");

/* The spill table: a followed thread whose direct entry is another's. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, COUNTER_TABLE_DEFAULT);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32); /* the thread id */
	__type(value, struct follow_val);
} capaudit_follow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, COUNTER_TABLE_DEFAULT);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct total_key);
	__type(value, struct total_val);
} capaudit_totals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NSTATS);
	__type(key, __u32); /* enum counter_stat */
	__type(value, __u64);
} capaudit_stats SEC(".maps");

/* capaudit's own process, set by the loader: its signals end trials. */
const volatile __u32 self_tgid = 0;
/* The direct table's room less one, set by the loader (a power of two). */
const volatile __u32 direct_mask = 0;

/*
 * The enum kernel_mismatch bits, of those in want, of what the running
 * kernel does not have as the programs read it. Each term is a constant
 * the kernel patches in at load time (a CO-RE relocation, each of which
 * costs the load a search of the kernel's BTF); a program asks only
 * about what it reads, which want names, a constant the compiler drops
 * the other terms for. Where the kernel is as read, the verifier knows
 * the result is 0 and drops every test, so the programs pay a few
 * register moves for it.
 */
static __always_inline __u64 kernel_mismatch(__u64 want)
{
	__u64 m = 0;

	if ((want & MISMATCH_CAP_CAPABLE) &&
	    !bpf_core_type_exists(btf_trace_cap_capable))
		m |= MISMATCH_CAP_CAPABLE;
	if ((want & MISMATCH_TASK_NEWTASK) &&
	    !bpf_core_type_exists(btf_trace_task_newtask))
		m |= MISMATCH_TASK_NEWTASK;
	if ((want & MISMATCH_SCHED_PROCESS_EXEC) &&
	    !bpf_core_type_exists(btf_trace_sched_process_exec))
		m |= MISMATCH_SCHED_PROCESS_EXEC;
	if ((want & MISMATCH_SIGNAL_GENERATE) &&
	    !bpf_core_type_exists(btf_trace_signal_generate))
		m |= MISMATCH_SIGNAL_GENERATE;
	if ((want & MISMATCH_TASK_PID) &&
	    (!bpf_core_field_exists(struct task_struct, pid) ||
	     bpf_core_field_size(struct task_struct, pid) != sizeof(__u32)))
		m |= MISMATCH_TASK_PID;
	if ((want & MISMATCH_TASK_TGID) &&
	    (!bpf_core_field_exists(struct task_struct, tgid) ||
	     bpf_core_field_size(struct task_struct, tgid) != sizeof(__u32)))
		m |= MISMATCH_TASK_TGID;
	if ((want & MISMATCH_TASK_REAL_CRED) &&
	    (!bpf_core_field_exists(struct task_struct, real_cred) ||
	     bpf_core_field_size(struct task_struct, real_cred) !=
		     sizeof(__u64)))
		m |= MISMATCH_TASK_REAL_CRED;
	if ((want & MISMATCH_TASK_STACK) &&
	    (!bpf_core_field_exists(struct task_struct, stack) ||
	     bpf_core_field_size(struct task_struct, stack) != sizeof(__u64)))
		m |= MISMATCH_TASK_STACK;
	if ((want & MISMATCH_SIGINFO_CODE) &&
	    (!bpf_core_field_exists(struct kernel_siginfo, si_code) ||
	     bpf_core_field_size(struct kernel_siginfo, si_code) !=
		     sizeof(int)))
		m |= MISMATCH_SIGINFO_CODE;
	return m;
}

static __always_inline void stat_add(__u32 which, __u64 n)
{
	__u64 *slot = bpf_map_lookup_elem(&capaudit_stats, &which);

	/* Atomically: the slot is shared by every CPU. */
	if (slot)
		__sync_fetch_and_add(slot, n);
}

/*
 * 1, after storing why, when the kernel is not what a program reads
 * (want: what it reads, enum kernel_mismatch): then it must not count,
 * for every argument and field it would read could be something else,
 * and no read of a field the kernel lacks is ever reached. The check
 * program asks about everything (MISMATCH_ALL) before it counts, so that
 * no check is counted where any program would misread, and the
 * calibration, whose check it counts, reads every bit; the others about
 * their own reads.
 * The bits are ORed in: a program that asks about less never takes
 * away what another stored.
 */
static __always_inline int refuse_to_count(__u64 want)
{
	__u64 m = kernel_mismatch(want), *slot;
	__u32 which = STAT_MISMATCH;

	if (m == 0)
		return 0;
	slot = bpf_map_lookup_elem(&capaudit_stats, &which);
	if (slot && (*slot & m) != m)
		__sync_fetch_and_or(slot, m);
	return 1;
}

/* A new epoch (stats[STAT_EPOCH] + 1, its new value), or 0 for none. */
static __always_inline __u64 new_epoch(void)
{
	__u32 which = STAT_EPOCH;
	__u64 *slot = bpf_map_lookup_elem(&capaudit_stats, &which);

	if (!slot)
		return 0;
	return __sync_fetch_and_add(slot, 1) + 1;
}

/*
 * Moves a run of a follow entry (of epoch) into the totals, and empties
 * it. The checks of a run the totals map has no room for are counted as
 * lost.
 */
static __always_inline void move_run(struct follow_run *r, __u64 epoch)
{
	struct total_key key = {
		.pid_tgid = r->pid_tgid,
		.epoch = epoch,
		.cred = r->cred,
		.target_ns = r->target_ns,
		.capable_ns = r->capable_ns,
		.capret = r->capret,
	};
	struct total_val *t, fresh;

	if (r->count == 0)
		return;
	t = bpf_map_lookup_elem(&capaudit_totals, &key);
	if (t) {
		/* Known: add the run's checks; it is the latest run. */
		t->count += r->count;
		t->last = r->first;
	} else {
		fresh.count = r->count;
		fresh.first = fresh.last = r->first;
		if (bpf_map_update_elem(&capaudit_totals, &key, &fresh,
					BPF_NOEXIST))
			stat_add(STAT_LOST, r->count);
	}
	r->count = 0;
}

/* Every run of a follow entry into the totals (its epoch ends). */
static __always_inline void move_runs(struct follow_val *v)
{
	int i;

	for (i = 0; i < FOLLOW_RUNS; i++)
		move_run(&v->run[i], v->epoch);
}

/* Whether a thread was ever followed in the spill table: else none is. */
static __always_inline int spill_used(void)
{
	__u32 which = STAT_SPILLED;
	__u64 *slot = bpf_map_lookup_elem(&capaudit_stats, &which);

	return slot && *slot;
}

/*
 * Said before the first thread goes into the spill table, so that whoever
 * finds its entry there also finds it said.
 */
static __always_inline void spill_use(void)
{
	__u32 which = STAT_SPILLED;
	__u64 *slot = bpf_map_lookup_elem(&capaudit_stats, &which);

	if (slot && !*slot)
		__sync_lock_test_and_set(slot, 1);
}

/* The direct table's entry for thread id tid, whoever holds it. */
static __always_inline struct follow_val *direct_entry(__u32 tid)
{
	__u32 at = tid & direct_mask;

	return bpf_map_lookup_elem(&capaudit_direct, &at);
}

/* Thread tid's follow entry, or NULL when it is not followed. */
static __always_inline struct follow_val *followed(__u32 tid)
{
	struct follow_val *v = direct_entry(tid);

	if (v && v->owner == tid + 1)
		return v;
	if (!spill_used())
		return NULL;
	return bpf_map_lookup_elem(&capaudit_follow, &tid);
}

/*
 * Thread tid is followed no more, its entry dropped (its runs moved or
 * not, as the caller chose). Only for a thread that cannot be counting
 * at the same time: one that is gone (its id given to another), or the
 * thread the program runs in.
 */
static __always_inline void unfollow(__u32 tid)
{
	struct follow_val *v = direct_entry(tid);

	if (v && v->owner == tid + 1)
		__sync_lock_test_and_set(&v->owner, FOLLOW_FREE);
	else if (spill_used())
		bpf_map_delete_elem(&capaudit_follow, &tid);
}

/*
 * Follows thread tid afresh, with a new epoch, in its direct entry when
 * that is free, else in the spill table: 0, or -1 when it cannot. For a
 * thread that follows no more (unfollow()), or one that does not run yet.
 */
static __always_inline int follow_anew(__u32 tid)
{
	struct follow_val fresh = { .epoch = new_epoch() };
	struct follow_val *v = direct_entry(tid);
	int i;

	if (fresh.epoch == 0)
		return -1;
	fresh.latest = FOLLOW_RUNS - 1; /* a first run goes to run[0] */
	if (v && __sync_val_compare_and_swap(&v->owner, FOLLOW_FREE,
					     FOLLOW_HELD) == FOLLOW_FREE) {
		/* Held, by this program alone: filled in, then given to tid. */
		for (i = 0; i < FOLLOW_RUNS; i++)
			v->run[i].count = 0;
		v->latest = fresh.latest;
		v->epoch = fresh.epoch;
		__sync_lock_test_and_set(&v->owner, tid + 1);
		return 0;
	}
	spill_use();
	if (bpf_map_update_elem(&capaudit_follow, &tid, &fresh, BPF_ANY) != 0)
		return -1;
	return 0;
}

/*
 * CRED_LENT when the credential checked is not the thread's own,
 * task_struct.real_cred: the kernel lent it for one call
 * (override_creds(): access(2)'s real ids, overlayfs's mounter), or it
 * is a file's. A credential's address tells nothing more: the kernel
 * reuses it for the next one, so a thread that changes its own
 * credential again and again shows an old address around a new one, as
 * a loan would. A real_cred that cannot be read (the load faults and
 * gives 0) is taken for lent.
 *
 * Both are the kernel's typed pointers, which the verifier lets a
 * privileged program compare but never OR: so the flag is a scalar of
 * its own, and joins the address in the map's memory (run_start()).
 */
static __always_inline __u64 lent_flag(const struct task_struct *task,
				       const struct cred *cred)
{
	return task->real_cred == cred ? 0 : CRED_LENT;
}

/*
 * 1 when run r is of this check. The run's credential holds its lent
 * bit, and the address never its lowest bit (a struct cred is never at
 * an odd address): XOR takes this check's bit off where they agree, and
 * equality holds only then.
 */
static __always_inline int run_same(const struct follow_run *r,
				    const struct cred *cred, __u64 lent,
				    __u64 target_ns, __u64 capable_ns,
				    __u64 capret, __u64 pid_tgid)
{
	return r->count != 0 && (r->cred ^ lent) == (__u64)cred &&
	       r->target_ns == target_ns && r->capable_ns == capable_ns &&
	       r->capret == capret && r->pid_tgid == pid_tgid;
}

/*
 * Run r starts with this check, at the time now. The credential goes in
 * as the address, then gets its lent bit in memory: the value read back
 * from the map is a scalar, which the verifier lets us OR.
 */
static __always_inline void run_start(struct follow_run *r,
				      const struct cred *cred, __u64 lent,
				      __u64 target_ns, __u64 capable_ns,
				      __u64 capret, __u64 pid_tgid)
{
	r->count = 1;
	r->first = bpf_ktime_get_ns();
	r->cred = (__u64)cred;
	*(volatile __u64 *)&r->cred |= lent;
	r->target_ns = target_ns;
	r->capable_ns = capable_ns;
	r->capret = capret;
	r->pid_tgid = pid_tgid;
}

/*
 * cap_capable(cred, target_ns, capable_ns, cap, ret). The thread's ids
 * and credential are read from its task_struct, found by the one call a
 * check makes; its follow entry, with no call, in the direct table.
 */
SEC("tp_btf/cap_capable")
int BPF_PROG(capaudit_check, const struct cred *cred,
	     struct user_namespace *target_ns,
	     const struct user_namespace *capable_ns, int cap, int ret)
{
	__u64 tns = (__u64)target_ns, cns = (__u64)capable_ns;
	__u64 pid_tgid, lent, capret;
	struct task_struct *task;
	struct follow_run *r;
	struct follow_val *v;
	__u32 tid, latest, i, n;

	/*
	 * Every check in the system comes here, and most are no followed
	 * thread's: they read the thread id alone (asked about first) and
	 * end. A followed thread's check asks about everything the programs
	 * read before it reads anything else, so that nothing is counted
	 * where any program would misread (the calibration's check is one).
	 */
	if (refuse_to_count(MISMATCH_TASK_PID)) {
		refuse_to_count(MISMATCH_ALL); /* the whole of it said */
		return 0;
	}
	task = bpf_get_current_task_btf();
	tid = task->pid;
	v = followed(tid);
	if (!v)
		return 0;
	if (refuse_to_count(MISMATCH_ALL))
		return 0;
	pid_tgid = (__u64)(__u32)task->tgid << 32 | tid;
	lent = lent_flag(task, cred);
	capret = (__u32)cap | (__u64)(__u32)ret << 32;
	/*
	 * The same check as one of the runs: count it there. The run of the
	 * latest check first: a tight loop of one check finds it at once,
	 * and stores nothing else.
	 */
	latest = v->latest % FOLLOW_RUNS;
	for (n = 0, i = latest; n < FOLLOW_RUNS;
	     n++, i = (i + 1) % FOLLOW_RUNS) {
		r = &v->run[i];
		if (run_same(r, cred, lent, tns, cns, capret, pid_tgid)) {
			r->count++;
			if (i != latest)
				v->latest = i;
			return 0;
		}
	}
	/*
	 * Another check: the run used least lately goes to the totals, and
	 * this one starts anew in its place.
	 */
	i = (latest + 1) % FOLLOW_RUNS;
	r = &v->run[i];
	move_run(r, v->epoch);
	run_start(r, cred, lent, tns, cns, capret, pid_tgid);
	v->latest = i;
	return 0;
}

/* task_newtask(task, clone_flags), in the creating thread. */
SEC("tp_btf/task_newtask")
int BPF_PROG(capaudit_fork, struct task_struct *child)
{
	struct follow_val *old;
	__u32 tid, creator;

	if (refuse_to_count(MISMATCH_TASK_NEWTASK | MISMATCH_TASK_PID))
		return 0;
	/* A typed pointer: a plain load (a fault would read 0, no thread's id). */
	tid = child->pid;
	if (tid == 0)
		goto unfollowed;
	/* Its creator: the thread whose perf events it inherits. */
	creator = (__u32)bpf_get_current_pid_tgid();
	/* The id's previous owner, gone: its last runs kept, its entry dropped. */
	old = followed(tid);
	if (old) {
		move_runs(old);
		unfollow(tid);
	}
	if (!followed(creator))
		return 0;
	if (follow_anew(tid) == 0)
		return 0;
unfollowed:
	stat_add(STAT_UNFOLLOWED, 1);
	return 0;
}

/* sched_process_exec(task, old_pid, bprm), in the thread that execs. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(capaudit_exec, struct task_struct *task, int old_pid)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 old_tid = (__u32)old_pid;
	struct follow_val *v, *leader;
	__u64 epoch;
	int rc;

	if (refuse_to_count(MISMATCH_SCHED_PROCESS_EXEC))
		return 0;
	if (tid != old_tid) {
		/*
		 * A thread that was not the leader, which is gone: the
		 * thread's entry becomes the leader's id's.
		 */
		v = followed(old_tid);
		if (v) {
			move_runs(v);
			leader = followed(tid);
			if (leader) {
				move_runs(leader);
				unfollow(tid);
			}
			unfollow(old_tid);
			rc = follow_anew(tid);
			if (rc != 0)
				stat_add(STAT_UNFOLLOWED, 1);
			return 0;
		}
	}
	/* The same thread: the run before the exec is moved, a new epoch. */
	v = followed(tid);
	if (!v)
		return 0;
	move_runs(v);
	epoch = new_epoch();
	if (epoch == 0) {
		stat_add(STAT_UNFOLLOWED, 1);
		return 0;
	}
	v->epoch = epoch;
	return 0;
}

/*
 * 1 for a signal one of the kernel's timers sends: ITIMER_REAL's
 * (setitimer(2), alarm(2)), a SIGALRM with SEND_SIG_PRIV, or a POSIX
 * timer's (timer_create(2)), si_code SI_TIMER. Both come from a timer
 * interrupt, in whatever task the CPU was running, and only to the
 * timer's own process. A process may send another one with SI_TIMER
 * itself (rt_sigqueueinfo(2) takes it), but that siginfo is on its own
 * kernel stack, where a timer's never is: it is part of the timer.
 */
static __always_inline int from_a_timer(int sig, __u64 info)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	__u64 stack;
	int code;

	if (info == SEND_SIG_PRIV)
		return sig == SIGALRM;
	if (info == SEND_SIG_NOINFO ||
	    bpf_core_read(&code, sizeof(code),
			  &((struct kernel_siginfo *)info)->si_code) ||
	    code != SI_TIMER ||
	    bpf_core_read(&stack, sizeof(stack), &task->stack))
		return 0;
	/* Unsigned: below the stack is off it too. */
	return info - stack >= STACK_ROOM;
}

/*
 * signal_generate(sig, info, task, group, result). Any process of the
 * user's may end the command's processes, and a trial it made fail that
 * way would keep a capability the command does not need. Not with
 * kill(2) alone: rt_sigqueueinfo(2) gives a signal any si_code below 0;
 * a file whose owner (F_SETOWN) is the trial's process makes the kernel
 * send it SIGIO, or what F_SETSIG names, with SEND_SIG_PRIV or a
 * positive si_code, when the file is written to (in the writer's
 * context, or the network's interrupt); so neither how a signal says it
 * was sent nor where it comes from tells who wanted it. Every signal
 * made pending for a followed thread by a thread that is neither
 * followed nor capaudit's (whose signals end trials) is counted, with
 * its siginfo or without (none left under the user's RLIMIT_SIGPENDING,
 * which another process of the user may fill), but the kernel's timers',
 * which a process sets for itself alone. One the thread ignores, or
 * that was pending already, changes nothing.
 */
SEC("tp_btf/signal_generate")
int BPF_PROG(capaudit_signal, int sig, struct kernel_siginfo *info,
	     struct task_struct *task, int group, int result)
{
	__u64 pid_tgid;
	__u32 tid, sender;

	if (refuse_to_count(MISMATCH_SIGNAL_GENERATE | MISMATCH_TASK_PID |
			    MISMATCH_SIGINFO_CODE | MISMATCH_TASK_STACK))
		return 0;
	if (result != TRACE_SIGNAL_DELIVERED &&
	    result != TRACE_SIGNAL_LOSE_INFO)
		return 0;
	/* The receiving thread, followed (a fault reads 0, never followed). */
	tid = task->pid;
	if (!followed(tid))
		return 0;
	/* The sender: capaudit itself (a trial's end), or one followed. */
	pid_tgid = bpf_get_current_pid_tgid();
	sender = (__u32)pid_tgid;
	if (pid_tgid >> 32 == self_tgid || followed(sender))
		return 0;
	if (from_a_timer(sig, (__u64)info))
		return 0;
	stat_add(STAT_SIGNALS, 1);
	return 0;
}
