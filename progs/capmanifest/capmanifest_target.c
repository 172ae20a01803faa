/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: the manifest file itself, which grants capabilities as
 * root. restore reads it, and add reads and rewrites it, only where
 * nobody but its owner (root, or the user running capmanifest) could have
 * put a line in it: a regular file, not a link, that nobody else may
 * write, in a directory nobody else may write (or they could rename
 * another file over it), below directories nobody else may write either
 * (or they could rename the whole way to it aside and put another in its
 * place: a directory of root's holding another manifest, an old one, or
 * one of root's files whose content they chose, as a tarball of theirs
 * unpacked by root leaves them). add serializes on it, and writes it
 * whole or not at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capmanifest.h"
#include "say.h"
#include "escape.h"

void target_free(struct target *t)
{
	target_unlock(t);
	free(t->dir);
	free(t->base);
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dir = t->base = NULL;
	t->dirfd = -1;
}

/*
 * "MANIFEST: <why>: refused (a manifest grants capabilities as root, so
 * nobody but its owner may be able to write it)".
 */
static void refuse_target(const char *what, const char *why)
{
	say(stderr, "capmanifest: ",
	    "%s: %s: refused (a manifest grants capabilities as root, so nobody but its owner may be able to write it)",
	    what, why);
}

/*
 * The way to the manifest's directory, from "/": 0, or 1 once reported.
 * Links on it are judged where they are and followed; a sticky directory
 * of root's (/tmp) holding one of root's counts as root's alone above the
 * manifest's own: nobody else may rename that one away (way_to()).
 */
static int check_way(const struct target *t)
{
	struct way way;

	if (way_to(t->dir, t->dirfd, 1, &way) < 0) {
		warn_operand(t->dir, strerror(errno));
		return 1;
	}
	if (way.root_only)
		return 0;
	if (way.holder) {
		char what[WHY_SIZE + 32];

		snprintf(what, sizeof(what), "its directory: %s", way.why);
		refuse_target(t->path, what);
		return 1;
	}
	fputs("capmanifest: ", stderr);
	escape_fputs(t->path, stderr);
	fputs(": ", stderr);
	print_way(stderr, &way);
	fputs(": refused (a manifest grants capabilities as root, so nobody but its owner may be able to write it, or rename the way to it)\n",
	      stderr);
	return 1;
}

int target_open(struct target *t, const char *path)
{
	const char *slash = strrchr(path, '/');

	t->path = path;
	t->dirfd = t->lockfd = -1;
	t->dir = slash == NULL	 ? strdup(".")
		 : slash == path ? strdup("/")
				 : strndup(path, (size_t)(slash - path));
	t->base = strdup(slash != NULL ? slash + 1 : path);
	if (t->dir == NULL || t->base == NULL) {
		warn_operand(path, strerror(ENOMEM));
		return 1;
	}
	if (t->base[0] == '\0' || strcmp(t->base, ".") == 0 ||
	    strcmp(t->base, "..") == 0) {
		warn_operand(path, "not a file name");
		return 2;
	}
	t->dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0) {
		warn_operand(t->dir, strerror(errno));
		return 1;
	}
	return check_way(t);
}

int target_read(const struct target *t, struct manifest *m, int must_exist)
{
	char why[WHY_SIZE];
	struct stat st;
	FILE *in;
	int fd = openat(t->dirfd, t->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int cfd = -1, rc;

	if (fd < 0 && errno == ENOENT && !must_exist)
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0) {
		warn_operand(t->path, strerror(errno));
		rc = 1;
		goto out;
	}
	rc = 1;
	if (S_ISLNK(st.st_mode)) {
		refuse_target(t->path, "a symbolic link");
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		refuse_target(t->path, "not a regular file");
		goto out;
	}
	rc = writers_besides(fd, &st, geteuid(), why);
	if (rc != 0) {
		if (rc < 0)
			warn_operand(t->path, strerror(errno));
		else
			refuse_target(t->path, why);
		rc = 1;
		goto out;
	}
	cfd = content_open(fd);
	in = cfd < 0 ? NULL : fdopen(cfd, "r");
	if (in == NULL) {
		warn_operand(t->path, strerror(errno));
		rc = 1;
		goto out;
	}
	cfd = -1; /* in owns it */
	rc = manifest_read(m, in, t->path) < 0 ? 2 : 0;
	fclose(in);
out:
	if (cfd >= 0)
		close(cfd);
	if (fd >= 0)
		close(fd);
	return rc;
}

/*
 * Two adds at once each read the manifest, merged their files into what
 * they read, and renamed their result over it: the one renamed last won,
 * and the other's files, reported as added, were lost. So add holds a
 * lock from its read to its rename: flock(2) on a file of its own beside
 * the manifest, mode 0600 in a directory nobody else may write, which no
 * other user can open and so hold (a lock on the directory or on the
 * manifest, which everyone may read, anyone could hold to stop add).
 * The holder removes it before letting go, so that nothing is left
 * beside the manifest; whoever was waiting then holds a removed file,
 * sees that the name is gone or another file's, and starts again.
 */
int target_lock(struct target *t)
{
	struct stat held, named;
	int fd;

	/* ".perf.manifest.lock", cut to fit a file name */
	snprintf(t->lockname, sizeof(t->lockname), ".%.*s.lock", NAME_MAX - 6,
		 t->base);
	for (;;) {
		fd = openat(t->dirfd, t->lockname,
			    O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			goto fail;
		if (fstat(fd, &held) < 0)
			goto fail;
		if (!S_ISREG(held.st_mode)) {
			errno = EINVAL;
			goto fail;
		}
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR)
				goto fail;
		if (fstatat(t->dirfd, t->lockname, &named,
			    AT_SYMLINK_NOFOLLOW) == 0) {
			if (named.st_dev == held.st_dev &&
			    named.st_ino == held.st_ino) {
				t->lockfd = fd;
				return 0;
			}
		} else if (errno != ENOENT) {
			goto fail;
		}
		close(fd); /* its holder removed it: again */
	}
fail : {
	int err = errno;
	char what[NAME_MAX + 64];

	if (fd >= 0)
		close(fd);
	snprintf(what, sizeof(what), "cannot lock it (%s, beside it): %s",
		 t->lockname,
		 err == EINVAL ? "not a regular file" : strerror(err));
	warn_operand(t->path, what);
}
	return 1;
}

void target_unlock(struct target *t)
{
	if (t->lockfd < 0)
		return;
	/* Removed while held: see target_lock(). */
	unlinkat(t->dirfd, t->lockname, 0);
	close(t->lockfd);
	t->lockfd = -1;
}

int target_write(const struct target *t, const struct manifest *m)
{
	char tmp[NAME_MAX + 1];
	FILE *out = NULL;
	int fd = -1, tries, err;

	for (tries = 0; fd < 0 && tries < 100; tries++) {
		unsigned long r;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (unsigned long)getpid() * 2654435761UL +
			    (unsigned long)tries;
		/* ".perf.manifest.1a2b3c4d", cut to fit a file name */
		snprintf(tmp, sizeof(tmp), ".%.*s.%08lx", NAME_MAX - 18,
			 t->base, r & 0xffffffffUL);
		fd = openat(t->dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		warn_operand(t->dir, strerror(errno));
		return 1;
	}
	/* Root's when root writes it (a set-group-ID directory would give
	 * it the directory's group), read by all, written by its owner. */
	if ((geteuid() == 0 && fchown(fd, 0, 0) < 0) || fchmod(fd, 0644) < 0)
		goto fail;
	out = fdopen(fd, "w");
	if (out == NULL)
		goto fail;
	fd = -1; /* out owns it now */
	if (manifest_write(m, out) < 0 || fsync(fileno(out)) < 0)
		goto fail;
	err = fclose(out);
	out = NULL;
	if (err != 0)
		goto fail;
	if (renameat(t->dirfd, tmp, t->dirfd, t->base) < 0)
		goto fail;
	if (fsync(t->dirfd) < 0) {
		warn_operand(t->dir, strerror(errno));
		return 1; /* renamed: only its durability is in doubt */
	}
	return 0;
fail:
	err = errno;
	if (out != NULL)
		fclose(out);
	if (fd >= 0)
		close(fd);
	unlinkat(t->dirfd, tmp, 0);
	warn_operand(t->path, strerror(err));
	return 1;
}
