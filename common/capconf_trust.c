/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * May capability.conf be trusted: could anyone but root have written it?
 * path_trust.h judges; this is pam_cap's policy and the words its log,
 * capcheck and perfdoctor say it in.
 *
 * libcap (2.69+) refuses only a world-writable file. A file its owner
 * bob may rewrite, or that a group or an ACL entry lets bob write, or
 * that sits in a directory bob may change (and so replace it with his
 * own file, or with a symbolic link to any root-owned file whose lines he
 * can influence), lets bob write "^cap_sys_admin bob" as surely. So does
 * a symbolic link on the way that lives in such a directory: bob points
 * it wherever he likes. Root alone is trusted, whoever reads: pam_cap runs
 * as root (a set-user-ID su keeps the caller's group, which must not count),
 * and capcheck and perfdoctor, run by a user, must answer what pam_cap
 * will do.
 *
 * The file is judged by the descriptor pam_cap reads, and the way to it
 * followed again from "/" (path_trust_way()). A sticky directory others
 * may write (/tmp; a multi-user Nix store, root's 1775, group nixbld)
 * keeps root's directories in it root's, and so the way on through them,
 * but not a file or link of root's in it: whoever may write it may rename
 * one in from a directory of theirs under a free name (the configured
 * one before it is made, a store path garbage collection removed), and
 * rename(2) asks nothing of the file moved. Root-owned files whose lines a
 * user chose do lie in users' directories ("root# tool > ~alice/out", a
 * tarball root unpacked there). Where the mode says others may write, the
 * kernel may still refuse them all, and then what they cannot do counts,
 * not the mode (writeseal.h): a directory root owns that no mount any
 * process sees lets anyone write (a Kubernetes ConfigMap: a read-only
 * mount of a volume whose root is 0777; a Nix store on a file system
 * mounted read-only wherever it is mounted) holds root's names alone,
 * sticky or not. That holds only while root alone may change the mount
 * namespace; anything unknown counts as a writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capconf.h"
#include "path_trust.h"
#include "why.h"

const struct path_trust_policy capconf_trust_policy = {
	.also = (uid_t)-1,
	.overflow_uid = 1,
	.sticky = PATH_TRUST_STICKY_ABOVE,
	.sealed_mounts = 1,
	.words = PATH_TRUST_WORDS_CONF,
};

/* What could not be judged, into why; CAPCONF_OPEN_FAILED, errno kept. */
static int say_failed(const struct path_trust *t, char *why, size_t whylen)
{
	int saved = errno;

	if (t->why[0] == '\0')
		; /* errno says it all */
	else if (t->where == PATH_TRUST_DIR)
		why_say(why, whylen, "directory %s: %s", t->path, t->why);
	else if (t->how == PATH_TRUST_SHOWN)
		why_say(why, whylen, "it: %s", t->why);
	else
		why_say(why, whylen, "%s", t->why);
	errno = saved;
	return CAPCONF_OPEN_FAILED;
}

/* A directory on the way, or what it holds: CAPCONF_OPEN_UNTRUSTED_DIR. */
static int say_dir(const struct path_trust *t, char *why, size_t whylen)
{
	switch (t->how) {
	case PATH_TRUST_FUSE:
		why_say(why, whylen, "directory %s on its way: %s", t->path,
			t->why);
		break;
	case PATH_TRUST_SHOWN:
		why_say(why, whylen, "directory %s on its way is %s", t->path,
			t->why);
		break;
	case PATH_TRUST_FREE_NAME:
		why_say(why, whylen,
			"directory %s holds %s: %s, and the sticky bit does not stop them putting %s there under a free name%s%s",
			t->path,
			t->holder ? "it" : "a symbolic link on its way", t->why,
			t->holder ? "a file" : "a link",
			t->note[0] != '\0' ? "; " : "", t->note);
		break;
	default:
		why_say(why, whylen,
			"directory %s on its way: %s; another file could be put in its place%s%s",
			t->path, t->why, t->note[0] != '\0' ? "; " : "",
			t->note);
		break;
	}
	return CAPCONF_OPEN_UNTRUSTED_DIR;
}

/* The verdict of rc (path_trust's) as capconf_trust() returns it. */
static int say_verdict(const struct path_trust *t, int rc, const char *path,
		       char *why, size_t whylen)
{
	if (rc == 0)
		return CAPCONF_OPEN_OK;
	if (rc < 0)
		return say_failed(t, why, whylen);
	switch (t->where) {
	case PATH_TRUST_IT:
		if (t->how == PATH_TRUST_FUSE || t->how == PATH_TRUST_SHOWN) {
			/* no chown or chmod of it mends that */
			why_say(why, whylen, "it is %s", t->why);
			return CAPCONF_OPEN_UNTRUSTED_DIR;
		}
		if (t->how == PATH_TRUST_OWNER)
			why_say(why, whylen, "%s, and may make it say anything",
				t->why);
		else
			why_say(why, whylen, "%s", t->why);
		return CAPCONF_OPEN_UNTRUSTED;
	case PATH_TRUST_LINK:
		why_say(why, whylen,
			"symbolic link %s on its way: %s, and may point it at another file",
			t->path, t->why);
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	case PATH_TRUST_MOVED:
		why_say(why, whylen,
			"%s now leads to another file than the one read: a directory on its way changed",
			path);
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	default:
		return say_dir(t, why, whylen);
	}
}

int capconf_trust(const char *path, int fd, const struct stat *st, char *why,
		  size_t whylen)
{
	struct path_trust t;
	int pfd, rc, saved;

	why[0] = '\0';
	/* "anyone could have rewritten it": the message libcap users know */
	if (st->st_mode & S_IWOTH)
		return CAPCONF_OPEN_WORLD_WRITABLE;
	/* Asked of a descriptor: the caller's, or (by path) one of its own. */
	pfd = fd >= 0 ? fd : open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return CAPCONF_OPEN_FAILED;
	path_trust_init(&t, &capconf_trust_policy);
	rc = path_trust_inode(&t, pfd, fd >= 0 ? NULL : path, st);
	saved = errno;
	if (pfd != fd)
		close(pfd);
	errno = saved;
	if (rc == 0)
		rc = path_trust_way(&t, path, st);
	return say_verdict(&t, rc, path, why, whylen);
}

int capconf_way_trusted(const char *path, const struct stat *st, char *why,
			size_t whylen)
{
	struct path_trust t;

	why[0] = '\0';
	path_trust_init(&t, &capconf_trust_policy);
	return say_verdict(&t, path_trust_way(&t, path, st), path, why, whylen);
}
