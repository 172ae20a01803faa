/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Internal declarations shared by libpsx's source files; never installed. */
#ifndef LPSX_H
#define LPSX_H

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
 *  1. The caller makes the system call itself. If it fails, nothing else
 *     happens: the caller gets -1 and errno.
 *  2. The command and a new generation number are published, then every
 *     other thread listed in /proc/self/task gets a slot in the table
 *     below and a SIGSYS, sent with rt_tgsigqueueinfo() so that it carries
 *     our mark (SI_QUEUE, our pid, LPSX_MARK in si_errno) and, in
 *     si_value, the generation and the slot index.
 *  3. The signal handler (psx_signal.c) claims its slot (PENDING to
 *     RUNNING), makes the same system call, stores the result and marks
 *     the slot DONE.
 *  4. The broadcaster waits until every slot is DONE or its thread is
 *     GONE (exited, or a zombie that will never run again), then lists
 *     /proc/self/task again: threads created meanwhile get slots and
 *     signals too. It stops when a listing taken after every slot settled
 *     finds nobody new.
 *
 * A slot's ticket packs the generation with the phase, so a late or
 * duplicated signal from an earlier broadcast can never claim a slot of
 * the current one, and slots are never freed, so a late handler never
 * touches freed memory.
 */
enum lpsx_phase {
	LPSX_PENDING = 0,	/* signalled, not started */
	LPSX_RUNNING = 1,	/* the handler is making the call */
	LPSX_DONE = 2,		/* result stored */
	LPSX_GONE = 3,		/* the thread exited before it could run it */
};

#define LPSX_TICKET(gen, phase)	(((uint64_t)(gen) << 2) | (uint64_t)(phase))
#define LPSX_PHASE(ticket)	((enum lpsx_phase)((ticket) & 3))

/* Marks our signals in si_errno ("psx"), with si_code SI_QUEUE and our pid. */
#define LPSX_MARK	0x707378

struct lpsx_slot {
	uint64_t ticket;	/* atomic: LPSX_TICKET(generation, phase) */
	pid_t tid;		/* atomic; set before the ticket is published */
	long result;		/* the handler's result; -errno on failure */
	/* Used by the broadcaster only. */
	uint64_t sent_ns;	/* when it was last signalled or checked */
};

/* The command every thread runs; stable while its generation is active. */
struct lpsx_command {
	long nr;
	long arg[6];
	int nargs;		/* how many arguments the caller gave, for reports */
};

/* psx_signal.c: the SIGSYS handler, its installation, and sending. */
extern struct lpsx_command lpsx_command;
extern uint32_t lpsx_active_gen;	/* atomic; 0 when no broadcast runs */
extern uint32_t lpsx_acks;		/* atomic futex word, bumped per DONE */
int lpsx_signal_claim(void);
int lpsx_signal_send(pid_t pid, pid_t tid, uint32_t gen, uint32_t index);

/* psx_threads.c: the slot table and the walk over /proc/self/task. */
struct lpsx_run {
	int dirfd;		/* /proc/self/task, opened before the call */
	pid_t pid;
	pid_t self;
	uint32_t gen;
	uint32_t nslots;	/* slots in use by this broadcast */
	uint32_t found;		/* new threads in the current sweep */
	uint32_t *hash;		/* tid -> slot index + 1, open addressing */
	uint32_t hash_size;	/* a power of two */
};

struct lpsx_slot *lpsx_slot_at(uint32_t index);
int lpsx_run_open(struct lpsx_run *run);
void lpsx_run_close(struct lpsx_run *run);
int lpsx_run_sweep(struct lpsx_run *run);
void lpsx_run_wait(struct lpsx_run *run);
pid_t lpsx_gettid(void);

#endif
