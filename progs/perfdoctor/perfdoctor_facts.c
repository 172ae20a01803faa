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
#include <linux/openat2.h>
#include <linux/securebits.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "groups.h"
#include "kernel.h"
#include "mask.h"
#include "procstatus.h"
#include "perfdoctor.h"
#include "say.h"

/* The inode number of the initial user namespace (PROC_USER_INIT_INO). */
#define INIT_USERNS_INO 0xEFFFFFFDU
/* statfs(2)'s f_type of nsfs, where every ns/ link leads. */
#define NSFS_MAGIC_NUMBER 0x6e736673

void gather_kernel(struct kernel_facts *k)
{
	memset(k, 0, sizeof(*k));
	kernel_release(k->release, sizeof(k->release), &k->major, &k->minor);
	/*
	 * exec's test of changed ids was rewritten in 2025 (after Linux
	 * 6.15); this machine's 6.18 shows the new one. An older release
	 * has the old one unless its vendor carried the change back, which
	 * its number does not tell: judged both ways (judge()), so that
	 * neither rule's yes passes for the other's no.
	 */
	if (k->major > 6 || (k->major == 6 && k->minor >= 18))
		k->setid_by_effective = ANSWER_YES;
	else
		k->setid_by_effective = ANSWER_UNKNOWN;
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

/* path opened as a process whose root is rootfd opens it: no way out. */
static int open_in_root(int rootfd, const char *path, int flags)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)flags;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
}

int foreign_root(int dfd)
{
	struct stat theirs, ours;
	int fd = openat(dfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -2;
	if (fstat(fd, &theirs) < 0 || stat("/", &ours) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -2;
	}
	if (theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino) {
		close(fd);
		return -1;
	}
	return fd;
}

const char *perf_in_root(int rootfd)
{
	static const char *const dirs[] = {
		"/usr/local/sbin/perf", "/usr/local/bin/perf", "/usr/sbin/perf",
		"/usr/bin/perf",	"/sbin/perf",	       "/bin/perf",
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd = open_in_root(rootfd, dirs[i], O_PATH | O_CLOEXEC);

		if (fd >= 0) {
			close(fd);
			return dirs[i];
		}
	}
	return "/usr/bin/perf";
}

/*
 * The fix path of a binary in another root: where its link leads, as
 * that root names it (the file's path from here, less the root's), or
 * "" when that cannot be told.
 */
static void fix_path_in_root(struct binary_facts *b, int fd)
{
	char proc[40], root[4096], file[4096];
	ssize_t rl, fl;
	size_t n;

	b->fix_path[0] = '\0';
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", b->rootfd);
	rl = readlink(proc, root, sizeof(root) - 1);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	fl = readlink(proc, file, sizeof(file) - 1);
	if (rl <= 0 || fl <= 0)
		return;
	root[rl] = file[fl] = '\0';
	n = strcmp(root, "/") == 0 ? 0 : (size_t)rl;
	if (strncmp(file, root, n) == 0 && file[n] == '/' &&
	    strlen(file + n) < sizeof(b->fix_path))
		strcpy(b->fix_path, file + n);
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

static enum answer initial_userns(int dfd, char *how, size_t len);

/* Is perfdoctor's own user namespace the initial one? */
static int own_userns_initial(void)
{
	int self = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char how[200];
	enum answer a = ANSWER_UNKNOWN;

	if (self >= 0) {
		a = initial_userns(self, how, sizeof(how));
		close(self);
	}
	return a == ANSWER_YES;
}

/*
 * A script's interpreter, as binfmt_script finds it: the first word after
 * "#!" (blanks skipped), looked up in the same root as the script. Only
 * an ELF interpreter on a mount without nosuid, with neither set-id bits
 * nor file capabilities, is known to give nothing; one that is missing
 * makes the exec fail, which gives nothing either.
 */
static void gather_interp(struct binary_facts *b)
{
	const char *line = b->target.interp + 2, *word;
	size_t n;
	struct exec_target t;
	struct stat st;
	char proc[40];
	int fd;

	word = line + strspn(line, " \t");
	n = strcspn(word, " \t");
	if (n == 0)
		return; /* no interpreter: the kernel refuses the exec */
	b->interp_privileged = 1;
	if (n >= sizeof(b->interp_path) ||
	    (word[n] == '\0' &&
	     strlen(b->target.interp) == sizeof(b->target.interp) - 1))
		return; /* the line was cut: the name may go on */
	memcpy(b->interp_path, word, n);
	b->interp_path[n] = '\0';
	if (b->interp_path[0] != '/')
		return;
	fd = b->rootfd < 0 ? open(b->interp_path, O_PATH | O_CLOEXEC)
			   : open_in_root(b->rootfd, b->interp_path,
					  O_PATH | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			b->interp_privileged = 0;
		return;
	}
	if (fstat(fd, &st) == 0 && exec_target_inspect(fd, &t) == 0 &&
	    t.kind == EXEC_TARGET_ELF) {
		snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
		errno = 0;
		b->interp_privileged =
			!t.nosuid &&
			((st.st_mode & (S_ISUID | S_ISGID)) ||
			 getxattr(proc, "security.capability", NULL, 0) >= 0 ||
			 (errno != ENODATA && errno != ENOTSUP));
	}
	close(fd);
}

/*
 * The binary as execve() would find it: the path is followed like exec
 * follows it, once, and everything else is read from that inode through
 * its descriptor and /proc link.
 */
void gather_binary(struct binary_facts *b, const char *path, int rootfd,
		   pid_t root_of)
{
	char proc[40], probe;
	struct stat st;
	int fd;

	memset(b, 0, sizeof(*b));
	b->path = path;
	b->rootfd = rootfd;
	b->root_of = root_of;
	if (rootfd < 0) {
		set_fix_path(b);
		fd = open(path, O_PATH | O_CLOEXEC);
	} else {
		fd = open_in_root(rootfd, path, O_PATH | O_CLOEXEC);
		if (fd >= 0)
			fix_path_in_root(b, fd);
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		b->err = errno;
		if (fd >= 0)
			close(fd);
		return;
	}
	b->exists = 1;
	b->seen_from_host = own_userns_initial();
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
	if (b->target_known && b->target.kind == EXEC_TARGET_SCRIPT)
		gather_interp(b);
	/* The system call a seccomp filter will see perf make. */
	perf_arch_of_fd(fd, &b->arch);
	snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
	/* ENOTSUP from a one-byte read tells "no xattrs here" from "no capability". */
	if (getxattr(proc, "security.capability", &probe, 0) < 0 &&
	    errno == ENOTSUP)
		b->xattr_unsupported = 1;
	b->caps = cap_get_file(proc);
	if (b->caps == NULL && errno != ENODATA && errno != ENOTSUP)
		b->err = b->caps_err = errno;
	close(fd);
}

void release_binary(struct binary_facts *b)
{
	cap_free(b->caps);
	b->caps = NULL;
	if (b->rootfd >= 0)
		close(b->rootfd);
	b->rootfd = -1;
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
 * Is the process whose /proc directory is dfd in the initial user
 * namespace? Its ns/user names the namespace by inode: the initial one's
 * is fixed (PROC_USER_INIT_INO, uapi's USER_NS_INIT_INO since Linux
 * 6.18) and any other is numbered from 0xF0000000 up, so the inode tells
 * them apart for sure, provided the file is nsfs's and not one a
 * made-up /proc shows. Where ns/user cannot be used, uid_map still
 * proves one thing: a map other than every uid to itself ("0 0
 * 4294967295") is not the initial namespace's. That map proves nothing
 * the other way (root may give a new namespace the same one), so it
 * answers "no" or "unknown", never "yes".
 */
static enum answer initial_userns(int dfd, char *how, size_t len)
{
	struct statfs fs;
	struct stat st;
	char map[256];
	unsigned long a, b, c;
	int fd = openat(dfd, "ns/user", O_RDONLY | O_CLOEXEC), n, used = 0;
	ssize_t got;

	how[0] = '\0';
	if (fd >= 0) {
		int ok = fstat(fd, &st) == 0 && fstatfs(fd, &fs) == 0 &&
			 fs.f_type == NSFS_MAGIC_NUMBER;

		close(fd);
		if (ok)
			return st.st_ino == INIT_USERNS_INO ? ANSWER_YES
							    : ANSWER_NO;
	}
	fd = openat(dfd, "uid_map", O_RDONLY | O_CLOEXEC);
	got = fd >= 0 ? read(fd, map, sizeof(map) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (got <= 0) {
		put(how, len, "neither ns/user nor uid_map can be read");
		return ANSWER_UNKNOWN;
	}
	map[got] = '\0';
	n = sscanf(map, " %lu %lu %lu %n", &a, &b, &c, &used);
	if (n == 3 && a == 0 && b == 0 && c == 4294967295UL &&
	    map[used] == '\0') {
		put(how, len,
		    "ns/user cannot be read, and uid_map maps every uid to itself, as a new namespace's may too");
		return ANSWER_UNKNOWN;
	}
	put(how, len,
	    "told by uid_map, which does not map every uid to itself as the initial namespace's does");
	return ANSWER_NO;
}

/*
 * SECBIT_NOROOT of the session: with it set, exec gives uid 0 nothing of
 * its own (capabilities(7), "The securebits flags"). perfdoctor's own
 * securebits are its session's: fork() copies them, and exec keeps all
 * but SECBIT_KEEP_CAPS. Another process's are in no /proc file (its
 * status has no such line) nor anywhere else the kernel shows them.
 */
static void gather_noroot(struct session_facts *s)
{
	int bits;

	if (s->pid > 0) {
		s->noroot = ANSWER_UNKNOWN;
		put(s->noroot_why, sizeof(s->noroot_why),
		    "process %d is uid 0, and whether exec gives it root's capabilities depends on its securebits (SECBIT_NOROOT takes that away), which the kernel shows to no other process: run perfdoctor in that process's own session to know (podman exec or docker exec into its container, or as its service)",
		    (int)s->pid);
		return;
	}
	errno = 0;
	bits = prctl(PR_GET_SECUREBITS, 0L, 0L, 0L, 0L);
	if (bits < 0) {
		s->noroot = ANSWER_UNKNOWN;
		put(s->noroot_why, sizeof(s->noroot_why),
		    "the session is uid 0, and whether exec gives it root's capabilities depends on its securebits, which perfdoctor cannot read: prctl(PR_GET_SECUREBITS): %s",
		    strerror(errno));
		return;
	}
	s->noroot = (bits & SECBIT_NOROOT) ? ANSWER_YES : ANSWER_NO;
}

/*
 * The session's state from one read of its status file, opened through
 * its /proc directory so a pid reused meanwhile cannot be mixed in: the
 * user namespace is looked up in the same directory, which stays open
 * (s->dfd) for the seccomp filter and the container.
 */
int gather_session(struct session_facts *s, pid_t pid)
{
	struct proc_status ps;
	char dir[32], *bad = NULL;
	int dfd, ok;

	memset(s, 0, sizeof(*s));
	s->dfd = -1;
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
			"its status lacks Uid, Gid, Groups, Cap*, NoNewPrivs, Seccomp or TracerPid (process gone, or a kernel before 4.10)",
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
		s->effective = ps.effective;
		s->bounding = ps.bounding;
		s->ambient = ps.ambient;
		s->no_new_privs = ps.no_new_privs;
		s->seccomp = ps.seccomp;
		s->threads = ps.threads;
		s->tracer = ps.tracer;
	}
	proc_status_release(&ps);
	gather_noroot(s);
	/* Capabilities count for perf_event_open only in the initial namespace. */
	s->init_userns =
		initial_userns(dfd, s->userns_how, sizeof(s->userns_how));
	s->dfd = dfd;
	if (!ok) {
		release_session(s);
		return -1;
	}
	return 0;
}

void release_session(struct session_facts *s)
{
	if (s->dfd >= 0)
		close(s->dfd);
	s->dfd = -1;
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

static enum answer may_access_in(int rootfd, const char *path, int mode,
				 const struct exec_creds *c);

pid_t fork_child(void)
{
	pid_t parent = getpid(), child;

	/*
	 * A seccomp filter may answer a system call with 0 without running
	 * it (SECCOMP_RET_ERRNO of 0). Answering clone() so would make
	 * perfdoctor itself run as "the child", and end with the child's
	 * _exit(): its answer. A real child is a new process with its own
	 * pid, and no errno answer can fake a pid, which is positive.
	 */
	if (parent <= 0) {
		errno = EPERM;
		return -1;
	}
	child = fork();
	if (child == 0 && getpid() == parent) {
		errno = EPERM;
		return -1;
	}
	return child;
}

/*
 * Are these our own credentials as the kernel checks them (filesystem
 * ids, groups, effective set), so faccessat() may answer directly?
 */
static int are_mine(const struct exec_creds *c)
{
	gid_t *mine;
	cap_t caps;
	uint64_t eff;
	int count, i, same;

	/* setfsuid(-1) changes nothing and returns the current fsuid. */
	if (c->uid != (uid_t)setfsuid((uid_t)-1) ||
	    c->gid != (gid_t)setfsgid((gid_t)-1))
		return 0;
	caps = cap_get_proc();
	if (caps == NULL)
		return 0;
	eff = mask_of_flag(caps, CAP_EFFECTIVE);
	cap_free(caps);
	if (eff != c->effective)
		return 0;
	count = groups_of_process(&mine);
	if (count < 0)
		return 0;
	same = count == c->ngroups;
	for (i = 0; i < c->ngroups && same; i++)
		same = groups_have(mine, count, c->groups[i]);
	free(mine);
	return same;
}

enum answer may_execute(const struct binary_facts *b,
			const struct exec_creds *c)
{
	int mode = b->target_known && b->target.kind == EXEC_TARGET_SCRIPT
			   ? X_OK | R_OK
			   : X_OK;

	return may_access_in(b->rootfd, b->path, mode, c);
}

enum answer may_access(const char *path, int mode, const struct exec_creds *c)
{
	return may_access_in(-1, path, mode, c);
}

/*
 * The kernel's answer for the caller's filesystem ids, groups and
 * effective set, as exec's own check uses them (AT_EACCESS; plain
 * access(2) would take the real uid, and root's permitted set). The
 * system call itself: glibc answers a faccessat2() that is missing or
 * filtered (ENOSYS) from the mode bits, in which uid 0 passes them all.
 */
static int kernel_access(const char *path, int mode)
{
	return (int)syscall(SYS_faccessat2, AT_FDCWD, path, mode, AT_EACCESS);
}

/* Exactly the effective set effective, permitted the same, inheritable none. */
static int become_effective(uint64_t effective)
{
	cap_t caps = cap_init();
	cap_value_t cap;
	int rc;

	if (caps == NULL)
		return -1;
	for (MASK_EACH(cap, effective))
		if (cap_set_flag(caps, CAP_EFFECTIVE, 1, &cap, CAP_SET) < 0 ||
		    cap_set_flag(caps, CAP_PERMITTED, 1, &cap, CAP_SET) < 0) {
			cap_free(caps);
			return -1;
		}
	rc = cap_set_proc(caps);
	cap_free(caps);
	return rc;
}

/*
 * may_access() in the root rootfd is open on (-1: ours): the child
 * enters it first (chroot, as root), so that the path and every
 * directory on it are the ones that root's processes see.
 */
static enum answer may_access_in(int rootfd, const char *path, int mode,
				 const struct exec_creds *c)
{
	pid_t child;
	int st;

	if (rootfd < 0 && are_mine(c)) {
		if (kernel_access(path, mode) == 0)
			return ANSWER_YES;
		return errno == EACCES || errno == EPERM ? ANSWER_NO
							 : ANSWER_UNKNOWN;
	}
	if (geteuid() != 0)
		return ANSWER_UNKNOWN;
	fflush(NULL);
	child = fork_child();
	if (child < 0)
		return ANSWER_UNKNOWN;
	if (child == 0) {
		/*
		 * Groups and gid while still root, uid last (as a login does),
		 * capabilities kept across it only to be cut down to exactly
		 * the session's effective set: a uid 0 without
		 * CAP_DAC_OVERRIDE passes no mode bits perfdoctor's
		 * capabilities would. A set perfdoctor lacks part of cannot
		 * be taken on (capset refuses): unknown.
		 */
		if (rootfd >= 0 && (fchdir(rootfd) < 0 || chroot(".") < 0))
			_exit(3);
		if (prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) < 0 ||
		    setgroups((size_t)c->ngroups, c->groups) < 0 ||
		    setresgid(c->gid, c->gid, c->gid) < 0 ||
		    setresuid(c->uid, c->uid, c->uid) < 0 ||
		    become_effective(c->effective) < 0)
			_exit(3);
		if (kernel_access(path, mode) == 0)
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
