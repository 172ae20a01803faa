/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Who may write one file or directory, and how a directory on a way
 * counts (path_trust.h); path_trust_way.c follows the way itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "acl.h"
#include "fsbacking.h"
#include "fsowner.h"
#include "mounts.h"
#include "path_trust.h"
#include "why.h"
#include "writeseal.h"

/*
 * A small /proc file into buf, NUL-terminated, without stdio (no
 * allocation); -1 when it cannot be read whole.
 */
static int read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0 || (size_t)n == len - 1)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * Does map (uid_map) leave id unmapped in a namespace other than the
 * first? 0 also when the map cannot be read or parsed, or is the initial
 * namespace's identity map: the id is then a user like any other.
 */
static int unmapped_in_nested(const char *map, unsigned long id)
{
	char text[16384], *line, *next;
	unsigned long inner, outer, count;
	int lines = 0, identity = 0;

	if (read_text(map, text, sizeof(text)) < 0)
		return 0;
	for (line = text; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next == NULL)
			next = line + strlen(line);
		else
			*next++ = '\0';
		if (sscanf(line, "%lu %lu %lu", &inner, &outer, &count) != 3)
			return 0;
		lines++;
		identity = inner == 0 && outer == 0 && count == 4294967295UL;
		if (id >= inner && id - inner < count)
			return 0;
	}
	return lines > 0 && !(lines == 1 && identity);
}

void path_trust_init(struct path_trust *t, const struct path_trust_policy *p)
{
	char text[32];

	memset(t, 0, sizeof(*t));
	t->policy = *p;
	if (!p->overflow_uid)
		return;
	t->overflow = 65534;
	if (read_text("/proc/sys/kernel/overflowuid", text, sizeof(text)) == 0)
		t->overflow = strtoul(text, NULL, 10);
	t->overflow_trusted =
		unmapped_in_nested("/proc/self/uid_map", t->overflow);
}

int path_trust_uid(const struct path_trust *t, unsigned long uid)
{
	return uid == 0 ||
	       (t->policy.also != (uid_t)-1 && uid == t->policy.also) ||
	       (t->overflow_trusted && uid == t->overflow);
}

/* A verdict about the file or directory judged. */
static int found(struct path_trust *t, enum path_trust_how how)
{
	t->where = PATH_TRUST_IT;
	t->how = how;
	return 1;
}

/* Who may write, as the kernel lets them: by the mode, or an ACL entry. */
enum writer {
	BY_OTHER,	/* the mode's other bits, or the ACL's other entry */
	BY_GROUP,	/* the owning group: the mode's bits or its entry */
	BY_NAMED_USER,	/* an ACL entry for a uid */
	BY_NAMED_GROUP, /* an ACL entry for a gid */
};

/* The writer in the policy's words into t->why: 1 (found). */
static int say_writer(struct path_trust *t, enum writer w, unsigned long id,
		      const struct stat *st, int by_acl)
{
	/* capmanifest names what lets them: the entry, or the mode */
	char how[64];

	if (by_acl)
		snprintf(how, sizeof(how), "ACL entry");
	else
		snprintf(how, sizeof(how), "mode %04o%s",
			 (unsigned)(st->st_mode & 07777),
			 S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)
				 ? ", sticky, which still lets them add names"
				 : "");
	if (t->policy.words == PATH_TRUST_WORDS_MANIFEST) {
		if (w == BY_OTHER)
			why_say(t->why, sizeof(t->why),
				"everyone may write it (%s)", how);
		else
			why_say(t->why, sizeof(t->why),
				"%s %lu may write it (%s)",
				w == BY_NAMED_USER ? "uid" : "group", id, how);
	} else if (w == BY_OTHER) {
		why_say(t->why, sizeof(t->why), "everybody may write it");
	} else if (w == BY_GROUP) {
		why_say(t->why, sizeof(t->why), "its group %lu may write it",
			id);
	} else {
		why_say(t->why, sizeof(t->why),
			"an ACL entry lets %s %lu write it",
			w == BY_NAMED_USER ? "uid" : "group", id);
	}
	return found(t, PATH_TRUST_WRITER);
}

/* The first ACL entry letting someone untrusted write: 1, or 0. */
static int acl_writer(struct path_trust *t, const struct acl_entry *e, int n,
		      const struct stat *st)
{
	unsigned mask = acl_mask(e, n);
	int i;

	for (i = 0; i < n; i++) {
		if (!(acl_effective(&e[i], mask) & ACL_PERM_WRITE))
			continue;
		switch (e[i].tag) {
		case ACL_NAMED_USER:
			if (path_trust_uid(t, e[i].id))
				break;
			return say_writer(t, BY_NAMED_USER, e[i].id, st, 1);
		case ACL_GROUP_OBJ:
			return say_writer(t, BY_GROUP, st->st_gid, st, 1);
		case ACL_NAMED_GROUP:
			return say_writer(t, BY_NAMED_GROUP, e[i].id, st, 1);
		case ACL_OTHER:
			return say_writer(t, BY_OTHER, 0, st, 1);
		default: /* the owner's own entry, the mask */
			break;
		}
	}
	return 0;
}

int path_trust_meta(struct path_trust *t, const struct stat *st,
		    const struct acl_entry *e, int n)
{
	t->why[0] = '\0';
	/* The owner may always chmod it writable: owning is writing. */
	if (!path_trust_uid(t, st->st_uid)) {
		why_say(t->why, sizeof(t->why), "uid %lu owns it",
			(unsigned long)st->st_uid);
		return found(t, PATH_TRUST_OWNER);
	}
	/*
	 * With an access ACL the kernel decides for everyone but the owner
	 * from its entries, if the mode has any group bit (the mask, then);
	 * without one, or with no group bit, from the mode.
	 */
	if (n > 0 && (st->st_mode & S_IRWXG))
		return acl_writer(t, e, n, st);
	if (st->st_mode & S_IWOTH)
		return say_writer(t, BY_OTHER, 0, st, 0);
	if (st->st_mode & S_IWGRP)
		return say_writer(t, BY_GROUP, st->st_gid, st, 0);
	return 0;
}

/*
 * One read of fd's access ACL, as getxattr(2) (buf NULL: its size). An
 * O_PATH descriptor takes no f*xattr() call (EBADF): then through
 * /proc/self/fd, which names that very inode, and without /proc by path,
 * when the caller named it.
 */
static ssize_t read_acl_once(int fd, const char *path, void *buf, size_t len)
{
	char self[64];
	ssize_t n = fgetxattr(fd, ACL_XATTR_ACCESS, buf, len);

	if (n >= 0 || errno != EBADF)
		return n;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = getxattr(self, ACL_XATTR_ACCESS, buf, len);
	if (n >= 0 || errno != ENOENT || path == NULL)
		return n;
	return getxattr(path, ACL_XATTR_ACCESS, buf, len);
}

/*
 * fd's access ACL decoded into *e (the caller frees it), its count in *n
 * (0 and *e NULL: none, or no ACLs on its file system); 0, or -1 with
 * errno and why.
 */
static int read_acl(struct path_trust *t, int fd, const char *path,
		    struct acl_entry **e, int *n)
{
	const size_t most = 4 + 8 * (size_t)ACL_MAX_ENTRIES;
	unsigned char *raw = NULL;
	ssize_t len;
	int tries, saved;

	*e = NULL;
	*n = 0;
	for (tries = 0; tries < 3; tries++) {
		len = read_acl_once(fd, path, NULL, 0);
		if (len < 0 && (errno == ENODATA || errno == ENOTSUP))
			return 0;
		if (len >= 0 && (size_t)len > most) {
			errno = E2BIG;
			len = -1;
		}
		if (len < 0)
			break;
		free(raw);
		raw = malloc((size_t)len + 1);
		if (raw == NULL) {
			errno = ENOMEM;
			len = -1;
			break;
		}
		len = read_acl_once(fd, path, raw, (size_t)len);
		/* ERANGE: it grew since; judged again, it might say more. */
		if (len >= 0 || errno != ERANGE)
			break;
	}
	if (len < 0) {
		why_say(t->why, sizeof(t->why),
			"its ACL cannot be read (%s), so who may write it is unknown",
			strerror(errno));
		goto fail;
	}
	*e = calloc(ACL_MAX_ENTRIES, sizeof(**e));
	if (*e == NULL) {
		errno = ENOMEM;
		goto fail;
	}
	*n = acl_decode(raw, (size_t)len, *e, ACL_MAX_ENTRIES);
	if (*n < 0) {
		why_say(t->why, sizeof(t->why),
			"its ACL cannot be decoded (%s), so who may write it is unknown",
			strerror(errno));
		goto fail;
	}
	free(raw);
	return 0;
fail:
	saved = errno;
	free(raw);
	free(*e);
	*e = NULL;
	*n = 0;
	t->where = PATH_TRUST_IT;
	t->how = PATH_TRUST_UNKNOWN;
	errno = saved;
	return -1;
}

/*
 * Whether the owners and modes of fd are the kernel's word: not on FUSE
 * (its daemon's), nor reached through an idmapped mount (its mapping's),
 * nor where anyone but root may write the blocks of its file system (a
 * disk image: fsbacking.h). 0, 1 (how FUSE or SHOWN), or -1 with errno
 * (how SHOWN; why its text once the mounts were asked).
 */
static int owners_unvouched(struct path_trust *t, int fd)
{
	int w;

	t->why[0] = '\0';
	t->where = PATH_TRUST_IT;
	t->how = PATH_TRUST_SHOWN;
	w = fs_owner_unvouched(fd, NULL);
	if (w > 0) {
		why_say(t->why, sizeof(t->why), "%s", FS_OWNER_FUSE_WHY);
		return found(t, PATH_TRUST_FUSE);
	}
	if (w < 0)
		return -1; /* unknown too, with errno alone */
	w = mount_idmapped(fd);
	if (w > 0) {
		why_say(t->why, sizeof(t->why), "%s", MOUNT_IDMAPPED_WHY);
	} else if (w < 0 && errno != ENOMEM) {
		/* unknown is no answer: refused as one would be */
		why_say(t->why, sizeof(t->why),
			"reached through a mount of which it cannot be told whether it is idmapped (%s)",
			strerror(errno));
		w = 1;
	} else if (w == 0) {
		w = fs_backing_writer(fd, &t->backing, t->why, sizeof(t->why));
	}
	if (w < 0) {
		int saved = errno;

		why_say(t->why, sizeof(t->why), "%s", strerror(saved));
		errno = saved;
	}
	return w;
}

/* Judged where it is, then by its rule with the ACL given, or its own. */
static int judge_inode(struct path_trust *t, int fd, const char *path,
		       const struct stat *st, int given,
		       const struct acl_entry *e, int n)
{
	struct acl_entry *own = NULL;
	int rc = owners_unvouched(t, fd), saved;

	if (rc != 0)
		return rc;
	if (!given && path_trust_uid(t, st->st_uid) &&
	    (st->st_mode & S_IRWXG) && read_acl(t, fd, path, &own, &n) < 0)
		return -1;
	rc = path_trust_meta(t, st, given ? e : own, n);
	saved = errno;
	free(own);
	errno = saved;
	return rc;
}

int path_trust_inode(struct path_trust *t, int fd, const char *path,
		     const struct stat *st)
{
	return judge_inode(t, fd, path, st, 0, NULL, 0);
}

int path_trust_inode_as(struct path_trust *t, int fd, const struct stat *as,
			const struct acl_entry *e, int n)
{
	return judge_inode(t, fd, NULL, as, 1, e, n);
}

int path_trust_dir(struct path_trust *t, int fd, const char *name,
		   const struct stat *st, int holder, int *sticky)
{
	/* Only a path from the root names it for others than the caller. */
	const char *canonical = name[0] == '/' ? name : NULL;
	int w = judge_inode(t, fd, canonical, st, 0, NULL, 0), sealed;

	*sticky = 0;
	t->note[0] = '\0';
	if (w > 0 && t->how == PATH_TRUST_WRITER) {
		/*
		 * No mount lets anyone write it: every name in it is root's,
		 * sticky bit or not. Asked first, so that a sealed sticky
		 * directory may hold the file.
		 */
		if (t->policy.sealed_mounts && canonical != NULL) {
			sealed = dir_sealed(fd, name, t->note, sizeof(t->note));
			if (sealed < 0) {
				why_say(t->why, sizeof(t->why), "%s",
					strerror(errno));
				t->how = PATH_TRUST_SHOWN;
				w = -1;
			} else if (sealed > 0) {
				w = 0;
			}
		}
		/*
		 * Nobody else may rename or remove a name of root's there,
		 * but they may add a free one: where the policy lets that
		 * keep the way, it does, to a directory the caller finds
		 * next; never as the directory judged.
		 */
		if (w > 0 && (st->st_mode & S_ISVTX) &&
		    t->policy.sticky == PATH_TRUST_STICKY_ABOVE) {
			if (holder) {
				t->how = PATH_TRUST_FREE_NAME;
			} else {
				*sticky = 1;
				w = 0;
			}
		}
	}
	if (w != 0) {
		int saved = errno;

		t->where = PATH_TRUST_DIR;
		t->holder = holder;
		why_say(t->path, sizeof(t->path), "%s", name);
		errno = saved;
	}
	return w;
}
