/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The only file that issues raw system calls; everything else calls lcap_sys_*(). */
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lcap.h"

/* ---- Process state: the cap_set_syscall() seam ----------------------- */

typedef long (*lcap_syscall3)(long, long, long, long);
typedef long (*lcap_syscall6)(long, long, long, long, long, long, long);

/*
 * libpsx, when linked in, offers versions of these that apply a system
 * call to every thread of the process. Weak and undefined: it resolves to
 * NULL unless the program (or a library it loaded) provides it, so libcap
 * programs linked with -lpsx keep working unchanged. Default visibility,
 * or the hidden-by-default build would bind it at link time and libpsx
 * loaded later could never be found.
 */
void psx_load_syscalls(lcap_syscall3 *fn3, lcap_syscall6 *fn6)
	__attribute__((weak, visibility("default")));

static long plain_syscall3(long nr, long a1, long a2, long a3)
{
	return syscall(nr, a1, a2, a3);
}

static long plain_syscall6(long nr, long a1, long a2, long a3, long a4,
			   long a5, long a6)
{
	return syscall(nr, a1, a2, a3, a4, a5, a6);
}

/*
 * Every call that changes credentials or capability state goes through
 * this table, so a multithreaded program can route them all (for example
 * to libpsx) in one place. Reads never do: they are facts about the
 * calling thread. Like libcap's, the table is meant to be set while the
 * program is single threaded; each pointer is loaded and stored
 * atomically, so a racing reader sees either the old or the new routine.
 */
static lcap_syscall3 route3;
static lcap_syscall6 route6;
static int routes_ready;

static void load_routes(void)
{
	lcap_syscall3 fn3 = plain_syscall3;
	lcap_syscall6 fn6 = plain_syscall6;

	if (psx_load_syscalls != NULL)
		psx_load_syscalls(&fn3, &fn6);
	__atomic_store_n(&route3, fn3, __ATOMIC_RELAXED);
	__atomic_store_n(&route6, fn6, __ATOMIC_RELAXED);
	__atomic_store_n(&routes_ready, 1, __ATOMIC_RELEASE);
}

static long route_call3(long nr, long a1, long a2, long a3)
{
	if (!__atomic_load_n(&routes_ready, __ATOMIC_ACQUIRE))
		load_routes();
	return __atomic_load_n(&route3, __ATOMIC_RELAXED)(nr, a1, a2, a3);
}

static long route_call6(long nr, long a1, long a2, long a3, long a4,
			long a5, long a6)
{
	if (!__atomic_load_n(&routes_ready, __ATOMIC_ACQUIRE))
		load_routes();
	return __atomic_load_n(&route6, __ATOMIC_RELAXED)(nr, a1, a2, a3, a4,
							   a5, a6);
}

/*
 * For a launcher's child, between fork() and execve(): it is single
 * threaded, so a change made by the calling thread is made by the whole
 * process, and broadcasting it would only add ways to fail (libpsx lists
 * the threads in /proc/self/task, which a chroot hides) and work that is
 * not async-signal-safe. The routes live in the child's own copy of this
 * memory, so the parent keeps its own; a routine set with
 * cap_set_syscall() is bypassed too, as libcap's child bypasses it.
 */
void lcap_sys_unroute(void)
{
	__atomic_store_n(&route3, plain_syscall3, __ATOMIC_RELAXED);
	__atomic_store_n(&route6, plain_syscall6, __ATOMIC_RELAXED);
	__atomic_store_n(&routes_ready, 1, __ATOMIC_RELEASE);
}

/*
 * A NULL routine means "the default": libpsx's if it is linked, otherwise
 * plain syscall(2). Both routines are replaced together.
 */
void cap_set_syscall(long (*new_syscall)(long, long, long, long),
		     long (*new_syscall6)(long, long, long, long, long, long,
					  long))
{
	if (new_syscall == NULL || new_syscall6 == NULL) {
		load_routes();
		return;
	}
	__atomic_store_n(&route3, new_syscall, __ATOMIC_RELAXED);
	__atomic_store_n(&route6, new_syscall6, __ATOMIC_RELAXED);
	__atomic_store_n(&routes_ready, 1, __ATOMIC_RELEASE);
}

int lcap_sys_capget(struct __user_cap_header_struct *hdr,
		    struct __user_cap_data_struct *data)
{
	return (int)syscall(SYS_capget, hdr, data);
}

int lcap_sys_capset(struct __user_cap_header_struct *hdr,
		    const struct __user_cap_data_struct *data)
{
	return (int)route_call3(SYS_capset, (long)hdr, (long)data, 0);
}

/* A prctl that changes state: routed. */
int lcap_sys_prctl_write(long option, long a2, long a3, long a4, long a5)
{
	return (int)route_call6(SYS_prctl, option, a2, a3, a4, a5, 0);
}

/* A prctl on the calling thread alone, never routed (cap_prctl()). */
int lcap_sys_prctl(long option, long a2, long a3, long a4, long a5)
{
	return prctl((int)option, a2, a3, a4, a5);
}

int lcap_sys_setuid(uid_t uid)
{
	return (int)route_call3(SYS_setuid, (long)uid, 0, 0);
}

int lcap_sys_setgid(gid_t gid)
{
	return (int)route_call3(SYS_setgid, (long)gid, 0, 0);
}

int lcap_sys_setgroups(size_t n, const gid_t *groups)
{
	return (int)route_call3(SYS_setgroups, (long)n, (long)groups, 0);
}

int lcap_sys_chroot(const char *path)
{
	return (int)route_call3(SYS_chroot, (long)path, 0, 0);
}

/* ---- Reads ------------------------------------------------------------ */

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
