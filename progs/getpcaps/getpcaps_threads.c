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
 * Races: each thread directory is opened relative to the task directory.
 * The kernel lists and resolves there only threads of this thread group,
 * so a thread id reused by another process can never be read as one of
 * ours; an open thread directory is tied to its thread, so one that exits
 * while being read answers ESRCH or ENOENT, and is left out (an exited
 * thread holds nothing). The process as a whole is checked by the caller
 * (start time before and after).
 *
 * The listing itself can leave live threads out. The kernel lists the
 * task directory in the order threads were created, and a getdents(2)
 * call resumes where the last one stopped by the thread it stopped at, or,
 * when that thread has exited, by position (fs/proc/base.c, first_tid()):
 * once earlier threads exit between two calls, the ones after the gap are
 * never listed. glibc's readdir() fetches 32 KiB (about a thousand
 * threads) a call, and we read each status between calls, so a process
 * whose threads exit at the right moment hides a root thread created
 * after a thousand others, its main thread showing nobody. So the task
 * directory is listed a second time once the threads are read, in one
 * getdents(2) call with room for all (nothing to resume, no window
 * between calls), and every thread it names that the first listing left
 * out is read too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "getpcaps.h"

int creds_root_like(const struct creds *c)
{
	return c->uid[0] == 0 || c->uid[1] == 0 || c->uid[2] == 0;
}

int creds_uid0(const struct creds *c)
{
	return creds_root_like(c) || c->uid[3] == 0;
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
		p->c.groups = NULL; /* the union needs no group list */
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
		struct thread_set *sets =
			realloc(p->sets, more * sizeof(*sets));

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
	c->groups = NULL; /* the set owns them now */
	c->ngroups = 0;
	set->tids[0] = tid;
	set->count = 1;
	return 0;
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

void threads_trim(struct proc *p)
{
	size_t i;

	if (p->nsets == 1 && p->threads_untold == 0) {
		threads_free(p);
		return;
	}
	for (i = 0; i < p->nsets; i++)
		creds_release(&p->sets[i].c);
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

/* The thread ids the first listing gave, for the second to compare. */
struct tid_list {
	pid_t *tids;
	size_t n, cap;
};

static int tid_list_add(struct tid_list *l, pid_t tid)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		pid_t *tids = realloc(l->tids, cap * sizeof(*tids));

		if (tids == NULL) {
			errno = ENOMEM;
			return -1;
		}
		l->tids = tids;
		l->cap = cap;
	}
	l->tids[l->n++] = tid;
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * Reads thread tid (its directory name) into p. Returns 0 (read, or gone
 * meanwhile), or -1 with errno. *tdfd keeps the thread's directory open
 * when it is not NULL and still -1.
 */
static int read_thread(struct proc *p, int taskfd, const char *name, pid_t tid,
		       struct buf *b, int *live_dfd)
{
	struct creds c;
	int tdfd, saved;

	tdfd = openat(taskfd, name,
		      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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

/* The kernel's record of getdents64(2), read field by field. */
struct dirent_head {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
} __attribute__((packed));

/*
 * The second listing: the task directory named by dfd, in one
 * getdents64(2) call that has room for every thread (a call that fills
 * its buffer is made again with twice the room; a second call that still
 * gives names means the first stopped early, and the listing starts over,
 * at most a few times). Each thread it names that is not in seen (sorted)
 * is read into p. Returns 0, or -1 with errno.
 */
static int relist(struct proc *p, int dfd, const struct tid_list *seen,
		  struct buf *b, int *live_dfd)
{
	/* A record is 32 bytes for any name of up to 10 digits. */
	size_t size = (seen->n + 64) * 32 + 1024, used;
	char *buf = NULL;
	int taskfd, tries, err = 0;
	long got, more;

	taskfd = openat(dfd, "task",
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (taskfd < 0)
		return vanished(errno) ? 0 : -1;
	for (tries = 0; tries < 8; tries++) {
		char *grown = realloc(buf, size);

		if (grown == NULL) {
			err = ENOMEM;
			goto out;
		}
		buf = grown;
		if (lseek(taskfd, 0, SEEK_SET) < 0) {
			err = errno;
			goto out;
		}
		got = syscall(SYS_getdents64, taskfd, buf, size);
		if (got < 0) {
			err = vanished(errno) ? 0 : errno;
			goto out;
		}
		/* Full, or close to it: more may have come after. */
		if ((size_t)got + 512 > size) {
			size *= 2;
			continue;
		}
		more = syscall(SYS_getdents64, taskfd, buf + got,
			       size - (size_t)got);
		if (more == 0)
			break;
		if (more < 0) {
			err = vanished(errno) ? 0 : errno;
			goto out;
		}
	}
	if (tries == 8) {
		err = EAGAIN; /* never one whole listing */
		goto out;
	}
	for (used = 0; used < (size_t)got;) {
		struct dirent_head h;
		const char *name;
		pid_t tid;

		memcpy(&h, buf + used, sizeof(h));
		if (h.reclen == 0 || used + h.reclen > (size_t)got)
			break;
		name = buf + used + sizeof(h);
		used += h.reclen;
		if (tid_name(name, &tid) < 0 || tid == p->pid ||
		    (seen->n > 0 && bsearch(&tid, seen->tids, seen->n,
					    sizeof(tid), by_tid) != NULL))
			continue;
		if (read_thread(p, taskfd, name, tid, b, live_dfd) < 0) {
			err = errno;
			goto out;
		}
	}
out:
	free(buf);
	close(taskfd);
	errno = err;
	return err ? -1 : 0;
}

int threads_read(struct proc *p, int dfd, struct creds *main_creds,
		 unsigned nthreads, struct buf *b, int *live_dfd)
{
	struct tid_list seen = { NULL, 0, 0 };
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
	taskfd = openat(dfd, "task",
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
		if (tid_list_add(&seen, tid) < 0 ||
		    read_thread(p, dirfd(dir), d->d_name, tid, b, live_dfd) <
			    0) {
			err = errno;
			break;
		}
	}
	closedir(dir);
	if (err == 0) {
		/* none seen: tids is NULL, which qsort() may not be given */
		if (seen.n > 1)
			qsort(seen.tids, seen.n, sizeof(*seen.tids), by_tid);
		if (relist(p, dfd, &seen, b, live_dfd) < 0)
			err = errno;
	}
out:
	free(seen.tids);
	if (err == 0 && p->threads == 0)
		err = ESRCH; /* every thread has exited */
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
