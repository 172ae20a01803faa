/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all: does the /proc we read list every process to us?
 *
 * proc(5)'s hidepid=noaccess (1) leaves other users' /proc/<pid>
 * directories listed but unreadable: the scan counts them as not
 * examined. hidepid=invisible (2) and hidepid=ptraceable (4) leave them
 * out of the listing altogether, so nothing is there to count: as a user
 * who may not trace them, the audit would end "0 not examined" and exit 0
 * with every root process hidden (fs/proc/base.c, has_pid_permissions():
 * ptrace_may_access() in PTRACE_MODE_READ, or, for invisible alone, the
 * mount's gid= group). The mount's options tell: the mount is the one the
 * open /proc descriptor is on (statx's mount id, or fdinfo's mnt_id),
 * looked up in that /proc's mountinfo, never a path that another mount
 * could cover meanwhile.
 */
#define _GNU_SOURCE /* statx */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <unistd.h>

#include "getpcaps.h"
#include "groups.h"

/* stdio on a file of the /proc open on procfd, or NULL with errno. */
static FILE *proc_file(int procfd, const char *name)
{
	int fd = openat(procfd, name, O_RDONLY | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (f == NULL && fd >= 0) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return f;
}

/* The mount id of the /proc open on procfd, or -1 with errno. */
static long long mount_id_of(int procfd)
{
	char name[64], line[256];
	long long id = -1;
	struct statx stx;
	FILE *f;

	if (statx(procfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID))
		return (long long)stx.stx_mnt_id;
	/* Before Linux 5.8: fdinfo says it too. */
	snprintf(name, sizeof(name), "self/fdinfo/%d", procfd);
	f = proc_file(procfd, name);
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "mnt_id: %lld", &id) == 1)
			break;
	fclose(f);
	if (id < 0)
		errno = ENOENT;
	return id;
}

/*
 * Mount id's super options (the field after the file system's type and
 * source in mountinfo) into opts. Returns 0, or -1 with errno.
 */
static int super_options(int procfd, long long id, char *opts, size_t len)
{
	char *line = NULL;
	size_t size = 0;
	int found = -1;
	FILE *f = proc_file(procfd, "self/mountinfo");

	if (f == NULL)
		return -1;
	while (getline(&line, &size, f) > 0) {
		char *sep, *type, *source, *super;
		long long this;

		if (sscanf(line, "%lld ", &this) != 1 || this != id)
			continue;
		sep = strstr(line, " - ");
		type = sep != NULL ? strtok(sep + 3, " \n") : NULL;
		source = type != NULL ? strtok(NULL, " \n") : NULL;
		super = source != NULL ? strtok(NULL, " \n") : NULL;
		if (super != NULL && strlen(super) < len) {
			snprintf(opts, len, "%s", super);
			found = 0;
		}
		break;
	}
	free(line);
	fclose(f);
	if (found < 0)
		errno = ENOENT;
	return found;
}

/* The value of option name= in a comma-separated list, or NULL. */
static const char *option(const char *opts, const char *name, char *val,
			  size_t len)
{
	size_t n = strlen(name);
	const char *p = opts;

	while (*p != '\0') {
		size_t field = strcspn(p, ",");

		if (field > n && strncmp(p, name, n) == 0 && p[n] == '=' &&
		    field - n - 1 < len) {
			memcpy(val, p + n + 1, field - n - 1);
			val[field - n - 1] = '\0';
			return val;
		}
		p += field + (p[field] == ',');
	}
	return NULL;
}

/* Is gid ours: the effective gid or a supplementary one? */
static int in_group(gid_t gid)
{
	gid_t *groups;
	int n, yes;

	if (getegid() == gid)
		return 1;
	n = groups_of_process(&groups);
	if (n < 0)
		return 0;
	yes = groups_have(groups, n, gid);
	free(groups);
	return yes;
}

/* CAP_SYS_PTRACE in our effective set: the kernel lets us see them all. */
static int may_trace_all(void)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t caps = cap_get_proc();

	if (caps != NULL)
		cap_get_flag(caps, CAP_SYS_PTRACE, CAP_EFFECTIVE, &v);
	cap_free(caps);
	return v == CAP_SET;
}

int proc_hides_processes(int procfd, char *why, size_t len)
{
	char opts[4096], mode[32], gid[32];
	long long id;

	if (may_trace_all())
		return 0;
	id = mount_id_of(procfd);
	if (id < 0 || super_options(procfd, id, opts, sizeof(opts)) < 0) {
		snprintf(
			why, len,
			"cannot read its mount options (%s), so whether it hides processes is unknown",
			strerror(errno));
		return 1;
	}
	if (option(opts, "hidepid", mode, sizeof(mode)) == NULL ||
	    strcmp(mode, "0") == 0 || strcmp(mode, "off") == 0 ||
	    strcmp(mode, "1") == 0 || strcmp(mode, "noaccess") == 0)
		return 0;
	/* invisible: the gid= group sees every process; ptraceable: no. */
	if ((strcmp(mode, "2") == 0 || strcmp(mode, "invisible") == 0) &&
	    option(opts, "gid", gid, sizeof(gid)) != NULL && gid[0] != '\0' &&
	    strspn(gid, "0123456789") == strlen(gid) &&
	    in_group((gid_t)strtoul(gid, NULL, 10)))
		return 0;
	snprintf(
		why, len,
		"mounted with hidepid=%s: the processes this user may not trace are not listed, and not counted",
		mode);
	return 1;
}
