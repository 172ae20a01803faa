/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor: reading the facts from the kernel, the filesystem, /proc and the user database. */
#define _GNU_SOURCE		/* O_PATH, setresuid */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "escape.h"
#include "perfdoctor.h"

/* The inode number of the initial user namespace (PROC_USER_INIT_INO). */
#define INIT_USERNS_INO	0xEFFFFFFDU

void gather_kernel(struct kernel_facts *k)
{
	struct utsname uts;
	FILE *f;

	memset(k, 0, sizeof(*k));
	if (uname(&uts) == 0) {
		snprintf(k->release, sizeof(k->release), "%s", uts.release);
		if (sscanf(uts.release, "%d.%d", &k->major, &k->minor) != 2)
			k->major = k->minor = 0;
	}
	k->cap_bits = cap_max_bits();
	k->paranoid = INT32_MIN;
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	if (f != NULL) {
		if (fscanf(f, "%d", &k->paranoid) != 1)
			k->paranoid = INT32_MIN;
		fclose(f);
	}
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

/* Strict numbers: all digits, in range, nothing after but blanks. */
static int parse_ulong(const char **p, int base, unsigned long long max,
		       unsigned long long *out)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p == '\0' || **p == '\n' || **p == '-' || **p == '+')
		return -1;
	errno = 0;
	*out = strtoull(*p, &end, base);
	if (errno != 0 || end == *p || *out > max ||
	    (*end != '\0' && *end != '\n' && *end != ' ' && *end != '\t'))
		return -1;
	*p = end;
	return 0;
}

static int at_end(const char *p)
{
	p += strspn(p, " \t");
	return *p == '\0' || *p == '\n';
}

/* "Uid:\t0\t0\t0\t0": real, effective, saved, filesystem. */
static int parse_ids(const char *p, unsigned id[4])
{
	unsigned long long v;
	int i;

	for (i = 0; i < 4; i++) {
		if (parse_ulong(&p, 10, UINT32_MAX, &v) < 0)
			return -1;
		id[i] = (unsigned)v;
	}
	return at_end(p) ? 0 : -1;
}

static int parse_groups(const char *p, struct session_facts *s)
{
	unsigned long long v;
	gid_t *g;

	while (!at_end(p)) {
		if (parse_ulong(&p, 10, UINT32_MAX, &v) < 0)
			return -1;
		g = realloc(s->groups, (size_t)(s->ngroups + 1) * sizeof(*g));
		if (g == NULL)
			return -1;
		s->groups = g;
		s->groups[s->ngroups++] = (gid_t)v;
	}
	return 0;
}

static int parse_hex(const char *p, uint64_t *out)
{
	unsigned long long v;

	if (parse_ulong(&p, 16, UINT64_MAX, &v) < 0 || !at_end(p))
		return -1;
	*out = v;
	return 0;
}

static int parse_small(const char *p, int max, int *out)
{
	unsigned long long v;

	if (parse_ulong(&p, 10, (unsigned long long)max, &v) < 0 || !at_end(p))
		return -1;
	*out = (int)v;
	return 0;
}

enum {
	F_UID = 1, F_GID = 2, F_GROUPS = 4, F_INH = 8, F_PRM = 16, F_BND = 32,
	F_AMB = 64, F_NNP = 128, F_SECCOMP = 256, F_ALL = 511
};

/* Parses one status line; returns the field it set, 0 for others, -1 if malformed. */
static int parse_status_line(const char *line, struct session_facts *s)
{
	static const char *const keys[] = {
		"Uid:", "Gid:", "Groups:", "CapInh:", "CapPrm:", "CapBnd:",
		"CapAmb:", "NoNewPrivs:", "Seccomp:",
	};
	unsigned id[4];
	size_t i;
	int rc = -1;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strncmp(line, keys[i], strlen(keys[i])) == 0)
			break;
	if (i == sizeof(keys) / sizeof(keys[0]))
		return 0;
	line += strlen(keys[i]);
	switch (1 << i) {
	case F_UID:
	case F_GID:
		rc = parse_ids(line, id);
		if (rc == 0 && i == 0)
			s->ruid = id[0], s->euid = id[1], s->fsuid = id[3];
		else if (rc == 0)
			s->rgid = id[0], s->egid = id[1], s->fsgid = id[3];
		break;
	case F_GROUPS:
		rc = parse_groups(line, s);
		break;
	case F_INH:
		rc = parse_hex(line, &s->inheritable);
		break;
	case F_PRM:
		rc = parse_hex(line, &s->permitted);
		break;
	case F_BND:
		rc = parse_hex(line, &s->bounding);
		break;
	case F_AMB:
		rc = parse_hex(line, &s->ambient);
		break;
	case F_NNP:
		rc = parse_small(line, 1, &s->no_new_privs);
		break;
	case F_SECCOMP:
		rc = parse_small(line, 2, &s->seccomp);
		break;
	}
	return rc < 0 ? -1 : 1 << i;
}

/* "perfdoctor: process 42: no such process", names escaped. */
static void status_error(pid_t pid, const char *what, const char *detail)
{
	char *e = detail != NULL ? escape_dup(detail) : NULL;

	if (pid > 0)
		fprintf(stderr, "perfdoctor: process %d: %s", (int)pid, what);
	else
		fprintf(stderr, "perfdoctor: /proc/self: %s", what);
	if (detail != NULL)
		fprintf(stderr, " '%s'", e != NULL ? e : "?");
	fputc('\n', stderr);
	free(e);
}

/*
 * The session's state from one read of its status file, opened through
 * its /proc directory so a pid reused meanwhile cannot be mixed in: the
 * user namespace is looked up in the same directory.
 */
int gather_session(struct session_facts *s, pid_t pid)
{
	char dir[32], *line = NULL;
	size_t cap = 0;
	int dfd, fd, seen = 0, field;
	struct stat ns;
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	if (pid > 0)
		snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	else
		snprintf(dir, sizeof(dir), "/proc/self");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		status_error(pid, errno == ENOENT ? "no such process" :
			     strerror(errno), NULL);
		return -1;
	}
	fd = openat(dfd, "status", O_RDONLY | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (f == NULL) {
		status_error(pid, errno == ESRCH ? "no such process" :
			     strerror(errno), NULL);
		if (fd >= 0)
			close(fd);
		close(dfd);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		field = parse_status_line(line, s);
		if (field < 0) {
			/* Fail closed: a field we cannot read decides nothing. */
			line[strcspn(line, "\n")] = '\0';
			status_error(pid, "cannot parse this line of its status:",
				     line);
			seen = -1;
			break;
		}
		seen |= field;
	}
	free(line);
	fclose(f);
	if (seen >= 0 && seen != F_ALL) {
		status_error(pid, "its status lacks Uid, Gid, Groups, Cap*, "
			     "NoNewPrivs or Seccomp (process gone, or a kernel "
			     "before 4.10)", NULL);
		seen = -1;
	}
	/* Capabilities count for perf_event_open only in the initial namespace. */
	if (fstatat(dfd, "ns/user", &ns, 0) == 0)
		s->init_userns = ns.st_ino == INIT_USERNS_INO ? ANSWER_YES : ANSWER_NO;
	else
		s->init_userns = ANSWER_UNKNOWN;
	close(dfd);
	if (seen < 0) {
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
	int n = 64;

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
	/* getgrouplist() says how many it needs when the array is too small. */
	for (;;) {
		gid_t *g = realloc(u->groups, (size_t)n * sizeof(*g));
		int want = n;

		if (g == NULL) {
			perror("perfdoctor");
			return -1;
		}
		u->groups = g;
		if (getgrouplist(name, u->gid, u->groups, &want) >= 0) {
			u->ngroups = want;
			return 0;
		}
		if (want <= n)
			want = n * 2;
		n = want;
	}
}

void release_user(struct user_facts *u)
{
	free(u->name);
	free(u->groups);
	memset(u, 0, sizeof(*u));
}

int has_group(const gid_t *groups, int n, gid_t gid)
{
	int i;

	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}

/* Are these our own real credentials, so access(2) may answer directly? */
static int are_mine(uid_t uid, gid_t gid, const gid_t *groups, int n)
{
	gid_t *mine;
	int count, i, same;

	if (uid != getuid() || gid != getgid())
		return 0;
	count = getgroups(0, NULL);
	if (count < 0 || count != n)
		return 0;
	mine = calloc((size_t)count + 1, sizeof(*mine));
	if (mine == NULL || getgroups(count, mine) != count) {
		free(mine);
		return 0;
	}
	same = 1;
	for (i = 0; i < n && same; i++)
		same = has_group(mine, count, groups[i]);
	free(mine);
	return same;
}

enum answer may_execute(const struct binary_facts *b, uid_t uid, gid_t gid,
			const gid_t *groups, int ngroups)
{
	int mode = b->target_known && b->target.kind == EXEC_TARGET_SCRIPT ?
		   X_OK | R_OK : X_OK;
	const char *path = b->path;
	pid_t child;
	int st;

	if (are_mine(uid, gid, groups, ngroups)) {
		if (access(path, mode) == 0)
			return ANSWER_YES;
		return errno == EACCES || errno == EPERM ? ANSWER_NO :
							    ANSWER_UNKNOWN;
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
		    setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
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
