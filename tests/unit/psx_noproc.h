/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * What the suites of libpsx without a thread list share
 * (unit/check_psx_noproc.c, tools/psxnoproc.c): a world whose /proc
 * cannot list the process's threads, a seccomp filter that answers the
 * unshare(CLONE_THREAD) libpsx asks in the kernel's place, and a thread
 * glibc does not know.
 */
#ifndef PSX_NOPROC_H
#define PSX_NOPROC_H

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/magic.h>
#include <linux/seccomp.h>

/* A /proc of a PID namespace we are not in, mounted over ours. */
static inline int noproc_mount_foreign(void)
{
	pid_t helper = fork(), init;
	int status;

	if (helper == 0) {
		if (unshare(CLONE_NEWPID) < 0)
			_exit(1);
		init = fork();
		if (init == 0)
			_exit(mount("proc", "/proc", "proc",
				    MS_NOSUID | MS_NODEV | MS_NOEXEC,
				    NULL) < 0);
		_exit(init < 0 || waitpid(init, &status, 0) != init ||
		      status != 0);
	}
	return helper > 0 && waitpid(helper, &status, 0) == helper &&
			       status == 0
		       ? 0
		       : -1;
}

/*
 * A tmpfs over /proc with what a /proc that lists one thread would have:
 * self, thread-self and 1/task/1. Anyone who may mount (a user in a
 * namespace of its own) or write the directory a chroot uses as /proc
 * can make this.
 */
static inline int noproc_mount_fake(void)
{
	if (mount("tmpfs", "/proc", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755") < 0 ||
	    mkdir("/proc/1", 0755) < 0 || mkdir("/proc/1/task", 0755) < 0 ||
	    mkdir("/proc/1/task/1", 0755) < 0 || symlink("1", "/proc/self") < 0)
		return -1;
	return symlink("1/task/1", "/proc/thread-self");
}

/* Writes text to a /proc file; -1 with errno on failure. */
static inline int noproc_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * A user namespace of our own in which we are root, mapped to who we
 * are outside (files made in it need an owner the kernel can map), with
 * a mount namespace it owns.
 */
static inline int noproc_user_namespace(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0 ||
	    noproc_write("/proc/self/setgroups", "deny") < 0)
		return -1;
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	if (noproc_write("/proc/self/uid_map", map) < 0)
		return -1;
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
	return noproc_write("/proc/self/gid_map", map);
}

/* Whether path is on a proc file system (a /proc that can list threads). */
static inline int noproc_is_procfs(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

/*
 * Takes the thread list away from this process, which must still have
 * one thread (a user namespace requires it):
 *   unmounted   /proc unmounted, as often as one is mounted there (root);
 *               a world that has none already is taken as it is
 *   fake        a tmpfs over /proc (noproc_mount_fake); without root, in
 *               a user namespace of its own
 *   foreign     the /proc of a PID namespace we are not in (root)
 *   chroot:DIR  chroot(2) into DIR, which has no /proc at all (root)
 *   proc        nothing taken: /proc as it is, for comparison
 * Every change is made in a private mount namespace: the host's /proc is
 * never touched. Returns 0, or -1 with the step that failed in why.
 */
static inline int noproc_world(const char *world, char *why, size_t size)
{
	const char *step = "unshare(CLONE_NEWNS)";

	if (strcmp(world, "proc") == 0) {
		if (noproc_is_procfs("/proc/self/task"))
			return 0;
		snprintf(why, size, "proc: no thread list at /proc here");
		return -1;
	}
	if (unshare(CLONE_NEWNS) < 0) {
		if (errno != EPERM || strcmp(world, "fake") != 0)
			goto fail;
		step = "a user namespace";
		if (noproc_user_namespace() < 0)
			goto fail;
	}
	step = "a private mount tree";
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		goto fail;
	step = world;
	if (strcmp(world, "unmounted") == 0) {
		int i;

		for (i = 0; i < 8 && noproc_is_procfs("/proc"); i++)
			if (umount2("/proc", MNT_DETACH) < 0)
				goto fail;
	} else if (strcmp(world, "fake") == 0) {
		if (noproc_mount_fake() < 0)
			goto fail;
	} else if (strcmp(world, "foreign") == 0) {
		if (noproc_mount_foreign() < 0)
			goto fail;
	} else if (strncmp(world, "chroot:", 7) == 0) {
		if (chroot(world + 7) < 0 || chdir("/") < 0)
			goto fail;
	} else {
		errno = EINVAL;
		goto fail;
	}
	/* What libpsx will find: no list of our threads. */
	step = "/proc/self/task is still a thread list";
	if (noproc_is_procfs("/proc/self/task")) {
		errno = EEXIST;
		goto fail;
	}
	return 0;
fail:
	snprintf(why, size, "%s: %s", step, strerror(errno));
	return -1;
}

/*
 * A seccomp filter that answers unshare(2) instead of the kernel with
 * action (SECCOMP_RET_ERRNO | an errno, which may be 0;
 * SECCOMP_RET_USER_NOTIF): every unshare(2), as a sandbox that forbids
 * namespaces does, or with exact set only unshare(CLONE_THREAD), the
 * call libpsx asks whether it is alone with. Everything else goes to the
 * kernel. flags are seccomp(2)'s. Without CAP_SYS_ADMIN no_new_privs is
 * set first. Returns what seccomp(2) returns (the listener with
 * NEW_LISTENER), -1 on error.
 */
static inline int noproc_filter(unsigned action, unsigned flags, int exact)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 6),
		/* not exact: straight to the answer */
		BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, exact ? 0 : 4, 0, 0),
		/* args[0] is CLONE_THREAD, in both halves */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 BYTE_ORDER == LITTLE_ENDIAN ? CLONE_THREAD : 0, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 BYTE_ORDER == LITTLE_ENDIAN ? 0 : CLONE_THREAD, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	long fd;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		/* prctl() without flags: valgrind 3.19 lacks seccomp(2) */
		fd = flags == 0 ? prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
					&prog, 0, 0)
				: syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
					  flags, &prog);
		if (fd >= 0 || errno != EACCES ||
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			break;
	}
	return (int)fd;
}

/*
 * Starts fn(arg) in a thread glibc does not know: clone(2) with
 * CLONE_THREAD, a stack of its own that is never unmapped, no TLS of its
 * own (fn makes raw system calls only). Returns its id, -1 on error.
 * Safe in a signal handler.
 */
static inline pid_t noproc_raw_thread(int (*fn)(void *), void *arg)
{
	size_t size = 256 * 1024;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (stack == MAP_FAILED)
		return -1;
	return clone(fn, stack + size,
		     CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			     CLONE_THREAD | CLONE_SYSVSEM,
		     arg);
}

#endif
