/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The eBPF programs that count a command's capability checks in the
 * kernel, written as instructions (no compiler, no libbpf: the programs
 * are small, and their map descriptors and field offsets are only known
 * at run time).
 *
 * check: on every cap_capable() in the system. A thread not in the
 *   follow map returns at once. A followed thread's check that repeats
 *   its current run (same credential, namespaces, capability, result and
 *   ids; the credential marked when it is not the thread's own) only
 *   counts and stamps the time; any other check first moves
 *   the run into the totals map, keyed by everything that tells checks
 *   apart, then starts a new run. A tight loop costs one hash lookup.
 * signal: (signal_generate) a signal a process outside sends to a
 *   followed thread is counted (text_signal() says which).
 * fork:  (task_newtask, which every new task passes in the thread that
 *   creates it, io_uring's worker threads too) a followed creator's new
 *   thread or process is followed, with a new epoch; a thread id that
 *   comes back for a process nobody follows drops the stale entry left
 *   by its previous owner (after moving its run), so a recycled id is
 *   never counted. A child whose id cannot be
 *   read is counted as not followed.
 * exec:  the run before the exec is moved, and the thread gets a new
 *   epoch, so no totals key mixes two files. A thread other than the
 *   leader that execs takes the leader's id: its entry moves with it.
 *
 * Only the thread itself touches its entry (fork: before the child can
 * run), so no two programs race on a run; the totals key holds the
 * thread id for the same reason.
 */
#include <stddef.h>
#include <string.h>

#include "capaudit_bpf.h"

/* Registers: r0 result, r1-r5 arguments (lost at calls), r6-r9 kept, r10 frame. */
enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

/* The frame: the totals key and value, a new follow value, two thread ids. */
#define FP_KEY	   (-48)  /* struct total_key */
#define FP_VAL	   (-72)  /* struct total_val */
#define FP_FOLLOW  (-144) /* struct follow_val */
#define FP_TID	   (-148)
#define FP_TID2	   (-152)
#define FP_STATKEY (-156)
#define FP_CRED	   (-168) /* the credential checked, marked when lent */

#define OFF(type, field) ((short)offsetof(struct type, field))

static void emit(struct bpf_text *p, unsigned char code, int dst, int src,
		 short off, int imm)
{
	struct bpf_insn *i;

	if (p->n >= sizeof(p->insn) / sizeof(p->insn[0])) {
		p->overflow = 1;
		return;
	}
	i = &p->insn[p->n++];
	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = (unsigned char)dst;
	i->src_reg = (unsigned char)src;
	i->off = off;
	i->imm = imm;
}

static void text_init(struct bpf_text *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < (int)(sizeof(p->label_at) / sizeof(p->label_at[0]));
	     i++)
		p->label_at[i] = -1;
}

static int new_label(struct bpf_text *p)
{
	if (p->nlabels >= (int)(sizeof(p->label_at) / sizeof(p->label_at[0]))) {
		p->overflow = 1;
		return 0;
	}
	return p->nlabels++;
}

static void place(struct bpf_text *p, int label)
{
	p->label_at[label] = (long)p->n;
}

/* Every jump is forward: its offset is filled in by finish(). */
static void jump_to(struct bpf_text *p, unsigned char code, int dst, int src,
		    int imm, int label)
{
	if (p->nfix >= sizeof(p->fix) / sizeof(p->fix[0])) {
		p->overflow = 1;
		return;
	}
	p->fix[p->nfix].at = p->n;
	p->fix[p->nfix].label = label;
	p->nfix++;
	emit(p, code, dst, src, 0, imm);
}

static void jump_imm(struct bpf_text *p, unsigned char op, int reg, int imm,
		     int label)
{
	jump_to(p, BPF_JMP | op | BPF_K, reg, 0, imm, label);
}

static void jump_reg(struct bpf_text *p, unsigned char op, int dst, int src,
		     int label)
{
	jump_to(p, BPF_JMP | op | BPF_X, dst, src, 0, label);
}

static void jump(struct bpf_text *p, int label)
{
	jump_to(p, BPF_JMP | BPF_JA, 0, 0, 0, label);
}

static int finish(struct bpf_text *p)
{
	size_t i;

	for (i = 0; i < p->nfix && !p->overflow; i++) {
		long to = p->label_at[p->fix[i].label];

		if (to < 0 || to <= (long)p->fix[i].at)
			p->overflow = 1;
		else
			p->insn[p->fix[i].at].off =
				(short)(to - (long)p->fix[i].at - 1);
	}
	return p->overflow ? -1 : 0;
}

static void mov_reg(struct bpf_text *p, int dst, int src)
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}

static void mov_imm(struct bpf_text *p, int dst, int imm)
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

static void add_imm(struct bpf_text *p, int dst, int imm)
{
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm);
}

static void load(struct bpf_text *p, unsigned char size, int dst, int src,
		 short off)
{
	emit(p, BPF_LDX | size | BPF_MEM, dst, src, off, 0);
}

static void store(struct bpf_text *p, unsigned char size, int dst, short off,
		  int src)
{
	emit(p, BPF_STX | size | BPF_MEM, dst, src, off, 0);
}

static void store_imm(struct bpf_text *p, unsigned char size, int dst,
		      short off, int imm)
{
	emit(p, BPF_ST | size | BPF_MEM, dst, 0, off, imm);
}

/* A map's descriptor into dst: the loader turns it into the map. */
static void map_fd(struct bpf_text *p, int dst, int fd)
{
	emit(p, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	emit(p, 0, 0, 0, 0, 0);
}

static void call(struct bpf_text *p, int helper)
{
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, helper);
}

static void frame_ptr(struct bpf_text *p, int dst, short off)
{
	mov_reg(p, dst, R10);
	add_imm(p, dst, off);
}

/* r0 = the map's value under the key at the frame offset, or 0. */
static void lookup(struct bpf_text *p, int map, short key)
{
	map_fd(p, R1, map);
	frame_ptr(p, R2, key);
	call(p, BPF_FUNC_map_lookup_elem);
}

/* stats[which] += reg, atomically (the slot is shared by every CPU). */
static void stat_add(struct bpf_text *p, const struct counter_maps *m,
		     enum counter_stat which, int reg, int done)
{
	store_imm(p, BPF_W, R10, FP_STATKEY, (int)which);
	lookup(p, m->stats, FP_STATKEY);
	jump_imm(p, BPF_JEQ, R0, 0, done);
	emit(p, BPF_STX | BPF_DW | BPF_ATOMIC, R0, reg, 0, BPF_ADD);
}

/* r1 = a new epoch: stats[STAT_EPOCH] += 1, its new value. */
static void new_epoch(struct bpf_text *p, const struct counter_maps *m,
		      int fail)
{
	store_imm(p, BPF_W, R10, FP_STATKEY, STAT_EPOCH);
	lookup(p, m->stats, FP_STATKEY);
	jump_imm(p, BPF_JEQ, R0, 0, fail);
	mov_imm(p, R1, 1);
	emit(p, BPF_STX | BPF_DW | BPF_ATOMIC, R0, R1, 0, BPF_ADD | BPF_FETCH);
	add_imm(p, R1, 1);
}

/* Copies a 64-bit field of the follow value at reg to the frame. */
static void copy_field(struct bpf_text *p, int reg, short from, short to)
{
	load(p, BPF_DW, R1, reg, from);
	store(p, BPF_DW, R10, to, R1);
}

/*
 * Moves the run of the follow value at reg (r6-r9) into the totals, and
 * empties it. Lost checks are counted when the totals map is full.
 * Clobbers r0-r5.
 */
static void move_run(struct bpf_text *p, const struct counter_maps *m, int reg)
{
	/* The run's identity, from its follow entry into the totals key. */
	static const struct {
		short from, to;
	} key_fields[] = {
		{ OFF(follow_val, pid_tgid), OFF(total_key, pid_tgid) },
		{ OFF(follow_val, epoch), OFF(total_key, epoch) },
		{ OFF(follow_val, cred), OFF(total_key, cred) },
		{ OFF(follow_val, target_ns), OFF(total_key, target_ns) },
		{ OFF(follow_val, capable_ns), OFF(total_key, capable_ns) },
		{ OFF(follow_val, capret), OFF(total_key, capret) },
	};
	int done = new_label(p), insert = new_label(p), empty = new_label(p);
	size_t i;

	load(p, BPF_DW, R1, reg, OFF(follow_val, count));
	jump_imm(p, BPF_JEQ, R1, 0, done);
	for (i = 0; i < sizeof(key_fields) / sizeof(key_fields[0]); i++)
		copy_field(p, reg, key_fields[i].from,
			   FP_KEY + key_fields[i].to);
	lookup(p, m->totals, FP_KEY);
	jump_imm(p, BPF_JEQ, R0, 0, insert);
	/* Known: add the run's checks; its last is the latest. */
	load(p, BPF_DW, R1, R0, OFF(total_val, count));
	load(p, BPF_DW, R2, reg, OFF(follow_val, count));
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, R1, R2, 0, 0);
	store(p, BPF_DW, R0, OFF(total_val, count), R1);
	load(p, BPF_DW, R1, reg, OFF(follow_val, last));
	store(p, BPF_DW, R0, OFF(total_val, last), R1);
	jump(p, empty);
	place(p, insert);
	copy_field(p, reg, OFF(follow_val, count),
		   FP_VAL + OFF(total_val, count));
	copy_field(p, reg, OFF(follow_val, first),
		   FP_VAL + OFF(total_val, first));
	copy_field(p, reg, OFF(follow_val, last),
		   FP_VAL + OFF(total_val, last));
	map_fd(p, R1, m->totals);
	frame_ptr(p, R2, FP_KEY);
	frame_ptr(p, R3, FP_VAL);
	mov_imm(p, R4, BPF_NOEXIST);
	call(p, BPF_FUNC_map_update_elem);
	jump_imm(p, BPF_JEQ, R0, 0, empty);
	/* No room: the run's checks are lost, and counted as lost. */
	copy_field(p, reg, OFF(follow_val, count),
		   FP_VAL + OFF(total_val, count));
	store_imm(p, BPF_W, R10, FP_STATKEY, STAT_LOST);
	lookup(p, m->stats, FP_STATKEY);
	jump_imm(p, BPF_JEQ, R0, 0, empty);
	load(p, BPF_DW, R1, R10, FP_VAL + OFF(total_val, count));
	emit(p, BPF_STX | BPF_DW | BPF_ATOMIC, R0, R1, 0, BPF_ADD);
	place(p, empty);
	store_imm(p, BPF_DW, reg, OFF(follow_val, count), 0);
	place(p, done);
}

/* The fresh follow value on the frame, with the epoch in r1. */
static void fresh_follow(struct bpf_text *p)
{
	short off;

	for (off = 0; off < (short)sizeof(struct follow_val); off += 8)
		store_imm(p, BPF_DW, R10, FP_FOLLOW + off, 0);
	store(p, BPF_DW, R10, FP_FOLLOW + OFF(follow_val, epoch), R1);
}

static void return_zero(struct bpf_text *p)
{
	mov_imm(p, R0, 0);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/*
 * follow[FP_TID] = a fresh entry with a new epoch; r0: the update's
 * result (0: done). No epoch: on to fail.
 */
static void follow_anew(struct bpf_text *p, const struct counter_maps *m,
			int fail)
{
	new_epoch(p, m, fail);
	fresh_follow(p);
	map_fd(p, R1, m->follow);
	frame_ptr(p, R2, FP_TID);
	frame_ptr(p, R3, FP_FOLLOW);
	mov_imm(p, R4, BPF_ANY);
	call(p, BPF_FUNC_map_update_elem);
}

static void follow_delete(struct bpf_text *p, const struct counter_maps *m,
			  short key)
{
	map_fd(p, R1, m->follow);
	frame_ptr(p, R2, key);
	call(p, BPF_FUNC_map_delete_elem);
}

/* The end of fork and exec: the labels unfollowed (counted) and out. */
static int end_program(struct bpf_text *p, const struct counter_maps *m,
		       int unfollowed, int out)
{
	place(p, unfollowed);
	mov_imm(p, R6, 1);
	stat_add(p, m, STAT_UNFOLLOWED, R6, out);
	place(p, out);
	return_zero(p);
	return finish(p);
}

/* The raw tracepoint's arguments: u64 each, in TP_PROTO order. */
#define ARG_CRED       0
#define ARG_TARGET_NS  8
#define ARG_CAPABLE_NS 16
#define ARG_CAP	       24
#define ARG_RET	       32

/*
 * The credential checked into the frame (FP_CRED), its lowest bit set
 * (a struct cred is never at an odd address) when it is not the
 * thread's own, task_struct.real_cred: the kernel lent it for one call
 * (override_creds(): access(2)'s real ids, overlayfs's mounter), or it
 * is a file's. A credential's address tells nothing more: the kernel
 * reuses it for the next one, so a thread that changes its own
 * credential again and again shows an old address around a new one, as
 * a loan would. One that cannot be read is taken for lent.
 */
static void mark_lent(struct bpf_text *p, const struct counter_layout *lay)
{
	int own = new_label(p), read = new_label(p);

	load(p, BPF_DW, R1, R6, ARG_CRED);
	store(p, BPF_DW, R10, FP_CRED, R1);
	call(p, BPF_FUNC_get_current_task);
	mov_reg(p, R3, R0);
	add_imm(p, R3, (int)lay->task_real_cred);
	frame_ptr(p, R1, FP_KEY); /* scratch: the key is built later */
	mov_imm(p, R2, 8);
	call(p, BPF_FUNC_probe_read_kernel);
	jump_imm(p, BPF_JEQ, R0, 0, read);
	store_imm(p, BPF_DW, R10, FP_KEY, 0);
	place(p, read);
	load(p, BPF_DW, R1, R10, FP_KEY);
	load(p, BPF_DW, R2, R10, FP_CRED);
	jump_reg(p, BPF_JEQ, R1, R2, own);
	emit(p, BPF_ALU64 | BPF_OR | BPF_K, R2, 0, 0, 1);
	store(p, BPF_DW, R10, FP_CRED, R2);
	place(p, own);
}

int text_check(struct bpf_text *p, const struct counter_maps *m,
	       const struct counter_layout *lay)
{
	int out, start, moved;

	text_init(p);
	out = new_label(p);
	start = new_label(p);
	moved = new_label(p);
	mov_reg(p, R6, R1); /* the arguments */
	call(p, BPF_FUNC_get_current_pid_tgid);
	mov_reg(p, R7, R0);
	store(p, BPF_W, R10, FP_TID, R7);
	lookup(p, m->follow, FP_TID);
	jump_imm(p, BPF_JEQ, R0, 0, out);
	mov_reg(p, R8, R0);
	mark_lent(p, lay);
	call(p, BPF_FUNC_ktime_get_ns);
	mov_reg(p, R9, R0);
	/* The same check as the run's: count it and stamp the time. */
	load(p, BPF_DW, R1, R8, OFF(follow_val, count));
	jump_imm(p, BPF_JEQ, R1, 0, start);
	load(p, BPF_DW, R2, R10, FP_CRED);
	load(p, BPF_DW, R3, R8, OFF(follow_val, cred));
	jump_reg(p, BPF_JNE, R2, R3, moved);
	load(p, BPF_DW, R2, R6, ARG_TARGET_NS);
	load(p, BPF_DW, R3, R8, OFF(follow_val, target_ns));
	jump_reg(p, BPF_JNE, R2, R3, moved);
	load(p, BPF_DW, R2, R6, ARG_CAPABLE_NS);
	load(p, BPF_DW, R3, R8, OFF(follow_val, capable_ns));
	jump_reg(p, BPF_JNE, R2, R3, moved);
	load(p, BPF_DW, R2, R6, ARG_RET);
	emit(p, BPF_ALU64 | BPF_LSH | BPF_K, R2, 0, 0, 32);
	load(p, BPF_W, R3, R6, ARG_CAP);
	emit(p, BPF_ALU64 | BPF_OR | BPF_X, R2, R3, 0, 0);
	load(p, BPF_DW, R3, R8, OFF(follow_val, capret));
	jump_reg(p, BPF_JNE, R2, R3, moved);
	load(p, BPF_DW, R3, R8, OFF(follow_val, pid_tgid));
	jump_reg(p, BPF_JNE, R7, R3, moved);
	add_imm(p, R1, 1);
	store(p, BPF_DW, R8, OFF(follow_val, count), R1);
	store(p, BPF_DW, R8, OFF(follow_val, last), R9);
	jump(p, out);
	/* Another check: the run goes to the totals, this one starts anew. */
	place(p, moved);
	move_run(p, m, R8);
	place(p, start);
	mov_imm(p, R1, 1);
	store(p, BPF_DW, R8, OFF(follow_val, count), R1);
	store(p, BPF_DW, R8, OFF(follow_val, first), R9);
	store(p, BPF_DW, R8, OFF(follow_val, last), R9);
	load(p, BPF_DW, R1, R10, FP_CRED);
	store(p, BPF_DW, R8, OFF(follow_val, cred), R1);
	load(p, BPF_DW, R1, R6, ARG_TARGET_NS);
	store(p, BPF_DW, R8, OFF(follow_val, target_ns), R1);
	load(p, BPF_DW, R1, R6, ARG_CAPABLE_NS);
	store(p, BPF_DW, R8, OFF(follow_val, capable_ns), R1);
	load(p, BPF_DW, R1, R6, ARG_RET);
	emit(p, BPF_ALU64 | BPF_LSH | BPF_K, R1, 0, 0, 32);
	load(p, BPF_W, R2, R6, ARG_CAP);
	emit(p, BPF_ALU64 | BPF_OR | BPF_X, R1, R2, 0, 0);
	store(p, BPF_DW, R8, OFF(follow_val, capret), R1);
	store(p, BPF_DW, R8, OFF(follow_val, pid_tgid), R7);
	place(p, out);
	return_zero(p);
	return finish(p);
}

int text_fork(struct bpf_text *p, const struct counter_maps *m,
	      const struct counter_layout *lay)
{
	int out, parent, unfollowed;

	text_init(p);
	out = new_label(p);
	parent = new_label(p);
	unfollowed = new_label(p);
	mov_reg(p, R6, R1); /* the arguments: the new task, clone flags */
	/* The child's thread id, from its task_struct (offset from BTF). */
	store_imm(p, BPF_W, R10, FP_TID, 0);
	frame_ptr(p, R1, FP_TID);
	mov_imm(p, R2, 4);
	load(p, BPF_DW, R3, R6, 0);
	add_imm(p, R3, (int)lay->task_pid);
	call(p, BPF_FUNC_probe_read_kernel);
	jump_imm(p, BPF_JNE, R0, 0, unfollowed);
	/* Its creator: the thread whose perf events it inherits. */
	call(p, BPF_FUNC_get_current_pid_tgid);
	store(p, BPF_W, R10, FP_TID2, R0);
	/* The id's previous owner: its last run kept, its entry dropped. */
	lookup(p, m->follow, FP_TID);
	jump_imm(p, BPF_JEQ, R0, 0, parent);
	mov_reg(p, R8, R0);
	move_run(p, m, R8);
	follow_delete(p, m, FP_TID);
	place(p, parent);
	lookup(p, m->follow, FP_TID2);
	jump_imm(p, BPF_JEQ, R0, 0, out);
	follow_anew(p, m, unfollowed);
	jump_imm(p, BPF_JEQ, R0, 0, out);
	return end_program(p, m, unfollowed, out);
}

int text_exec(struct bpf_text *p, const struct counter_maps *m)
{
	int out, same, unfollowed, leader;

	text_init(p);
	out = new_label(p);
	same = new_label(p);
	unfollowed = new_label(p);
	leader = new_label(p);
	mov_reg(p, R6, R1); /* the arguments: task, old_pid, bprm */
	call(p, BPF_FUNC_get_current_pid_tgid); /* the task is the caller */
	store(p, BPF_W, R10, FP_TID, R0);
	load(p, BPF_W, R2, R6, 8);
	store(p, BPF_W, R10, FP_TID2, R2);
	load(p, BPF_W, R1, R10, FP_TID);
	jump_reg(p, BPF_JEQ, R1, R2, same);
	/* A thread that was not the leader: its entry becomes the leader's. */
	lookup(p, m->follow, FP_TID2);
	jump_imm(p, BPF_JEQ, R0, 0, same);
	mov_reg(p, R8, R0);
	move_run(p, m, R8);
	lookup(p, m->follow, FP_TID);
	jump_imm(p, BPF_JEQ, R0, 0, leader);
	mov_reg(p, R8, R0);
	move_run(p, m, R8);
	place(p, leader);
	follow_anew(p, m, unfollowed);
	mov_reg(p, R7, R0);
	follow_delete(p, m, FP_TID2);
	jump_imm(p, BPF_JEQ, R7, 0, out);
	jump(p, unfollowed);
	/* The same thread: the run before the exec is moved, a new epoch. */
	place(p, same);
	lookup(p, m->follow, FP_TID);
	jump_imm(p, BPF_JEQ, R0, 0, out);
	mov_reg(p, R8, R0);
	move_run(p, m, R8);
	new_epoch(p, m, unfollowed);
	store(p, BPF_DW, R8, OFF(follow_val, epoch), R1);
	jump(p, out);
	return end_program(p, m, unfollowed, out);
}

/* signal_generate's arguments: u64 each, in TP_PROTO order. */
#define SIG_ARG_INFO   8
#define SIG_ARG_TASK   16
#define SIG_ARG_RESULT 32
/* include/linux/sched/signal.h: the info of a signal the kernel sends. */
#define SEND_SIG_NOINFO 0 /* from a process: si_code SI_USER */
#define SEND_SIG_PRIV	1
/* kernel_siginfo: si_signo, si_errno, then si_code (ints). */
#define SI_CODE_OFF 8
/* Sent by a process: kill(2), sigqueue(3), tgkill(2). */
#define CODE_SI_USER  0
#define CODE_SI_QUEUE (-1)
#define CODE_SI_TKILL (-6)
/* include/trace/events/signal.h: TRACE_SIGNAL_DELIVERED. */
#define SIGNAL_DELIVERED 0

/*
 * Any process of the user's may kill(2) the command's processes, and a
 * trial it made fail that way would keep a capability the command does
 * not need. The signals the kernel itself sends (faults, timers, a
 * child's end, a terminal's ^C) come with SEND_SIG_PRIV or a positive
 * si_code; those a process sends, with SEND_SIG_NOINFO or SI_USER,
 * SI_QUEUE or SI_TKILL, in the sender's own context: so the sender is
 * the current thread, and one the programs do not follow is outside.
 */
int text_signal(struct bpf_text *p, const struct counter_maps *m,
		const struct counter_layout *lay, uint32_t self_tgid)
{
	int out, outside;

	text_init(p);
	out = new_label(p);
	outside = new_label(p);
	mov_reg(p, R6, R1); /* the arguments */
	load(p, BPF_DW, R1, R6, SIG_ARG_RESULT);
	jump_imm(p, BPF_JNE, R1, SIGNAL_DELIVERED, out);
	/* The receiving thread's id, from its task_struct. */
	store_imm(p, BPF_W, R10, FP_TID, 0);
	frame_ptr(p, R1, FP_TID);
	mov_imm(p, R2, 4);
	load(p, BPF_DW, R3, R6, SIG_ARG_TASK);
	add_imm(p, R3, (int)lay->task_pid);
	call(p, BPF_FUNC_probe_read_kernel);
	jump_imm(p, BPF_JNE, R0, 0, out);
	lookup(p, m->follow, FP_TID);
	jump_imm(p, BPF_JEQ, R0, 0, out);
	/* The sender: capaudit itself (a trial's end), or one followed. */
	call(p, BPF_FUNC_get_current_pid_tgid);
	mov_reg(p, R7, R0);
	emit(p, BPF_ALU64 | BPF_RSH | BPF_K, R0, 0, 0, 32);
	jump_imm(p, BPF_JEQ, R0, (int)self_tgid, out);
	store(p, BPF_W, R10, FP_TID2, R7);
	lookup(p, m->follow, FP_TID2);
	jump_imm(p, BPF_JNE, R0, 0, out);
	/* How it was sent. */
	load(p, BPF_DW, R3, R6, SIG_ARG_INFO);
	jump_imm(p, BPF_JEQ, R3, SEND_SIG_NOINFO, outside);
	jump_imm(p, BPF_JEQ, R3, SEND_SIG_PRIV, out);
	store_imm(p, BPF_W, R10, FP_STATKEY, 0);
	frame_ptr(p, R1, FP_STATKEY);
	mov_imm(p, R2, 4);
	add_imm(p, R3, SI_CODE_OFF);
	call(p, BPF_FUNC_probe_read_kernel);
	jump_imm(p, BPF_JNE, R0, 0, outside); /* unread: counted */
	/* si_code is an int: sign-extended, as the immediates are. */
	load(p, BPF_W, R1, R10, FP_STATKEY);
	emit(p, BPF_ALU64 | BPF_LSH | BPF_K, R1, 0, 0, 32);
	emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, R1, 0, 0, 32);
	jump_imm(p, BPF_JEQ, R1, CODE_SI_USER, outside);
	jump_imm(p, BPF_JEQ, R1, CODE_SI_QUEUE, outside);
	jump_imm(p, BPF_JEQ, R1, CODE_SI_TKILL, outside);
	jump(p, out);
	place(p, outside);
	mov_imm(p, R6, 1);
	stat_add(p, m, STAT_SIGNALS, R6, out);
	place(p, out);
	return_zero(p);
	return finish(p);
}
