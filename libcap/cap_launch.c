/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Launchers: fork a child, change its privileges, then run a program or function. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

#include "lcap.h"

struct cap_launch_s {
	/* Caller memory, kept by pointer as libcap's API says. */
	const char *arg0;
	const char *const *argv;
	const char *const *envp;
	int (*callback)(void *detail);
	int change_uid;
	uid_t uid;
	int change_groups;
	gid_t gid;
	size_t ngroups;
	gid_t *groups; /* our copy; malloc'ed */
	int change_mode;
	cap_mode_t mode;
	cap_iab_t iab; /* owned while attached, held unchangeable */
	char *chroot;  /* our copy; cap_free'd */
};

static cap_launch_t new_launcher(void)
{
	return lcap_alloc(LCAP_KIND_LAUNCH, sizeof(struct cap_launch_s));
}

/*
 * A launcher that runs arg0 with argv and envp. A NULL envp gives the
 * child an empty environment, as libcap does: the child may run with
 * other ids and capabilities than its parent, and the parent's variables
 * (secrets, LD_PRELOAD, BASH_ENV, PYTHONPATH) must not follow it there
 * unless the caller hands them over explicitly. The three pointers are
 * kept, not copied:
 * they must stay valid until the launcher is freed. Caller frees with
 * cap_free(), which also frees an attached IAB.
 */
cap_launch_t cap_new_launcher(const char *arg0, const char *const *argv,
			      const char *const *envp)
{
	cap_launch_t attr;

	if (arg0 == NULL || argv == NULL) {
		errno = EINVAL;
		return NULL;
	}
	attr = new_launcher();
	if (attr != NULL) {
		attr->arg0 = arg0;
		attr->argv = argv;
		attr->envp = envp;
	}
	return attr;
}

/* A launcher whose child runs only callback_fn(detail), then exits. */
cap_launch_t cap_func_launcher(int (*callback_fn)(void *detail))
{
	cap_launch_t attr;

	if (callback_fn == NULL) {
		errno = EINVAL;
		return NULL;
	}
	attr = new_launcher();
	if (attr != NULL)
		attr->callback = callback_fn;
	return attr;
}

/* Takes the launcher's lock: 0, or -1 and EINVAL for a bad launcher. */
static int lock_attr(cap_launch_t attr)
{
	if (!lcap_is(attr, LCAP_KIND_LAUNCH)) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(attr);
	return 0;
}

/* Installs or (with NULL) removes the callback run first in the child. */
int cap_launcher_callback(cap_launch_t attr, int (*callback_fn)(void *detail))
{
	if (lock_attr(attr) < 0)
		return -1;
	attr->callback = callback_fn;
	lcap_unlock(attr);
	return 0;
}

int cap_launcher_setuid(cap_launch_t attr, uid_t uid)
{
	if (lock_attr(attr) < 0)
		return -1;
	attr->uid = uid;
	attr->change_uid = 1;
	lcap_unlock(attr);
	return 0;
}

/* The group list is copied. */
int cap_launcher_setgroups(cap_launch_t attr, gid_t gid, int ngroups,
			   const gid_t *groups)
{
	gid_t *copy = NULL, *old;

	if (!lcap_is(attr, LCAP_KIND_LAUNCH) || ngroups < 0 ||
	    (ngroups > 0 && groups == NULL)) {
		errno = EINVAL;
		return -1;
	}
	if (ngroups > 0) {
		copy = calloc((size_t)ngroups, sizeof(*copy));
		if (copy == NULL)
			return -1;
		memcpy(copy, groups, (size_t)ngroups * sizeof(*copy));
	}
	lcap_lock(attr);
	old = attr->groups;
	attr->groups = copy;
	attr->ngroups = (size_t)ngroups;
	attr->gid = gid;
	attr->change_groups = 1;
	lcap_unlock(attr);
	free(old);
	return 0;
}

int cap_launcher_set_mode(cap_launch_t attr, cap_mode_t mode)
{
	if (lock_attr(attr) < 0)
		return -1;
	attr->mode = mode;
	attr->change_mode = 1;
	lcap_unlock(attr);
	return 0;
}

/*
 * Attaches iab (not a copy) and returns the one attached before, which is
 * the caller's again. While attached, the IAB refuses changes and
 * cap_free() (EBUSY) and is freed with the launcher. NULL detaches.
 * Returns NULL with EINVAL for a bad launcher or IAB; NULL is also the
 * normal answer when nothing was attached. Locks: the launcher's, then
 * each IAB's in turn (the only nesting in the library).
 */
cap_iab_t cap_launcher_set_iab(cap_launch_t attr, cap_iab_t iab)
{
	cap_iab_t old;

	if (iab != NULL && !lcap_is(iab, LCAP_KIND_IAB)) {
		errno = EINVAL;
		return NULL;
	}
	if (lock_attr(attr) < 0)
		return NULL;
	if (iab != NULL && lcap_iab_hold(iab, 1) < 0) {
		lcap_unlock(attr);
		return NULL; /* EINVAL: already held by a launcher */
	}
	old = attr->iab;
	if (old != NULL)
		lcap_iab_hold(old, 0);
	attr->iab = iab;
	lcap_unlock(attr);
	return old;
}

/* The path is copied; NULL cancels the chroot. */
int cap_launcher_set_chroot(cap_launch_t attr, const char *path)
{
	char *copy = NULL, *old;

	if (!lcap_is(attr, LCAP_KIND_LAUNCH)) {
		errno = EINVAL;
		return -1;
	}
	if (path != NULL) {
		copy = lcap_strdup(path);
		if (copy == NULL)
			return -1;
	}
	lcap_lock(attr);
	old = attr->chroot;
	attr->chroot = copy;
	lcap_unlock(attr);
	cap_free(old);
	return 0;
}

/* Called by cap_free() with the launcher's lock held. */
void lcap_launch_release(cap_launch_t attr)
{
	if (attr->iab != NULL) {
		lcap_iab_hold(attr->iab, 0);
		cap_free(attr->iab);
	}
	cap_free(attr->chroot);
	free(attr->groups);
}

/* chroot(2) needs CAP_SYS_CHROOT in E, which cap_setuid() has cleared. */
static int enter_chroot(const char *path)
{
	struct _cap_struct working;

	if (lcap_proc_raise(&working, CAP_SYS_CHROOT) < 0)
		return -1;
	return lcap_proc_end(&working, lcap_sys_chroot(path));
}

/*
 * The child's side. The order is libcap's, and it is what makes an
 * unprivileged child with ambient capabilities possible: the uid changes
 * first while cap_setuid() keeps P, so P still holds what the IAB raises
 * into A afterwards (the kernel empties A on leaving uid 0, so A set
 * before the uid change would be lost). Groups and mode need P too. The
 * chroot comes last so the earlier steps still see the real filesystem.
 *
 * The child of a threaded program may only do what is async-signal-safe
 * until it execs: another thread may have held a lock (malloc's, an
 * object's) at the moment of fork(), and here that thread is gone. So
 * each step allocates nothing and takes no lock, and every change is a
 * plain system call (lcap_sys_unroute() was called): the child is the
 * only thread, and libpsx's broadcast could not even list the threads
 * once the chroot hides /proc. The callback is the caller's own code.
 * Returns only on failure.
 */
static void run_child(cap_launch_t attr, const struct cap_iab_s *iab,
		      void *detail)
{
	static char *const no_environment[] = { NULL };
	char *const *envp;

	if (attr->callback != NULL && attr->callback(detail) != 0)
		return;
	if (attr->arg0 == NULL)
		exit(0); /* a function launcher is done; flush stdio */
	if (attr->change_uid && cap_setuid(attr->uid) < 0)
		return;
	if (attr->change_groups &&
	    cap_setgroups(attr->gid, attr->ngroups, attr->groups) < 0)
		return;
	if (attr->change_mode && cap_set_mode(attr->mode) < 0)
		return;
	if (iab != NULL && lcap_iab_apply(iab) < 0)
		return;
	if (attr->chroot != NULL &&
	    (enter_chroot(attr->chroot) < 0 || lcap_sys_chdir("/") < 0))
		return;
	/*
	 * execve() takes non-const arrays for historical reasons and does
	 * not write to them; launder the const away without a cast warning.
	 */
	envp = attr->envp != NULL ? (char *const *)(uintptr_t)attr->envp
				  : no_environment;
	lcap_sys_execve(attr->arg0, (char *const *)(uintptr_t)attr->argv, envp);
}

/* Waits for the child we forked, retrying interrupted waits. */
static void reap(pid_t pid)
{
	int saved = errno;

	while (lcap_sys_waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	errno = saved;
}

/*
 * Forks and sets the child up as configured; the launcher's lock is held
 * (so no other thread changes it until the child has exec'd or failed)
 * and iab is a copy of its IAB, so the child never takes a lock: another
 * thread may have held the IAB's at the moment of fork(), and in the
 * child that lock would never be released.
 */
static pid_t launch_locked(cap_launch_t attr, const struct cap_iab_s *iab,
			   void *detail)
{
	const char failed = 1;
	int report[2];
	ssize_t n;
	pid_t pid;
	char byte;

	if (attr->callback == NULL && attr->arg0 == NULL) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * The child reports a failed step through this pipe; a successful
	 * execve() closes it (O_CLOEXEC), so end-of-file means success.
	 */
	if (lcap_sys_pipe2(report, O_CLOEXEC) < 0)
		return -1;
	/* Unflushed output would otherwise be written by both processes. */
	fflush(NULL);
	pid = lcap_sys_fork();
	if (pid < 0) {
		int saved = errno;

		lcap_sys_close(report[0]);
		lcap_sys_close(report[1]);
		errno = saved;
		return -1;
	}
	if (pid == 0) {
		lcap_sys_unroute();
		lcap_sys_close(report[0]);
		lcap_sys_prctl(PR_SET_NAME, (long)"cap-launcher", 0, 0, 0);
		run_child(attr, iab, detail);
		while (lcap_sys_write(report[1], &failed, 1) < 0 &&
		       errno == EINTR)
			;
		_exit(1);
	}
	lcap_sys_close(report[1]);
	do {
		n = lcap_sys_read(report[0], &byte, 1);
	} while (n < 0 && errno == EINTR);
	lcap_sys_close(report[0]);
	if (n == 0)
		return pid;
	reap(pid);
	/*
	 * libcap's contract (2.66 and 2.76 alike): whichever step failed in
	 * the child, the launch fails with ECHILD, so callers written for
	 * libcap see the errno they test for.
	 */
	errno = ECHILD;
	return -1;
}

/*
 * Returns the child's pid once it has exec'd (or, for a function
 * launcher, once its callback succeeded; the caller reaps it), or -1 with
 * errno: EINVAL for a bad launcher, the error of fork() or pipe2(), or
 * ECHILD when a step failed in the child (the callback, a privilege
 * change, chroot(2) or execve(2)), in which case the child has already
 * been reaped.
 */
pid_t cap_launch(cap_launch_t attr, void *detail)
{
	struct cap_iab_s iab;
	pid_t pid;
	int saved;

	if (lock_attr(attr) < 0)
		return -1;
	if (attr->iab != NULL)
		lcap_snapshot(attr->iab, LCAP_KIND_IAB, &iab, sizeof(iab));
	pid = launch_locked(attr, attr->iab != NULL ? &iab : NULL, detail);
	saved = errno;
	lcap_unlock(attr);
	errno = saved;
	return pid;
}
