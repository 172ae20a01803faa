/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Internal declarations shared by libpsx's source files; never installed. */
#ifndef LPSX_H
#define LPSX_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Only what the public header declares may be exported: the library is
 * compiled with -fvisibility=hidden and this pragma makes the public
 * declarations the exception. libpsx.map then lists the same names.
 */
#pragma GCC visibility push(default)
#include <sys/psx_syscall.h>
#pragma GCC visibility pop

/*
 * How a broadcast works (psx.c drives it):
 *
 *  0. Before anything changes: our handler is made the one installed for
 *     LPSX_SIGNAL, the thread list is opened (and, when /proc belongs to
 *     an ancestor PID namespace, the ids it lists are translated to ours),
 *     and every thread is checked to be reachable: one that keeps the
 *     signal blocked, or stays stopped, refuses the call (EDEADLK),
 *     unless it is an io_uring worker, which is left out of the
 *     broadcast altogether (psx_ioworker.c says why).
 *     Without a thread list, the caller makes the call alone if the
 *     kernel proves it has no other thread (psx_solo.c); otherwise
 *     nothing is made.
 *  1. The caller makes the system call itself. If it fails, nothing else
 *     happens: the caller gets -1 and errno.
 *  2. The command and a new generation number are published, then every
 *     other thread listed in /proc/self/task gets a slot in the table
 *     below and a signal, sent with rt_tgsigqueueinfo() so that it
 *     carries our mark (SI_QUEUE, our pid, LPSX_MARK in si_errno) and, in
 *     si_value, the generation and the slot index. An io_uring worker
 *     gets no signal, and its slot is GONE from the start.
 *  3. The signal handler (psx_signal.c) claims its slot (PENDING to
 *     RUNNING), makes the same system call, stores the result and marks
 *     the slot DONE.
 *  4. The broadcaster waits until every slot is DONE or its thread is
 *     GONE (exited, or a zombie that will never run again), then lists
 *     /proc/self/task again: threads created meanwhile get slots and
 *     signals too, those that were handed the id of a thread met before
 *     included (a listed thread is its id and its /proc inode). It stops
 *     when a listing taken after every slot settled finds nobody new and
 *     a count of the process's threads proves no live thread is missing
 *     (a listing can skip one: lpsx_run_census). Should no thread answer
 *     for LPSX_STALL_NS, the process is killed: the caller has changed,
 *     so returning would leave threads that differ.
 *
 * A slot's ticket packs the generation with the phase, so a late or
 * duplicated signal from an earlier broadcast can never claim a slot of
 * the current one, and slots are never freed, so a late handler never
 * touches freed memory.
 */
enum lpsx_phase {
	LPSX_PENDING = 0, /* signalled, not started */
	LPSX_RUNNING = 1, /* the handler is making the call */
	LPSX_DONE = 2,	  /* result stored */
	LPSX_GONE = 3,	  /* exited before it could run it, or never will
			     run it: an io_uring worker (psx_ioworker.c) */
};

#define LPSX_TICKET(gen, phase) (((uint64_t)(gen) << 2) | (uint64_t)(phase))
#define LPSX_PHASE(ticket)	((enum lpsx_phase)((ticket)&3))

/* Marks our signals in si_errno ("psx"), with si_code SI_QUEUE and our pid. */
#define LPSX_MARK 0x707378

/*
 * The signal: 33, which glibc keeps for itself (SIGSETXID, its setuid()
 * broadcast) and libcap 2.76's libpsx uses too. glibc's sigfillset() and
 * sigaddset() leave it out of every set, and its sigprocmask() and
 * pthread_sigmask() drop it from every mask they install, so the common
 * daemon pattern (every worker blocks "all" signals, one thread sits in
 * sigwait()) still lets it through; musl's set functions leave it out
 * too. Only a raw rt_sigprocmask() can block it, and the pre-flight check
 * (psx_preflight.c) catches that. glibc's sigaction()
 * refuses it, so psx_rawsig.c installs our handler with rt_sigaction()
 * and chains glibc's own (see psx_signal.c).
 */
#define LPSX_SIGNAL 33

/* Timings, in nanoseconds (see psx_threads.c). */
#define LPSX_PREFLIGHT_NS (2000ull * 1000000u) /* unreachable before the call */
#define LPSX_STALL_NS	  (10000ull * 1000000u) /* no answer after the call */

struct lpsx_slot {
	uint64_t ticket; /* atomic: LPSX_TICKET(generation, phase) */
	pid_t tid;	 /* atomic; set before the ticket is published */
	long result;	 /* the handler's result; -errno on failure */
	/* Used by the broadcaster only. */
	pid_t ptid;   /* the id /proc lists it under (its own namespace's) */
	uint64_t ino; /* which thread that id named (lpsx_proc_ino) */
	uint64_t sent_ns; /* when it was last signalled or checked */
};

/* The command every thread runs; stable while its generation is active. */
struct lpsx_command {
	long nr;
	long arg[6];
	int nargs; /* how many arguments the caller gave, for reports */
};

/*
 * psx_lock.c: the broadcast lock; lpsx_lock() returns 1 if it took over a
 * stale one, -1 (EDEADLK) if the calling thread holds it already.
 */
int lpsx_lock(void);
void lpsx_unlock(void);

/* psx_rawsig.c: rt_sigaction() and rt_sigprocmask() as the kernel has them. */
#define LPSX_KSET_WORDS (64 / (8 * sizeof(unsigned long)))

struct lpsx_kset {
	unsigned long word[LPSX_KSET_WORDS];
};

struct lpsx_ksigaction {
	void *handler; /* a function, SIG_DFL or SIG_IGN */
	unsigned long flags;
	void *restorer; /* absent where the kernel has no such field */
	struct lpsx_kset mask;
};

int lpsx_ksig_action(int sig, const struct lpsx_ksigaction *act,
		     struct lpsx_ksigaction *old);
int lpsx_ksig_mask(int how, const struct lpsx_kset *set, struct lpsx_kset *old);
void lpsx_ksig_set_handler(struct lpsx_ksigaction *act,
			   void (*fn)(int, siginfo_t *, void *));
void lpsx_kset_add(struct lpsx_kset *set, int sig);

/* psx_signal.c: our handler, its installation, and sending. */
extern struct lpsx_command lpsx_command;
extern uint32_t lpsx_active_gen; /* atomic; 0 when no broadcast runs */
extern uint32_t lpsx_acks;	 /* atomic futex word, bumped per DONE */
int lpsx_signal_claim(void);
int lpsx_signal_send(pid_t pid, pid_t tid, uint32_t gen, uint32_t index);

/* psx_proc.c: /proc, the thread list and each thread's status. */
struct lpsx_task {
	char state;   /* the State: letter ('R', 'S', 'D', 't', 'Z', ...) */
	int blocked;  /* LPSX_SIGNAL is in its SigBlk */
	int pending;  /* LPSX_SIGNAL is in its own SigPnd */
	int levels;   /* fields on its NSpid line; 0 without one */
	pid_t tid;    /* the last of them: its id in our namespace */
	long threads; /* Threads: of its process; -1 if not shown */
};

int lpsx_proc_open(pid_t *self_ptid, int *translate);
int lpsx_proc_task(int dirfd, pid_t ptid, struct lpsx_task *task);
int lpsx_proc_ino(int dirfd, pid_t ptid, uint64_t *ino);
int lpsx_proc_gone(int err);

/*
 * psx_ioworker.c: 1 when a listed thread is one of io_uring's workers,
 * which run no code of the program's and are left out of a broadcast;
 * 0 when not; -1 with errno (ENOENT or ESRCH when it has gone).
 */
int lpsx_proc_io_worker(int dirfd, pid_t ptid);

/*
 * psx_solo.c: when the thread list cannot be had, the call made by the
 * caller alone if the kernel proves it is the process's only thread.
 * Returns 1 when it was made (*ret its result, errno its error or left as
 * it was), 0 when that was not proven (nothing made, errno as it was).
 */
int lpsx_solo_call(long nr, const long arg[6], long *ret);

/* psx_threads.c: the slot table and the walk over /proc/self/task. */
struct lpsx_run {
	int dirfd;     /* our task directory, opened before the call */
	int translate; /* /proc is an ancestor namespace's: map its ids */
	pid_t pid;
	pid_t self;	 /* the caller, in our namespace */
	pid_t self_ptid; /* the caller, as /proc lists it */
	uint32_t gen;
	uint32_t nslots;    /* slots in use by this broadcast */
	uint32_t found;	    /* new threads in the current sweep */
	uint32_t others;    /* pre-flight: threads listed besides the caller */
	uint32_t *hash;	    /* listed id -> slot index + 1, open addressing */
	uint32_t hash_size; /* a power of two */
	pid_t *waiting;	    /* pre-flight: threads not yet reachable */
	uint32_t nwaiting, waiting_size;
	uint32_t *listed; /* pre-flight: listed id << 1 | io worker */
	uint32_t nlisted, listed_size; /* a power of two, or 0 */
};

struct lpsx_slot *lpsx_slot_at(uint32_t index);
int lpsx_run_open(struct lpsx_run *run);
int lpsx_run_each(struct lpsx_run *run, int (*fn)(struct lpsx_run *, pid_t));
void lpsx_run_close(struct lpsx_run *run);
int lpsx_run_preflight(struct lpsx_run *run);
int lpsx_preflight_listed(const struct lpsx_run *run, pid_t ptid);
int lpsx_run_sweep(struct lpsx_run *run);
int lpsx_run_census(struct lpsx_run *run);
int lpsx_run_wait(struct lpsx_run *run);
pid_t lpsx_gettid(void);
uint64_t lpsx_now_ns(void);

#endif
