/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Counts per process and capability: every check the kernel reported,
 * granted or refused, attributed to the process that made it (forks make
 * the family tree; an execve renames), and whatever was lost on the way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capaudit.h"

static struct proc *find_proc(struct tally *t, pid_t pid, int create)
{
	struct proc *p;
	size_t i;

	/* Most samples come from the process of the previous one. */
	for (i = t->nprocs; i-- > 0;)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	if (!create)
		return NULL;
	if (t->nprocs == t->procs_size) {
		size_t n = t->procs_size ? t->procs_size * 2 : 16;
		struct proc *q = reallocarray(t->procs, n, sizeof(*q));

		if (q == NULL) {
			t->nomem = 1;
			return NULL;
		}
		t->procs = q;
		t->procs_size = n;
	}
	p = &t->procs[t->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

void tally_init(struct tally *t, pid_t root, const char *root_comm)
{
	struct proc *p;

	memset(t, 0, sizeof(*t));
	t->root = root;
	t->self = getpid();
	p = find_proc(t, root, 1);
	if (p != NULL && root_comm == NULL)
		p->ppid = t->self;	/* we launched it */
	if (p != NULL && root_comm != NULL) {
		snprintf(p->comm, sizeof(p->comm), "%s", root_comm);
		p->execd = 1;	/* attached: it runs what it runs */
	}
}

static void count(struct tally *t, pid_t pid, int cap, int ret)
{
	struct proc *p = find_proc(t, pid, 1);

	if (p == NULL)
		return;
	if (!p->execd) {
		/* Our launcher's own steps (setuid, setgroups, the IAB). */
		t->launcher++;
		return;
	}
	if (cap < 0 || cap >= NCAPS) {
		t->out_of_range++;
		return;
	}
	if (ret == 0)
		p->granted[cap]++;
	else
		p->refused[cap]++;
}

/* A kprobe pair: the entry's capability waits for its thread's return. */
static void pair_entry(struct tally *t, pid_t tid, int cap)
{
	size_t i;

	for (i = 0; i < t->npending; i++)
		if (t->pending[i].tid == tid) {
			t->pending[i].cap = cap;
			return;
		}
	if (t->npending == t->pending_size) {
		size_t n = t->pending_size ? t->pending_size * 2 : 16;
		struct pending *q = reallocarray(t->pending, n, sizeof(*q));

		if (q == NULL) {
			t->nomem = 1;
			return;
		}
		t->pending = q;
		t->pending_size = n;
	}
	t->pending[t->npending].tid = tid;
	t->pending[t->npending].cap = cap;
	t->npending++;
}

static int pair_return(struct tally *t, pid_t tid, int *cap)
{
	size_t i;

	for (i = 0; i < t->npending; i++)
		if (t->pending[i].tid == tid) {
			*cap = t->pending[i].cap;
			t->pending[i] = t->pending[--t->npending];
			return 0;
		}
	return -1;
}

void tally_record(const struct record *r, void *arg)
{
	struct tally *t = arg;
	struct proc *p, *parent;
	int cap;

	switch (r->kind) {
	case REC_SAMPLE:
		if (r->s.pid == t->self)
			break;	/* tracer_flush()'s own check */
		if (r->s.have_cap && r->s.have_ret)
			count(t, r->s.pid, r->s.cap, r->s.ret);
		else if (r->s.have_cap)
			pair_entry(t, r->s.tid, r->s.cap);
		else if (pair_return(t, r->s.tid, &cap) == 0)
			count(t, r->s.pid, cap, r->s.ret);
		else
			t->unpaired++;
		break;
	case REC_FORK:
		if (r->pid == r->ppid)
			break;	/* a new thread of the same process */
		p = find_proc(t, r->pid, 1);
		if (p == NULL)
			break;
		parent = find_proc(t, r->ppid, 0);	/* may have moved */
		p->ppid = r->ppid;
		if (parent != NULL) {
			memcpy(p->comm, parent->comm, sizeof(p->comm));
			p->execd = parent->execd;
		}
		break;
	case REC_COMM:
		p = find_proc(t, r->pid, 1);
		if (p == NULL)
			break;
		memcpy(p->comm, r->comm, sizeof(p->comm));
		if (r->exec)
			p->execd = 1;
		break;
	case REC_EXIT:
		p = find_proc(t, r->pid, 0);
		if (p != NULL && r->pid == r->tid)
			p->exited = 1;
		break;
	case REC_LOST:
		t->lost += r->lost;
		break;
	case REC_OTHER:
		break;
	}
}

size_t tally_running(const struct tally *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nprocs; i++)
		n += t->procs[i].execd && !t->procs[i].exited;
	return n;
}

void tally_free(struct tally *t)
{
	free(t->procs);
	free(t->pending);
	t->procs = NULL;
	t->pending = NULL;
}
