/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The shared tree walker: parallel, descriptor-relative, never following a link. */
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
#include <sys/vfs.h>
#include <unistd.h>

#include "path.h"
#include "walk.h"

#define DENTS_BUF   (64 * 1024) /* most directories: two getdents64 */
#define MAX_THREADS 64

/*
 * A directory to list, or listed with subdirectories still to open. A node
 * holds a reference to its parent until it has been listed, or, when it gave
 * its descriptor back, until it is freed: its children then reopen it
 * through the chain of parents up to one that still holds a descriptor.
 */
struct wnode {
	struct wnode *parent; /* NULL: the root, or the reference dropped */
	int fd;		      /* -1 before opening and once given back */
	int root;	      /* the operand: never gives its fd back */
	int released;	      /* fd given back past the budget */
	int stale;	      /* (atomic) a reopen failed here: reported once */
	int pending;	      /* (atomic) references: listing, children */
	dev_t dev;	      /* with ino: what a reopen must find */
	ino_t ino;
	void *data;	/* the caller's, for this directory's entries */
	size_t nameoff; /* the name to open: path + nameoff */
	size_t pathlen;
	char path[]; /* as printed: root joined with names */
};

struct walk {
	const struct walk_config *c;
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct wnode **stack; /* LIFO keeps the walk near depth-first, */
	size_t n, cap;	      /* so few parent descriptors stay open  */
	size_t busy;	      /* threads holding a directory */
	int waiting;
	int root_err;		  /* why the root could not be opened, or 0 */
	dev_t dev;		  /* the root's filesystem, for one_fs */
	unsigned long root_ftype; /* its statfs f_type, for skip_pseudo */
	int open_fds;		  /* (atomic) directory descriptors held now */
	int fd_budget; /* above it, listed directories give theirs back */
};

/* Per thread: the caller's context, getdents64 buffer, found subdirectories. */
struct worker {
	struct walk *w;
	void *tctx;
	char *dents;
	struct wnode **kids;
	size_t nkids, capkids;
	struct wnode **chain; /* scratch for reopening through ancestors */
	size_t capchain;
};

static void report(struct worker *k, const char *path, enum walk_error what,
		   int err)
{
	const struct walk_config *c = k->w->c;

	if (c->ops->error != NULL)
		c->ops->error(c->arg, k->tctx, path, what, err);
}

static void done_with(struct worker *k, void *data)
{
	const struct walk_config *c = k->w->c;

	if (c->ops->dir_done != NULL)
		c->ops->dir_done(c->arg, k->tctx, data);
}

static struct wnode *new_node(struct wnode *parent, const char *dir,
			      size_t dirlen, const char *name, void *data)
{
	size_t nl = strlen(name);
	int slash = path_needs_slash(dir, dirlen);
	struct wnode *d = malloc(sizeof(*d) + dirlen + (size_t)slash + nl + 1);

	if (d == NULL)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->parent = parent;
	d->fd = -1;
	d->pending = 1;
	d->data = data;
	memcpy(d->path, dir != NULL ? dir : "", dirlen);
	if (slash)
		d->path[dirlen] = '/';
	d->nameoff = dirlen + (size_t)slash;
	memcpy(d->path + d->nameoff, name, nl + 1);
	d->pathlen = d->nameoff + nl;
	return d;
}

static void close_dir(struct walk *w, struct wnode *d)
{
	if (d->fd < 0)
		return;
	close(d->fd);
	d->fd = -1;
	__atomic_sub_fetch(&w->open_fds, 1, __ATOMIC_RELAXED);
}

/*
 * Drops one reference; the last closes the descriptor, frees the node and
 * drops the reference it held on its parent, and so on up (a loop, not
 * recursion: chains of given-back directories can be deep).
 */
static void put_node(struct walk *w, struct wnode *d)
{
	while (d != NULL &&
	       __atomic_sub_fetch(&d->pending, 1, __ATOMIC_ACQ_REL) == 0) {
		struct wnode *parent = d->parent;

		close_dir(w, d);
		free(d);
		d = parent;
	}
}

/* A child the caller will never see listed: tell it, and undo add_kid. */
static void drop_kid(struct worker *k, struct wnode *kid)
{
	report(k, kid->path, WALK_ERR_NOMEM, ENOMEM);
	done_with(k, kid->data);
	put_node(k->w, kid->parent);
	free(kid);
}

static void push_kids(struct worker *k)
{
	struct walk *w = k->w;
	size_t i;

	if (k->nkids == 0)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->n + k->nkids > w->cap) {
		size_t cap = w->cap * 2 > w->n + k->nkids ? w->cap * 2
							  : w->n + k->nkids;
		struct wnode **s = realloc(w->stack, cap * sizeof(*s));

		if (s == NULL) {
			pthread_mutex_unlock(&w->lock);
			for (i = 0; i < k->nkids; i++)
				drop_kid(k, k->kids[i]);
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

static void add_kid(struct worker *k, struct wnode *parent,
		    const struct walk_ent *e, void *data)
{
	struct wnode *d;

	if (k->nkids == k->capkids) {
		size_t cap = k->capkids ? 2 * k->capkids : 64;
		struct wnode **p = realloc(k->kids, cap * sizeof(*p));

		if (p == NULL)
			goto nomem;
		k->kids = p;
		k->capkids = cap;
	}
	d = new_node(parent, e->dir, e->dirlen, e->name, data);
	if (d == NULL)
		goto nomem;
	__atomic_add_fetch(&parent->pending, 1, __ATOMIC_ACQ_REL);
	k->kids[k->nkids++] = d;
	return;
nomem:
	report(k, parent->path, WALK_ERR_NOMEM, ENOMEM);
	done_with(k, data);
}

static unsigned char type_of(int dirfd, const char *name, unsigned char d_type)
{
	struct stat st;

	if (d_type != DT_UNKNOWN)
		return d_type;
	/* Some filesystems leave d_type out: ask, without following. */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	return IFTODT(st.st_mode);
}

static void list_dir(struct worker *k, struct wnode *d)
{
	const struct walk_config *c = k->w->c;
	int note = 0;
	struct walk_ent e = {
		.dirfd = d->fd,
		.dir = d->path,
		.dirlen = d->pathlen,
		.dir_data = d->data,
		.dir_note = &note,
	};

	for (;;) {
		long n = getdents64(d->fd, k->dents, DENTS_BUF), off;

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			report(k, d->path, WALK_ERR_READ, errno);
			break;
		}
		for (off = 0; off < n;) {
			struct dirent64 *de =
				(struct dirent64 *)(void *)(k->dents + off);
			void *child = NULL;

			off += de->d_reclen;
			e.name = de->d_name;
			if (e.name[0] == '.' &&
			    (e.name[1] == '\0' ||
			     (e.name[1] == '.' && e.name[2] == '\0')))
				continue;
			e.type = type_of(d->fd, e.name, de->d_type);
			if (!c->ops->visit(c->arg, k->tctx, &e, &child))
				continue;
			if (e.type == DT_DIR)
				add_kid(k, d, &e, child);
			else
				done_with(k, child); /* nothing to enter */
		}
	}
}

/*
 * Marks x as unreachable; the first thread to do so reports it, so a
 * directory with many waiting children is reported once.
 */
static void mark_stale(struct worker *k, struct wnode *x, enum walk_error what,
		       int err)
{
	if (__atomic_exchange_n(&x->stale, 1, __ATOMIC_ACQ_REL) == 0)
		report(k, x->path, what, err);
}

/*
 * A descriptor for the listed directory d, for opening its children: its
 * own, or when d gave it back, a new one (*owned set) reached from the
 * nearest ancestor that kept one, one component at a time. O_NOFOLLOW and
 * O_DIRECTORY refuse a link or a non-directory swapped in on the way, and
 * each reopened directory must be the device and inode that was listed:
 * never a path resolved again, and never a step outside the tree.
 * Returns -1 when d can no longer be reached (reported once per directory).
 */
static int parent_fd(struct worker *k, struct wnode *d, int *owned)
{
	struct wnode *x, *top;
	size_t n = 0;
	int cur;

	*owned = 0;
	if (d->fd >= 0)
		return d->fd;
	/* The root never gives its descriptor back: the chain ends. */
	for (x = d; x->fd < 0; x = x->parent) {
		if (__atomic_load_n(&x->stale, __ATOMIC_ACQUIRE))
			return -1;
		if (n == k->capchain) {
			size_t cap = k->capchain ? 2 * k->capchain : 16;
			struct wnode **p = realloc(k->chain, cap * sizeof(*p));

			if (p == NULL) {
				report(k, d->path, WALK_ERR_NOMEM, ENOMEM);
				return -1;
			}
			k->chain = p;
			k->capchain = cap;
		}
		k->chain[n++] = x;
	}
	top = x;
	cur = top->fd;
	while (n > 0) {
		struct stat st;
		int next;

		x = k->chain[--n];
		next = openat(cur, x->path + x->nameoff,
			      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &st) < 0) {
			mark_stale(k, x, WALK_ERR_OPEN, errno);
		} else if (st.st_dev != x->dev || st.st_ino != x->ino) {
			mark_stale(k, x, WALK_ERR_MOVED, ESTALE);
		} else {
			if (cur != top->fd)
				close(cur);
			cur = next;
			continue;
		}
		if (next >= 0)
			close(next);
		if (cur != top->fd)
			close(cur);
		return -1;
	}
	*owned = 1;
	return cur;
}

/* Magic numbers from the kernel's include/uapi/linux/magic.h. */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{ 0x9fa0, "proc" },
	{ 0x62656572, "sysfs" },
	{ 0x1cd1, "devpts" },
	{ 0x27e0eb, "cgroup" },
	{ 0x63677270, "cgroup2" },
	{ 0x64626720, "debugfs" },
	{ 0x74726163, "tracefs" },
	{ 0x73636673, "securityfs" },
	{ 0xcafe4a11, "bpf" },
	{ 0x6165676c, "pstore" },
	{ 0xde5e81e4, "efivarfs" },
	{ 0x62656570, "configfs" },
	{ 0x65735543, "fusectl" },
	{ 0x19800202, "mqueue" },
	{ 0x42494e4d, "binfmt_misc" },
	{ 0xf97cff8c, "selinuxfs" },
	{ 0x43415d53, "smackfs" },
	{ 0x6e736673, "nsfs" },
};

const char *walk_pseudo_fs(unsigned long f_type)
{
	size_t i;

	for (i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if (pseudo_fs[i].magic == (f_type & 0xffffffffUL))
			return pseudo_fs[i].name;
	return NULL;
}

/*
 * Whether d, just opened, is on a pseudo filesystem to leave out; the
 * root's kind is noted first, and never left out (walking /proc on
 * purpose is allowed). Per directory: a mount can be anywhere.
 */
static int is_skipped_pseudo(struct walk *w, struct wnode *d)
{
	struct statfs sf;

	if (!w->c->skip_pseudo || fstatfs(d->fd, &sf) < 0)
		return 0;
	if (d->root) {
		w->root_ftype =
			(unsigned long)sf.f_type; /* before any other thread */
		return 0;
	}
	return (unsigned long)sf.f_type != w->root_ftype &&
	       walk_pseudo_fs((unsigned long)sf.f_type) != NULL;
}

/* Opens d below its parent; 0, or -1 when it is not to be listed. */
static int open_node(struct worker *k, struct wnode *d)
{
	struct walk *w = k->w;
	int base = AT_FDCWD, owned = 0, err;
	struct stat st;

	if (d->parent != NULL) {
		base = parent_fd(k, d->parent, &owned);
		if (base < 0)
			return -1;
	}
	/* O_NOFOLLOW: a directory swapped for a symlink is not entered. */
	d->fd = openat(base, d->path + d->nameoff,
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
			       O_NOCTTY);
	err = errno;
	if (owned)
		close(base);
	if (d->fd < 0) {
		if (d->root)
			w->root_err = err;
		report(k, d->path, WALK_ERR_OPEN, err);
		return -1;
	}
	__atomic_add_fetch(&w->open_fds, 1, __ATOMIC_RELAXED);
	if (w->c->one_fs) {
		/* Per directory, not per file: the mount boundary test. */
		if (fstat(d->fd, &st) < 0 ||
		    (!d->root && st.st_dev != w->dev)) {
			close_dir(w, d);
			return -1;
		}
		if (d->root)
			w->dev = st.st_dev; /* before any other thread */
	}
	if (is_skipped_pseudo(w, d)) {
		close_dir(w, d);
		return -1;
	}
	return 0;
}

/*
 * A wide and deep tree can hold a descriptor per level (each directory
 * keeps its own until every subdirectory is open). Past the budget, a
 * directory with subdirectories gives its descriptor back, noting what it
 * was, and they reach it again through parent_fd(): slower, but bounded,
 * and never EMFILE.
 */
static void give_back(struct worker *k, struct wnode *d)
{
	struct walk *w = k->w;
	struct stat st;

	if (d->root || k->nkids == 0 ||
	    __atomic_load_n(&w->open_fds, __ATOMIC_RELAXED) <= w->fd_budget)
		return;
	if (fstat(d->fd, &st) < 0)
		return; /* nothing to check a reopen by: keep it */
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	d->released = 1;
	close_dir(w, d);
}

static void process(struct worker *k, struct wnode *d)
{
	struct walk *w = k->w;

	if (open_node(k, d) == 0) {
		list_dir(k, d);
		give_back(k, d);
		push_kids(k); /* from here on, children may reach d */
	}
	done_with(k, d->data);
	/* Listed with its own descriptor: its children never climb past it. */
	if (!d->released && d->parent != NULL) {
		put_node(w, d->parent);
		d->parent = NULL;
	}
	put_node(w, d);
}

static void *work(void *arg)
{
	struct worker *k = arg;
	struct walk *w = k->w;

	for (;;) {
		struct wnode *d;

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
 * memory does, so take what the hard limit allows (limit 0), or what the
 * caller says. The budget is under half the limit: each thread may open
 * one more past the check, plus one to reopen through and one for its
 * caller's entry, and stdio needs three. Asked at every walk, so a limit
 * lowered in between is honoured.
 */
static int fd_budget(long limit, int nthreads)
{
	struct rlimit rl;
	long b;

	if (limit <= 0 && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
				getrlimit(RLIMIT_NOFILE, &rl);
		}
		limit = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > INT_MAX
				? INT_MAX
				: (long)rl.rlim_cur;
	}
	if (limit <= 0)
		limit = 64;
	b = (limit - 3 - 3L * nthreads) / 2;
	return b < 0 ? 0 : (int)b; /* 0: only the root keeps one */
}

static void free_worker(struct worker *k)
{
	free(k->dents);
	free(k->kids);
	free(k->chain);
}

int walk_run(const char *root, const struct walk_config *c)
{
	struct walk w = { .c = c };
	struct worker main_worker = { .w = &w, .tctx = c->main_tctx };
	struct worker *extra = NULL;
	pthread_t *tids = NULL;
	int nthreads = c->max_threads > 0 ? c->max_threads : thread_count();
	int started = 0, i;
	struct wnode *top = new_node(NULL, NULL, 0, root, c->root_data);

	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	main_worker.dents = malloc(DENTS_BUF);
	if (top == NULL || main_worker.dents == NULL) {
		free(top);
		free(main_worker.dents);
		report(&main_worker, root, WALK_ERR_NOMEM, ENOMEM);
		done_with(&main_worker, c->root_data);
		errno = ENOMEM;
		return -1;
	}
	top->root = 1;
	w.fd_budget = fd_budget(c->fd_limit, nthreads);
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.more, NULL);
	/*
	 * The root first, on this thread: a lone directory (the common
	 * small case) then costs no thread at all.
	 */
	w.busy = 1;
	process(&main_worker, top);
	w.busy = 0;
	if (w.n > 0 && nthreads > 1) {
		tids = calloc((size_t)nthreads - 1, sizeof(*tids));
		extra = calloc((size_t)nthreads - 1, sizeof(*extra));
	}
	for (i = 0; tids != NULL && extra != NULL && i < nthreads - 1; i++) {
		struct worker *x = &extra[started];

		x->w = &w;
		x->dents = malloc(DENTS_BUF);
		if (x->dents == NULL)
			break;
		if (c->ops->thread_start != NULL) {
			x->tctx = c->ops->thread_start(c->arg);
			if (x->tctx == NULL)
				break;
		}
		if (pthread_create(&tids[started], NULL, work, x) != 0) {
			if (c->ops->thread_end != NULL)
				c->ops->thread_end(c->arg, x->tctx);
			break;
		}
		started++;
	}
	if (extra != NULL && started < nthreads - 1)
		free_worker(&extra[started]); /* the one that failed */
	if (w.n > 0)
		work(&main_worker);
	for (i = 0; i < started; i++) {
		pthread_join(tids[i], NULL);
		if (c->ops->thread_end != NULL)
			c->ops->thread_end(c->arg, extra[i].tctx);
		free_worker(&extra[i]);
	}
	free(tids);
	free(extra);
	free_worker(&main_worker);
	free(w.stack);
	pthread_cond_destroy(&w.more);
	pthread_mutex_destroy(&w.lock);
	if (w.root_err != 0) {
		errno = w.root_err;
		return -1;
	}
	return 0;
}

int walk_open_file(int dirfd, const char *name, struct stat *st)
{
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* After a failed fstat() st holds nothing: only errno says why. */
	if (fstat(fd, st) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

int walk_open_beneath(int rootfd, const char *relpath, struct stat *st)
{
	return walk_open_beneath_checked(rootfd, relpath, st, NULL, NULL);
}

/* Closes fd when check refuses it; errno is the check's. */
static int checked_dir(int fd, const char *relpath, size_t len,
		       walk_dir_check *check, void *arg)
{
	int saved;

	if (fd < 0 || check == NULL || check(fd, relpath, len, arg) == 0)
		return fd;
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int walk_open_beneath_checked(int rootfd, const char *relpath, struct stat *st,
			      walk_dir_check *check, void *arg)
{
	char component[256];
	const char *p = relpath;
	int dirfd = rootfd;

	if (strncmp(p, "./", 2) == 0)
		p += 2;
	for (;;) {
		size_t len = strcspn(p, "/");
		int fd, saved;

		if (len == 0 || len >= sizeof(component) ||
		    (len == 2 && strncmp(p, "..", 2) == 0) ||
		    (len == 1 && p[0] == '.')) {
			saved = len >= sizeof(component) ? ENAMETOOLONG
							 : EINVAL;
			fd = -1;
		} else {
			memcpy(component, p, len);
			component[len] = '\0';
			if (p[len] == '\0')
				fd = walk_open_file(dirfd, component, st);
			else
				fd = checked_dir(
					openat(dirfd, component,
					       O_PATH | O_DIRECTORY |
						       O_NOFOLLOW | O_CLOEXEC),
					relpath, (size_t)(p + len - relpath),
					check, arg);
			saved = errno;
		}
		if (dirfd != rootfd)
			close(dirfd);
		if (fd < 0 || p[len] == '\0') {
			errno = saved;
			return fd; /* ENOTDIR: a link where a directory was */
		}
		dirfd = fd;
		p += len + 1;
	}
}
