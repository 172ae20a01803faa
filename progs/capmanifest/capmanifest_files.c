/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest record FILE... and capmanifest add MANIFEST FILE...: single
 * files named the way "record /" names them, so registering a program
 * for the package trigger is one command, and the manifest it goes into
 * written so that nobody but its owner could have put a line in it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capmanifest.h"
#include "say.h"
#include "walk.h"

/*
 * The manifest path of a file operand: its directory made canonical
 * (realpath resolves the links in it: /bin/ping on a merged /usr is
 * ./usr/bin/ping, where "record /" finds it), its last component kept as
 * given, since a link there is refused, not followed. A new string, or
 * NULL with errno (EINVAL: no file name in it, ENAMETOOLONG).
 */
static char *path_below_root(const char *operand)
{
	const char *slash = strrchr(operand, '/'), *base;
	char *dir, *canon, *rel = NULL;
	int rc;

	base = slash != NULL ? slash + 1 : operand;
	if (*base == '\0' || strcmp(base, ".") == 0 ||
	    strcmp(base, "..") == 0) {
		errno = EINVAL;
		return NULL;
	}
	if (slash == NULL)
		dir = strdup(".");
	else if (slash == operand)
		dir = strdup("/");
	else
		dir = strndup(operand, (size_t)(slash - operand));
	if (dir == NULL)
		return NULL;
	canon = realpath(dir, NULL);
	free(dir);
	if (canon == NULL)
		return NULL;
	rc = asprintf(&rel, ".%s/%s", strcmp(canon, "/") == 0 ? "" : canon,
		      base);
	free(canon);
	if (rc < 0) {
		errno = ENOMEM;
		return NULL;
	}
	if (strlen(rel) >= PATH_MAX || !manifest_path_ok(rel)) {
		int err = strlen(rel) >= PATH_MAX ? ENAMETOOLONG : EINVAL;

		free(rel);
		errno = err;
		return NULL;
	}
	return rel;
}

/* Why a file operand could not be opened as a regular file. */
static const char *open_failure(const char *operand, int err)
{
	struct stat st;

	if (err != EINVAL)
		return strerror(err);
	if (lstat(operand, &st) == 0 && S_ISLNK(st.st_mode))
		return "a symbolic link: name the file it points to";
	if (lstat(operand, &st) == 0 && S_ISDIR(st.st_mode))
		return "a directory: record takes one directory, or files";
	return "not a regular file";
}

/* One file operand into m; 0, or -1 once reported. */
static int record_operand(struct manifest *m, int rootfd, const char *operand)
{
	struct entry ent;
	struct stat st;
	char *rel = path_below_root(operand);
	int fd = -1, rc = -1, err;

	if (rel == NULL) {
		warn_operand(operand, errno == EINVAL ? "not a file name"
						      : strerror(errno));
		return -1;
	}
	fd = walk_open_beneath(rootfd, rel, &st);
	if (fd < 0) {
		warn_operand(operand, open_failure(operand, errno));
		goto out;
	}
	rc = entry_record(fd, &st, rel, 1, &ent);
	err = errno;
	if (rc == 0) {
		warn_operand(
			operand,
			"no file capabilities to record (set them with setcap first)");
		rc = -1;
		goto out;
	}
	if (rc < 0) {
		warn_operand(operand, strerror(err));
		goto out;
	}
	if (manifest_find(m, rel) != NULL) {
		rc = 0; /* named twice: recorded once */
	} else {
		rc = manifest_add(m, &ent);
		if (rc < 0)
			warn_operand(operand, strerror(ENOMEM));
		manifest_sort(m);
	}
	cap_free(ent.text);
	meta_free(&ent.meta);
out:
	if (fd >= 0)
		close(fd);
	free(rel);
	return rc;
}

int manifest_record_files(struct manifest *m, char *const *files, int n)
{
	int rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), i, failed = 0;

	if (rootfd < 0) {
		warn_operand("/", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (record_operand(m, rootfd, files[i]) < 0)
			failed = 1;
	close(rootfd);
	return failed ? -1 : 0;
}

/* --- add ------------------------------------------------------------- */

/*
 * Whether an old manifest's entry can be written in the current format as
 * it is: it records owner, group and mode, a content digest, and its
 * ACL's entries where it has one (none of which can be made up).
 */
static int carries_over(const struct entry *e)
{
	return e->has_meta && e->has_digest &&
	       !(e->meta.acl && e->meta.acl_text == NULL);
}

/*
 * An old manifest's entries that the files given do not replace and that
 * cannot be written again as they are: named on stderr, and counted.
 */
static int unreplaced_old_entries(const struct manifest *old,
				  const struct manifest *add, const char *path)
{
	size_t i;
	int n = 0;

	for (i = 0; i < old->count; i++) {
		if (carries_over(&old->entries[i]) ||
		    manifest_find(add, old->entries[i].path) != NULL)
			continue;
		if (n++ == 0)
			say(stderr, "capmanifest: ",
			    old->version < 3
				    ? "%s: a version %d manifest records no content digests, and these entries are not being recorded again:"
				    : "%s: a version %d manifest records that these files have an ACL, not its entries, and they are not being recorded again:",
			    path, old->version);
		fputs("capmanifest:   ", stderr);
		print_escaped(stderr, old->entries[i].path);
		fputc('\n', stderr);
	}
	if (n > 0)
		fprintf(stderr,
			"capmanifest: name %s too, so that the manifest can be written as version %d\n",
			n == 1 ? "it" : "them", MANIFEST_VERSION);
	return n;
}

static int same_entry(const struct entry *a, const struct entry *b)
{
	return strcmp(a->text, b->text) == 0 && a->rootid == b->rootid &&
	       a->has_meta && b->has_meta && meta_equal(&a->meta, &b->meta) &&
	       a->has_digest && b->has_digest &&
	       memcmp(a->digest, b->digest, SHA256_SIZE) == 0;
}

int manifest_add_files(const char *path, char *const *files, int n)
{
	struct manifest old = { 0 }, add = { 0 }, merged = { 0 };
	struct target t = { .dirfd = -1, .lockfd = -1 };
	size_t i;
	int status, changed = 0, for_trigger = 0;

	/* Locked from the read to the rename: no other add in between. */
	status = target_open(&t, path);
	if (status == 0)
		status = register_check_name(&t, &for_trigger);
	if (status == 0)
		status = target_lock(&t);
	if (status == 0)
		status = target_read(&t, &old, 0);
	if (status != 0)
		goto out;
	status = 1;
	if (manifest_record_files(&add, files, n) < 0)
		goto out; /* each named above; the manifest is untouched */
	if (unreplaced_old_entries(&old, &add, path) > 0)
		goto out;
	/* The old entries the new ones do not replace, then the new. */
	for (i = 0; i < old.count; i++)
		if (manifest_find(&add, old.entries[i].path) == NULL &&
		    manifest_add(&merged, &old.entries[i]) < 0)
			goto nomem;
	for (i = 0; i < old.nunread; i++)
		if (manifest_add_unread(&merged, old.unread[i]) < 0)
			goto nomem;
	for (i = 0; i < add.count; i++) {
		const struct entry *was =
			manifest_find(&old, add.entries[i].path);

		if (manifest_add(&merged, &add.entries[i]) < 0)
			goto nomem;
		if (was == NULL || !same_entry(was, &add.entries[i]))
			changed = 1;
	}
	manifest_sort(&merged);
	/* Rewritten when anything changed, or to make it the current version. */
	status = changed || old.version != MANIFEST_VERSION
			 ? target_write(&t, &merged)
			 : 0;
	for (i = 0; status == 0 && i < add.count; i++) {
		const struct entry *e = &add.entries[i],
				   *was = manifest_find(&old, e->path);

		print_entry(was == NULL		 ? "added:"
			    : same_entry(was, e) ? "unchanged:"
						 : "updated:",
			    e);
	}
	if (status == 0 && for_trigger)
		register_check_files(&add);
	goto out;
nomem:
	warn_operand(path, strerror(ENOMEM));
out:
	manifest_free(&old);
	manifest_free(&add);
	manifest_free(&merged);
	target_free(&t);
	return status;
}
