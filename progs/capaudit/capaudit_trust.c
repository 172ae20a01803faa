/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: who besides root may change a file it proves a grant with,
 * or that a suggested line grants, or which file its path names.
 * common/path_trust.h judges (owners, modes and ACL entries as the
 * kernel decides, FUSE, idmapped mounts, disk images, every directory
 * and symbolic link on the way from "/"); this is capaudit's policy and
 * the clauses its messages say it in.
 *
 * A trial runs a copy of the file with the capabilities under test and
 * keeps or drops each by what the run did: whoever may change the file,
 * a library it loads, a script it reads, or which file the path names
 * while the trial runs decides what that run does, and the grant it
 * "proves" is theirs. So the verdict "proven" rests only on files only
 * root may change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capaudit_trust.h"
#include "escape.h"
#include "path_trust.h"
#include "why.h"

/* capaudit's question to path_trust, each field with its reason. */
static void policy_init(struct path_trust *t, enum trust_when when)
{
	const struct path_trust_policy p = {
		/*
		 * Root alone. The trials run as --user's user, and a file
		 * that user (or anyone else) may change decides what the
		 * capable copy does; capaudit runs as root, so nobody earns
		 * trust by running it.
		 */
		.also = (uid_t)-1,
		/*
		 * No. In a user namespace that does not map it, the
		 * overflow uid owns every file whose owner the namespace
		 * does not map, any user of the host's among them, who may
		 * change it from outside while a trial runs. (pam_cap trusts
		 * it because what it grants stays in the namespace; a proof
		 * made with a file someone else may change is false
		 * wherever it is made.)
		 */
		.overflow_uid = 0,
		/*
		 * Above the file only. In a sticky directory others may
		 * write they cannot rename or remove what root keeps there,
		 * so root's directory next on the way stays where it is
		 * (/tmp above root's tools, TMPDIR above the trials' own
		 * directory): a user cannot move a directory without write
		 * permission on it. But in the directory holding the file
		 * they may add any free name, and moving a regular file of
		 * root's in from a directory of theirs needs no permission
		 * on the file: the file at a name there may be one they
		 * chose, and a trial would run it.
		 */
		.sticky = PATH_TRUST_STICKY_ABOVE,
		/*
		 * While capaudit runs, yes: a directory whose mode lets
		 * others write but that no mount lets anyone write (a
		 * container's read-only root, a ConfigMap) cannot change
		 * until root remounts it, and the trials write nothing
		 * there (their copies are in a tmpfs of their own, bound
		 * over the path in the trial's mount namespace). For a line
		 * to paste, no: setcap writes an attribute of the file,
		 * which a read-only mount refuses, so where the file is on
		 * that mount the line works only once the mount lets writes
		 * again, and the directory is then as open as its mode says.
		 */
		.sealed_mounts = when == TRUST_NOW,
		/*
		 * pam_cap's words: each reason fits in parentheses after
		 * capaudit's clause ("(an ACL entry lets uid 65534 write
		 * it)", "(its group 4200 may write it)").
		 */
		.words = PATH_TRUST_WORDS_CONF,
	};

	path_trust_init(t, &p);
}

/* What could not be judged, err the judge's errno. */
static enum trust_verdict say_unknown(const struct path_trust *t, int err,
				      char *clause, size_t len)
{
	if (t->why[0] == '\0')
		why_say(clause, len, "cannot be checked (%s)", strerror(err));
	else if (t->where == PATH_TRUST_DIR)
		why_say(clause, len, "cannot be checked (directory %s: %s)",
			t->path, t->why);
	else
		why_say(clause, len, "cannot be checked (%s)", t->why);
	return TRUST_UNVOUCHED;
}

/*
 * Whether the mode bits of the directory ds alone say what t found: the
 * words capaudit always said for a directory not root's or writable by
 * others by its mode are kept for it (its tests and pages quote them).
 */
static int said_by_mode(const struct path_trust *t, const struct stat *ds)
{
	struct path_trust mode_only;

	path_trust_init(&mode_only, &t->policy);
	return path_trust_meta(&mode_only, ds, NULL, 0) > 0 &&
	       strcmp(mode_only.why, t->why) == 0;
}

/* A directory on the way (t->path) that others than root may change. */
static enum trust_verdict say_dir(const struct path_trust *t, char *clause,
				  size_t len)
{
	const char *sep = t->note[0] != '\0' ? "; " : "";
	struct stat ds;
	int known = lstat(t->path, &ds) == 0 && S_ISDIR(ds.st_mode);

	if (t->how == PATH_TRUST_FUSE || t->how == PATH_TRUST_SHOWN) {
		why_say(clause, len, "is under directory %s, which is %s",
			t->path, t->why);
		return TRUST_UNVOUCHED;
	}
	/*
	 * Only the directory holding the file (or judged itself) is refused
	 * for its sticky bit.
	 */
	if (t->how != PATH_TRUST_OWNER && known && (ds.st_mode & S_ISVTX)) {
		why_say(clause, len,
			"is in directory %s, which is sticky but lets others than root add names, a file of root's moved in among them (%s%s%s)",
			t->path, t->why, sep, t->note);
		return TRUST_OTHERS;
	}
	if (t->how == PATH_TRUST_OWNER || (known && said_by_mode(t, &ds))) {
		why_say(clause, len,
			"is in a directory others than root may change%s%s%s",
			t->note[0] != '\0' ? " (" : "", t->note,
			t->note[0] != '\0' ? ")" : "");
		return TRUST_OTHERS;
	}
	why_say(clause, len,
		"is under directory %s, which others than root may change (%s%s%s)",
		t->path, t->why, sep, t->note);
	return TRUST_OTHERS;
}

enum trust_verdict trust_file(int fd, const struct stat *st, char *clause,
			      size_t len)
{
	struct path_trust t;
	int rc;

	policy_init(&t, TRUST_NOW); /* (a seal is a directory's alone) */
	rc = path_trust_inode(&t, fd, NULL, st);
	if (rc < 0)
		return say_unknown(&t, errno, clause, len);
	if (rc == 0)
		return TRUST_ROOTS;
	switch (t.how) {
	case PATH_TRUST_OWNER:
		why_say(clause, len, "is not root's");
		return TRUST_OTHERS;
	case PATH_TRUST_WRITER:
		why_say(clause, len, "is writable by others than root (%s)",
			t.why);
		return TRUST_OTHERS;
	default: /* FUSE, an idmapped mount, a disk image */
		why_say(clause, len, "is %s", t.why);
		return TRUST_UNVOUCHED;
	}
}

enum trust_verdict trust_way(const char *path, const struct stat *st,
			     enum trust_when when, char *clause, size_t len)
{
	struct path_trust t;
	int rc;

	policy_init(&t, when);
	rc = path_trust_way(&t, path, st);
	if (rc < 0)
		return say_unknown(&t, errno, clause, len);
	if (rc == 0)
		return TRUST_ROOTS;
	switch (t.where) {
	case PATH_TRUST_DIR:
		return say_dir(&t, clause, len);
	case PATH_TRUST_LINK:
		why_say(clause, len,
			"has a symbolic link in its path (%s: %s, and may point it elsewhere)",
			t.path, t.why);
		return TRUST_OTHERS;
	default: /* PATH_TRUST_MOVED */
		why_say(clause, len,
			"cannot be checked (its path now leads to another file: a directory on its way changed)");
		return TRUST_UNVOUCHED;
	}
}

enum trust_verdict trust_path(const char *path, int fd, enum trust_when when,
			      char *clause, size_t len)
{
	enum trust_verdict v;
	struct stat st;
	int own = -1;

	if (fd < 0)
		fd = own = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		why_say(clause, len, "cannot be checked (%s)", strerror(errno));
		v = TRUST_UNVOUCHED;
	} else if (!S_ISREG(st.st_mode)) {
		why_say(clause, len, "is not a regular file");
		v = TRUST_UNVOUCHED;
	} else {
		v = trust_file(fd, &st, clause, len);
		if (v == TRUST_ROOTS)
			v = trust_way(path, &st, when, clause, len);
	}
	if (own >= 0)
		close(own);
	return v;
}

void trust_clause_escape(char *clause, size_t len)
{
	char *shown = escape_dup(clause);

	why_say(clause, len, "%s",
		shown != NULL ? shown
			      : "cannot be shown (Cannot allocate memory)");
	free(shown);
}
