/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all: may a user of a capable process change the program it
 * runs? The executable is judged through one descriptor of the exe link.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "acl.h"
#include "getpcaps.h"
#include "groups.h"

/* gid is one of the thread's groups: its four ids or a supplementary one. */
static int creds_in_group(gid_t gid, const void *ctx)
{
	const struct creds *c = ctx;

	return groups_have(c->gid, 4, gid) ||
	       groups_have(c->groups, c->ngroups, gid);
}

/*
 * May the user of credentials c write xfd's file, by its mode or by the
 * POSIX ACL beside it, as the kernel would judge? 1 or 0, or -1 with errno
 * when the ACL cannot be read or is not one the kernel writes.
 */
static int exe_writable_by(const struct creds *c, int xfd,
			   const struct stat *st)
{
	struct acl_entry e[32];
	unsigned char raw[4 + 8 * 32];
	char link[64];
	ssize_t len;
	int n;

	if (st->st_uid == c->uid[1])
		return 1; /* its owner may always chmod it */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", xfd);
	len = getxattr(link, ACL_XATTR_ACCESS, raw, sizeof(raw));
	if (len < 0 && errno != ENODATA && errno != ENOTSUP)
		return -1;
	if (len < 0) { /* no ACL: the mode's three classes */
		e[0] = (struct acl_entry){ ACL_USER_OBJ, (st->st_mode >> 6) & 7,
					   0 };
		e[1] = (struct acl_entry){ ACL_GROUP_OBJ,
					   (st->st_mode >> 3) & 7, 0 };
		e[2] = (struct acl_entry){ ACL_OTHER, st->st_mode & 7, 0 };
		n = 3;
	} else if ((n = acl_decode(raw, (size_t)len, e, 32)) < 0) {
		return -1;
	}
	return acl_permits(e, n, st, c->uid[1], creds_in_group, c,
			   ACL_PERM_WRITE);
}

/* Root can rewrite anything anyway; without capabilities nothing is at stake. */
int exe_needed(const struct proc *p)
{
	return !creds_root_like(&p->c) && (p->c.prm | p->c.eff | p->c.amb) != 0;
}

/*
 * Can a user of the process change what it runs? xfd is the executable,
 * opened through the exe link, which the kernel resolves to the very file
 * the process executes (no path lookup a process could redirect), once:
 * the mode, the owner and the ACL are all read from that one descriptor,
 * and the path printed is read from it too. Each thread's user counts
 * (they share one memory: whoever controls the program controls every
 * thread). Returns 0, or the errno that left the file unchecked.
 */
int check_exe(struct proc *p, int xfd, int open_err)
{
	struct stat st;
	size_t i;
	int w, err = 0;

	if (!exe_needed(p)) {
		p->exe_state = EXE_NOT_NEEDED;
		return 0;
	}
	p->exe_state = EXE_UNCHECKED;
	if (xfd < 0)
		return open_err; /* EACCES: not ours to trace */
	if (fstat(xfd, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		return EINVAL;
	for (i = 0; i < p->nsets; i++) {
		w = exe_writable_by(&p->sets[i].c, xfd, &st);
		if (w > 0) {
			p->exe_state = EXE_WRITABLE;
			return 0;
		}
		if (w < 0 && err == 0)
			err = errno;
	}
	/* Users of threads past THREAD_SETS_MOST were not asked. */
	if (err == 0 && p->threads_untold > 0)
		err = E2BIG;
	if (err == 0)
		p->exe_state = EXE_SAFE;
	return err;
}

/*
 * The path of the executable open on xfd, for printing: the name of the
 * file judged, not a second look-up of the exe link, which could meet
 * another file if the process executed a new program meanwhile. NULL when
 * it cannot be read.
 */
char *exe_path_of(int xfd)
{
	char link[64], path[4096];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", xfd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return NULL;
	path[len] = '\0';
	return strdup(path);
}
