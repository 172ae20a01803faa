/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all: every thread of a process, grouped by credentials.
 *
 * The kernel keeps credentials per thread. glibc's setuid() family and
 * libpsx make every thread follow, but a thread that calls setresuid(2),
 * capset(2) or prctl(2) itself changes only its own: a worker running as
 * root with a full effective set inside a process whose main thread is
 * nobody with nothing. /proc/<pid>/status shows the main thread alone;
 * /proc/<pid>/task/<tid>/status shows each thread.
 *
 * Races: the task directory is read once, and each thread directory
 * opened relative to it. The kernel lists and resolves there only threads
 * of this thread group, so a thread id reused by another process can never
 * be read as one of ours; an open thread directory is tied to its thread,
 * so one that exits while being read answers ESRCH or ENOENT, and is left
 * out (an exited thread holds nothing). A thread started after the
 * listing is not seen, but it was cloned from one that was, with its
 * credentials. The process as a whole is checked by the caller (start
 * time before and after).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "getpcaps.h"

int creds_root_like(const struct creds *c)
{
	return c->uid[0] == 0 || c->uid[1] == 0 || c->uid[2] == 0;
}

void creds_release(struct creds *c)
{
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
}

static int same_groups(const struct creds *a, const struct creds *b)
{
	return a->ngroups == b->ngroups &&
	       (a->ngroups == 0 ||
		memcmp(a->groups, b->groups,
		       (size_t)a->ngroups * sizeof(*a->groups)) == 0);
}

static int same_creds(const struct creds *a, const struct creds *b)
{
	return memcmp(a->uid, b->uid, sizeof(a->uid)) == 0 &&
	       memcmp(a->gid, b->gid, sizeof(a->gid)) == 0 &&
	       a->inh == b->inh && a->prm == b->prm && a->eff == b->eff &&
	       a->bnd == b->bnd && a->amb == b->amb &&
	       a->amb_known == b->amb_known && a->nnp == b->nnp &&
	       same_groups(a, b);
}

/* Widens w (all threads so far) by c; w->groups stays the main thread's. */
static void widen(struct creds *w, const struct creds *c)
{
	int i;

	for (i = 0; i < 4; i++) {
		if (c->uid[i] == 0)
			w->uid[i] = 0;
		if (c->gid[i] == 0)
			w->gid[i] = 0;
	}
	w->inh |= c->inh;
	w->prm |= c->prm;
	w->eff |= c->eff;
	w->bnd |= c->bnd;
	w->amb |= c->amb;
	w->amb_known = w->amb_known && c->amb_known;
	if (c->nnp == 0 || (c->nnp < 0 && w->nnp > 0))
		w->nnp = c->nnp;
}

/*
 * Adds thread tid with credentials *c to p, which takes c's groups over
 * (c->groups is NULL after). Returns 0, or -1 with errno ENOMEM.
 */
static int add_thread(struct proc *p, pid_t tid, struct creds *c)
{
	struct thread_set *set;
	size_t i;

	p->threads++;
	for (i = 0; i < p->nsets; i++) {
		set = &p->sets[i];
		if (!same_creds(&set->c, c))
			continue;
		if (set->count < THREAD_TIDS_MOST)
			set->tids[set->count] = tid;
		set->count++;
		creds_release(c);
		return 0;
	}
	if (p->nsets == 0) {
		p->c = *c;
		p->c.groups = NULL;	/* the union needs no group list */
		p->c.ngroups = 0;
	} else {
		widen(&p->c, c);
	}
	if (p->nsets == THREAD_SETS_MOST) {
		p->threads_untold++;
		creds_release(c);
		return 0;
	}
	if (p->nsets == 0 || (p->nsets & (p->nsets - 1)) == 0) {
		size_t more = p->nsets ? p->nsets * 2 : 1;
		struct thread_set *sets = realloc(p->sets,
						  more * sizeof(*sets));

		if (sets == NULL) {
			creds_release(c);
			errno = ENOMEM;
			return -1;
		}
		p->sets = sets;
	}
	set = &p->sets[p->nsets++];
	memset(set, 0, sizeof(*set));
	set->c = *c;
	c->groups = NULL;	/* the set owns them now */
	c->ngroups = 0;
	set->tids[0] = tid;
	set->count = 1;
	return 0;
}

void threads_forget_groups(struct proc *p)
{
	size_t i;

	for (i = 0; i < p->nsets; i++)
		creds_release(&p->sets[i].c);
}

void threads_free(struct proc *p)
{
	size_t i;

	for (i = 0; i < p->nsets; i++)
		creds_release(&p->sets[i].c);
	free(p->sets);
	p->sets = NULL;
	p->nsets = 0;
}

static int tid_name(const char *name, pid_t *tid)
{
	unsigned long v = 0;

	if (*name < '1' || *name > '9')
		return -1;
	for (; *name != '\0'; name++) {
		if (*name < '0' || *name > '9' || v > 0x7fffffffUL / 10)
			return -1;
		v = v * 10 + (unsigned long)(*name - '0');
	}
	if (v > 0x7fffffffUL)
		return -1;
	*tid = (pid_t)v;
	return 0;
}

static int vanished(int err)
{
	return err == ENOENT || err == ESRCH;
}

/*
 * Reads thread tid (its directory name) into p. Returns 0 (read, or gone
 * meanwhile), or -1 with errno. *tdfd keeps the thread's directory open
 * when it is not NULL and still -1.
 */
static int read_thread(struct proc *p, int taskfd, const char *name,
		       pid_t tid, struct buf *b, int *live_dfd)
{
	struct creds c;
	int tdfd, saved;

	tdfd = openat(taskfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
	if (tdfd < 0)
		return vanished(errno) ? 0 : -1;
	if (read_at(tdfd, "status", b, 1, 0) < 0) {
		saved = errno;
		close(tdfd);
		errno = saved;
		return vanished(saved) ? 0 : -1;
	}
	if (creds_parse(b->data, &c, NULL) < 0 || add_thread(p, tid, &c) < 0) {
		saved = errno;
		close(tdfd);
		errno = saved;
		return -1;
	}
	if (live_dfd != NULL && *live_dfd < 0)
		*live_dfd = tdfd;
	else
		close(tdfd);
	return 0;
}

int threads_read(struct proc *p, int dfd, struct creds *main_creds,
		 unsigned nthreads, struct buf *b, int *live_dfd)
{
	struct dirent *d;
	int taskfd, err = 0;
	DIR *dir;

	p->threads = p->nsets = p->threads_untold = 0;
	p->sets = NULL;
	p->main_exited = main_creds == NULL;
	if (main_creds != NULL && add_thread(p, p->pid, main_creds) < 0)
		return -1;
	/* Most processes have one thread: no more to read. */
	if (main_creds != NULL && nthreads == 1)
		return 0;
	taskfd = openat(dfd, "task", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	dir = taskfd < 0 ? NULL : fdopendir(taskfd);
	if (dir == NULL) {
		err = errno;
		if (taskfd >= 0)
			close(taskfd);
		/*
		 * The whole process is exiting: the caller's second look at
		 * its stat says so, or finds it still there and keeps what
		 * was read.
		 */
		if (vanished(err) && p->threads > 0)
			err = 0;
		goto out;
	}
	for (;;) {
		pid_t tid;

		errno = 0;
		d = readdir(dir);
		if (d == NULL) {
			err = errno;
			break;
		}
		/* the main thread: read already, or exited */
		if (tid_name(d->d_name, &tid) < 0 || tid == p->pid)
			continue;
		/* a thread that exits meanwhile is no error (see above) */
		if (read_thread(p, dirfd(dir), d->d_name, tid, b,
				live_dfd) < 0) {
			err = errno;
			break;
		}
	}
	closedir(dir);
out:
	if (err == 0 && p->threads == 0)
		err = ESRCH;		/* every thread has exited */
	if (err == 0)
		return 0;
	if (live_dfd != NULL && *live_dfd >= 0) {
		close(*live_dfd);
		*live_dfd = -1;
	}
	threads_free(p);
	errno = err;
	return -1;
}
