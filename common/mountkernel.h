/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The kernel's calls that list mounts, which the C library's headers may
 * predate: statmount(2) and listmount(2) (Linux 6.8; of another mount
 * namespace, by its id, from 6.11), and nsfs's walk over every mount
 * namespace (NS_MNT_GET_NEXT and NS_MNT_GET_PREV, 6.12). For the trust
 * checks' search for a writable way to a directory (mountlist.c,
 * mountall.c); include/uapi/linux/mount.h and nsfs.h define them.
 */
#ifndef COMMON_MOUNTKERNEL_H
#define COMMON_MOUNTKERNEL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "mounts.h"

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

/* statx(2)'s mask bit for mountinfo's id (Linux 5.8), which libc may lack */
#define STATX_MOUNT_ID_OLD 0x1000U

/* What statmount is asked for. */
#define SM_SB_BASIC  0x01U
#define SM_MNT_BASIC 0x02U
#define SM_MNT_ROOT  0x08U
#define SM_MNT_POINT 0x10U
#define SM_ALL	     (SM_SB_BASIC | SM_MNT_BASIC | SM_MNT_ROOT | SM_MNT_POINT)

/* Room for one mount's root and mount point. */
#define STATMOUNT_LEN (sizeof(struct statmount_head) + 2 * PATH_MAX + 64)

/*
 * statmount(2) of mount id (unique) into b (STATMOUNT_LEN bytes), in the
 * caller's mount namespace (ns_id 0) or the one of that id: 0, or -1 with
 * errno (ENOSYS where this build or kernel has no such call).
 */
int kernel_statmount(uint64_t id, uint64_t ns_id, unsigned int mask,
		     struct statmount_head *b);

/*
 * listmount(2): up to n ids of the mounts below mount from (or, from
 * LISTMOUNT_ALL, every mount of the namespace) that come after id last
 * (0: from the first), in the caller's namespace (ns_id 0) or the one of
 * that id. How many, or -1 with errno.
 */
#define LISTMOUNT_ALL (~(uint64_t)0)
long kernel_listmount(uint64_t from, uint64_t ns_id, uint64_t last,
		      uint64_t *ids, size_t n);

/*
 * A statmount answer as an entry (pointing into b): 0, or -1 with EPROTO
 * when b lacks what an entry needs (SM_SB_BASIC, SM_MNT_BASIC, and
 * SM_MNT_ROOT unless basic_only).
 */
int kernel_mount_entry(const struct statmount_head *b, int basic_only,
		       struct mount_entry *e);

/* The unique id of the mount name (at dirfd) is on: 0, or -1 with errno. */
int kernel_unique_mount_id(int dirfd, const char *name, uint64_t *id);

/*
 * The next mount namespace after (previous: before) the one open on
 * nsfd, by id, of those the caller may administer (CAP_SYS_ADMIN over
 * its owner; the kernel skips the others): a new descriptor of it, its
 * id in *ns_id, how many mounts it has in *nr_mounts; or -1 with errno (ENOENT: no more; ENOTTY or EINVAL: a
 * kernel before 6.12; EPERM: a caller outside the first pid namespace).
 */
int kernel_next_mount_ns(int nsfd, int previous, uint64_t *ns_id,
			 unsigned int *nr_mounts);

/* The id of the mount namespace open on nsfd: 0, or -1 with errno. */
int kernel_mount_ns_id(int nsfd, uint64_t *ns_id);

#endif
