/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest record: every regular file below a root that carries
 * capabilities, with its owner, group, mode and ACL. The walk is
 * getcap's (common/walk.c): directories are opened relative to their
 * parent without following links, and each file is read through an O_PATH
 * descriptor of its own, so what is recorded for a path is what that very
 * inode holds, even while someone swaps links into the tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capmanifest.h"
#include "escape.h"
#include "path.h"
#include "walk.h"

/*
 * Per thread: what it found, and whether anything could not be read
 * (failed: the paths are in m.unread; lost: not even that could be
 * kept, out of memory, so no manifest may be written).
 */
struct rec {
	struct manifest m;
	int failed, lost;
};

struct record_walk {
	size_t rootlen;	  /* of the printed root, cut from paths */
	const char *top;  /* the printed root */
	struct rec *main; /* the calling thread's, which gets the rest */
	const struct digest_for *digests;
};

/* Whether path's content digest is wanted. */
static int wants_digest(const struct digest_for *d, const char *path)
{
	const struct entry *e;

	switch (d->want) {
	case DIGEST_ALL:
		return 1;
	case DIGEST_LISTED:
		e = manifest_find(d->listed, path);
		return e != NULL && e->has_digest;
	default:
		return 0;
	}
}

int entry_record(int fd, const struct stat *st, const char *rel, int digest,
		 struct entry *e)
{
	cap_t caps = entry_caps(fd);
	int saved;

	memset(e, 0, sizeof(*e));
	if (caps == NULL)
		return errno == ENODATA || errno == ENOTSUP ? 0 : -1;
	/*
	 * Capabilities, owner, mode, ACL and content all through fd: one
	 * inode, whatever is renamed meanwhile.
	 */
	if (entry_meta(fd, st, &e->meta) < 0 ||
	    (digest && entry_digest(fd, e->digest) < 0))
		goto fail;
	e->has_meta = 1;
	e->has_digest = digest;
	e->rootid = cap_get_nsowner(caps);
	e->path = (char *)(uintptr_t)rel;
	e->text = cap_to_text(caps, NULL);
	if (e->text == NULL)
		goto fail;
	cap_free(caps);
	return 1;
fail:
	saved = errno;
	cap_free(caps);
	meta_free(&e->meta);
	memset(e, 0, sizeof(*e));
	errno = saved;
	return -1;
}

/*
 * Notes a path that could not be read, so the manifest says it does not
 * cover it: a manifest that simply left it out would later call its files
 * "extra", and restore would strip them.
 */
static void note_unread(struct rec *r, const char *rel)
{
	r->failed = 1;
	if (rel != NULL && manifest_add_unread(&r->m, rel) == 0)
		return;
	/*
	 * A path the manifest cannot name (longer than a path may be, whose
	 * error line is already out) or cannot hold (no memory) loses the
	 * whole record: no manifest beats one that says nothing of it.
	 */
	if (errno == ENOMEM)
		fprintf(stderr, "capmanifest: %s\n", strerror(ENOMEM));
	r->lost = 1;
}

/*
 * An entry's path on stderr, escaped: its names are whoever made them,
 * and a name with a newline or an escape sequence in it would otherwise
 * forge or hide lines in what root reads.
 */
static void print_path(const struct walk_ent *e)
{
	escape_fputs(e->dir, stderr);
	if (path_needs_slash(e->dir, e->dirlen))
		fputc('/', stderr);
	escape_fputs(e->name, stderr);
}

/* "./rel/path" of an entry, or NULL with errno (ENAMETOOLONG, ENOMEM). */
static char *relative_path(const struct record_walk *rw,
			   const struct walk_ent *e)
{
	const char *below = e->dir + rw->rootlen;
	char *rel = NULL;

	if (asprintf(&rel, ".%s%s%s", below,
		     path_needs_slash(e->dir, e->dirlen) ? "/" : "",
		     e->name) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	if (strlen(rel) >= PATH_MAX) {
		/* No tool could use it; and a cut path would name another. */
		free(rel);
		errno = ENAMETOOLONG;
		return NULL;
	}
	return rel;
}

/* One regular file (as far as getdents knows): its own inode decides. */
static void record_file(const struct record_walk *rw, struct rec *r,
			const struct walk_ent *e)
{
	struct entry ent;
	struct stat st;
	char *rel = NULL;
	int fd = walk_open_file(e->dirfd, e->name, &st), err, rc;

	if (fd < 0) {
		/* Vanished, or not a regular file (any more): not ours. */
		if (errno == ENOENT || errno == EINVAL)
			return;
		goto failed;
	}
	rel = relative_path(rw, e);
	if (rel == NULL)
		goto failed;
	rc = entry_record(fd, &st, rel, wants_digest(rw->digests, rel), &ent);
	if (rc > 0 && manifest_add(&r->m, &ent) < 0)
		rc = -1; /* ENOMEM */
	err = errno;
	if (ent.text != NULL) {
		cap_free(ent.text); /* manifest_add copied them */
		meta_free(&ent.meta);
	}
	if (rc >= 0)
		goto out;
	errno = err;
failed:
	err = errno;
	flockfile(stderr); /* one line, whatever other threads print */
	fputs("capmanifest: ", stderr);
	print_path(e);
	fprintf(stderr, ": %s\n", content_strerror(err));
	funlockfile(stderr);
	if (rel == NULL)
		rel = relative_path(rw, e);
	note_unread(r, rel);
out:
	free(rel);
	if (fd >= 0)
		close(fd);
}

static int visit(void *arg, void *tctx, const struct walk_ent *e,
		 void **child_data)
{
	(void)child_data;
	switch (e->type) {
	case DT_DIR:
		return 1;
	case DT_REG:
	case DT_UNKNOWN: /* could not be looked up: try, and tell */
		record_file(arg, tctx, e);
		return 0;
	default: /* links, devices, FIFOs, sockets */
		return 0;
	}
}

/*
 * A directory that cannot be read fails the record: a partial manifest
 * would later call the unread files "extra", and restore would strip
 * them. One that vanished, or became a link or a file, between being
 * listed and being opened is different: at that moment there was nothing
 * to record under its name. It is skipped with a warning, so a user who
 * renames directories of her own cannot stop the record of a whole tree.
 */
static void walk_failed(void *arg, void *tctx, const char *path,
			enum walk_error what, int err)
{
	const struct record_walk *rw = arg;
	struct rec *r = tctx;
	char *rel = NULL;

	flockfile(stderr); /* one line, whatever other threads print */
	if (what == WALK_ERR_OPEN &&
	    (err == ENOENT || err == ENOTDIR || err == ELOOP)) {
		fputs("capmanifest: warning: ", stderr);
		escape_fputs(path, stderr);
		fputs(": vanished or replaced during the walk, nothing recorded below it\n",
		      stderr);
		funlockfile(stderr);
		return;
	}
	fputs("capmanifest: cannot read directory ", stderr);
	escape_fputs(path, stderr);
	fprintf(stderr, ": %s\n",
		what == WALK_ERR_MOVED
			? "replaced by another directory during the walk"
			: strerror(err));
	funlockfile(stderr);
	/* The root itself: nothing is recorded (walk_run() fails). */
	if (strcmp(path, rw->top) == 0) {
		r->failed = 1;
		return;
	}
	if (asprintf(&rel, ".%s", path + rw->rootlen) < 0) {
		rel = NULL;
		errno = ENOMEM;
	}
	note_unread(r, rel);
	free(rel);
}

static void *thread_start(void *arg)
{
	(void)arg;
	return calloc(1, sizeof(struct rec));
}

/* Called on the main thread once the worker has stopped: no lock needed. */
static void thread_end(void *arg, void *tctx)
{
	struct rec *r = tctx, *main_rec = ((struct record_walk *)arg)->main;

	if (manifest_take(&main_rec->m, &r->m) < 0) {
		fprintf(stderr, "capmanifest: %s\n", strerror(ENOMEM));
		main_rec->lost = 1;
	}
	main_rec->failed |= r->failed;
	main_rec->lost |= r->lost;
	manifest_free(&r->m);
	free(r);
}

static const struct walk_ops record_ops = {
	.thread_start = thread_start,
	.thread_end = thread_end,
	.visit = visit,
	.error = walk_failed,
};

int manifest_record(struct manifest *m, const char *root, int one_fs,
		    int pseudo, const struct digest_for *d)
{
	struct rec r = { .m = *m };
	struct record_walk rw = { .main = &r, .digests = d };
	struct stat st;
	char *top = strdup(root);
	size_t len;
	struct walk_config c = {
		.ops = &record_ops,
		.arg = &rw,
		.main_tctx = &r,
		.one_fs = one_fs,
		.skip_pseudo = !pseudo,
	};

	if (top == NULL || lstat(root, &st) < 0) {
		int err = errno;

		fputs("capmanifest: ", stderr);
		escape_fputs(root, stderr);
		fprintf(stderr, ": %s\n", strerror(err));
		free(top);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fputs("capmanifest: ", stderr);
		escape_fputs(root, stderr);
		fputs(": not a directory\n", stderr);
		free(top);
		return -1;
	}
	len = strlen(top);
	while (len > 1 && top[len - 1] == '/')
		top[--len] = '\0'; /* "tree/" and "tree" record the same */
	rw.rootlen = strcmp(top, "/") == 0 ? 0 : len;
	rw.top = top;
	if (walk_run(top, &c) < 0)
		r.lost = 1; /* the root: reported through walk_failed */
	free(top);
	*m = r.m;
	manifest_sort(m);
	return r.lost ? -1 : r.failed ? 1 : 0;
}

/*
 * restore --listed-only: the state of just the files a manifest lists,
 * each opened below rootfd one component at a time, no walk (the dpkg
 * trigger runs against "/", whose walk takes seconds to minutes). A file
 * that is gone or carries no capabilities gets no entry, as in a walk.
 */
int manifest_record_listed(struct manifest *m, const struct manifest *want,
			   int rootfd, const struct digest_for *d)
{
	size_t i;
	int failed = 0, err;

	for (i = 0; i < want->count; i++) {
		const char *path = want->entries[i].path;
		struct entry ent;
		struct stat st;
		int fd = walk_open_beneath(rootfd, path, &st), rc;

		if (fd < 0) {
			/* Gone, not a regular file, or behind a symlink:
			 * not there for restore, which then says why. */
			if (errno != ENOENT && errno != EINVAL &&
			    errno != ENOTDIR && errno != ELOOP)
				goto failed;
			continue;
		}
		rc = entry_record(fd, &st, path, wants_digest(d, path), &ent);
		if (rc > 0 && manifest_add(m, &ent) < 0)
			rc = -1; /* ENOMEM */
		err = errno;
		if (ent.text != NULL) {
			cap_free(ent.text); /* manifest_add copied them */
			meta_free(&ent.meta);
		}
		close(fd);
		if (rc >= 0)
			continue;
		errno = err;
failed:
		fputs("capmanifest: ", stderr);
		print_escaped(stderr, path);
		fprintf(stderr, ": %s\n", content_strerror(errno));
		failed = 1;
	}
	manifest_sort(m);
	return failed ? -1 : 0;
}
