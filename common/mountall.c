/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Every mount namespace, each listed whole (mountsearch.h).
 *
 * A process's mountinfo shows only the mounts under its root, and only
 * while a process lives in its namespace; but a user reaches mounts by
 * other ways: through /proc/PID/root/.. of his own chrooted process, up
 * out of its root, to a writable mount above it in its namespace; or by
 * setns(2) into a namespace of his that no process lives in, which a
 * descriptor of it (/proc/PID/ns/mnt, opened and kept) holds. Either
 * keeps a writable mount that was there when his namespace was made,
 * long after every other namespace lost it. So the kernel is asked for
 * every mount namespace it has (NS_MNT_GET_NEXT and NS_MNT_GET_PREV,
 * Linux 6.12: those kept by a descriptor or a bind mount of one too), and
 * each is listed whole by listmount(2) and statmount(2) with its id,
 * whoever lives in it. The walk passes over the namespaces the caller
 * may not administer (CAP_SYS_ADMIN over their owner): root of the first
 * user namespace administers all. The kernel refuses the walk to a
 * process of a pid namespace other than the first (EPERM: a container's
 * processes see no other's), as a kernel before 6.12 has none; then,
 * and for the namespaces the walk passed over, the process views
 * (mountlist.c) read what it did not list, and the directories and
 * namespaces processes hold are looked at (mountheld.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mountkernel.h"
#include "mountsearch.h"

/* listmount's batch */
#define LIST_BATCH 256

/*
 * Every mount of the namespace of id ns_id (inode ino, nr_mounts mounts
 * when the walk met it): 0, 1 or -1 as
 * mounts_writable_view(). A namespace gone since the walk met it has no
 * mounts left to judge.
 */
static int list_namespace(struct view_search *s, uint64_t ns_id, ino_t ino,
			  unsigned int nr_mounts, struct statmount_head *b)
{
	uint64_t list[LIST_BATCH], last = 0;
	char where[64];
	long n, i;
	int rc = 0;

	/* Its count first: one with too many is never listed at all. */
	if (search_budget(s, nr_mounts) < 0)
		return -1;
	snprintf(where, sizeof(where), "in mount namespace mnt:[%lu]",
		 (unsigned long)ino);
	for (;;) {
		if (search_budget(s, 0) < 0)
			return -1;
		n = kernel_listmount(LISTMOUNT_ALL, ns_id, last, list,
				     LIST_BATCH);
		if (n < 0 && errno == ENOENT)
			return 0;
		if (n < 0)
			break;
		for (i = 0; i < n && rc == 0; i++) {
			rc = search_statmount_one(s, list[i], ns_id, where, b);
			if (rc == 2)
				rc = 0;
		}
		if (rc != 0 || n < LIST_BATCH)
			break;
		last = list[n - 1];
	}
	if (n < 0 || rc == -2) {
		if (errno == ENOMEM) {
			s->why[0] = '\0';
			return -1;
		}
		search_say(
			s,
			"the mounts of mount namespace mnt:[%lu] cannot be read (%s)",
			(unsigned long)ino, strerror(errno));
		return -1;
	}
	if (rc == 0 && search_ns_seen(s, ino, 1) < 0) {
		s->why[0] = '\0';
		return -1;
	}
	return rc;
}

/*
 * The namespaces after the caller's (previous: before it), each listed:
 * 0, 1 or -1 as mounts_writable_view(); -2 when the kernel has no such
 * walk, or refuses it here.
 */
static int walk(struct view_search *s, int self, int previous,
		struct statmount_head *b)
{
	uint64_t ns_id;
	unsigned int nr_mounts;
	struct stat st;
	int fd = self, next, rc = 0, first = 1, saved;

	while (rc == 0) {
		next = kernel_next_mount_ns(fd, previous, &ns_id, &nr_mounts);
		if (next < 0) {
			if (errno == ENOENT)
				break;
			rc = first && (errno == ENOTTY || errno == EINVAL ||
				       errno == EPERM)
				     ? -2
				     : -1;
			if (rc == -1 && errno == ENOMEM)
				s->why[0] = '\0';
			else if (rc == -1)
				search_say(
					s,
					"the mount namespaces cannot all be listed (%s)",
					strerror(errno));
			break;
		}
		first = 0;
		if (fd != self)
			close(fd);
		fd = next;
		if (fstat(fd, &st) < 0) {
			search_say(s, "a mount namespace cannot be told (%s)",
				   strerror(errno));
			rc = -1;
		} else if (!search_ns_known(s, st.st_ino, 1)) {
			rc = list_namespace(s, ns_id, st.st_ino, nr_mounts, b);
		}
	}
	saved = errno;
	if (fd != self)
		close(fd);
	errno = saved;
	return rc;
}

int search_every_namespace(struct view_search *s)
{
	struct statmount_head *b;
	int self, rc;

	/* Without /proc the process views fail, and say why. */
	self = open("/proc/thread-self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -2;
	b = malloc(STATMOUNT_LEN);
	if (b == NULL) {
		close(self);
		s->why[0] = '\0';
		errno = ENOMEM;
		return -1;
	}
	rc = walk(s, self, 0, b);
	if (rc == 0)
		rc = walk(s, self, 1, b);
	free(b);
	close(self);
	return rc;
}
