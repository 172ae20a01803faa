/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The search for a writable way to one directory (mounts_writable_view(),
 * mounts.h), shared by the files that make it: the caller's own mount
 * namespace and the views processes have (mountlist.c), every other mount
 * namespace (mountall.c), and directories processes hold on mounts that
 * no namespace shows (mountheld.c). Never installed, used nowhere else.
 */
#ifndef COMMON_MOUNTSEARCH_H
#define COMMON_MOUNTSEARCH_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "mounts.h"

/*
 * At most this many mounts are judged for one directory, in at most this
 * many seconds: a user may make mount namespaces of his own, each with as
 * many mounts as fs.mount-max (100000) lets him, stacked on one directory
 * where listing and reading each costs the more the deeper the stack
 * (20000 take seconds), and a login must not wait while they are read.
 * More is "cannot tell", which refuses the seal; a host's own mounts,
 * containers' included, are far fewer.
 */
#define MOUNTS_JUDGED_MAX     50000
#define MOUNTS_SEARCH_SECONDS 3

struct view_search {
	unsigned long long own_id; /* the directory's mount */
	int whole_ns; /* statmount listed all of the caller's namespace */
	unsigned int major, minor;
	char fs_path[PATH_MAX];
	const char *dir;
	char *why;
	size_t whylen;
	unsigned long long deadline_ns; /* CLOCK_MONOTONIC; 0: none yet */
	/*
	 * why names a mount or mount namespace a process holds that the
	 * search never judged, or descriptors in flight in a socket: one
	 * made after the namespaces were listed looks the same as one
	 * unmounted lazily, until they are listed again, and a daemon's
	 * descriptors in flight are soon received (mountheld.c)
	 */
	int unseen;
	/* every mount judged, by mountinfo's id (mountheld.c) */
	unsigned long long *seen;
	size_t nseen, seen_room;
	int seen_sorted;
	/* the mount namespaces whose mounts were judged, by inode */
	ino_t *ns_seen;
	size_t nns, ns_room;
	/* those listed whole (every mount, whoever sees it) */
	ino_t *ns_whole;
	size_t nwhole, whole_room;
};

/* Says why into s->why (printf(3)'s format). */
void search_say(struct view_search *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Whether the search may go on: 0, or -1 with why when it has judged
 * MOUNTS_JUDGED_MAX mounts, or would with more (how many the caller is
 * about to judge), or has taken MOUNTS_SEARCH_SECONDS.
 */
int search_budget(struct view_search *s, unsigned long long more);

/*
 * Judges mount e, which where names in a message ("that process 12
 * sees", "in mount namespace mnt:[4026531841]"; NULL for the caller's
 * namespace): 1 with why when it is a writable way to the directory, 0
 * when not, -1 with why when more mounts than MOUNTS_JUDGED_MAX were
 * met, or errno ENOMEM with an empty why.
 */
int search_judge(struct view_search *s, const struct mount_entry *e,
		 const char *where);

/*
 * Judges the mount of unique id, of the caller's mount namespace (ns_id
 * 0) or of the one of that id (where names it), by statmount(2) into b
 * (STATMOUNT_LEN bytes); its root and mount point are read only when it
 * is a writable mount of the directory's superblock, so that no other
 * mount's path, however long, can make statmount fail. 0, 1 or -1 as
 * search_judge(); 2 when the mount is gone; -2 with errno when statmount
 * fails. (mountlist.c)
 */
struct statmount_head;
int search_statmount_one(struct view_search *s, unsigned long long id,
			 unsigned long long ns_id, const char *where,
			 struct statmount_head *b);

/*
 * Notes that the mount namespace of inode ino was judged (whole: every
 * mount of it): 0, or -1 with ENOMEM.
 */
int search_ns_seen(struct view_search *s, ino_t ino, int whole);

/* Whether the namespace of inode ino was judged (whole: listed whole). */
int search_ns_known(const struct view_search *s, ino_t ino, int whole);

/* Whether a mount of this mountinfo id was judged. */
int search_mount_seen(struct view_search *s, unsigned long long old_id);

/* Frees what the search kept. */
void search_free(struct view_search *s);

/*
 * Every other mount namespace the kernel lists (mountall.c): 0, 1 or -1
 * as mounts_writable_view(); -2 when this kernel cannot list them (before
 * Linux 6.12), with why empty.
 */
int search_every_namespace(struct view_search *s);

/*
 * Every directory a process holds (a descriptor, its working directory,
 * its root) on a mount no judged namespace showed, and every mount
 * namespace a process holds a descriptor of that was not judged
 * (mountheld.c): 0, 1 or -1 as mounts_writable_view().
 */
int search_held_mounts(struct view_search *s);

#endif
