/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * May capability.conf be trusted: could anyone but root have written it?
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
 * The file is judged by the descriptor pam_cap reads (fstat, fgetxattr).
 * The way to it is followed again from "/", one name at a time, as the
 * kernel follows it, and every directory passed is judged, those holding a
 * symbolic link included; the name it ends at must be the file judged. A
 * directory no untrusted user may change cannot have been changed between
 * the open and the check, and one that may is refused either way.
 *
 * Owner, mode and ACL are the kernel's word only where the kernel keeps
 * them: the file, or a directory on its way, on a FUSE file system is
 * refused whatever its daemon says of it (fsowner.h), and so is one
 * reached through an idmapped mount (whose mapping says who owns it:
 * mounts.h) or on a disk image another user may write (fsbacking.h). A symbolic link is
 * on the file system of the directory holding it, judged on entering.
 *
 * Where the mode says others may write, the kernel may still refuse them
 * all, and then what they cannot do counts, not the mode (writeseal.h): a
 * directory root owns that no mount any process sees lets anyone write
 * (a Kubernetes ConfigMap: a read-only mount of a volume whose root is
 * 0777), and a second name of a root-only file in a sticky directory that
 * fs.protected_hardlinks kept others from making (a Nix store's file,
 * with the name store optimisation adds). Both hold only while root alone
 * may change the mount namespace; anything unknown counts as a writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "acl.h"
#include "capconf.h"
#include "fsbacking.h"
#include "fsowner.h"
#include "mounts.h"
#include "writeseal.h"
#include "why.h"

/* As the kernel: more symbolic links than this on one way is ELOOP. */
#define LINKS_MAX 40

struct trusted {
	/*
	 * In a user namespace other than the first, files of owners it does
	 * not map show the overflow uid; what it grants stays inside it. An
	 * overflow uid the namespace maps is a user of its own (the nobody
	 * of a container): never trusted.
	 *
	 * No group is trusted, not even root's: gid 0 is held by processes
	 * that are not root (a user listed in group root, a daemon run as
	 * uid:0, a container's arbitrary uid with gid 0, a set-user-ID
	 * program's caller), and nothing enumerates them all. Nor the
	 * overflow gid: processes in a namespace keep the groups it does not
	 * map, and use them to write.
	 */
	int overflow_uid_ok;
	unsigned long overflow_uid;
	/* the file systems whose blocks were judged (fsbacking.h) */
	struct fs_backing_seen backing;
};

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
 * Does map (uid_map or gid_map) leave id unmapped in a namespace other
 * than the first? 0 also when the map cannot be read or parsed, or is the
 * initial namespace's identity map: the id is then a user like any other.
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

static void trusted_init(struct trusted *t)
{
	char text[32];

	t->backing.n = 0;
	t->overflow_uid = 65534;
	if (read_text("/proc/sys/kernel/overflowuid", text, sizeof(text)) == 0)
		t->overflow_uid = strtoul(text, NULL, 10);
	t->overflow_uid_ok =
		unmapped_in_nested("/proc/self/uid_map", t->overflow_uid);
}

static int uid_trusted(const struct trusted *t, unsigned long uid)
{
	return uid == 0 || (t->overflow_uid_ok && uid == t->overflow_uid);
}

/* The first ACL entry letting someone untrusted write: 1 with why, or 0. */
static int acl_writer(const struct acl_entry *e, int n, const struct stat *st,
		      const struct trusted *t, char *why, size_t whylen)
{
	unsigned mask = acl_mask(e, n);
	int i;

	for (i = 0; i < n; i++) {
		if (!(acl_effective(&e[i], mask) & ACL_PERM_WRITE))
			continue;
		switch (e[i].tag) {
		case ACL_NAMED_USER:
			if (uid_trusted(t, e[i].id))
				break;
			why_say(why, whylen,
				"an ACL entry lets uid %lu write it",
				(unsigned long)e[i].id);
			return 1;
		case ACL_GROUP_OBJ:
			why_say(why, whylen, "its group %lu may write it",
				(unsigned long)st->st_gid);
			return 1;
		case ACL_NAMED_GROUP:
			why_say(why, whylen,
				"an ACL entry lets group %lu write it",
				(unsigned long)e[i].id);
			return 1;
		case ACL_OTHER:
			why_say(why, whylen, "everybody may write it");
			return 1;
		default: /* the owner's own entry, the mask */
			break;
		}
	}
	return 0;
}

/* The access ACL's bytes (or, buf NULL, their number), as getxattr(2). */
static ssize_t read_acl(int fd, const char *path, int follow, void *buf,
			size_t len)
{
	if (fd >= 0)
		return fgetxattr(fd, ACL_XATTR_ACCESS, buf, len);
	if (follow)
		return getxattr(path, ACL_XATTR_ACCESS, buf, len);
	return lgetxattr(path, ACL_XATTR_ACCESS, buf, len);
}

/*
 * Who besides its owner may write the file or directory of st, reached by
 * fd (or, when fd is -1, by path, a last link followed if follow), as the
 * kernel judges (fs/namei.c, acl_permission_check(); fs/posix_acl.c,
 * posix_acl_permission()): with an access ACL and a group bit in the mode
 * (the mask, then), the ACL's entries; else the mode's group and other
 * bits. 1 with why naming the first, 0 when nobody untrusted, or -1 with
 * errno (and why) when the ACL cannot be read or decoded: who may write
 * is unknown then.
 */
static int writer_of(int fd, const char *path, int follow,
		     const struct stat *st, const struct trusted *t, char *why,
		     size_t whylen)
{
	unsigned char *raw = NULL;
	struct acl_entry *e = NULL;
	ssize_t len = -1;
	int n, rc = -1, saved;

	if (st->st_mode & S_IRWXG)
		len = read_acl(fd, path, follow, NULL, 0);
	if (!(st->st_mode & S_IRWXG) ||
	    (len < 0 && (errno == ENODATA || errno == ENOTSUP))) {
		if (st->st_mode & S_IWOTH) {
			why_say(why, whylen, "everybody may write it");
			return 1;
		}
		if (st->st_mode & S_IWGRP) {
			why_say(why, whylen, "its group %lu may write it",
				(unsigned long)st->st_gid);
			return 1;
		}
		return 0;
	}
	if (len >= 0 && (size_t)len > 4 + 8 * (size_t)ACL_MAX_ENTRIES) {
		len = -1;
		errno = E2BIG;
	}
	if (len >= 0) {
		raw = malloc((size_t)len + 1);
		e = calloc(ACL_MAX_ENTRIES, sizeof(*e));
		if (raw == NULL || e == NULL) {
			errno = ENOMEM;
			len = -1;
		}
	}
	if (len >= 0) {
		/* ERANGE: it grew since; judged again, it might say more. */
		len = read_acl(fd, path, follow, raw, (size_t)len);
	}
	if (len < 0) {
		why_say(why, whylen,
			"its ACL cannot be read (%s), so who may write it is unknown",
			strerror(errno));
		goto out;
	}
	n = acl_decode(raw, (size_t)len, e, ACL_MAX_ENTRIES);
	if (n < 0) {
		why_say(why, whylen,
			"its ACL cannot be decoded (%s), so who may write it is unknown",
			strerror(errno));
		goto out;
	}
	rc = acl_writer(e, n, st, t, why, whylen);
out:
	saved = errno;
	free(raw);
	free(e);
	errno = saved;
	return rc;
}

/*
 * Could someone untrusted change what the name in directory dir (open on
 * fd, ds its stat) leads to? Its owner, and whoever else may write it,
 * unless it is sticky: then nobody but the owner of a name, and the
 * directory's, may rename or remove it (fs/namei.c, check_sticky()), and
 * *sticky_open is set (the name itself must then be root's, and a file
 * have no other name that someone else could have made); or unless no
 * mount lets anyone write it (writeseal.h): a read-only mount of a
 * directory whose mode lets everybody write, as a Kubernetes ConfigMap
 * volume is. 0, 1 with why, or -1 with errno and why.
 */
static int dir_writer(int fd, const char *dir, const struct stat *ds,
		      const struct trusted *t, int *sticky_open, char *why,
		      size_t whylen)
{
	char who[160], sealed_why[448];
	int w;

	*sticky_open = 0;
	sealed_why[0] = '\0';
	if (!uid_trusted(t, ds->st_uid)) {
		why_say(who, sizeof(who), "uid %lu owns it",
			(unsigned long)ds->st_uid);
		w = 1;
	} else {
		w = writer_of(-1, dir, 0, ds, t, who, sizeof(who));
		if (w > 0 && (ds->st_mode & S_ISVTX)) {
			*sticky_open = 1;
			w = 0;
		} else if (w > 0) {
			int sealed = dir_sealed(fd, dir, sealed_why,
						sizeof(sealed_why));

			if (sealed < 0) {
				why_say(why, whylen, "directory %s: %s", dir,
					strerror(errno));
				return -1;
			}
			if (sealed > 0)
				w = 0;
		}
	}
	if (w < 0)
		why_say(why, whylen, "directory %s: %s", dir, who);
	else if (w > 0)
		why_say(why, whylen,
			"directory %s on its way: %s; another file could be put in its place%s%s",
			dir, who, sealed_why[0] != '\0' ? "; " : "",
			sealed_why);
	return w;
}

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
 * Directory dir's stat into ds, and whether its file system leaves its
 * owner to a daemon: 0 with *fd open on it (O_PATH), 1 with why, or -1
 * with errno (ENOTDIR for a link or a file: O_DIRECTORY with O_NOFOLLOW).
 * One descriptor makes the stat, the statfs and what the mounts say of it
 * one object's: a mount cannot come or go between them.
 */
static int dir_stat(const char *dir, int *fd, struct stat *ds, char *why,
		    size_t whylen)
{
	int rc;

	*fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return -1;
	rc = fstat(*fd, ds);
	if (rc == 0)
		rc = fs_owner_unvouched(*fd, NULL);
	if (rc != 0) {
		int saved = errno;

		close(*fd);
		*fd = -1;
		errno = saved;
	}
	if (rc > 0)
		why_say(why, whylen,
			"directory %s on its way: " FS_OWNER_FUSE_WHY, dir);
	return rc;
}

/*
 * Whether the owners and modes of fd, the file (what "it") or directory
 * what name, are the kernel's word beyond FUSE (fsowner.h): not when it
 * was reached through an idmapped mount (its mapping says who owns it),
 * nor when anyone but root may write the blocks of its file system (a
 * disk image: fsbacking.h). 0, 1 with why, or -1 with errno.
 */
static int owners_unvouched(int fd, struct trusted *t, const char *what,
			    const char *name, char *why, size_t whylen)
{
	char how[448];
	int w = mount_idmapped(fd);

	if (w > 0) {
		snprintf(how, sizeof(how), "%s", MOUNT_IDMAPPED_WHY);
	} else if (w < 0 && errno != ENOMEM) {
		snprintf(
			how, sizeof(how),
			"reached through a mount of which it cannot be told whether it is idmapped (%s)",
			strerror(errno));
		w = 1;
	} else if (w == 0) {
		w = fs_backing_writer(fd, &t->backing, how, sizeof(how));
	}
	if (w < 0)
		why_say(why, whylen, "%s%s%s: %s", what,
			name != NULL ? " " : "", name != NULL ? name : "",
			strerror(errno));
	else if (w > 0 && name != NULL)
		why_say(why, whylen, "%s %s on its way is %s", what, name, how);
	else if (w > 0)
		why_say(why, whylen, "%s is %s", what, how);
	return w;
}

/*
 * Enters directory dir on the way: judged as dir_writer() judges it, once
 * its file system is known to keep owners itself. CAPCONF_OPEN_OK,
 * CAPCONF_OPEN_UNTRUSTED_DIR with why, or CAPCONF_OPEN_FAILED with errno.
 */
static int enter(const char *dir, struct trusted *t, int *sticky_open,
		 char *why, size_t whylen)
{
	struct stat ds;
	int w, fd, saved;

	w = dir_stat(dir, &fd, &ds, why, whylen);
	if (w != 0)
		return w < 0 ? CAPCONF_OPEN_FAILED : CAPCONF_OPEN_UNTRUSTED_DIR;
	w = owners_unvouched(fd, t, "directory", dir, why, whylen);
	if (w == 0)
		w = dir_writer(fd, dir, &ds, t, sticky_open, why, whylen);
	saved = errno;
	close(fd);
	errno = saved;
	if (w != 0)
		return w < 0 ? CAPCONF_OPEN_FAILED : CAPCONF_OPEN_UNTRUSTED_DIR;
	return CAPCONF_OPEN_OK;
}

/*
 * Follows path from "/" (a relative one from the working directory) one
 * name at a time, as the kernel does, judging every directory entered and
 * every symbolic link met, to the file of st. CAPCONF_OPEN_OK,
 * CAPCONF_OPEN_UNTRUSTED_DIR with why, or CAPCONF_OPEN_FAILED with errno
 * (and why when it says more).
 */
static int way_trusted(const char *path, const struct stat *st,
		       struct trusted *t, char *why, size_t whylen)
{
	char dir[PATH_MAX], rest[PATH_MAX], next[PATH_MAX], target[PATH_MAX];
	struct stat ls;
	size_t len;
	ssize_t n;
	int links = 0, sticky_open = 0, rc;

	if (path[0] == '/') {
		len = strlen(path);
		if (len >= sizeof(rest)) {
			errno = ENAMETOOLONG;
			return CAPCONF_OPEN_FAILED;
		}
		memcpy(rest, path, len + 1);
	} else if (getcwd(dir, sizeof(dir)) == NULL ||
		   join_path(rest, dir, path, strlen(path)) < 0) {
		return CAPCONF_OPEN_FAILED;
	}
	strcpy(dir, "/");
	rc = enter(dir, t, &sticky_open, why, whylen);
	while (rc == CAPCONF_OPEN_OK) {
		char *name = rest + strspn(rest, "/"), *p;

		len = strcspn(name, "/");
		p = name + len;
		if (len == 0) {
			/* Ended at a directory: not the file opened. */
			errno = EISDIR;
			return CAPCONF_OPEN_FAILED;
		}
		if (len == 1 && name[0] == '.') {
			memmove(rest, p, strlen(p) + 1);
			continue;
		}
		if (len == 2 && name[0] == '.' && name[1] == '.') {
			/* dir holds no link: its parent is its prefix. */
			char *slash = strrchr(dir, '/');

			slash[slash == dir] = '\0';
			memmove(rest, p, strlen(p) + 1);
			rc = enter(dir, t, &sticky_open, why, whylen);
			continue;
		}
		if (join_path(next, dir, name, len) < 0 || lstat(next, &ls) < 0)
			return CAPCONF_OPEN_FAILED;
		memmove(rest, p, strlen(p) + 1);
		if (S_ISDIR(ls.st_mode)) {
			memcpy(dir, next, strlen(next) + 1);
			rc = enter(dir, t, &sticky_open, why, whylen);
			continue;
		}
		if (!S_ISLNK(ls.st_mode)) {
			if (more_names(rest)) {
				errno = ENOTDIR;
				return CAPCONF_OPEN_FAILED;
			}
			break;
		}
		/*
		 * dir, judged, holds the link; in a sticky directory others
		 * may write, the link's owner may point it anywhere.
		 */
		if (!uid_trusted(t, ls.st_uid)) {
			why_say(why, whylen,
				"symbolic link %s on its way: uid %lu owns it, and may point it at another file",
				next, (unsigned long)ls.st_uid);
			return CAPCONF_OPEN_UNTRUSTED_DIR;
		}
		if (++links > LINKS_MAX) {
			errno = ELOOP;
			return CAPCONF_OPEN_FAILED;
		}
		n = readlink(next, target, sizeof(target));
		if (n < 0)
			return CAPCONF_OPEN_FAILED;
		if ((size_t)n >= sizeof(target) ||
		    (size_t)n + 1 + strlen(rest) + 1 > sizeof(rest)) {
			errno = ENAMETOOLONG;
			return CAPCONF_OPEN_FAILED;
		}
		/* rest becomes the link's text, then what followed it */
		memmove(rest + n + 1, rest, strlen(rest) + 1);
		memcpy(rest, target, (size_t)n);
		rest[n] = '/';
		if (target[0] == '/') {
			strcpy(dir, "/");
			rc = enter(dir, t, &sticky_open, why, whylen);
		}
	}
	if (rc != CAPCONF_OPEN_OK)
		return rc;
	if (ls.st_dev != st->st_dev || ls.st_ino != st->st_ino) {
		why_say(why, whylen,
			"%s now leads to another file than the one read: a directory on its way changed",
			path);
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	}
	/*
	 * Where others may add names, a root-owned file with another name
	 * may be one they linked there, unless fs.protected_hardlinks kept
	 * them from linking a file they may not write (a Nix store's file,
	 * with the second name store optimisation gives it). The file is
	 * root's, and root's alone to write (capconf_trust() saw to it), or
	 * the null device, which is no regular file: only its owner, root,
	 * may link it then.
	 */
	if (sticky_open && st->st_nlink > 1) {
		char note[448];

		if (hardlinks_vouched(note, sizeof(note)))
			return CAPCONF_OPEN_OK;
		why_say(why, whylen,
			"directory %s, which others may write, holds it, and it has %lu names: one may have been linked there; %s",
			dir, (unsigned long)st->st_nlink, note);
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	}
	return CAPCONF_OPEN_OK;
}

int capconf_trust(const char *path, int fd, const struct stat *st, char *why,
		  size_t whylen)
{
	struct trusted t;
	int w;

	why[0] = '\0';
	/* "anyone could have rewritten it": the message libcap users know */
	if (st->st_mode & S_IWOTH)
		return CAPCONF_OPEN_WORLD_WRITABLE;
	/*
	 * Its owner and mode are its daemon's say on FUSE, and no chown or
	 * chmod of it mends that: refused as a directory on its way is.
	 */
	w = fs_owner_unvouched(fd, path);
	if (w < 0)
		return CAPCONF_OPEN_FAILED;
	if (w > 0) {
		why_say(why, whylen, "it is " FS_OWNER_FUSE_WHY);
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	}
	trusted_init(&t);
	/*
	 * Nor through an idmapped mount, nor on a user's disk image: asked
	 * of a descriptor, the caller's or (by path) one of its own.
	 */
	{
		int pfd = fd >= 0 ? fd : open(path, O_PATH | O_CLOEXEC), saved;

		if (pfd < 0)
			return CAPCONF_OPEN_FAILED;
		w = owners_unvouched(pfd, &t, "it", NULL, why, whylen);
		saved = errno;
		if (pfd != fd)
			close(pfd);
		errno = saved;
	}
	if (w < 0)
		return CAPCONF_OPEN_FAILED;
	if (w > 0)
		return CAPCONF_OPEN_UNTRUSTED_DIR;
	/* The owner may always chmod it writable. */
	if (!uid_trusted(&t, st->st_uid)) {
		why_say(why, whylen,
			"uid %lu owns it, and may make it say anything",
			(unsigned long)st->st_uid);
		return CAPCONF_OPEN_UNTRUSTED;
	}
	w = writer_of(fd, path, 1, st, &t, why, whylen);
	if (w < 0)
		return CAPCONF_OPEN_FAILED;
	if (w > 0)
		return CAPCONF_OPEN_UNTRUSTED;
	return way_trusted(path, st, &t, why, whylen);
}

int capconf_way_trusted(const char *path, const struct stat *st, char *why,
			size_t whylen)
{
	struct trusted t;

	why[0] = '\0';
	trusted_init(&t);
	return way_trusted(path, st, &t, why, whylen);
}
