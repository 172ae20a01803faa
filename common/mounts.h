/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The mounts a write could reach a directory by, as far as a trust check
 * needs them.
 *
 * A directory is one object however many mounts show it: a bind mount of
 * it, or of any directory above it on the same file system, is another
 * way to write it, read-only as the mount the caller reached it by may be.
 * The kernel answers per mount (its read-only flag, and its superblock's),
 * so every mount a user may write through is looked at: those of the
 * caller's mount namespace, outside a chroot too, those of every other
 * namespace (one a process lives in, or a descriptor keeps), and those
 * unmounted lazily that a process still holds a directory on.
 */
#ifndef COMMON_MOUNTS_H
#define COMMON_MOUNTS_H

#include <stddef.h>

/* One mount: pointers into the text or buffer it was read from. */
struct mount_entry {
	unsigned long long id;	   /* statmount's unique id, or mountinfo's */
	unsigned long long old_id; /* mountinfo's (which statmount gives too) */
	unsigned int major, minor; /* its superblock's device */
	int read_only; /* the mount, or its superblock, refuses writes */
	int idmapped;  /* shows owners through a mapping (MOUNT_ATTR_IDMAP) */
	const char *root;  /* its root, as a path in its file system (NULL:
			      not asked for) */
	const char *point; /* where it is mounted, from the caller's root; NULL
			      when that is outside it (a chroot) */
	/* mountinfo's file system type and super options (NULL: not read) */
	const char *fstype, *super_opts;
};

/*
 * One line of /proc/PID/mountinfo (proc(5)), without its newline, into e:
 * the fields are unescaped in place (\ooo), and e points into line
 * (fstype and super_opts too, as they are).
 * Returns 0, or -1 with EINVAL for a line of another shape.
 */
int mountinfo_parse_line(char *line, struct mount_entry *e);

/*
 * The path in its file system of directory dir, a canonical path from the
 * caller's root that is on mount m: m's root, then what dir has below m's
 * mount point. Into out (len bytes). Returns 0, or -1 with EINVAL when
 * dir is not at or below m's mount point (or m's is unknown), ENAMETOOLONG
 * when out is too short.
 */
int mount_fs_path(const struct mount_entry *m, const char *dir, char *out,
		  size_t len);

/*
 * Does mount m let a write reach the directory at path fs_path of the file
 * system on device major:minor? 1 when m is writable, of that superblock,
 * and its root is fs_path or a directory above it; else 0. (A mount of a
 * directory below, or beside, cannot add, remove or rename its names.)
 */
int mount_reaches(const struct mount_entry *m, unsigned int major,
		  unsigned int minor, const char *fs_path);

/*
 * Is the mount the file or directory open on fd (O_PATH will do) was
 * reached by idmapped (MOUNT_ATTR_IDMAP)? Its owners are then the
 * mapping's, not the file system's: root's bind of bob's directory that
 * maps bob to root shows his files as root's. 1, 0, or -1 with errno
 * when it cannot be told (neither statmount(2) nor mountinfo answer, on
 * a kernel that has idmapped mounts). (mountidmap.c)
 */
int mount_idmapped(int fd);

/* Why such a file is refused, after "it is " or "directory D is ". */
#define MOUNT_IDMAPPED_WHY                                                \
	"reached through an idmapped mount, whose mapping, not the file " \
	"system, says who owns it"

/*
 * Whether any mount a user could write through lets a write reach the
 * directory open on fd (O_PATH will do), whose canonical path from the
 * caller's root is dir, though the mount it was reached by is read-only:
 * one of the caller's mount namespace, of any other mount namespace
 * (each listed whole where the kernel walks them all, whoever lives in
 * it: mountall.c), of a namespace /proc shows a process in, or one a
 * process holds a directory on though no namespace shows it (a mount
 * unmounted lazily: mountheld.c). 0 when none does; 1 when one does,
 * with why ("the writable mount on /srv/vol reaches it too"); -1 when
 * that cannot be told (why says why: the mounts cannot all be read, more
 * of them than are judged, the directory's own mount is writable or
 * idmapped, ...), with an empty why and errno ENOMEM alone meaning out
 * of memory. Only root may see every process's mounts. (mountlist.c)
 */
int mounts_writable_view(int fd, const char *dir, char *why, size_t whylen);

/*
 * Whether only root (of the caller's user namespace, or of one above it)
 * may change the mounts of the caller's mount namespace: remount a
 * read-only one writable, mount over a directory, unmount. 1 yes; 0 when
 * the namespace belongs to a user namespace below the caller's, whose
 * root (and creator) may, with why; -1 when it cannot be told, with why.
 * (mountns.c)
 */
int mount_ns_root_controlled(char *why, size_t whylen);

#endif
