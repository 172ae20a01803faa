/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Every mount of the caller's mount namespace, from the kernel (mounts.h):
 * listmount(2) and statmount(2) where the kernel has them (Linux 6.8) and
 * lets the caller list the whole namespace, from its top, chroot or not;
 * else /proc/self/mountinfo, which shows only the mounts under the
 * caller's root, and so is taken only where that root is init's (pid 1 of
 * the caller's pid namespace, in the same mount namespace): a process
 * chrooted elsewhere would not see mounts a user outside may write by.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mounts.h"

/*
 * The kernel's interface (include/uapi/linux/mount.h, nsfs.h, pidfd.h),
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
#define NSIO_GET_USERNS	      _IO(0xb7, 0x1)
#define PIDFD_GET_MNT_NS      _IO(0xFF, 3)
#define PIDFD_GET_USER_NS     _IO(0xFF, 9)

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

/* 1 with why when e is a writable way to the directory, else 0. */
static int writable_view(struct view_search *s, const struct mount_entry *e)
{
	if (!mount_reaches(e, s->major, s->minor, s->fs_path))
		return 0;
	if (e->point != NULL)
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
				rc = writable_view(s, &e);
			}
		}
		if (rc != 0 || n < LIST_BATCH)
			break;
	}
out:
	if (rc == -2 && errno == ENOMEM)
		rc = -1; /* no other way would do better */
	free(b);
	return rc;
}
#endif

/*
 * Whether the caller sees the mount namespace as pid 1 of its pid
 * namespace does: the same namespace and the same root. 0, or -1 with why.
 */
static int root_is_init_root(char *why, size_t whylen)
{
	struct stat ours, init;
	struct statx rs, ir;

	if (stat("/proc/self/ns/mnt", &ours) < 0 ||
	    stat("/proc/1/ns/mnt", &init) < 0) {
		say(why, whylen,
		    "mountinfo shows every mount only to a process in the "
		    "namespace and root of pid 1, and these cannot be read "
		    "(%s)",
		    strerror(errno));
		return -1;
	}
	if (ours.st_ino != init.st_ino || ours.st_dev != init.st_dev) {
		say(why, whylen,
		    "this process is in a mount namespace of its own, whose "
		    "mounts only listmount(2) lists whole");
		return -1;
	}
	if (statx(AT_FDCWD, "/", 0, STATX_MOUNT_ID_OLD, &rs) < 0 ||
	    statx(AT_FDCWD, "/proc/1/root/", 0, STATX_MOUNT_ID_OLD, &ir) < 0 ||
	    !(rs.stx_mask & ir.stx_mask & STATX_MOUNT_ID_OLD)) {
		say(why, whylen, "the root of pid 1 is unknown (%s)",
		    strerror(errno));
		return -1;
	}
	if (rs.stx_mnt_id != ir.stx_mnt_id || rs.stx_ino != ir.stx_ino ||
	    rs.stx_dev_major != ir.stx_dev_major ||
	    rs.stx_dev_minor != ir.stx_dev_minor) {
		say(why, whylen,
		    "this process has a root other than init's (a chroot), "
		    "outside which mountinfo shows no mount");
		return -1;
	}
	return 0;
}

/*
 * The directory's own mount found in mountinfo's text by its id, then
 * every line given to writable_view(): 0, 1 or -1 as
 * mounts_writable_view(). The text is cut into lines as it is read.
 */
static int search_mountinfo_text(char *text, struct view_search *s)
{
	struct mount_entry e;
	char *line, *next, *own = NULL;
	int rc = 0;

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
	if (mountinfo_parse_line(own, &e) < 0 || e.id != s->own_id)
		rc = -1;
	else if (own_mount(s, &e) < 0)
		rc = -2;
	free(own);
	for (line = text; *line != '\0' && rc == 0; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		line[len] = '\0';
		if (mountinfo_parse_line(line, &e) < 0)
			rc = -1;
		else
			rc = writable_view(s, &e);
	}
	if (rc == -1)
		say(s->why, s->whylen, "a line of mountinfo cannot be read");
	return rc < 0 ? -1 : rc;
}

/* The whole of /proc/self/mountinfo, NUL-terminated (free()), or NULL. */
static char *read_mountinfo(char *why, size_t whylen)
{
	size_t len = 0, size = 16384;
	char *text = malloc(size), *bigger;
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || text == NULL)
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
fail : {
	int saved = errno;

	if (saved != ENOMEM)
		say(why, whylen, "mountinfo cannot be read (%s)",
		    strerror(saved));
	if (fd >= 0)
		close(fd);
	free(text);
	errno = saved;
	return NULL;
}
}

static int search_by_mountinfo(int fd, struct view_search *s)
{
	struct statx sx;
	char *text;
	int rc;

	if (root_is_init_root(s->why, s->whylen) < 0)
		return -1;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_MOUNT_ID_OLD, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MOUNT_ID_OLD)) {
		say(s->why, s->whylen, "its mount is unknown (%s)",
		    strerror(errno));
		return -1;
	}
	s->own_id = sx.stx_mnt_id;
	text = read_mountinfo(s->why, s->whylen);
	if (text == NULL)
		return -1;
	rc = search_mountinfo_text(text, s);
	free(text);
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
	return rc;
}

/* A namespace of the caller's, by /proc or (without it) by a pidfd. */
static int own_ns(const char *proc_name, unsigned long pidfd_request)
{
	int fd = open(proc_name, O_RDONLY | O_CLOEXEC), pidfd, saved;

	if (fd >= 0 || (errno != ENOENT && errno != ENOTDIR))
		return fd;
#ifdef SYS_pidfd_open
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		return -1;
	fd = ioctl(pidfd, pidfd_request, 0);
	saved = errno;
	close(pidfd);
	errno = saved;
	return fd;
#else
	(void)pidfd;
	(void)saved;
	(void)pidfd_request;
	return -1;
#endif
}

int mount_ns_root_controlled(char *why, size_t whylen)
{
	struct stat owner_st, user_st;
	int mnt, owner, user, rc = -1;

	mnt = own_ns("/proc/self/ns/mnt", PIDFD_GET_MNT_NS);
	if (mnt < 0) {
		say(why, whylen, "this mount namespace is unknown (%s)",
		    strerror(errno));
		return -1;
	}
	/*
	 * ioctl_ns(2): EPERM when the owner is outside the caller's scope,
	 * that is, a user namespace above the caller's; its root is ours.
	 */
	owner = ioctl(mnt, NSIO_GET_USERNS);
	if (owner < 0 && errno == EPERM) {
		close(mnt);
		return 1;
	}
	if (owner < 0) {
		say(why, whylen,
		    "who owns this mount namespace is unknown (%s)",
		    strerror(errno));
		close(mnt);
		return -1;
	}
	user = own_ns("/proc/self/ns/user", PIDFD_GET_USER_NS);
	if (user < 0 || fstat(owner, &owner_st) < 0 ||
	    fstat(user, &user_st) < 0) {
		say(why, whylen, "this user namespace is unknown (%s)",
		    strerror(errno));
	} else if (owner_st.st_ino == user_st.st_ino &&
		   owner_st.st_dev == user_st.st_dev) {
		rc = 1;
	} else {
		say(why, whylen,
		    "this mount namespace belongs to a user namespace below "
		    "this one, whose root may change its mounts");
		rc = 0;
	}
	if (user >= 0)
		close(user);
	close(owner);
	close(mnt);
	return rc;
}
