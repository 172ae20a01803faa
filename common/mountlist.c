/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The mounts by which a write could reach a directory, from the kernel
 * (mounts.h). A user writes through the mounts his processes see, and
 * through those of any mount namespace he may enter: his own (a user
 * namespace's), kept by a process or by a mere descriptor of it, and
 * those of every other namespace a process lives in (a service's private
 * one, made read-only with ProtectSystem=, sees "/" read-only while
 * everybody else writes it).
 *
 * The caller's namespace is listed whole by listmount(2) and statmount(2)
 * where the kernel has them (Linux 6.8) and the caller may (root), chroot
 * or not; else /proc/self/mountinfo shows what is under the caller's
 * root. Then every other mount namespace the kernel walks (mountall.c,
 * Linux 6.12), each whole: a chroot in it hides nothing, and one that no
 * process lives in is there too. Then, for the namespaces that walk did
 * not list (an older kernel, or one the caller may not administer), the
 * mountinfo of every process /proc shows, once for each namespace and
 * root: what it sees, by the path its users may take. Last, the
 * directories processes hold on mounts none of these showed, lazily
 * unmounted ones (mountheld.c). Processes of another pid namespace (the
 * node a container runs on) are not seen, and so not judged.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountkernel.h"
#include "mounts.h"
#include "mountsearch.h"

/* listmount's batch; and a bound on the parents above the caller's root */
#define LIST_BATCH  256
#define PARENTS_MAX 4096

/*
 * The directory's own mount, e: the path in its file system, and whether
 * it can be judged at all. 0, or -1 with why.
 */
static int own_mount(struct view_search *s, const struct mount_entry *e)
{
	if (e->idmapped) {
		search_say(
			s,
			"its mount is idmapped, and shows owners other than its file system's");
		return -1;
	}
	if (!e->read_only) {
		search_say(s, "its mount is writable");
		return -1;
	}
	if (mount_fs_path(e, s->dir, s->fs_path, sizeof(s->fs_path)) < 0) {
		search_say(s, "where it is in its file system is unknown (%s)",
			   strerror(errno));
		return -1;
	}
	s->major = e->major;
	s->minor = e->minor;
	return 0;
}

int search_statmount_one(struct view_search *s, unsigned long long id,
			 unsigned long long ns_id, const char *where,
			 struct statmount_head *b)
{
	struct mount_entry e;

	if (kernel_statmount(id, ns_id, SM_SB_BASIC | SM_MNT_BASIC, b) < 0 ||
	    kernel_mount_entry(b, 1, &e) < 0)
		return errno == ENOENT ? 2 : -2; /* ENOENT: gone since listed */
	if (!e.read_only && e.major == s->major && e.minor == s->minor) {
		if (kernel_statmount(id, ns_id, SM_ALL, b) < 0 ||
		    kernel_mount_entry(b, 0, &e) < 0)
			return errno == ENOENT ? 2 : -2;
	}
	return search_judge(s, &e, where);
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
	if (kernel_unique_mount_id(fd, "", &id) < 0 ||
	    kernel_statmount(id, 0, SM_ALL, b) < 0 ||
	    kernel_mount_entry(b, 0, &e) < 0)
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
	if (kernel_unique_mount_id(AT_FDCWD, "/", &top) < 0)
		goto out;
	for (hops = 0;; hops++) {
		if (hops == PARENTS_MAX) {
			errno = ELOOP;
			goto out;
		}
		if (kernel_statmount(top, 0, SM_MNT_BASIC, b) < 0)
			goto out;
		if (b->mnt_parent_id == top)
			break;
		top = b->mnt_parent_id;
	}
	rc = 0;
	for (;; last = list[n - 1]) {
		n = kernel_listmount(top, 0, last, list, LIST_BATCH);
		if (n < 0) {
			rc = -2;
			break;
		}
		for (i = -1; i < n && rc == 0; i++) {
			/* i == -1: the top itself, which listmount leaves out */
			if (i == -1 && last != 0)
				continue;
			rc = search_statmount_one(s, i == -1 ? top : list[i], 0,
						  NULL, b);
			if (rc == 2)
				rc = 0;
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

/*
 * The lines of a mountinfo text, each given to search_judge() (pid as
 * there), cut into lines as they are read: 0, 1 or -1 with why.
 */
static int search_lines(char *text, struct view_search *s, const char *pid)
{
	struct mount_entry e;
	char *line, *next, where[48];
	int rc = 0;

	if (pid != NULL)
		snprintf(where, sizeof(where), "that process %s sees", pid);
	for (line = text; *line != '\0' && rc == 0; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		line[len] = '\0';
		if (mountinfo_parse_line(line, &e) < 0) {
			search_say(
				s,
				"a line of the mountinfo of %s cannot be read",
				pid != NULL ? pid : "this process");
			return -1;
		}
		rc = search_judge(s, &e, pid != NULL ? where : NULL);
	}
	return rc;
}

/*
 * The directory's own mount found in the caller's mountinfo by its id,
 * then every line given to search_judge(): 0, 1 or -1 as
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
		search_say(s, "its mount is not in mountinfo");
		return -1;
	}
	if (mountinfo_parse_line(own, &e) < 0 || e.id != s->own_id) {
		search_say(s, "its line of mountinfo cannot be read");
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
static char *read_mountinfo(struct view_search *s, const char *path)
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
		/* each read makes the kernel write more: it is what costs */
		if (search_budget(s, 0) < 0) {
			close(fd);
			free(text);
			errno = ETIMEDOUT;
			return NULL;
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
		search_say(s, "%s cannot be read (%s)", path, strerror(saved));
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
		search_say(s, "its mount is unknown (%s)", strerror(errno));
		return -1;
	}
	s->own_id = sx.stx_mnt_id;
	text = read_mountinfo(s, "/proc/thread-self/mountinfo");
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
	/* cached only: its root may be on FUSE, whose daemon need not answer */
	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_MOUNT_ID_OLD,
		  &root) < 0)
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
	/* pid is a name from /proc, at most NAME_MAX long */
	char path[sizeof("/proc//mountinfo") + NAME_MAX], *text;
	int rc;

	snprintf(path, sizeof(path), "/proc/%s/mountinfo", pid);
	text = read_mountinfo(s, path);
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
 * The mounts of every process /proc shows that sees another namespace
 * (one not listed whole already), or (without statmount's list of this
 * one) another root: 0, 1 or -1 as
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
		search_say(s,
			   "only root may read what mounts every process sees");
		return -1;
	}
	if (view_key_of("thread-self", &own) < 0 ||
	    (d = opendir("/proc")) == NULL) {
		if (errno != ENOMEM)
			search_say(
				s,
				"what mounts other processes see cannot be read (/proc: %s)",
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
		    ((s->whole_ns ? same_ns(&k, &own) : same_view(&k, &own)) ||
		     search_ns_known(s, k.ns_ino, 1)))
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
		if (known) {
			seen[nseen++] = k;
			if (search_ns_seen(s, k.ns_ino, 0) < 0) {
				rc = -1;
				break;
			}
		}
		rc = search_process(s, de->d_name);
	}
	if (rc == 0 && errno != 0) {
		if (errno != ENOMEM)
			search_say(s, "/proc cannot be listed (%s)",
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

/*
 * How many times the whole search is made when the only way found is a
 * mount or namespace a process holds that the search never judged. A
 * host that starts containers, or any "unshare -m", makes namespaces
 * all the time, and a process that entered one after the walk listed
 * them holds mounts it never saw: a login would be refused now and then
 * for nothing. Each search is whole and judges afresh; one that finds no
 * way is as sound as the first, and a mount unmounted lazily is unseen
 * in every one. All share one deadline (MOUNTS_SEARCH_SECONDS). What the
 * look at what processes hold cannot see (mountheld.c) it cannot see in
 * any: a user racing it gets a try for each search, not one a login.
 */
#define SEARCH_ATTEMPTS 4

static int search_once(struct view_search *s, int fd)
{
	struct stat ns;
	int rc;

	rc = search_by_statmount(fd, s);
	if (rc == -2) {
		/* Not this way; why[] may hold the first part of the way. */
		s->why[0] = '\0';
		rc = search_by_mountinfo(fd, s);
	}
	if (rc == 0 && stat("/proc/thread-self/ns/mnt", &ns) == 0 &&
	    search_ns_seen(s, ns.st_ino, s->whole_ns) < 0)
		rc = -1;
	if (rc == 0) {
		rc = search_every_namespace(s);
		if (rc == -2)
			rc = 0; /* the process views below, as before 6.12 */
	}
	if (rc == 0)
		rc = search_other_views(s);
	if (rc == 0)
		rc = search_held_mounts(s);
	return rc;
}

int mounts_writable_view(int fd, const char *dir, char *why, size_t whylen)
{
	struct view_search s;
	unsigned long long deadline = 0;
	/* what the last search found, for when the next cannot finish */
	char found[1024] = "";
	int rc, saved, attempt;

	for (attempt = 1;; attempt++) {
		memset(&s, 0, sizeof(s));
		s.dir = dir;
		s.why = why;
		s.whylen = whylen;
		s.deadline_ns = deadline;
		why[0] = '\0';
		rc = search_once(&s, fd);
		saved = errno;
		deadline = s.deadline_ns;
		search_free(&s);
		errno = saved;
		/*
		 * A search again that runs out of time (each took a second
		 * and more on a busy host) or cannot read something still
		 * leaves the way the last one found: that is why, not the
		 * 3 s the searches took together (ENOMEM aside: why empty).
		 */
		if (rc < 0 && found[0] != '\0' && why[0] != '\0') {
			snprintf(why, whylen, "%s", found);
			return 1;
		}
		if (rc != 1 || !s.unseen || attempt == SEARCH_ATTEMPTS)
			return rc;
		snprintf(found, sizeof(found), "%s", why);
	}
}
