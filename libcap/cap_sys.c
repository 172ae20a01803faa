/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The seam: the only file that issues raw system calls; everything else calls lcap_sys_*(). */
#define _GNU_SOURCE /* pipe2() */
#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cap_xattr.h"
#include "lcap.h"

/* ---- The kernel: one table of every raw call -------------------------- */

static long plain_syscall3(long nr, long a1, long a2, long a3)
{
	return syscall(nr, a1, a2, a3);
}

static long plain_syscall6(long nr, long a1, long a2, long a3, long a4, long a5,
			   long a6)
{
	return syscall(nr, a1, a2, a3, a4, a5, a6);
}

static int plain_capget(struct __user_cap_header_struct *hdr,
			struct __user_cap_data_struct *data)
{
	return (int)syscall(SYS_capget, hdr, data);
}

static int plain_prctl(long option, long a2, long a3, long a4, long a5)
{
	return prctl((int)option, a2, a3, a4, a5);
}

/* open(2) and fcntl(2) are variadic: these give them fixed types. */
static int plain_open(const char *path, int flags)
{
	return open(path, flags);
}

static int plain_fcntl_getfl(int fd)
{
	return fcntl(fd, F_GETFL);
}

/* The rest are the C library's own functions, whose types already fit. */
static const struct lcap_kernel real_kernel = {
	.capget = plain_capget,
	.prctl = plain_prctl,
	.getxattr = getxattr,
	.fgetxattr = fgetxattr,
	.open = plain_open,
	.fstat = fstat,
	.stat = stat,
	.fcntl_getfl = plain_fcntl_getfl,
	.read = read,
	.close = close,
	.setxattr = setxattr,
	.fsetxattr = fsetxattr,
	.removexattr = removexattr,
	.fremovexattr = fremovexattr,
	.pipe2 = pipe2,
	.fork = fork,
	.execve = execve,
	.waitpid = waitpid,
	.write = write,
	.chdir = chdir,
	.syscall3 = plain_syscall3,
	.syscall6 = plain_syscall6,
};

/*
 * The table in use: the real kernel unless a test installed a fake. Set
 * only while single threaded (see lcap_sys_set_kernel); loaded atomically
 * so the pointer is never torn.
 */
static const struct lcap_kernel *kernel_in_use = &real_kernel;

static const struct lcap_kernel *kern(void)
{
	return __atomic_load_n(&kernel_in_use, __ATOMIC_ACQUIRE);
}

const struct lcap_kernel *lcap_sys_kernel(void)
{
	return kern();
}

/* ---- State changes: the cap_set_syscall() routes --------------------- */

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
	lcap_syscall3 fn3 = kern()->syscall3;
	lcap_syscall6 fn6 = kern()->syscall6;

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

static long route_call6(long nr, long a1, long a2, long a3, long a4, long a5,
			long a6)
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
	__atomic_store_n(&route3, kern()->syscall3, __ATOMIC_RELAXED);
	__atomic_store_n(&route6, kern()->syscall6, __ATOMIC_RELAXED);
	__atomic_store_n(&routes_ready, 1, __ATOMIC_RELEASE);
}

/*
 * A NULL routine means "the default": libpsx's if it is linked, otherwise
 * the kernel table's (plain syscall(2)). Both routines are replaced together.
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

/*
 * For tests: a fake kernel in place of the real one (NULL restores it).
 * Like cap_set_syscall(), meant for a single-threaded program; the routes
 * go back to the new kernel's defaults (or libpsx's) and cap_max_bits()
 * asks the new kernel again.
 */
void lcap_sys_set_kernel(const struct lcap_kernel *kernel)
{
	__atomic_store_n(&kernel_in_use, kernel != NULL ? kernel : &real_kernel,
			 __ATOMIC_RELEASE);
	load_routes();
	lcap_kernel_bits_forget();
}

/* ---- Through the table ------------------------------------------------ */

/*
 * Each returns what the call returns, errno untouched, so callers keep the
 * kernel's own error. The xattr name is fixed here so no caller can aim
 * these at another attribute.
 */
int lcap_sys_capget(struct __user_cap_header_struct *hdr,
		    struct __user_cap_data_struct *data)
{
	return kern()->capget(hdr, data);
}

/*
 * A prctl on the calling thread alone, never routed: the reads
 * (PR_CAPBSET_READ, PR_CAP_AMBIENT_IS_SET, PR_GET_SECUREBITS), which are
 * per-thread facts, and cap_prctl(), which libcap defines so.
 */
int lcap_sys_prctl(long option, long a2, long a3, long a4, long a5)
{
	return kern()->prctl(option, a2, a3, a4, a5);
}

ssize_t lcap_sys_getxattr(const char *path, void *buf, size_t size)
{
	return kern()->getxattr(path, LCAP_XATTR_NAME, buf, size);
}

ssize_t lcap_sys_fgetxattr(int fd, void *buf, size_t size)
{
	return kern()->fgetxattr(fd, LCAP_XATTR_NAME, buf, size);
}

int lcap_sys_open(const char *path, int flags)
{
	return kern()->open(path, flags);
}

int lcap_sys_fstat(int fd, struct stat *st)
{
	return kern()->fstat(fd, st);
}

int lcap_sys_stat(const char *path, struct stat *st)
{
	return kern()->stat(path, st);
}

int lcap_sys_fcntl_getfl(int fd)
{
	return kern()->fcntl_getfl(fd);
}

ssize_t lcap_sys_read(int fd, void *buf, size_t size)
{
	return kern()->read(fd, buf, size);
}

int lcap_sys_close(int fd)
{
	return kern()->close(fd);
}

int lcap_sys_setxattr(const char *path, const void *value, size_t size)
{
	return kern()->setxattr(path, LCAP_XATTR_NAME, value, size, 0);
}

int lcap_sys_fsetxattr(int fd, const void *value, size_t size)
{
	return kern()->fsetxattr(fd, LCAP_XATTR_NAME, value, size, 0);
}

int lcap_sys_removexattr(const char *path)
{
	return kern()->removexattr(path, LCAP_XATTR_NAME);
}

int lcap_sys_fremovexattr(int fd)
{
	return kern()->fremovexattr(fd, LCAP_XATTR_NAME);
}

int lcap_sys_pipe2(int fds[2], int flags)
{
	return kern()->pipe2(fds, flags);
}

pid_t lcap_sys_fork(void)
{
	return kern()->fork();
}

int lcap_sys_execve(const char *path, char *const argv[], char *const envp[])
{
	return kern()->execve(path, argv, envp);
}

pid_t lcap_sys_waitpid(pid_t pid, int *status, int options)
{
	return kern()->waitpid(pid, status, options);
}

ssize_t lcap_sys_write(int fd, const void *buf, size_t size)
{
	return kern()->write(fd, buf, size);
}

int lcap_sys_chdir(const char *path)
{
	return kern()->chdir(path);
}

/* ---- Through the table and the cap_set_syscall() routes --------------- */

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
