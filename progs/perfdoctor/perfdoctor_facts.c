/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor: reading the facts from the kernel, the filesystem, /proc and the user database. */
#define _GNU_SOURCE /* O_PATH, setresuid */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "groups.h"
#include "kernel.h"
#include "procstatus.h"
#include "perfdoctor.h"
#include "say.h"

/* The inode number of the initial user namespace (PROC_USER_INIT_INO). */
#define INIT_USERNS_INO 0xEFFFFFFDU

void gather_kernel(struct kernel_facts *k)
{
	memset(k, 0, sizeof(*k));
	kernel_release(k->release, sizeof(k->release), &k->major, &k->minor);
	k->max_bits = cap_max_bits();
	if (kernel_perf_paranoid("/proc/sys/kernel/perf_event_paranoid",
				 &k->paranoid) < 0)
		k->paranoid = INT32_MIN;
}

/* What each level of kernel.perf_event_paranoid allows without CAP_PERFMON. */
const char *paranoid_meaning(int level)
{
	if (level == INT32_MIN)
		return "unreadable: perf_events may be missing from this kernel";
	if (level <= -1)
		return "no restrictions: anyone may monitor anything";
	if (level == 0)
		return "unprivileged users may monitor the whole system, but not raw tracepoints";
	if (level == 1)
		return "unprivileged users may monitor their own processes, user and kernel space";
	if (level == 2)
		return "unprivileged users may monitor only their own processes in user space; system-wide monitoring needs CAP_PERFMON";
	return "unprivileged use of perf_events is disabled (a distribution patch); everything needs CAP_PERFMON";
}

/*
 * The name the fix commands give the binary: setcap --perf acts on the
 * file itself and refuses a symbolic link, so a link is resolved (the
 * path as given otherwise, the way the report names it).
 */
static void set_fix_path(struct binary_facts *b)
{
	struct stat st;
	char *real;

	if (lstat(b->path, &st) < 0 || !S_ISLNK(st.st_mode)) {
		if (strlen(b->path) < sizeof(b->fix_path))
			strcpy(b->fix_path, b->path);
		return;
	}
	real = realpath(b->path, NULL);
	if (real != NULL && strlen(real) < sizeof(b->fix_path))
		strcpy(b->fix_path, real);
	free(real);
}

/*
 * The binary as execve() would find it: the path is followed like exec
 * follows it, once, and everything else is read from that inode through
 * its descriptor and /proc link.
 */
void gather_binary(struct binary_facts *b, const char *path)
{
	char proc[40], probe;
	struct stat st;
	int fd;

	memset(b, 0, sizeof(*b));
	b->path = path;
	set_fix_path(b);
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		b->err = errno;
		if (fd >= 0)
			close(fd);
		return;
	}
	b->exists = 1;
	b->uid = st.st_uid;
	b->gid = st.st_gid;
	b->mode = st.st_mode;
	b->is_regular = S_ISREG(st.st_mode);
	if (!b->is_regular) {
		close(fd);
		return;
	}
	if (exec_target_inspect(fd, &b->target) == 0)
		b->target_known = 1;
	else
		b->target_err = errno;
	snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
	/* ENOTSUP from a one-byte read tells "no xattrs here" from "no capability". */
	if (getxattr(proc, "security.capability", &probe, 0) < 0 &&
	    errno == ENOTSUP)
		b->xattr_unsupported = 1;
	b->caps = cap_get_file(proc);
	if (b->caps == NULL && errno != ENODATA && errno != ENOTSUP)
		b->err = errno;
	close(fd);
}

void release_binary(struct binary_facts *b)
{
	cap_free(b->caps);
	b->caps = NULL;
}

/* "perfdoctor: process 42: no such process", names escaped. */
static void status_error(pid_t pid, const char *what, const char *detail)
{
	char where[32] = "/proc/self";

	if (pid > 0)
		snprintf(where, sizeof(where), "process %d", (int)pid);
	say(stderr, "perfdoctor: ", "%s: %s%s%s%s", where, what,
	    detail != NULL ? " '" : "", detail != NULL ? detail : "",
	    detail != NULL ? "'" : "");
}

/*
 * The session's state from one read of its status file, opened through
 * its /proc directory so a pid reused meanwhile cannot be mixed in: the
 * user namespace is looked up in the same directory.
 */
int gather_session(struct session_facts *s, pid_t pid)
{
	struct proc_status ps;
	char dir[32], *bad = NULL;
	int dfd, ok;
	struct stat ns;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	if (pid > 0)
		snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	else
		snprintf(dir, sizeof(dir), "/proc/self");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		status_error(pid,
			     errno == ENOENT ? "no such process"
					     : strerror(errno),
			     NULL);
		return -1;
	}
	ok = proc_status_read(dfd, &ps, &bad) == 0;
	if (!ok && bad != NULL)
		status_error(pid, "cannot parse this line of its status:", bad);
	else if (!ok)
		status_error(pid,
			     errno == ESRCH ? "no such process"
					    : strerror(errno),
			     NULL);
	else if (ps.seen != PROC_STATUS_ALL)
		status_error(
			pid,
			"its status lacks Uid, Gid, Groups, Cap*, NoNewPrivs or Seccomp (process gone, or a kernel before 4.10)",
			NULL);
	ok = ok && ps.seen == PROC_STATUS_ALL;
	free(bad);
	if (ok) {
		s->ruid = ps.uid[0], s->euid = ps.uid[1], s->fsuid = ps.uid[3];
		s->rgid = ps.gid[0], s->egid = ps.gid[1], s->fsgid = ps.gid[3];
		s->groups = ps.groups; /* s owns them now */
		s->ngroups = ps.ngroups;
		ps.groups = NULL;
		s->inheritable = ps.inheritable;
		s->permitted = ps.permitted;
		s->bounding = ps.bounding;
		s->ambient = ps.ambient;
		s->no_new_privs = ps.no_new_privs;
		s->seccomp = ps.seccomp;
	}
	proc_status_release(&ps);
	/* Capabilities count for perf_event_open only in the initial namespace. */
	if (fstatat(dfd, "ns/user", &ns, 0) == 0)
		s->init_userns =
			ns.st_ino == INIT_USERNS_INO ? ANSWER_YES : ANSWER_NO;
	else
		s->init_userns = ANSWER_UNKNOWN;
	close(dfd);
	if (!ok) {
		release_session(s);
		return -1;
	}
	return 0;
}

void release_session(struct session_facts *s)
{
	free(s->groups);
	s->groups = NULL;
	s->ngroups = 0;
}

int gather_user(struct user_facts *u, const char *name)
{
	struct passwd *pw;

	memset(u, 0, sizeof(*u));
	u->name = strdup(name);
	if (u->name == NULL) {
		perror("perfdoctor");
		return -1;
	}
	pw = getpwnam(name);
	if (pw == NULL)
		return 0;
	u->known = 1;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	u->ngroups = groups_of_user(name, u->gid, &u->groups);
	if (u->ngroups < 0) {
		perror("perfdoctor");
		u->ngroups = 0;
		return -1;
	}
	return 0;
}

int gather_user_uid(struct user_facts *u, uid_t uid)
{
	char num[32];
	struct passwd *pw = getpwuid(uid);

	if (pw == NULL) {
		/*
		 * No name: never look the number up as one, "4999" may well
		 * be another user's name (uid 5000's), and a fix for it would
		 * be that user's.
		 */
		memset(u, 0, sizeof(*u));
		snprintf(num, sizeof(num), "%lu", (unsigned long)uid);
		u->name = strdup(num);
		if (u->name == NULL) {
			perror("perfdoctor");
			return -1;
		}
		return 0;
	}
	if (gather_user(u, pw->pw_name) < 0)
		return -1;
	if (u->known && u->uid != uid) {
		/* Its name leads to another uid (two entries with one name). */
		free(u->groups);
		u->groups = NULL;
		u->ngroups = 0;
		u->known = 0;
	}
	return 0;
}

void release_user(struct user_facts *u)
{
	free(u->name);
	free(u->groups);
	memset(u, 0, sizeof(*u));
}

/* Are these our own real credentials, so access(2) may answer directly? */
static int are_mine(uid_t uid, gid_t gid, const gid_t *groups, int n)
{
	gid_t *mine;
	int count, i, same;

	if (uid != getuid() || gid != getgid())
		return 0;
	count = groups_of_process(&mine);
	if (count < 0)
		return 0;
	same = count == n;
	for (i = 0; i < n && same; i++)
		same = groups_have(mine, count, groups[i]);
	free(mine);
	return same;
}

enum answer may_execute(const struct binary_facts *b, uid_t uid, gid_t gid,
			const gid_t *groups, int ngroups)
{
	int mode = b->target_known && b->target.kind == EXEC_TARGET_SCRIPT
			   ? X_OK | R_OK
			   : X_OK;

	return may_access(b->path, mode, uid, gid, groups, ngroups);
}

enum answer may_access(const char *path, int mode, uid_t uid, gid_t gid,
		       const gid_t *groups, int ngroups)
{
	pid_t child;
	int st;

	if (are_mine(uid, gid, groups, ngroups)) {
		if (access(path, mode) == 0)
			return ANSWER_YES;
		return errno == EACCES || errno == EPERM ? ANSWER_NO
							 : ANSWER_UNKNOWN;
	}
	if (geteuid() != 0)
		return ANSWER_UNKNOWN;
	fflush(NULL);
	child = fork();
	if (child < 0)
		return ANSWER_UNKNOWN;
	if (child == 0) {
		/*
		 * Groups and gid while still root, uid last (as a login does);
		 * access(2) then checks with exactly these real ids, and root
		 * (uid 0) keeps its capabilities, as it would at exec.
		 */
		if (setgroups((size_t)ngroups, groups) < 0 ||
		    setresgid(gid, gid, gid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(3);
		if (access(path, mode) == 0)
			_exit(0);
		_exit(errno == EACCES || errno == EPERM ? 1 : 2);
	}
	if (waitpid(child, &st, 0) < 0 || !WIFEXITED(st))
		return ANSWER_UNKNOWN;
	switch (WEXITSTATUS(st)) {
	case 0:
		return ANSWER_YES;
	case 1:
		return ANSWER_NO;
	default:
		return ANSWER_UNKNOWN;
	}
}
