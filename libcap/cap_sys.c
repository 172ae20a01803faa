/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The only file that issues raw system calls; everything else calls lcap_sys_*(). */
#include <errno.h>
#include <sys/prctl.h>

#include "lcap.h"

/*
 * A prctl that only reads state. Reads are per-thread facts and never go
 * through the cap_set_syscall() routing, which exists for changes.
 */
long lcap_sys_prctl_read(long option, long arg2, long arg3)
{
	return prctl((int)option, arg2, arg3, 0L, 0L);
}

/*
 * ---- File capability syscalls (cap_file.c) ----
 * Thin wrappers: each returns what the syscall returns, errno untouched, so
 * cap_file.c keeps the kernel's own error. The xattr name is fixed here so
 * no caller can aim these at another attribute.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cap_xattr.h"

ssize_t lcap_sys_getxattr(const char *path, void *buf, size_t size)
{
	return getxattr(path, LCAP_XATTR_NAME, buf, size);
}

ssize_t lcap_sys_fgetxattr(int fd, void *buf, size_t size)
{
	return fgetxattr(fd, LCAP_XATTR_NAME, buf, size);
}

int lcap_sys_setxattr(const char *path, const void *value, size_t size)
{
	return setxattr(path, LCAP_XATTR_NAME, value, size, 0);
}

int lcap_sys_fsetxattr(int fd, const void *value, size_t size)
{
	return fsetxattr(fd, LCAP_XATTR_NAME, value, size, 0);
}

int lcap_sys_removexattr(const char *path)
{
	return removexattr(path, LCAP_XATTR_NAME);
}

int lcap_sys_fremovexattr(int fd)
{
	return fremovexattr(fd, LCAP_XATTR_NAME);
}

int lcap_sys_open(const char *path, int flags)
{
	return open(path, flags);
}

int lcap_sys_fstat(int fd, struct stat *st)
{
	return fstat(fd, st);
}

int lcap_sys_stat(const char *path, struct stat *st)
{
	return stat(path, st);
}

int lcap_sys_fcntl_getfl(int fd)
{
	return fcntl(fd, F_GETFL);
}

int lcap_sys_close(int fd)
{
	return close(fd);
}
