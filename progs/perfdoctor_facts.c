/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor: reading the facts from the kernel, the filesystem and the user database. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/xattr.h>

#include "perfdoctor.h"

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
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
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

void gather_binary(struct binary_facts *b, const char *path)
{
	struct stat st;
	struct statvfs vfs;
	char probe;

	memset(b, 0, sizeof(*b));
	b->path = path;
	if (stat(path, &st) < 0) {
		b->err = errno;
		return;
	}
	b->exists = 1;
	b->uid = st.st_uid;
	b->gid = st.st_gid;
	b->mode = st.st_mode;
	b->is_regular = S_ISREG(st.st_mode);
	if (statvfs(path, &vfs) == 0)
		b->nosuid = (vfs.f_flag & ST_NOSUID) != 0;
	/* ENOTSUP from a one-byte read tells "no xattrs here" from "no capability". */
	if (getxattr(path, "security.capability", &probe, 0) < 0 &&
	    errno == ENOTSUP)
		b->xattr_unsupported = 1;
	b->caps = cap_get_file(path);
	if (b->caps == NULL && errno != ENODATA && errno != ENOTSUP)
		b->err = errno;
}

void gather_user(struct user_facts *u, const char *name)
{
	struct passwd *pw;
	int n = (int)(sizeof(u->groups) / sizeof(u->groups[0]));

	memset(u, 0, sizeof(*u));
	u->name = name;
	pw = getpwnam(name);
	if (pw == NULL)
		return;
	u->known = 1;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	if (getgrouplist(name, pw->pw_gid, u->groups, &n) < 0)
		n = (int)(sizeof(u->groups) / sizeof(u->groups[0]));
	u->ngroups = n;
}

static int read_hex_field(const char *line, const char *key, uint64_t *out)
{
	size_t len = strlen(key);

	if (strncmp(line, key, len) != 0)
		return 0;
	*out = strtoull(line + len, NULL, 16);
	return 1;
}

void gather_session(struct session_facts *s, pid_t pid)
{
	char path[64], line[256];
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->seccomp = -1;
	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	f = fopen(path, "r");
	if (f == NULL)
		return;
	s->readable = 1;
	while (fgets(line, sizeof(line), f) != NULL) {
		read_hex_field(line, "CapInh:", &s->inheritable);
		read_hex_field(line, "CapBnd:", &s->bounding);
		read_hex_field(line, "CapAmb:", &s->ambient);
		if (strncmp(line, "NoNewPrivs:", 11) == 0)
			s->no_new_privs = atoi(line + 11);
		else if (strncmp(line, "Seccomp:", 8) == 0)
			s->seccomp = atoi(line + 8);
	}
	fclose(f);
}
