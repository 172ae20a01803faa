/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The eBPF programs that count a command's capability checks in the
 * kernel, on raw tracepoints; compiled by clang, loaded by capaudit_bpf.c
 * through the light skeleton bpftool generates from them.
 *
 * check: on every cap_capable() in the system. A thread not in the
 *   follow map returns at once. A followed thread's check that repeats
 *   its current run (same credential, namespaces, capability, result and
 *   ids; the credential marked when it is not the thread's own) only
 *   counts and stamps the time; any other check first moves the run into
 *   the totals map, keyed by everything that tells checks apart, then
 *   starts a new run. A tight loop costs one hash lookup.
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
 * thread id for the same reason.
 *
 * Every program first asks whether the running kernel is the one they
 * read (kernel_mismatch()); where it is not, they count nothing and say
 * why in STAT_MISMATCH, which the loader's calibration reports.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "capaudit_kernel.h"
#include "capaudit_maps.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, COUNTER_TABLE_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32); /* the thread id */
	__type(value, struct follow_val);
} capaudit_follow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, COUNTER_TABLE_MAX);
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

/*
 * 1 when the running kernel is what the programs read: each term is a
 * constant the kernel patches in at load time, and where all hold the
 * verifier turns every test into a jump it then drops, so the programs
 * pay a few register moves for it.
 */
static __always_inline int kernel_as_read(void)
{
	return bpf_core_type_exists(btf_trace_cap_capable) &&
	       bpf_core_type_exists(btf_trace_task_newtask) &&
	       bpf_core_type_exists(btf_trace_sched_process_exec) &&
	       bpf_core_type_exists(btf_trace_signal_generate) &&
	       bpf_core_field_exists(struct task_struct, pid) &&
	       bpf_core_field_size(struct task_struct, pid) == sizeof(__u32) &&
	       bpf_core_field_exists(struct task_struct, real_cred) &&
	       bpf_core_field_size(struct task_struct, real_cred) ==
		       sizeof(__u64) &&
	       bpf_core_field_exists(struct task_struct, stack) &&
	       bpf_core_field_size(struct task_struct, stack) ==
		       sizeof(__u64) &&
	       bpf_core_field_exists(struct kernel_siginfo, si_code) &&
	       bpf_core_field_size(struct kernel_siginfo, si_code) ==
		       sizeof(int);
}

/* Where it is not, the enum kernel_mismatch bits of what differs. */
static __always_inline __u64 kernel_mismatch(void)
{
	__u64 m = 0;

	if (!bpf_core_type_exists(btf_trace_cap_capable))
		m |= MISMATCH_CAP_CAPABLE;
	if (!bpf_core_type_exists(btf_trace_task_newtask))
		m |= MISMATCH_TASK_NEWTASK;
	if (!bpf_core_type_exists(btf_trace_sched_process_exec))
		m |= MISMATCH_SCHED_PROCESS_EXEC;
	if (!bpf_core_type_exists(btf_trace_signal_generate))
		m |= MISMATCH_SIGNAL_GENERATE;
	if (!bpf_core_field_exists(struct task_struct, pid) ||
	    bpf_core_field_size(struct task_struct, pid) != sizeof(__u32))
		m |= MISMATCH_TASK_PID;
	if (!bpf_core_field_exists(struct task_struct, real_cred) ||
	    bpf_core_field_size(struct task_struct, real_cred) != sizeof(__u64))
		m |= MISMATCH_TASK_REAL_CRED;
	if (!bpf_core_field_exists(struct task_struct, stack) ||
	    bpf_core_field_size(struct task_struct, stack) != sizeof(__u64))
		m |= MISMATCH_TASK_STACK;
	if (!bpf_core_field_exists(struct kernel_siginfo, si_code) ||
	    bpf_core_field_size(struct kernel_siginfo, si_code) != sizeof(int))
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
 * 1, after storing why, when the kernel is not what the programs read:
 * then they must not count, for every argument and field they would
 * read could be something else.
 */
static __always_inline int refuse_to_count(void)
{
	__u32 which = STAT_MISMATCH;
	__u64 *slot;

	if (kernel_as_read())
		return 0;
	slot = bpf_map_lookup_elem(&capaudit_stats, &which);
	if (slot)
		*slot = kernel_mismatch();
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
 * Moves the run of a follow entry into the totals, and empties it. The
 * checks of a run the totals map has no room for are counted as lost.
 */
static __always_inline void move_run(struct follow_val *v)
{
	struct total_key key = {
		.pid_tgid = v->pid_tgid,
		.epoch = v->epoch,
		.cred = v->cred,
		.target_ns = v->target_ns,
		.capable_ns = v->capable_ns,
		.capret = v->capret,
	};
	struct total_val *t, fresh;

	if (v->count == 0)
		return;
	t = bpf_map_lookup_elem(&capaudit_totals, &key);
	if (t) {
		/* Known: add the run's checks; its last is the latest. */
		t->count += v->count;
		t->last = v->last;
	} else {
		fresh.count = v->count;
		fresh.first = v->first;
		fresh.last = v->last;
		if (bpf_map_update_elem(&capaudit_totals, &key, &fresh,
					BPF_NOEXIST))
			stat_add(STAT_LOST, v->count);
	}
	v->count = 0;
}

/* Follows thread tid afresh, with a new epoch: 0, or -1 when it cannot. */
static __always_inline int follow_anew(__u32 tid)
{
	struct follow_val v = { .epoch = new_epoch() };

	if (v.epoch == 0 ||
	    bpf_map_update_elem(&capaudit_follow, &tid, &v, BPF_ANY) != 0)
		return -1;
	return 0;
}

/*
 * The credential checked, its lowest bit set (a struct cred is never at
 * an odd address) when it is not the thread's own, task_struct.real_cred:
 * the kernel lent it for one call (override_creds(): access(2)'s real
 * ids, overlayfs's mounter), or it is a file's. A credential's address
 * tells nothing more: the kernel reuses it for the next one, so a thread
 * that changes its own credential again and again shows an old address
 * around a new one, as a loan would. One that cannot be read is taken
 * for lent.
 */
static __always_inline __u64 mark_lent(__u64 cred)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	const struct cred *own;

	if (bpf_core_read(&own, sizeof(own), &task->real_cred) ||
	    (__u64)own != cred)
		return cred | CRED_LENT;
	return cred;
}

/* cap_capable(cred, target_ns, capable_ns, cap, ret) */
SEC("raw_tp/cap_capable")
int capaudit_check(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 pid_tgid, now, cred, target_ns, capable_ns, capret;
	struct follow_val *v;
	__u32 tid;

	pid_tgid = bpf_get_current_pid_tgid();
	tid = (__u32)pid_tgid;
	v = bpf_map_lookup_elem(&capaudit_follow, &tid);
	/* Every check in the system comes here: the others' end at once. */
	if (!v || refuse_to_count())
		return 0;
	cred = mark_lent(ctx->args[0]);
	now = bpf_ktime_get_ns();
	target_ns = ctx->args[1];
	capable_ns = ctx->args[2];
	capret = (__u32)ctx->args[3] | ctx->args[4] << 32;
	/* The same check as the run's: count it and stamp the time. */
	if (v->count != 0 && v->cred == cred && v->target_ns == target_ns &&
	    v->capable_ns == capable_ns && v->capret == capret &&
	    v->pid_tgid == pid_tgid) {
		v->count++;
		v->last = now;
		return 0;
	}
	/* Another check: the run goes to the totals, this one starts anew. */
	move_run(v);
	v->count = 1;
	v->first = v->last = now;
	v->cred = cred;
	v->target_ns = target_ns;
	v->capable_ns = capable_ns;
	v->capret = capret;
	v->pid_tgid = pid_tgid;
	return 0;
}

/* task_newtask(task, clone_flags), in the creating thread. */
SEC("raw_tp/task_newtask")
int capaudit_fork(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *child = (void *)ctx->args[0];
	struct follow_val *old;
	__u32 tid, creator;

	if (refuse_to_count())
		return 0;
	if (bpf_core_read(&tid, sizeof(tid), &child->pid))
		goto unfollowed;
	/* Its creator: the thread whose perf events it inherits. */
	creator = (__u32)bpf_get_current_pid_tgid();
	/* The id's previous owner: its last run kept, its entry dropped. */
	old = bpf_map_lookup_elem(&capaudit_follow, &tid);
	if (old) {
		move_run(old);
		bpf_map_delete_elem(&capaudit_follow, &tid);
	}
	if (!bpf_map_lookup_elem(&capaudit_follow, &creator))
		return 0;
	if (follow_anew(tid) == 0)
		return 0;
unfollowed:
	stat_add(STAT_UNFOLLOWED, 1);
	return 0;
}

/* sched_process_exec(task, old_pid, bprm), in the thread that execs. */
SEC("raw_tp/sched_process_exec")
int capaudit_exec(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 old_tid = (__u32)ctx->args[1];
	struct follow_val *v, *leader;
	__u64 epoch;
	int rc;

	if (refuse_to_count())
		return 0;
	if (tid != old_tid) {
		/* A thread that was not the leader: its entry becomes the leader's. */
		v = bpf_map_lookup_elem(&capaudit_follow, &old_tid);
		if (v) {
			move_run(v);
			leader = bpf_map_lookup_elem(&capaudit_follow, &tid);
			if (leader)
				move_run(leader);
			rc = follow_anew(tid);
			bpf_map_delete_elem(&capaudit_follow, &old_tid);
			if (rc != 0)
				stat_add(STAT_UNFOLLOWED, 1);
			return 0;
		}
	}
	/* The same thread: the run before the exec is moved, a new epoch. */
	v = bpf_map_lookup_elem(&capaudit_follow, &tid);
	if (!v)
		return 0;
	move_run(v);
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
SEC("raw_tp/signal_generate")
int capaudit_signal(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *task = (void *)ctx->args[2];
	__u64 pid_tgid, result = ctx->args[4];
	__u32 tid, sender;

	if (refuse_to_count())
		return 0;
	if (result != TRACE_SIGNAL_DELIVERED &&
	    result != TRACE_SIGNAL_LOSE_INFO)
		return 0;
	/* The receiving thread, followed. */
	if (bpf_core_read(&tid, sizeof(tid), &task->pid) ||
	    !bpf_map_lookup_elem(&capaudit_follow, &tid))
		return 0;
	/* The sender: capaudit itself (a trial's end), or one followed. */
	pid_tgid = bpf_get_current_pid_tgid();
	sender = (__u32)pid_tgid;
	if (pid_tgid >> 32 == self_tgid ||
	    bpf_map_lookup_elem(&capaudit_follow, &sender))
		return 0;
	if (from_a_timer((int)ctx->args[0], ctx->args[1]))
		return 0;
	stat_add(STAT_SIGNALS, 1);
	return 0;
}
