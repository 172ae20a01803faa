/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The way to a file, followed from "/" one name at a time as the kernel
 * follows it, every directory and symbolic link on it judged
 * (path_trust.h). Each directory is opened by its canonical name with
 * O_NOFOLLOW: its name holds no link, so ".." is its prefix, and a
 * read-only mount's seal (writeseal.h) can be asked of it. A symbolic
 * link lies on the file system of the directory holding it, judged on
 * entering.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_trust.h"
#include "why.h"

/* As the kernel: more symbolic links than this on one way is ELOOP. */
#define LINKS_MAX 40

/* Where the walk is. */
struct way {
	char dir[PATH_MAX];    /* the directory entered, canonical */
	char rest[PATH_MAX];   /* what is left to follow from it */
	struct stat ds;	       /* dir's */
	int sticky;	       /* dir is root's by its sticky bit alone */
	char sticky_why[448];  /* why others may write it, then */
	char sticky_note[448]; /* and what kept its mount from sealing it */
};

/* dir + "/" + name into out (PATH_MAX); -1 with ENAMETOOLONG. */
static int join_path(char *out, const char *dir, const char *name, size_t nlen)
{
	size_t dlen = strcmp(dir, "/") == 0 ? 0 : strlen(dir);

	if (dlen + 1 + nlen + 1 > PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memmove(out, dir, dlen);
	out[dlen] = '/';
	memcpy(out + dlen + 1, name, nlen);
	out[dlen + 1 + nlen] = '\0';
	return 0;
}

/* Whether a name holds components after "/"s and "."s alone. */
static int more_names(const char *p)
{
	for (;;) {
		while (*p == '/')
			p++;
		if (p[0] == '.' && (p[1] == '/' || p[1] == '\0'))
			p++;
		else
			return *p != '\0';
	}
}

/*
 * Enters directory w->dir, judged as path_trust_dir() judges it; holder
 * when the way ends there. One descriptor (O_PATH; O_NOFOLLOW with
 * O_DIRECTORY refuses a link or a file, ENOTDIR) makes its stat, its file
 * system and what the mounts say of it one object's. 0, 1, or -1 with
 * errno.
 */
static int enter(struct path_trust *t, struct way *w, int holder)
{
	int fd, rc, saved;

	t->why[0] = '\0';
	fd = open(w->dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fstat(fd, &w->ds);
	if (rc == 0)
		rc = path_trust_dir(t, fd, w->dir, &w->ds, holder, &w->sticky);
	saved = errno;
	close(fd);
	errno = saved;
	if (rc == 0 && w->sticky) {
		/* Its writer, should it hold what is no directory. */
		memcpy(w->sticky_why, t->why, sizeof(w->sticky_why));
		memcpy(w->sticky_note, t->note, sizeof(w->sticky_note));
	}
	if (rc == 0)
		t->why[0] = t->note[0] = '\0'; /* a later failure's own */
	return rc;
}

/* path (or the working directory and it) into w->rest; -1 with errno. */
static int way_start(struct way *w, const char *path)
{
	size_t len = strlen(path);

	if (path[0] == '/') {
		if (len >= sizeof(w->rest)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(w->rest, path, len + 1);
	} else if (getcwd(w->dir, sizeof(w->dir)) == NULL ||
		   join_path(w->rest, w->dir, path, len) < 0) {
		return -1;
	}
	strcpy(w->dir, "/");
	return 0;
}

/*
 * A name that is no directory, in w->dir, which its sticky bit alone made
 * root's: anyone who may write w->dir may have put it there under a free
 * name, a file or a symbolic link of root's moved in from a directory of
 * theirs (rename(2) asks nothing of what it moves, but of a directory,
 * whose ".." it rewrites). holder: the file judged; else a link on its
 * way. 1.
 */
static int free_name(struct path_trust *t, const struct way *w, int holder)
{
	t->where = PATH_TRUST_DIR;
	t->how = PATH_TRUST_FREE_NAME;
	t->holder = holder;
	memcpy(t->why, w->sticky_why, sizeof(t->why));
	memcpy(t->note, w->sticky_note, sizeof(t->note));
	why_say(t->path, sizeof(t->path), "%s", w->dir);
	return 1;
}

/*
 * A symbolic link at name, in w->dir (judged): its owner must be trusted,
 * or may point it elsewhere, and w->dir no directory that a link may have
 * been moved into. Then w->rest becomes its text, and what followed it.
 * 0, 1, or -1 with errno.
 */
static int take_link(struct path_trust *t, struct way *w, const char *name,
		     const struct stat *ls, int *links)
{
	char target[PATH_MAX];
	ssize_t n;

	if (!path_trust_uid(t, ls->st_uid)) {
		t->where = PATH_TRUST_LINK;
		t->how = PATH_TRUST_OWNER;
		why_say(t->why, sizeof(t->why), "uid %lu owns it",
			(unsigned long)ls->st_uid);
		why_say(t->path, sizeof(t->path), "%s", name);
		return 1;
	}
	if (w->sticky)
		return free_name(t, w, 0);
	if (++*links > LINKS_MAX) {
		errno = ELOOP;
		return -1;
	}
	n = readlink(name, target, sizeof(target));
	if (n < 0)
		return -1;
	if ((size_t)n >= sizeof(target) ||
	    (size_t)n + 1 + strlen(w->rest) + 1 > sizeof(w->rest)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memmove(w->rest + n + 1, w->rest, strlen(w->rest) + 1);
	memcpy(w->rest, target, (size_t)n);
	w->rest[n] = '/';
	return 0;
}

/*
 * Where the way ended, at ls: a name in w->dir, or w->dir itself (which
 * path_trust_dir() judged as the one judged, so never root's by its
 * sticky bit alone). It must lie in no directory only its sticky bit made
 * root's, and be the file or directory of st. 0, or 1.
 */
static int way_end(struct path_trust *t, const struct way *w, const char *path,
		   const struct stat *st, const struct stat *ls)
{
	if (w->sticky)
		return free_name(t, w, 1);
	if (ls->st_dev != st->st_dev || ls->st_ino != st->st_ino) {
		t->where = PATH_TRUST_MOVED;
		why_say(t->path, sizeof(t->path), "%s", path);
		return 1;
	}
	return 0;
}

/* The walk itself, its state in w. */
static int follow(struct path_trust *t, struct way *w, const char *path,
		  const struct stat *st)
{
	char next[PATH_MAX];
	struct stat ls;
	size_t len;
	int links = 0, rc;

	rc = enter(t, w, !more_names(w->rest));
	while (rc == 0) {
		char *name = w->rest + strspn(w->rest, "/"), *p;

		len = strcspn(name, "/");
		p = name + len;
		if (len == 0) {
			/* Ended at a directory: the one judged, or no file. */
			if (!S_ISDIR(st->st_mode)) {
				errno = EISDIR;
				return -1;
			}
			return way_end(t, w, path, st, &w->ds);
		}
		if (len == 1 && name[0] == '.') {
			memmove(w->rest, p, strlen(p) + 1);
			continue;
		}
		if (len == 2 && name[0] == '.' && name[1] == '.') {
			/* dir holds no link: its parent is its prefix. */
			char *slash = strrchr(w->dir, '/');

			slash[slash == w->dir] = '\0';
			memmove(w->rest, p, strlen(p) + 1);
			rc = enter(t, w, !more_names(w->rest));
			continue;
		}
		if (join_path(next, w->dir, name, len) < 0 ||
		    lstat(next, &ls) < 0)
			return -1;
		memmove(w->rest, p, strlen(p) + 1);
		if (S_ISDIR(ls.st_mode)) {
			memcpy(w->dir, next, strlen(next) + 1);
			rc = enter(t, w, !more_names(w->rest));
			continue;
		}
		if (!S_ISLNK(ls.st_mode)) {
			if (more_names(w->rest)) {
				errno = ENOTDIR;
				return -1;
			}
			return way_end(t, w, path, st, &ls);
		}
		/*
		 * dir, judged, holds the link; in a sticky directory others
		 * may write, the link's owner may point it anywhere, and a
		 * link of root's may have been moved in.
		 */
		rc = take_link(t, w, next, &ls, &links);
		if (rc == 0 && w->rest[0] == '/') {
			strcpy(w->dir, "/");
			rc = enter(t, w, !more_names(w->rest));
		}
	}
	return rc;
}

int path_trust_way(struct path_trust *t, const char *path,
		   const struct stat *st)
{
	struct way w;

	memset(&w, 0, sizeof(w));
	t->why[0] = t->note[0] = '\0';
	if (way_start(&w, path) < 0)
		return -1;
	return follow(t, &w, path, st);
}
