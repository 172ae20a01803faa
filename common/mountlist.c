/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The mounts by which a write could reach a directory, from the kernel
 * (mounts.h). A user writes through the mounts his processes see: those
 * of the caller's mount namespace, and those of every other namespace a
 * process lives in (a service's private one, made read-only with
 * ProtectSystem=, sees "/" read-only while everybody else writes it).
 *
 * The caller's namespace is listed whole by listmount(2) and statmount(2)
 * where the kernel has them (Linux 6.8) and the caller may (root), chroot
 * or not; else /proc/self/mountinfo shows what is under the caller's
 * root. Then the mountinfo of every other process /proc shows, once for
 * each namespace and root: what it sees, by the path its users may take.
 * Processes of another pid namespace (the node a container runs on) are
 * not seen, and so not judged.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mounts.h"

/*
 * The kernel's interface (include/uapi/linux/mount.h),
 * which the C library's headers may predate. The new system calls have
 * one number on every architecture but alpha and mips (since 424); there
 * a build without them reads mountinfo alone.
 */
#if defined(__NR_statmount) && defined(__NR_listmount)
#define SYS_STATMOUNT __NR_statmount
#define SYS_LISTMOUNT __NR_listmount
#elif !defined(__alpha__) && !defined(__mips__)
#define SYS_STATMOUNT 457
#define SYS_LISTMOUNT 458
#endif
#define STATX_MOUNT_ID_OLD    0x1000U
#define STATX_MOUNT_ID_UNIQUE 0x4000U
#define SM_SB_BASIC	      0x01U
#define SM_MNT_BASIC	      0x02U
#define SM_MNT_ROOT	      0x08U
#define SM_MNT_POINT	      0x10U
#define SB_READ_ONLY	      0x01U
#define ATTR_READ_ONLY	      0x01ULL
#define ATTR_IDMAP	      0x00100000ULL

struct mnt_id_req {
	uint32_t size;
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param;
};

/* struct statmount's first 512 bytes (the version 0 size), strings after. */
struct statmount_head {
	uint32_t size;
	uint32_t mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major;
	uint32_t sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags;
	uint32_t fs_type;
	uint64_t mnt_id;
	uint64_t mnt_parent_id;
	uint32_t mnt_id_old;
	uint32_t mnt_parent_id_old;
	uint64_t mnt_attr;
	uint64_t mnt_propagation;
	uint64_t mnt_peer_group;
	uint64_t mnt_master;
	uint64_t propagate_from;
	uint32_t mnt_root;
	uint32_t mnt_point;
	uint64_t rest[50];
	char str[];
};
_Static_assert(sizeof(struct statmount_head) == 512, "struct statmount");

/* Room for one mount's root and mount point. */
#define STATMOUNT_LEN (sizeof(struct statmount_head) + 2 * PATH_MAX + 64)
/* listmount's batch; and a bound on the parents above the caller's root */
#define LIST_BATCH  256
#define PARENTS_MAX 4096

static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* What the search for a writable mount of one directory needs and finds. */
struct view_search {
	unsigned long long own_id; /* the directory's mount */
	int whole_ns; /* statmount listed all of the caller's namespace */
	unsigned int major, minor;
	char fs_path[PATH_MAX];
	const char *dir;
	char *why;
	size_t whylen;
};

/*
 * The directory's own mount, e: the path in its file system, and whether
 * it can be judged at all. 0, or -1 with why.
 */
static int own_mount(struct view_search *s, const struct mount_entry *e)
{
	if (e->idmapped) {
		say(s->why, s->whylen,
		    "its mount is idmapped, and shows owners other than its "
		    "file system's");
		return -1;
	}
	if (!e->read_only) {
		say(s->why, s->whylen, "its mount is writable");
		return -1;
	}
	if (mount_fs_path(e, s->dir, s->fs_path, sizeof(s->fs_path)) < 0) {
		say(s->why, s->whylen,
		    "where it is in its file system is unknown (%s)",
		    strerror(errno));
		return -1;
	}
	s->major = e->major;
	s->minor = e->minor;
	return 0;
}

/*
 * 1 with why when e, a mount the caller (pid NULL) or process pid sees,
 * is a writable way to the directory; else 0.
 */
static int writable_view(struct view_search *s, const struct mount_entry *e,
			 const char *pid)
{
	if (!mount_reaches(e, s->major, s->minor, s->fs_path))
		return 0;
	if (pid != NULL)
		say(s->why, s->whylen,
		    "the writable mount on %s that process %s sees reaches "
		    "it too",
		    e->point, pid);
	else if (e->point != NULL)
		say(s->why, s->whylen,
		    "the writable mount on %s reaches it too", e->point);
	else
		say(s->why, s->whylen,
		    "a writable mount outside this root (of %s in its file "
		    "system) reaches it too",
		    e->root);
	return 1;
}

#ifdef SYS_STATMOUNT
static int stat_mount(uint64_t id, unsigned int mask, struct statmount_head *b)
{
	struct mnt_id_req req = { .size = 24, .mnt_id = id, .param = mask };

	return (int)syscall(SYS_STATMOUNT, &req, b, STATMOUNT_LEN, 0);
}

/* A statmount answer as an entry (pointing into b). */
static int entry_of(const struct statmount_head *b, struct mount_entry *e)
{
	if (!(b->mask & SM_SB_BASIC) || !(b->mask & SM_MNT_BASIC) ||
	    !(b->mask & SM_MNT_ROOT)) {
		errno = EPROTO;
		return -1;
	}
	memset(e, 0, sizeof(*e));
	e->id = b->mnt_id;
	e->major = b->sb_dev_major;
	e->minor = b->sb_dev_minor;
	e->read_only =
		(b->mnt_attr & ATTR_READ_ONLY) || (b->sb_flags & SB_READ_ONLY);
	e->idmapped = (b->mnt_attr & ATTR_IDMAP) != 0;
	e->root = b->str + b->mnt_root;
	e->point = (b->mask & SM_MNT_POINT) ? b->str + b->mnt_point : NULL;
	return 0;
}

/* The mount's unique id that fd is on; -1 with errno (ENOSYS: unknown). */
static int unique_mount_id(int fd, const char *name, uint64_t *id)
{
	struct statx sx;

	if (statx(fd, name, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_MOUNT_ID_UNIQUE, &sx) < 0)
		return -1;
	if (!(sx.stx_mask & STATX_MOUNT_ID_UNIQUE)) {
		errno = ENOSYS;
		return -1;
	}
	*id = sx.stx_mnt_id;
	return 0;
}

/*
 * By listmount and statmount: 0, 1 or -1 as mounts_writable_view(); -2
 * with errno when these calls cannot answer here (an older kernel, a
 * seccomp filter, no privilege over a mount above the caller's root).
 */
static int search_by_statmount(int fd, struct view_search *s)
{
	struct statmount_head *b = malloc(STATMOUNT_LEN);
	uint64_t id, top, list[LIST_BATCH], last = 0;
	struct mount_entry e;
	long n, i;
	int rc = -2, hops;

	if (b == NULL)
		return -1;
	if (unique_mount_id(fd, "", &id) < 0 ||
	    stat_mount(id,
		       SM_SB_BASIC | SM_MNT_BASIC | SM_MNT_ROOT | SM_MNT_POINT,
		       b) < 0 ||
	    entry_of(b, &e) < 0)
		goto out;
	s->own_id = id;
	if (own_mount(s, &e) < 0) {
		rc = -1;
		goto out;
	}
	/*
	 * The namespace's top is the mount that is its own parent: listing
	 * from there (which needs CAP_SYS_ADMIN over the namespace when
	 * it is not under the caller's root) takes in every mount, those a
	 * chroot hides included.
	 */
	if (unique_mount_id(AT_FDCWD, "/", &top) < 0)
		goto out;
	for (hops = 0;; hops++) {
		if (hops == PARENTS_MAX) {
			errno = ELOOP;
			goto out;
		}
		if (stat_mount(top, SM_MNT_BASIC, b) < 0)
			goto out;
		if (b->mnt_parent_id == top)
			break;
		top = b->mnt_parent_id;
	}
	rc = 0;
	for (;; last = list[n - 1]) {
		struct mnt_id_req req = { .size = 24,
					  .mnt_id = top,
					  .param = last };

		n = syscall(SYS_LISTMOUNT, &req, list, LIST_BATCH, 0);
		if (n < 0) {
			rc = -2;
			break;
		}
		for (i = -1; i < n && rc == 0; i++) {
			/* i == -1: the top itself, which listmount leaves out */
			if (i == -1 && last != 0)
				continue;
			id = i == -1 ? top : list[i];
			if (stat_mount(id,
				       SM_SB_BASIC | SM_MNT_BASIC |
					       SM_MNT_ROOT | SM_MNT_POINT,
				       b) < 0) {
				if (errno == ENOENT)
					continue; /* gone since listed */
				rc = -2;
			} else if (entry_of(b, &e) < 0) {
				rc = -2;
			} else {
				rc = writable_view(s, &e, NULL);
			}
		}
		if (rc != 0 || n < LIST_BATCH)
			break;
	}
	s->whole_ns = rc == 0;
out:
	if (rc == -2 && errno == ENOMEM)
		rc = -1; /* no other way would do better */
	free(b);
	return rc;
}
#endif

/*
 * The lines of a mountinfo text, each given to writable_view() (pid as
 * there), cut into lines as they are read: 0, 1 or -1 with why.
 */
static int search_lines(char *text, struct view_search *s, const char *pid)
{
	struct mount_entry e;
	char *line, *next;
	int rc = 0;

	for (line = text; *line != '\0' && rc == 0; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		line[len] = '\0';
		if (mountinfo_parse_line(line, &e) < 0) {
			say(s->why, s->whylen,
			    "a line of the mountinfo of %s cannot be read",
			    pid != NULL ? pid : "this process");
			return -1;
		}
		rc = writable_view(s, &e, pid);
	}
	return rc;
}

/*
 * The directory's own mount found in the caller's mountinfo by its id,
 * then every line given to writable_view(): 0, 1 or -1 as
 * mounts_writable_view().
 */
static int search_mountinfo_text(char *text, struct view_search *s)
{
	struct mount_entry e;
	char *line, *next, *own = NULL;
	int rc;

	for (line = text; *line != '\0'; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		if (strtoull(line, NULL, 10) == s->own_id) {
			own = strndup(line, len);
			if (own == NULL)
				return -1;
			break;
		}
	}
	if (own == NULL) {
		say(s->why, s->whylen, "its mount is not in mountinfo");
		return -1;
	}
	if (mountinfo_parse_line(own, &e) < 0 || e.id != s->own_id) {
		say(s->why, s->whylen, "its line of mountinfo cannot be read");
		rc = -1;
	} else {
		rc = own_mount(s, &e) < 0 ? -1 : 0;
	}
	free(own);
	return rc < 0 ? -1 : search_lines(text, s, NULL);
}

/*
 * The whole of a mountinfo file, NUL-terminated (free()), or NULL with
 * errno (and why, but for ENOMEM).
 */
static char *read_mountinfo(const char *path, char *why, size_t whylen)
{
	size_t len = 0, size = 16384;
	char *text = malloc(size), *bigger;
	int fd = -1, saved;
	ssize_t n;

	if (text == NULL)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		if (len + 1 == size) {
			if (size >= (64U << 20)) {
				errno = EFBIG;
				goto fail;
			}
			bigger = realloc(text, size * 2);
			if (bigger == NULL)
				goto fail;
			text = bigger;
			size *= 2;
		}
		n = read(fd, text + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	return text;
fail:
	saved = errno;
	if (saved != ENOMEM)
		say(why, whylen, "%s cannot be read (%s)", path,
		    strerror(saved));
	if (fd >= 0)
		close(fd);
	free(text);
	errno = saved;
	return NULL;
}

static int search_by_mountinfo(int fd, struct view_search *s)
{
	struct statx sx;
	char *text;
	int rc;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_MOUNT_ID_OLD, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MOUNT_ID_OLD)) {
		say(s->why, s->whylen, "its mount is unknown (%s)",
		    strerror(errno));
		return -1;
	}
	s->own_id = sx.stx_mnt_id;
	text = read_mountinfo("/proc/thread-self/mountinfo", s->why, s->whylen);
	if (text == NULL)
		return -1;
	rc = search_mountinfo_text(text, s);
	free(text);
	return rc;
}

/* Which mounts a process sees: its mount namespace and its root. */
struct view_key {
	dev_t ns_dev, root_dev;
	ino_t ns_ino, root_ino;
	unsigned long long root_mount;
};

/* A process gone (or never there): its views need no judging. */
static int gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

/* Process pid's view ("thread-self": the caller's) into k: 0, or -1 with errno. */
static int view_key_of(const char *pid, struct view_key *k)
{
	char path[64];
	struct stat ns;
	struct statx root;

	snprintf(path, sizeof(path), "/proc/%s/ns/mnt", pid);
	if (stat(path, &ns) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%s/root/", pid);
	if (statx(AT_FDCWD, path, 0, STATX_MOUNT_ID_OLD, &root) < 0)
		return -1;
	if (!(root.stx_mask & STATX_MOUNT_ID_OLD)) {
		errno = ENOSYS;
		return -1;
	}
	memset(k, 0, sizeof(*k));
	k->ns_dev = ns.st_dev;
	k->ns_ino = ns.st_ino;
	k->root_dev = makedev(root.stx_dev_major, root.stx_dev_minor);
	k->root_ino = root.stx_ino;
	k->root_mount = root.stx_mnt_id;
	return 0;
}

static int same_ns(const struct view_key *a, const struct view_key *b)
{
	return a->ns_dev == b->ns_dev && a->ns_ino == b->ns_ino;
}

static int same_view(const struct view_key *a, const struct view_key *b)
{
	return same_ns(a, b) && a->root_dev == b->root_dev &&
	       a->root_ino == b->root_ino && a->root_mount == b->root_mount;
}

/* Process pid's mounts: 0, 1 or -1 as mounts_writable_view(). */
static int search_process(struct view_search *s, const char *pid)
{
	char path[64], *text;
	int rc;

	snprintf(path, sizeof(path), "/proc/%s/mountinfo", pid);
	text = read_mountinfo(path, s->why, s->whylen);
	if (text == NULL) {
		/* EINVAL: a zombie, which has no namespaces left */
		if (gone(errno) || errno == EINVAL) {
			s->why[0] = '\0';
			return 0;
		}
		return -1;
	}
	rc = search_lines(text, s, pid);
	free(text);
	return rc;
}

/* Whether name is a process id: digits alone. */
static int is_pid(const char *name)
{
	return name[0] != '\0' && strspn(name, "0123456789") == strlen(name);
}

/*
 * The mounts of every process /proc shows that sees another namespace,
 * or (without statmount's list of this one) another root: 0, 1 or -1 as
 * mounts_writable_view(). Each view is read once; a process whose view
 * cannot be told (no access to its namespace link) is read all the same.
 */
static int search_other_views(struct view_search *s)
{
	struct view_key own, k, *seen = NULL, *more;
	size_t nseen = 0, room = 0, i;
	struct dirent *de;
	char self[32];
	int rc = 0, known;
	DIR *d;

	/* hidepid= hides other users' processes from all but root */
	if (geteuid() != 0) {
		say(s->why, s->whylen,
		    "only root may read what mounts every process sees");
		return -1;
	}
	if (view_key_of("thread-self", &own) < 0 ||
	    (d = opendir("/proc")) == NULL) {
		if (errno != ENOMEM)
			say(s->why, s->whylen,
			    "what mounts other processes see cannot be read "
			    "(/proc: %s)",
			    strerror(errno));
		return -1;
	}
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
		if (!is_pid(de->d_name) || strcmp(de->d_name, self) == 0)
			continue;
		known = view_key_of(de->d_name, &k) == 0;
		if (!known && gone(errno))
			continue;
		if (known &&
		    (s->whole_ns ? same_ns(&k, &own) : same_view(&k, &own)))
			continue;
		for (i = 0; known && i < nseen; i++)
			if (same_view(&k, &seen[i]))
				break;
		if (known && i < nseen)
			continue;
		if (known && nseen == room) {
			more = realloc(seen, (room + 16) * sizeof(*seen));
			if (more == NULL) {
				rc = -1;
				break;
			}
			seen = more;
			room += 16;
		}
		if (known)
			seen[nseen++] = k;
		rc = search_process(s, de->d_name);
	}
	if (rc == 0 && errno != 0) {
		if (errno != ENOMEM)
			say(s->why, s->whylen, "/proc cannot be listed (%s)",
			    strerror(errno));
		rc = -1;
	}
	{
		int saved = errno;

		closedir(d);
		free(seen);
		errno = saved;
	}
	return rc;
}

int mounts_writable_view(int fd, const char *dir, char *why, size_t whylen)
{
	struct view_search s;
	int rc = -2;

	memset(&s, 0, sizeof(s));
	s.dir = dir;
	s.why = why;
	s.whylen = whylen;
	why[0] = '\0';
#ifdef SYS_STATMOUNT
	rc = search_by_statmount(fd, &s);
	if (rc == -2) {
		/* Not this way; why[] may hold the first part of the way. */
		why[0] = '\0';
	}
#endif
	if (rc == -2)
		rc = search_by_mountinfo(fd, &s);
	if (rc == 0)
		rc = search_other_views(&s);
	return rc;
}
