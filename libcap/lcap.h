/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Internal declarations shared by the library's source files; never installed. */
#ifndef LCAP_H
#define LCAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * Only what the public header declares may be exported: the library is
 * compiled with -fvisibility=hidden and this pragma makes the public
 * declarations the exception. libcap.map then lists the same names.
 */
#pragma GCC visibility push(default)
#include <sys/capability.h>
#pragma GCC visibility pop

/* A cap_t holds 64 bits per flag, as two 32-bit words (libcap's layout). */
#define LCAP_WORDS 2
#define LCAP_BITS  64
/*
 * Capabilities this library can name: one per entry of caps.def, numbered
 * 0 .. LCAP_NAMED - 1 (cap_names.c checks that the numbers are dense and
 * agree with <sys/capability.h>). LCAP_ORDER_<NAME> is an entry's position.
 */
enum lcap_named {
#define CAP_FACT(number, NAME, ...) LCAP_ORDER_##NAME,
#include "caps.def"
#undef CAP_FACT
	LCAP_NAMED
};
/* The longest name, "cap_" included, that a buffer must hold (checked). */
#define LCAP_NAME_MAX 29
#define LCAP_FLAGS    3 /* CAP_EFFECTIVE, CAP_PERMITTED, CAP_INHERITABLE */

#define LCAP_WORD(cap) ((unsigned)(cap) >> 5)
#define LCAP_MASK(cap) (UINT32_C(1) << ((unsigned)(cap)&31))

struct _cap_struct {
	uint32_t flags[LCAP_FLAGS][LCAP_WORDS]; /* [cap_flag_t][word] */
	uid_t rootid; /* namespace owner for a v3 file capability; 0 = none */
};

/* An IAB tuple: Inheritable, Ambient, and Bounding bits to be dropped. */
struct cap_iab_s {
	uint32_t i[LCAP_WORDS];
	uint32_t a[LCAP_WORDS];
	uint32_t nb[LCAP_WORDS]; /* set = drop from the bounding set */
	uint32_t held;		 /* nonzero while a launcher holds it */
};

/* Kinds of object handed out by the allocator, told apart by cap_free(). */
enum lcap_kind {
	LCAP_KIND_SET,
	LCAP_KIND_IAB,
	LCAP_KIND_LAUNCH,
	LCAP_KIND_STRING,
};

/* cap_alloc.c */
void *lcap_alloc(enum lcap_kind kind, size_t size);
int lcap_is(const void *obj, enum lcap_kind kind);
/*
 * Each object has a lock (libcap's guarantee since 2.61: one cap_t,
 * cap_iab_t or launcher may be shared between threads). Every public
 * function holds it while it reads or writes the object, and never holds
 * two at once except launcher, then its IAB. lcap_snapshot() copies size
 * bytes of a live obj of kind under its lock (-1 and EINVAL otherwise),
 * so functions of two objects read each from its own consistent copy.
 */
void lcap_lock(const void *obj);
void lcap_unlock(const void *obj);
int lcap_snapshot(const void *obj, enum lcap_kind kind, void *copy,
		  size_t size);
char *lcap_strdup(const char *text);
char *lcap_strndup(const char *text, size_t len);

/*
 * cap_maxbits.c: number of capabilities the running kernel knows (cached);
 * lcap_kernel_bits_forget() drops the cache (a new lcap_sys_set_kernel()).
 */
int lcap_kernel_bits(void);
void lcap_kernel_bits_forget(void);

/* cap_names.c */
const char *lcap_name_of(unsigned cap); /* NULL above the named range */
size_t lcap_name_len(unsigned cap);	/* strlen of that name; 0 above it */
int lcap_scan_value(const char *text, const char **end); /* errno untouched */

/*
 * cap_proc.c: bracket one privileged step, with no lock and no allocation
 * (a launcher's child uses them). lcap_proc_raise() reads the current
 * state into working and applies it with cap added to E (0, or -1 with
 * errno and E cleared again); lcap_proc_end() clears E in working,
 * applies it and returns rc with errno as it was.
 */
int lcap_proc_raise(struct _cap_struct *working, cap_value_t cap);
int lcap_proc_end(struct _cap_struct *working, int rc);
/*
 * The calling thread's E, P and I in a plain struct, with no lock and no
 * allocation: what a forked child of a threaded program may still call
 * (its allocator may be locked by a thread that no longer exists).
 */
int lcap_proc_read(struct _cap_struct *caps);
int lcap_proc_write(const struct _cap_struct *caps);

/*
 * cap_iab.c: a launcher holds its IAB, which may then not change or be
 * freed. lcap_iab_hold(iab, 1) fails (EINVAL) if another launcher holds it.
 */
int lcap_iab_hold(cap_iab_t iab, int held);

/* cap_iab_proc.c: cap_iab_set_proc() on a copy, which takes no lock. */
int lcap_iab_apply(const struct cap_iab_s *iab);

/* cap_launch.c: releases what a launcher owns; cap_free() calls it. */
void lcap_launch_release(cap_launch_t launcher);

/*
 * cap_sys.c, the seam: every raw system call the library makes, reads
 * included, goes through one table, so a test can fake a kernel (one with
 * 42 capabilities, or without ambient support) and the rest of the library
 * calls lcap_sys_*() and nothing else. State changes (capset, prctl
 * writes, set*id, setgroups, chroot) also go through the cap_set_syscall()
 * routes, whose default is the table's syscall3/syscall6.
 */
#include <sys/types.h>
struct stat;
struct lcap_kernel {
	/* Reads, facts about the calling thread: never routed. */
	int (*capget)(struct __user_cap_header_struct *hdr,
		      struct __user_cap_data_struct *data);
	/* On the calling thread alone: reads, cap_prctl(), PR_SET_NAME. */
	int (*prctl)(long option, long a2, long a3, long a4, long a5);
	ssize_t (*getxattr)(const char *path, const char *name, void *buf,
			    size_t size);
	ssize_t (*fgetxattr)(int fd, const char *name, void *buf, size_t size);
	int (*open)(const char *path, int flags);
	int (*fstat)(int fd, struct stat *st);
	int (*stat)(const char *path, struct stat *st);
	int (*fcntl_getfl)(int fd);
	ssize_t (*read)(int fd, void *buf, size_t size);
	int (*close)(int fd);
	/* File capabilities: a change to one inode, nothing to route. */
	int (*setxattr)(const char *path, const char *name, const void *value,
			size_t size, int flags);
	int (*fsetxattr)(int fd, const char *name, const void *value,
			 size_t size, int flags);
	int (*removexattr)(const char *path, const char *name);
	int (*fremovexattr)(int fd, const char *name);
	/* A launcher's process plumbing. */
	int (*pipe2)(int fds[2], int flags);
	pid_t (*fork)(void);
	int (*execve)(const char *path, char *const argv[], char *const envp[]);
	pid_t (*waitpid)(pid_t pid, int *status, int options);
	ssize_t (*write)(int fd, const void *buf, size_t size);
	int (*chdir)(const char *path);
	/* State changes: the routes used when cap_set_syscall() set none. */
	long (*syscall3)(long nr, long a1, long a2, long a3);
	long (*syscall6)(long nr, long a1, long a2, long a3, long a4, long a5,
			 long a6);
};
/*
 * The table in use, and (for tests, single threaded) a replacement: NULL
 * restores the real kernel. Replacing it also resets the routes to its
 * defaults and forgets the cached cap_max_bits().
 */
const struct lcap_kernel *lcap_sys_kernel(void);
void lcap_sys_set_kernel(const struct lcap_kernel *kernel);

/* Through the table, errno untouched (the kernel's own error): */
int lcap_sys_capget(struct __user_cap_header_struct *hdr,
		    struct __user_cap_data_struct *data);
int lcap_sys_prctl(long option, long a2, long a3, long a4, long a5);
ssize_t lcap_sys_getxattr(const char *path, void *buf, size_t size);
ssize_t lcap_sys_fgetxattr(int fd, void *buf, size_t size);
int lcap_sys_open(const char *path, int flags);
int lcap_sys_fstat(int fd, struct stat *st);
int lcap_sys_stat(const char *path, struct stat *st);
int lcap_sys_fcntl_getfl(int fd);
ssize_t lcap_sys_read(int fd, void *buf, size_t size);
int lcap_sys_close(int fd);
int lcap_sys_setxattr(const char *path, const void *value, size_t size);
int lcap_sys_fsetxattr(int fd, const void *value, size_t size);
int lcap_sys_removexattr(const char *path);
int lcap_sys_fremovexattr(int fd);
int lcap_sys_pipe2(int fds[2], int flags);
pid_t lcap_sys_fork(void);
int lcap_sys_execve(const char *path, char *const argv[], char *const envp[]);
pid_t lcap_sys_waitpid(pid_t pid, int *status, int options);
ssize_t lcap_sys_write(int fd, const void *buf, size_t size);
int lcap_sys_chdir(const char *path);
/* ... and through the cap_set_syscall() routes as well: */
int lcap_sys_capset(struct __user_cap_header_struct *hdr,
		    const struct __user_cap_data_struct *data);
int lcap_sys_prctl_write(long option, long a2, long a3, long a4, long a5);
int lcap_sys_setuid(uid_t uid);
int lcap_sys_setgid(gid_t gid);
int lcap_sys_setgroups(size_t n, const gid_t *groups);
int lcap_sys_chroot(const char *path);
/* In a launcher's child only: every change from now on is a plain syscall. */
void lcap_sys_unroute(void);

#endif
