/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getcap -r: a parallel, descriptor-relative walk that never follows links. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "getcap_int.h"

#define DENTS_BUF	(64 * 1024)	/* most directories: two getdents64 */
#define MAX_THREADS	64

/*
 * A directory still to list, or listed with children still to open. Each
 * child is opened relative to its parent's descriptor, so no path is ever
 * resolved twice and depth is bounded by descriptors, not PATH_MAX or the
 * stack. The parent's descriptor stays open while children are unopened.
 */
struct dnode {
	struct dnode *parent;	/* NULL: opened by path from the cwd */
	int fd;
	int root;		/* the operand: its st_dev is the -x one */
	int pending;		/* unopened children, +1 while listed */
	size_t nameoff;		/* the name to open: path + nameoff */
	size_t pathlen;
	char path[];		/* as printed: operand joined with names */
};

struct walk {
	const struct opts *o;
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct dnode **stack;	/* LIFO keeps the walk near depth-first, */
	size_t n, cap;		/* so few parent descriptors stay open  */
	size_t busy;		/* threads holding a directory */
	int waiting;
	dev_t dev;		/* the operand's filesystem, for -x */
	int open_fds;		/* directory descriptors open now (atomic) */
	int fd_budget;		/* above it, parents stop holding theirs */
};

/* Per-thread scratch: output lines, getdents64 buffer, found subdirectories. */
struct worker {
	struct walk *w;
	struct outbuf *ob;
	char *dents;
	struct dnode **kids;
	size_t nkids, capkids;
};

int is_excluded(const struct opts *o, const struct ent *e)
{
	size_t dl = e->dir != NULL ? e->dirlen : 0, nl = strlen(e->name), i;
	int slash = e->dir != NULL && dl > 0 && e->dir[dl - 1] != '/';

	for (i = 0; i < o->n_exclude; i++) {
		const char *x = o->exclude[i];

		if (strlen(x) != dl + (size_t)slash + nl ||
		    memcmp(x, e->dir != NULL ? e->dir : "", dl) != 0 ||
		    (slash && x[dl] != '/') ||
		    memcmp(x + dl + (size_t)slash, e->name, nl) != 0)
			continue;
		return 1;
	}
	return 0;
}

static struct dnode *new_node(struct dnode *parent, const char *dir,
			      size_t dirlen, const char *name)
{
	size_t nl = strlen(name);
	int slash = dir != NULL && dirlen > 0 && dir[dirlen - 1] != '/';
	struct dnode *d = malloc(sizeof(*d) + dirlen + (size_t)slash + nl + 1);

	if (d == NULL)
		return NULL;
	d->parent = parent;
	d->fd = -1;
	d->root = 0;
	d->pending = 1;
	memcpy(d->path, dir != NULL ? dir : "", dirlen);
	if (slash)
		d->path[dirlen] = '/';
	d->nameoff = dirlen + (size_t)slash;
	memcpy(d->path + d->nameoff, name, nl + 1);
	d->pathlen = d->nameoff + nl;
	return d;
}

static void close_dir(struct walk *w, struct dnode *d)
{
	if (d->fd < 0)
		return;
	close(d->fd);
	d->fd = -1;
	__atomic_sub_fetch(&w->open_fds, 1, __ATOMIC_RELAXED);
}

/* Drops one reference; the last closes the descriptor and frees. */
static void put_node(struct walk *w, struct dnode *d)
{
	if (__atomic_sub_fetch(&d->pending, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	close_dir(w, d);
	free(d);
}

static void push_kids(struct worker *k)
{
	struct walk *w = k->w;
	size_t i;

	if (k->nkids == 0)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->n + k->nkids > w->cap) {
		size_t cap = w->cap * 2 > w->n + k->nkids ? w->cap * 2 :
							    w->n + k->nkids;
		struct dnode **s = realloc(w->stack, cap * sizeof(*s));

		if (s == NULL) {
			pthread_mutex_unlock(&w->lock);
			out_err("getcap: out of memory: %zu directories "
				"skipped\n", k->nkids);
			for (i = 0; i < k->nkids; i++) {
				if (k->kids[i]->parent != NULL)
					put_node(w, k->kids[i]->parent);
				free(k->kids[i]);
			}
			k->nkids = 0;
			return;
		}
		w->stack = s;
		w->cap = cap;
	}
	/* Reversed, so the first subdirectory listed is taken first. */
	for (i = k->nkids; i > 0; i--)
		w->stack[w->n++] = k->kids[i - 1];
	if (w->waiting > 0) {
		if (k->nkids > 1)
			pthread_cond_broadcast(&w->more);
		else
			pthread_cond_signal(&w->more);
	}
	pthread_mutex_unlock(&w->lock);
	k->nkids = 0;
}

static void add_kid(struct worker *k, struct dnode *parent, const struct ent *e)
{
	struct dnode *d;

	if (k->nkids == k->capkids) {
		size_t cap = k->capkids ? 2 * k->capkids : 64;
		struct dnode **p = realloc(k->kids, cap * sizeof(*p));

		if (p == NULL)
			goto nomem;
		k->kids = p;
		k->capkids = cap;
	}
	d = new_node(parent, e->dir, e->dirlen, e->name);
	if (d == NULL)
		goto nomem;
	__atomic_add_fetch(&parent->pending, 1, __ATOMIC_ACQ_REL);
	k->kids[k->nkids++] = d;
	return;
nomem:
	out_err("getcap: out of memory: directory '%s/%s' skipped\n", e->dir,
		e->name);
}

static unsigned char type_of(const struct ent *e, unsigned char d_type)
{
	struct stat st;

	if (d_type != DT_UNKNOWN)
		return d_type;
	/* Some filesystems leave d_type out: ask, without following. */
	if (fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	if (S_ISDIR(st.st_mode))
		return DT_DIR;
	if (S_ISLNK(st.st_mode))
		return DT_LNK;
	return DT_REG;		/* queried, as nftw's FTW_F */
}

/* One entry of a listed directory, as nftw would report it. */
static void visit(struct worker *k, struct dnode *d, const struct ent *e,
		  unsigned char d_type, int *unsearchable)
{
	const struct opts *o = k->w->o;

	if (o->n_exclude > 0 && is_excluded(o, e))
		return;
	switch (type_of(e, d_type)) {
	case DT_DIR:
		if (o->verbose)
			out_line(k->ob, e, " (Not a regular file)");
		add_kid(k, d, e);
		break;
	case DT_LNK:
	case DT_UNKNOWN:	/* stat failed: nftw's FTW_NS */
		if (o->verbose)
			out_line(k->ob, e, " (Not a regular file)");
		break;
	default:
		if (query_report(o, k->ob, e, 1) == EACCES && !*unsearchable) {
			/* An addition: libcap says nothing about this. */
			*unsearchable = 1;
			out_err("Failed to search directory '%s' (%s)\n",
				d->path, strerror(EACCES));
		}
		break;
	}
}

static void list_dir(struct worker *k, struct dnode *d)
{
	struct ent e = { .dirfd = d->fd, .dir = d->path, .dirlen = d->pathlen };
	int unsearchable = 0;

	for (;;) {
		long n = getdents64(d->fd, k->dents, DENTS_BUF), off;

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* An addition: nftw stops on this silently. */
			out_err("Failed to read directory '%s' (%s)\n",
				d->path, strerror(errno));
			break;
		}
		for (off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(void *)
					      (k->dents + off);

			off += de->d_reclen;
			e.name = de->d_name;
			if (e.name[0] == '.' && (e.name[1] == '\0' ||
			    (e.name[1] == '.' && e.name[2] == '\0')))
				continue;
			visit(k, d, &e, de->d_type, &unsearchable);
		}
	}
}

static void open_dir(struct worker *k, struct dnode *d)
{
	struct walk *w = k->w;
	int base = d->parent != NULL ? d->parent->fd : AT_FDCWD;
	struct stat st;

	/* O_NOFOLLOW: a directory swapped for a symlink is not entered. */
	d->fd = openat(base, d->path + d->nameoff,
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
		       O_NOCTTY);
	if (d->fd >= 0)
		__atomic_add_fetch(&w->open_fds, 1, __ATOMIC_RELAXED);
	if (d->fd < 0) {
		/* Gone or replaced since listed: nftw would not see it. */
		if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP)
			/* An addition: nftw (FTW_DNR) is silent here. */
			out_err("Failed to read directory '%s' (%s)\n",
				d->path, strerror(errno));
	} else if (w->o->one_fs) {
		/* Per directory, not per file: the mount boundary test. */
		if (fstat(d->fd, &st) < 0 || (!d->root && st.st_dev != w->dev))
			close_dir(w, d);
		else if (d->root)
			w->dev = st.st_dev;
	}
	if (d->parent != NULL)
		put_node(w, d->parent);	/* its descriptor is not needed */
	d->parent = NULL;
}

/*
 * A wide and deep tree can hold a descriptor per level (each parent keeps
 * its own until every child is open). Past the budget, children of a
 * short enough path are opened by that path from the current directory
 * instead, so the parent closes now; slower (the whole path is resolved
 * again) and only O_NOFOLLOW on the last component, but never EMFILE.
 */
static void release_kids(struct worker *k, struct dnode *d)
{
	struct walk *w = k->w;
	size_t i;

	if (__atomic_load_n(&w->open_fds, __ATOMIC_RELAXED) <= w->fd_budget)
		return;
	for (i = 0; i < k->nkids; i++) {
		struct dnode *kid = k->kids[i];

		if (kid->pathlen >= PATH_MAX)
			continue;	/* too long for a path: keep the fd */
		kid->parent = NULL;
		kid->nameoff = 0;
		/* Our listing reference still keeps d: put_node closes it. */
		__atomic_sub_fetch(&d->pending, 1, __ATOMIC_ACQ_REL);
	}
}

static void process(struct worker *k, struct dnode *d)
{
	open_dir(k, d);
	if (d->fd >= 0) {
		list_dir(k, d);
		release_kids(k, d);
		push_kids(k);
	}
	put_node(k->w, d);
	out_maybe_flush(k->ob);
}

static void *work(void *arg)
{
	struct worker *k = arg;
	struct walk *w = k->w;

	for (;;) {
		struct dnode *d;

		pthread_mutex_lock(&w->lock);
		while (w->n == 0 && w->busy > 0) {
			w->waiting++;
			pthread_cond_wait(&w->more, &w->lock);
			w->waiting--;
		}
		if (w->n == 0) {
			/* Nothing queued, nobody listing: the walk is over. */
			pthread_cond_broadcast(&w->more);
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		d = w->stack[--w->n];
		w->busy++;
		pthread_mutex_unlock(&w->lock);

		process(k, d);

		pthread_mutex_lock(&w->lock);
		w->busy--;
		if (w->busy == 0 && w->n == 0 && w->waiting > 0)
			pthread_cond_broadcast(&w->more);
		pthread_mutex_unlock(&w->lock);
	}
}

/* One thread per CPU we may run on: taskset and cpusets are honoured. */
static int thread_count(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/*
 * Deep trees keep one descriptor per level whose subdirectories are not
 * all opened yet; the soft limit (often 1024) would stop us long before
 * memory does, so take what the hard limit allows. Asked once. Returns
 * how many directory descriptors the walk may hold: under half the limit,
 * as each thread may open one more past the check, and stdio needs three.
 */
static int fd_budget(int nthreads)
{
	static long limit;
	struct rlimit rl;
	long b;

	if (limit == 0) {
		limit = 64;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			if (rl.rlim_cur < rl.rlim_max) {
				rl.rlim_cur = rl.rlim_max;
				if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
					getrlimit(RLIMIT_NOFILE, &rl);
			}
			limit = rl.rlim_cur == RLIM_INFINITY ||
				rl.rlim_cur > INT_MAX ? INT_MAX :
							(long)rl.rlim_cur;
		}
	}
	b = (limit - 3 - 2L * nthreads) / 2;
	return b < 0 ? 0 : (int)b;	/* 0: every short path by path */
}

void walk_tree(const struct opts *o, struct outbuf *ob, const char *path)
{
	struct walk w = { .o = o };
	struct worker main_worker = { .w = &w, .ob = ob };
	struct worker *extra = NULL;
	pthread_t *tids = NULL;
	int nthreads = thread_count(), started = 0, i;
	struct dnode *root = new_node(NULL, NULL, 0, path);

	if (root == NULL) {
		out_err("getcap: out of memory walking '%s'\n", path);
		return;
	}
	root->root = 1;
	w.fd_budget = fd_budget(nthreads);
	out_flush(ob);		/* the operand's line before its contents */
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.more, NULL);
	main_worker.dents = malloc(DENTS_BUF);
	if (main_worker.dents == NULL) {
		out_err("getcap: out of memory walking '%s'\n", path);
		free(root);
		goto out;
	}
	/*
	 * The operand itself first, on this thread: a lone directory (the
	 * common small case) then costs no thread at all.
	 */
	w.busy = 1;
	process(&main_worker, root);
	w.busy = 0;
	if (w.n == 0)
		goto out;
	if (nthreads > 1) {
		tids = calloc((size_t)nthreads - 1, sizeof(*tids));
		extra = calloc((size_t)nthreads - 1, sizeof(*extra));
	}
	for (i = 0; tids != NULL && extra != NULL && i < nthreads - 1; i++) {
		extra[i].w = &w;
		extra[i].ob = malloc(sizeof(*extra[i].ob));
		extra[i].dents = malloc(DENTS_BUF);
		if (extra[i].ob == NULL || extra[i].dents == NULL) {
			free(extra[i].ob);
			free(extra[i].dents);
			break;
		}
		out_init(extra[i].ob);
		if (pthread_create(&tids[i], NULL, work, &extra[i]) != 0) {
			free(extra[i].ob);
			free(extra[i].dents);
			break;
		}
		started++;
	}
	work(&main_worker);
	for (i = 0; i < started; i++) {
		pthread_join(tids[i], NULL);
		out_free(extra[i].ob);
		free(extra[i].ob);
		free(extra[i].dents);
		free(extra[i].kids);
	}
out:
	out_flush(ob);
	free(tids);
	free(extra);
	free(main_worker.dents);
	free(main_worker.kids);
	free(w.stack);
	pthread_cond_destroy(&w.more);
	pthread_mutex_destroy(&w.lock);
}
