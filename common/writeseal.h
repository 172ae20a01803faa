/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * When the kernel, not the mode, settles who may write: a directory whose
 * mode lets others write but that no mount lets anyone write. Used by the
 * trust checks that decide whether root may act on a file (path_trust.h).
 * The answer holds only while root alone may change the mounts of the
 * caller's mount namespace (mounts.h).
 */
#ifndef COMMON_WRITESEAL_H
#define COMMON_WRITESEAL_H

#include <stddef.h>

/*
 * Is the directory open on fd (O_PATH will do), at canonical path dir
 * from the caller's root, closed to every write, whatever its mode says?
 * Yes (1) when the mount it was reached by refuses writes (a read-only
 * mount or superblock), its file system keeps its own data (a disk or
 * memory one: not overlayfs, whose layers are written beside it, nor a
 * network one, written by other machines), the mount namespace is root's
 * alone (mount_ns_root_controlled()), and no mount that a process sees,
 * outside a chroot or in another namespace too, lets a write reach the
 * directory (mounts_writable_view()). 0 when not: why is empty when its mount is
 * writable, else it says what keeps it from being sealed ("its mount is
 * read-only, but ..."). -1 with errno ENOMEM.
 */
int dir_sealed(int fd, const char *dir, char *why, size_t whylen);

#endif
