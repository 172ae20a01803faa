/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The kernel's calls that list mounts and mount namespaces (mountkernel.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mountkernel.h"

_Static_assert(sizeof(struct statmount_head) == 512, "struct statmount");

/*
 * The new system calls have one number on every architecture but alpha
 * and mips (since 424); there a build without them has none.
 */
#if defined(__NR_statmount) && defined(__NR_listmount)
#define SYS_STATMOUNT __NR_statmount
#define SYS_LISTMOUNT __NR_listmount
#elif !defined(__alpha__) && !defined(__mips__)
#define SYS_STATMOUNT 457
#define SYS_LISTMOUNT 458
#endif

#define STATX_MOUNT_ID_UNIQUE 0x4000U
#define SB_READ_ONLY	      0x01U
#define ATTR_READ_ONLY	      0x01ULL
#define ATTR_IDMAP	      0x00100000ULL

/* struct mnt_id_req: 24 bytes (version 0), 32 with mnt_ns_id (6.11). */
struct mnt_id_req {
	uint32_t size;
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param;
	uint64_t mnt_ns_id;
};

/* include/uapi/linux/nsfs.h */
struct mnt_ns_info {
	uint32_t size;
	uint32_t nr_mounts;
	uint64_t mnt_ns_id;
};
#define NS_GET_MNTNS_ID _IOR(0xb7, 0x5, uint64_t)
#define NS_MNT_GET_NEXT _IOR(0xb7, 11, struct mnt_ns_info)
#define NS_MNT_GET_PREV _IOR(0xb7, 12, struct mnt_ns_info)

static void request(struct mnt_id_req *req, uint64_t id, uint64_t param,
		    uint64_t ns_id)
{
	memset(req, 0, sizeof(*req));
	/* Version 0 where it will do: kernels 6.8 to 6.10 know no other. */
	req->size = ns_id != 0 ? 32 : 24;
	req->mnt_id = id;
	req->param = param;
	req->mnt_ns_id = ns_id;
}

int kernel_statmount(uint64_t id, uint64_t ns_id, unsigned int mask,
		     struct statmount_head *b)
{
#ifdef SYS_STATMOUNT
	struct mnt_id_req req;

	request(&req, id, mask, ns_id);
	return (int)syscall(SYS_STATMOUNT, &req, b, STATMOUNT_LEN, 0);
#else
	(void)id;
	(void)ns_id;
	(void)mask;
	(void)b;
	errno = ENOSYS;
	return -1;
#endif
}

long kernel_listmount(uint64_t from, uint64_t ns_id, uint64_t last,
		      uint64_t *ids, size_t n)
{
#ifdef SYS_LISTMOUNT
	struct mnt_id_req req;

	request(&req, from, last, ns_id);
	return syscall(SYS_LISTMOUNT, &req, ids, n, 0);
#else
	(void)from;
	(void)ns_id;
	(void)last;
	(void)ids;
	(void)n;
	errno = ENOSYS;
	return -1;
#endif
}

int kernel_mount_entry(const struct statmount_head *b, int basic_only,
		       struct mount_entry *e)
{
	if (!(b->mask & SM_SB_BASIC) || !(b->mask & SM_MNT_BASIC) ||
	    (!basic_only && !(b->mask & SM_MNT_ROOT))) {
		errno = EPROTO;
		return -1;
	}
	memset(e, 0, sizeof(*e));
	e->id = b->mnt_id;
	e->old_id = b->mnt_id_old;
	e->major = b->sb_dev_major;
	e->minor = b->sb_dev_minor;
	e->read_only =
		(b->mnt_attr & ATTR_READ_ONLY) || (b->sb_flags & SB_READ_ONLY);
	e->idmapped = (b->mnt_attr & ATTR_IDMAP) != 0;
	e->root = (b->mask & SM_MNT_ROOT) ? b->str + b->mnt_root : NULL;
	e->point = (b->mask & SM_MNT_POINT) ? b->str + b->mnt_point : NULL;
	return 0;
}

int kernel_unique_mount_id(int dirfd, const char *name, uint64_t *id)
{
	struct statx sx;

	if (statx(dirfd, name,
		  (name[0] == '\0' ? AT_EMPTY_PATH : 0) | AT_SYMLINK_NOFOLLOW,
		  STATX_MOUNT_ID_UNIQUE, &sx) < 0)
		return -1;
	if (!(sx.stx_mask & STATX_MOUNT_ID_UNIQUE)) {
		errno = ENOSYS;
		return -1;
	}
	*id = sx.stx_mnt_id;
	return 0;
}

int kernel_next_mount_ns(int nsfd, int previous, uint64_t *ns_id,
			 unsigned int *nr_mounts)
{
	struct mnt_ns_info info = { .size = sizeof(info) };
	int fd = ioctl(nsfd, previous ? NS_MNT_GET_PREV : NS_MNT_GET_NEXT,
		       &info);

	if (fd >= 0) {
		*ns_id = info.mnt_ns_id;
		*nr_mounts = info.nr_mounts;
	}
	return fd;
}

int kernel_mount_ns_id(int nsfd, uint64_t *ns_id)
{
	return ioctl(nsfd, NS_GET_MNTNS_ID, ns_id) < 0 ? -1 : 0;
}
