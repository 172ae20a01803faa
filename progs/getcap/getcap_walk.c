/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getcap -r: nftw's view of a tree, in nftw's order, through the shared no-follow walker. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "getcap.h"
#include "path.h"
#include "walk.h"

int is_excluded(const struct skip *s, const struct ent *e)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (path_is_join(s->paths[i], e->dir, e->dirlen, e->name))
			return 1;
	return 0;
}

/*
 * libcap's order from a parallel walk. nftw prints a directory's entries
 * in readdir order, each subdirectory's whole output right after its own
 * entry. So each directory's lines are cut into segments, one ending at
 * each subdirectory entered: its output is segment 0, the first
 * subdirectory's output, segment 1, and so on, then the tail. A listed
 * directory waits in this tree until the emission cursor, which walks it
 * in that order, reaches it; what the threads did first does not matter.
 */
struct onode;

struct oseg {
	char *text; /* NULL when empty */
	size_t len;
	struct onode *kid; /* whose output follows text; NULL: the tail */
};

struct onode {
	struct onode *parent;
	struct oseg *segs;
	size_t nsegs, cap;
	size_t cursor; /* next segment to emit (under the lock) */
	int listed;    /* an entry was visited: its thread has text */
	int complete;  /* (under the lock) segs are final */
};

/* A directory --audit or --json could not look into (see walk_failed). */
struct unexamined {
	char *path;
	int err;
};

/* What every callback needs: options, exclusions, the ordered output. */
struct gwalk {
	const struct opts *o;
	const struct skip *skip;
	pthread_mutex_t lock;
	struct onode *cur;  /* where emission stands; NULL: all out */
	struct outbuf emit; /* emitted text, written when large or on a tty */
	struct unexamined *dirs; /* under lock */
	size_t ndirs;
	int dirs_lost; /* out of memory recording one (under lock) */
};

/*
 * Moves the thread's pending lines (ob, empty afterwards) into a new
 * segment of n, followed by kid. -1 when out of memory (ob untouched).
 */
static int add_seg(struct onode *n, struct outbuf *ob, struct onode *kid)
{
	struct oseg *seg;

	if (n->nsegs == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 4;
		struct oseg *p = realloc(n->segs, cap * sizeof(*p));

		if (p == NULL)
			return -1;
		n->segs = p;
		n->cap = cap;
	}
	seg = &n->segs[n->nsegs];
	seg->text = NULL;
	seg->len = ob->len;
	seg->kid = kid;
	if (ob->len > 0) {
		seg->text = malloc(ob->len);
		if (seg->text == NULL)
			return -1;
		memcpy(seg->text, ob->data, ob->len);
	}
	n->nsegs++;
	ob->len = 0;
	return 0;
}

static void emit(struct gwalk *g, const char *text, size_t len)
{
	struct outbuf *out = &g->emit, direct;

	if (out->len + len > out->cap) {
		size_t cap = out->cap * 2 > out->len + len ? out->cap * 2
							   : out->len + len;
		char *p = realloc(out->data, cap);

		if (p == NULL) {
			/* No room to gather: write what we have, then this. */
			out_flush(out);
			direct.data = (char *)(uintptr_t)text;
			direct.len = len;
			out_flush(&direct);
			return;
		}
		out->data = p;
		out->cap = cap;
	}
	memcpy(out->data + out->len, text, len);
	out->len += len;
}

/* Emits all that is ready in order; frees what is done. Under g->lock. */
static void advance(struct gwalk *g)
{
	struct onode *n;

	while ((n = g->cur) != NULL && n->complete) {
		struct oseg *seg;

		if (n->cursor == n->nsegs) {
			g->cur = n->parent;
			free(n->segs);
			free(n);
			if (g->cur != NULL)
				g->cur->cursor++; /* past n's segment */
			continue;
		}
		seg = &n->segs[n->cursor];
		if (seg->text != NULL) {
			emit(g, seg->text, seg->len);
			free(seg->text);
			seg->text = NULL;
		}
		if (seg->kid != NULL)
			g->cur = seg->kid; /* cursor moves on when it is done */
		else
			n->cursor++;
	}
	out_maybe_flush(&g->emit);
}

/* One entry of a listed directory, as nftw would report it. */
static int visit(void *arg, void *tctx, const struct walk_ent *w,
		 void **child_data)
{
	const struct gwalk *g = arg;
	const struct opts *o = g->o;
	struct outbuf *ob = tctx;
	struct ent e = {
		.dirfd = w->dirfd,
		.dir = w->dir,
		.dirlen = w->dirlen,
		.name = w->name,
	};

	((struct onode *)w->dir_data)->listed = 1;
	if (g->skip->n > 0 && is_excluded(g->skip, &e))
		return 0;
	switch (w->type) {
	case DT_DIR: {
		struct onode *kid = calloc(1, sizeof(*kid));

		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
		if (kid == NULL || add_seg(w->dir_data, ob, kid) < 0) {
			free(kid);
			out_err("getcap: out of memory: directory '%s%s%s' skipped\n",
				w->dir,
				path_needs_slash(w->dir, w->dirlen) ? "/" : "",
				w->name);
			return 0;
		}
		kid->parent = w->dir_data;
		*child_data = kid;
		return 1;
	}
	case DT_LNK:
	case DT_UNKNOWN: /* stat failed: nftw's FTW_NS */
		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
		return 0;
	default: /* FIFOs and devices too, as nftw's FTW_F */
		if (query_report(o, ob, &e, 1) == EACCES && !*w->dir_note) {
			/* An addition: libcap says nothing about this. */
			char *shown =
				o->audit || o->json ? escape_dup(w->dir) : NULL;

			*w->dir_note = 1;
			out_err("Failed to search directory '%s' (%s)\n",
				shown != NULL ? shown : w->dir,
				strerror(EACCES));
			free(shown);
		}
		return 0;
	}
}

/*
 * An audit never hides what it could not see: under --audit or --json a
 * directory that could not be examined is kept here and reported on
 * stdout, after the walk, as a finding of tier "unknown" (files below it
 * may carry any capability), and getcap exits 1.
 */
static void note_unexamined(struct gwalk *g, const char *path, int err)
{
	struct unexamined *grown;
	char *copy = strdup(path);

	pthread_mutex_lock(&g->lock);
	grown = copy != NULL ? realloc(g->dirs, (g->ndirs + 1) * sizeof(*grown))
			     : NULL;
	if (grown == NULL) {
		free(copy);
		g->dirs_lost = 1;
	} else {
		g->dirs = grown;
		g->dirs[g->ndirs].path = copy;
		g->dirs[g->ndirs++].err = err;
	}
	pthread_mutex_unlock(&g->lock);
}

static void walk_failed(void *arg, void *tctx, const char *path,
			enum walk_error what, int err)
{
	struct gwalk *g = arg;
	int audit = g->o->audit || g->o->json;
	char *shown = audit ? escape_dup(path) : NULL;
	const char *p = shown != NULL ? shown : path;

	(void)tctx;
	switch (what) {
	case WALK_ERR_OPEN:
	case WALK_ERR_READ:
		/* Gone or replaced since listed: nftw would not see it. */
		if (what == WALK_ERR_OPEN &&
		    (err == ENOENT || err == ENOTDIR || err == ELOOP))
			break;
		/* Additions: nftw is silent (FTW_DNR) or stops silently. */
		out_err("Failed to read directory '%s' (%s)\n", p,
			strerror(err));
		if (audit)
			note_unexamined(g, path, err);
		break;
	case WALK_ERR_MOVED:
		out_err("Failed to read directory '%s' (replaced by another directory during the walk)\n",
			p);
		if (audit)
			note_unexamined(g, path, ESTALE);
		break;
	case WALK_ERR_NOMEM:
		out_err("getcap: out of memory: directory '%s' skipped\n", p);
		if (audit)
			note_unexamined(g, path, ENOMEM);
		break;
	}
	free(shown);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct unexamined *)a)->path,
		      ((const struct unexamined *)b)->path);
}

/* The findings of note_unexamined(), sorted, once the walk is over. */
static void report_unexamined(struct gwalk *g, struct outbuf *ob)
{
	size_t i;

	if (g->ndirs > 1)
		qsort(g->dirs, g->ndirs, sizeof(*g->dirs), by_path);
	for (i = 0; i < g->ndirs; i++) {
		struct ent e = { .dirfd = -1, .name = g->dirs[i].path };

		query_unknown(
			g->o, ob, &e, "directory not examined", g->dirs[i].err,
			"the files below it could not be examined; they may carry any capability");
		free(g->dirs[i].path);
	}
	free(g->dirs);
	if (g->dirs_lost) {
		struct ent e = { .dirfd = -1, .name = "?" };

		query_unknown(
			g->o, ob, &e, "directory not examined", ENOMEM,
			"out of memory: a directory that could not be examined was not recorded");
	}
}

/*
 * A directory is finished (listed, or it could not be): its tail segment
 * is the rest of its thread's lines. One never listed has none of them:
 * its thread may be in the middle of its parent.
 */
static void dir_done(void *arg, void *tctx, void *dir_data)
{
	struct gwalk *g = arg;
	struct outbuf *ob = tctx;
	struct onode *n = dir_data;

	if (n->listed && add_seg(n, ob, NULL) < 0) {
		ob->failed = 1; /* reported once, by out_free() */
		ob->len = 0;
	}
	pthread_mutex_lock(&g->lock);
	n->complete = 1;
	advance(g);
	pthread_mutex_unlock(&g->lock);
}

static void *thread_start(void *arg)
{
	struct outbuf *ob = malloc(sizeof(*ob));

	(void)arg;
	if (ob != NULL)
		out_init(ob);
	return ob;
}

static void thread_end(void *arg, void *tctx)
{
	(void)arg;
	out_free(tctx);
	free(tctx);
}

static const struct walk_ops getcap_walk_ops = {
	.thread_start = thread_start,
	.thread_end = thread_end,
	.visit = visit,
	.dir_done = dir_done,
	.error = walk_failed,
};

void walk_tree(const struct opts *o, const struct skip *skip, struct outbuf *ob,
	       const char *path)
{
	struct gwalk g = { .o = o, .skip = skip };
	struct onode *top = calloc(1, sizeof(*top));
	struct walk_config c = {
		.ops = &getcap_walk_ops,
		.arg = &g,
		.main_tctx = ob,
		.root_data = top,
		.one_fs = o->one_fs,
	};

	out_flush(ob); /* the operand's line before its contents */
	if (top == NULL) {
		out_err("getcap: out of memory walking '%s'\n", path);
		return;
	}
	pthread_mutex_init(&g.lock, NULL);
	out_init(&g.emit);
	g.cur = top;
	/* The operand was lstat()ed as a directory: a failure is reported. */
	walk_run(path, &c);
	/* Every directory is done by now, so everything has been emitted. */
	out_free(&g.emit);
	report_unexamined(&g, ob);
	pthread_mutex_destroy(&g.lock);
}
