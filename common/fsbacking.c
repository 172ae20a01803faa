/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Who may write a file system's blocks (fsbacking.h): the devices it sits
 * on, as sysfs links them (/sys/dev/block/MAJ:MIN: a partition's disk, a
 * device-mapper or md device's slaves), down to a loop device, whose
 * backing file is judged as the trust checks judge a file: root's, and
 * written by root alone. Which file a loop device holds is asked of the
 * device itself (LOOP_GET_STATUS64: the file's device and inode), never
 * taken from the name sysfs shows, which its owner may have renamed away
 * and put a root-owned file in the place of.
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
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/btrfs.h>
#include <linux/loop.h>

#include "acl.h"
#include "fsbacking.h"
#include "fsowner.h"
#include "why.h"

/* Devices stacked deeper than this (or in a loop) cannot be told. */
#define STACK_MAX      8
#define BTRFS_MAGIC_FS 0x9123683EUL
#define LOOP_MAJOR_NR  7
#define NBD_MAJOR_NR   43

static int judge_fd(int fd, int depth, char *why, size_t whylen);

/* A small sysfs file's text, its newline cut: 0, or -1 with errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "MAJ:MIN" in a sysfs "dev" file: 0, or -1. */
static int read_dev(const char *path, unsigned *maj, unsigned *min)
{
	char text[32];

	if (read_small(path, text, sizeof(text)) < 0 ||
	    sscanf(text, "%u:%u", maj, min) != 2)
		return -1;
	return 0;
}

/*
 * Whether anyone but root may write the file of st, open on fd: its
 * owner, its mode's group and other bits, an ACL's entries.
 */
static int file_writer(int fd, const struct stat *st, char *who, size_t len)
{
	struct acl_entry e[ACL_MAX_ENTRIES];
	unsigned char raw[4 + 8 * ACL_MAX_ENTRIES];
	char link[64];
	ssize_t n;
	unsigned mask;
	int i, count;

	if (st->st_uid != 0) {
		why_say(who, len, "uid %lu owns it", (unsigned long)st->st_uid);
		return 1;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		why_say(who, len, "its mode %04o lets others write it",
			(unsigned)(st->st_mode & 07777));
		return 1;
	}
	if (!(st->st_mode & S_IRWXG))
		return 0; /* no mask: the mode alone decides */
	snprintf(link, sizeof(link), "/proc/thread-self/fd/%d", fd);
	n = getxattr(link, ACL_XATTR_ACCESS, raw, sizeof(raw));
	if (n < 0 && (errno == ENODATA || errno == ENOTSUP))
		return 0;
	if (n < 0 ||
	    (count = acl_decode(raw, (size_t)n, e, ACL_MAX_ENTRIES)) < 0) {
		why_say(who, len, "its ACL cannot be read (%s)",
			strerror(errno));
		return 1;
	}
	mask = acl_mask(e, count);
	for (i = 0; i < count; i++) {
		if (e[i].tag == ACL_USER_OBJ || e[i].tag == ACL_MASK ||
		    !(acl_effective(&e[i], mask) & ACL_PERM_WRITE) ||
		    (e[i].tag == ACL_NAMED_USER && e[i].id == 0))
			continue;
		why_say(who, len, "an ACL entry lets others write it");
		return 1;
	}
	return 0;
}

/*
 * Loop device name (maj:min): the file it holds, judged with the file
 * system that file is on.
 */
static int judge_loop(const char *name, unsigned maj, unsigned min, int depth,
		      char *why, size_t whylen)
{
	char path[PATH_MAX + 32], file[PATH_MAX], who[160];
	struct loop_info64 info;
	struct stat st;
	unsigned fmaj, fmin;
	int dev, fd, rc;

	snprintf(path, sizeof(path), "/dev/%s", name);
	dev = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (dev < 0 || fstat(dev, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != makedev(maj, min) ||
	    ioctl(dev, LOOP_GET_STATUS64, &info) < 0) {
		why_say(why, whylen,
			"on loop device %s, and which file it holds cannot be told (%s: %s)",
			name, path,
			dev < 0 ? strerror(errno) : "not that loop device");
		if (dev >= 0)
			close(dev);
		return 1;
	}
	close(dev);
	/* lo_device is the kernel's encoding of a device number */
	fmaj = (unsigned)((info.lo_device & 0xfff00) >> 8);
	fmin = (unsigned)((info.lo_device & 0xff) |
			  ((info.lo_device >> 12) & 0xfff00));
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/loop/backing_file",
		 maj, min);
	fd = -1;
	if (read_small(path, file, sizeof(file)) == 0 && file[0] == '/')
		fd = open(file, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != makedev(fmaj, fmin) ||
	    (uint64_t)st.st_ino != info.lo_inode) {
		why_say(why, whylen,
			"on loop device %s, whose backing file cannot be judged (no longer at %s)",
			name, file[0] == '/' ? file : "the name sysfs gives");
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (fs_owner_unvouched(fd, NULL) > 0) {
		why_say(who, sizeof(who), "it is " FS_OWNER_FUSE_WHY);
		rc = 1;
	} else {
		rc = file_writer(fd, &st, who, sizeof(who));
	}
	if (rc > 0)
		why_say(why, whylen,
			"on loop device %s, whose backing file %s anyone who may write it rewrites: %s",
			name, file, who);
	else
		rc = judge_fd(fd, depth + 1, why, whylen);
	close(fd);
	return rc;
}

/* The block device maj:min and every device it sits on. */
static int judge_dev(unsigned maj, unsigned min, int depth, char *why,
		     size_t whylen);

/*
 * Each device under dir (a sysfs directory of entries holding a "dev":
 * a device's slaves, a btrfs file system's devices), which what is on,
 * judged one level deeper. A dir that cannot be opened is no device
 * (none stacked), or, when must, a reason.
 */
static int judge_devices(const char *dir, const char *what, int must, int depth,
			 char *why, size_t whylen)
{
	char path[PATH_MAX + 320];
	struct dirent *de;
	unsigned maj, min;
	int rc = 0;
	DIR *d;

	d = opendir(dir);
	if (d == NULL) {
		if (!must)
			return 0;
		why_say(why, whylen,
			"on %s whose devices cannot be told (%s: %s)", what,
			dir, strerror(errno));
		return 1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		if (read_dev(path, &maj, &min) < 0) {
			why_say(why, whylen,
				"on %s, whose device %s cannot be told", what,
				de->d_name);
			rc = 1;
		} else {
			rc = judge_dev(maj, min, depth + 1, why, whylen);
		}
	}
	closedir(d);
	return rc;
}

static int judge_dev(unsigned maj, unsigned min, int depth, char *why,
		     size_t whylen)
{
	char link[64], real[PATH_MAX], sub[PATH_MAX + 320];
	const char *name;
	unsigned smaj, smin;

	if (maj == 0)
		return 0; /* no device: memory, a network, or a pseudo one */
	if (depth > STACK_MAX) {
		why_say(why, whylen, "on devices stacked too deep to be told");
		return 1;
	}
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	if (realpath(link, real) == NULL) {
		/* No sysfs (a chroot): a loop or nbd device is still known. */
		if (maj != LOOP_MAJOR_NR && maj != NBD_MAJOR_NR)
			return 0;
		why_say(why, whylen,
			"on device %u:%u, which may be a loop device, and /sys cannot say (%s)",
			maj, min, strerror(errno));
		return 1;
	}
	name = strrchr(real, '/') + 1;
	if (strncmp(name, "nbd", 3) == 0 || strncmp(name, "ublkb", 5) == 0) {
		why_say(why, whylen,
			"on %s, a block device whose blocks a process serves",
			name);
		return 1;
	}
	snprintf(sub, sizeof(sub), "%s/loop", real);
	if (access(sub, F_OK) == 0)
		return judge_loop(name, maj, min, depth, why, whylen);
	snprintf(sub, sizeof(sub), "%s/partition", real);
	if (access(sub, F_OK) == 0) {
		/* a partition: its disk is the directory above */
		snprintf(sub, sizeof(sub), "%.*s/dev", (int)(name - 1 - real),
			 real);
		if (read_dev(sub, &smaj, &smin) < 0) {
			why_say(why, whylen,
				"on partition %s, whose disk cannot be told",
				name);
			return 1;
		}
		return judge_dev(smaj, smin, depth + 1, why, whylen);
	}
	snprintf(sub, sizeof(sub), "%s/slaves", real);
	return judge_devices(sub, name, 0, depth, why, whylen);
}

/*
 * A btrfs file system's devices (its files show a device number of each
 * subvolume's own): from its id, BTRFS_IOC_FS_INFO on a readable
 * descriptor of the file or directory fd holds, in /sys/fs/btrfs.
 */
static int judge_btrfs(int fd, int depth, char *why, size_t whylen)
{
	struct btrfs_ioctl_fs_info_args info;
	char path[PATH_MAX + 64], uuid[40];
	int rfd, i;

	snprintf(path, sizeof(path), "/proc/thread-self/fd/%d", fd);
	rfd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	memset(&info, 0, sizeof(info));
	if (rfd < 0 || ioctl(rfd, BTRFS_IOC_FS_INFO, &info) < 0) {
		why_say(why, whylen,
			"on a btrfs file system whose devices cannot be told (%s)",
			strerror(errno));
		if (rfd >= 0)
			close(rfd);
		return 1;
	}
	close(rfd);
	for (i = 0; i < 16; i++)
		sprintf(uuid + 2 * i + (i >= 4) + (i >= 6) + (i >= 8) +
				(i >= 10),
			"%02x", info.fsid[i]);
	uuid[8] = uuid[13] = uuid[18] = uuid[23] = '-';
	snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/devices", uuid);
	return judge_devices(path, "a btrfs file system", 1, depth, why,
			     whylen);
}

static int judge_fd(int fd, int depth, char *why, size_t whylen)
{
	struct statfs sf;
	struct stat st;

	if (fstatfs(fd, &sf) < 0 || fstat(fd, &st) < 0)
		return -1;
	if (((unsigned long)sf.f_type & 0xffffffffUL) == BTRFS_MAGIC_FS)
		return judge_btrfs(fd, depth, why, whylen);
	return judge_dev(major(st.st_dev), minor(st.st_dev), depth, why,
			 whylen);
}

int fs_backing_writer(int fd, struct fs_backing_seen *seen, char *why,
		      size_t whylen)
{
	struct stat st;
	int i, rc;

	why[0] = '\0';
	if (fstat(fd, &st) < 0)
		return -1;
	for (i = 0; seen != NULL && i < seen->n; i++)
		if (seen->dev[i] == st.st_dev)
			return 0;
	rc = judge_fd(fd, 0, why, whylen);
	if (rc == 0 && seen != NULL &&
	    seen->n < (int)(sizeof(seen->dev) / sizeof(seen->dev[0])))
		seen->dev[seen->n++] = st.st_dev;
	return rc;
}
