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
#include "writeseal.h"

/* As the kernel: more symbolic links than this on one way is ELOOP. */
#define LINKS_MAX 40

/* Where the walk is. */
struct way {
	char dir[PATH_MAX];   /* the directory entered, canonical */
	char rest[PATH_MAX];  /* what is left to follow from it */
	struct stat ds;	      /* dir's */
	int sticky;	      /* dir is root's by its sticky bit alone */
	int sticky_met;	      /* some directory on the way was */
	char sticky_why[448]; /* why others may write the last such */
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
		w->sticky_met = 1;
		/* Its writer, should it hold the file after all. */
		memcpy(w->sticky_why, t->why, sizeof(w->sticky_why));
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
 * A symbolic link at name, in w->dir (judged): its owner must be trusted,
 * or may point it elsewhere. Then w->rest becomes its text, and what
 * followed it. 0, 1, or -1 with errno.
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
 * Where the way ended, at the file or directory of st, in w->dir (or w->dir
 * itself when at_dir): the end of the sticky rules, then whether it is
 * the file judged at all. 0, 1, or -1 with errno.
 */
static int way_end(struct path_trust *t, struct way *w, const char *path,
		   const struct stat *st, const struct stat *ls, int at_dir)
{
	/* A sticky holder keeps no name it holds under ABOVE. */
	if (w->sticky && t->policy.sticky == PATH_TRUST_STICKY_ABOVE) {
		t->where = PATH_TRUST_DIR;
		t->how = PATH_TRUST_WRITER;
		t->holder = 1;
		memcpy(t->why, w->sticky_why, sizeof(t->why));
		why_say(t->path, sizeof(t->path), "%s", w->dir);
		return 1;
	}
	if (ls->st_dev != st->st_dev || ls->st_ino != st->st_ino) {
		t->where = PATH_TRUST_MOVED;
		why_say(t->path, sizeof(t->path), "%s", path);
		return 1;
	}
	/*
	 * Where others may add names, a root-owned file with another name
	 * may be one they linked there, unless fs.protected_hardlinks kept
	 * them from linking a file they may not write (a Nix store's file,
	 * with the second name store optimisation gives it). The caller
	 * judged the file root's alone to write (or it is the null device,
	 * no regular file: only its owner, root, may link it then).
	 */
	if (w->sticky_met && !at_dir && st->st_nlink > 1 &&
	    !hardlinks_vouched(t->why, sizeof(t->why))) {
		t->where = PATH_TRUST_NAMES;
		t->how = PATH_TRUST_LINKED;
		why_say(t->path, sizeof(t->path), "%s", w->dir);
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
			return way_end(t, w, path, st, &w->ds, 1);
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
			return way_end(t, w, path, st, &ls, 0);
		}
		/*
		 * dir, judged, holds the link; in a sticky directory others
		 * may write, the link's owner may point it anywhere.
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
