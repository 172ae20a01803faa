/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getcap -r: nftw's view of a tree, through the shared no-follow walker. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "getcap_int.h"
#include "walk.h"

int is_excluded(const struct skip *s, const struct ent *e)
{
	size_t dl = e->dir != NULL ? e->dirlen : 0, nl = strlen(e->name), i;
	int slash = e->dir != NULL && dl > 0 && e->dir[dl - 1] != '/';

	for (i = 0; i < s->n; i++) {
		const char *x = s->paths[i];

		if (strlen(x) != dl + (size_t)slash + nl ||
		    memcmp(x, e->dir != NULL ? e->dir : "", dl) != 0 ||
		    (slash && x[dl] != '/') ||
		    memcmp(x + dl + (size_t)slash, e->name, nl) != 0)
			continue;
		return 1;
	}
	return 0;
}

/* What every callback needs: the options and this operand's exclusions. */
struct gwalk {
	const struct opts *o;
	const struct skip *skip;
};

/* One entry of a listed directory, as nftw would report it. */
static int visit(void *arg, void *tctx, const struct walk_ent *w,
		 void **child_data)
{
	const struct gwalk *g = arg;
	const struct opts *o = g->o;
	struct outbuf *ob = tctx;
	struct ent e = {
		.dirfd = w->dirfd, .dir = w->dir, .dirlen = w->dirlen,
		.name = w->name,
	};

	(void)child_data;
	if (g->skip->n > 0 && is_excluded(g->skip, &e))
		return 0;
	switch (w->type) {
	case DT_DIR:
		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
		return 1;
	case DT_LNK:
	case DT_UNKNOWN:	/* stat failed: nftw's FTW_NS */
		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
		return 0;
	default:		/* FIFOs and devices too, as nftw's FTW_F */
		if (query_report(o, ob, &e, 1) == EACCES && !*w->dir_note) {
			/* An addition: libcap says nothing about this. */
			*w->dir_note = 1;
			out_err("Failed to search directory '%s' (%s)\n",
				w->dir, strerror(EACCES));
		}
		return 0;
	}
}

static void walk_failed(void *arg, void *tctx, const char *path,
			enum walk_error what, int err)
{
	(void)arg;
	(void)tctx;
	switch (what) {
	case WALK_ERR_OPEN:
	case WALK_ERR_READ:
		/* Gone or replaced since listed: nftw would not see it. */
		if (what == WALK_ERR_OPEN &&
		    (err == ENOENT || err == ENOTDIR || err == ELOOP))
			break;
		/* Additions: nftw is silent (FTW_DNR) or stops silently. */
		out_err("Failed to read directory '%s' (%s)\n", path,
			strerror(err));
		break;
	case WALK_ERR_MOVED:
		out_err("Failed to read directory '%s' (replaced by another "
			"directory during the walk)\n", path);
		break;
	case WALK_ERR_NOMEM:
		out_err("getcap: out of memory: directory '%s' skipped\n",
			path);
		break;
	}
}

/* Each directory's lines go out once it is listed, when large or on a tty. */
static void dir_done(void *arg, void *tctx, void *dir_data)
{
	(void)arg;
	(void)dir_data;
	out_maybe_flush(tctx);
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

void walk_tree(const struct opts *o, const struct skip *skip,
	       struct outbuf *ob, const char *path)
{
	struct gwalk g = { .o = o, .skip = skip };
	struct walk_config c = {
		.ops = &getcap_walk_ops, .arg = &g, .main_tctx = ob,
		.one_fs = o->one_fs,
	};

	out_flush(ob);		/* the operand's line before its contents */
	/* The operand was lstat()ed as a directory: a failure is reported. */
	walk_run(path, &c);
	out_flush(ob);
}
