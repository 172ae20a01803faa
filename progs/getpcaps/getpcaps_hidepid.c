/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all: does the /proc we read list every process to us?
 *
 * proc(5)'s hidepid=noaccess (1) leaves other users' /proc/<pid>
 * directories listed but unreadable: the scan counts them as not
 * examined. hidepid=invisible (2) and hidepid=ptraceable (4) leave them
 * out of the listing altogether, so nothing is there to count: as a user
 * who may not trace them, the audit would end "0 not examined" and exit 0
 * with every root process hidden. The mount's options tell: the mount is
 * the one the open /proc descriptor is on (fdinfo's mnt_id), looked up
 * in mountinfo, never a path that another mount could cover meanwhile.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "getpcaps.h"
#include "groups.h"

/* The mount id of the file open on fd, or -1 with errno. */
static int mount_id_of(int fd)
{
	char path[64], line[256];
	int id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "mnt_id: %d", &id) == 1)
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
static int super_options(int id, char *opts, size_t len)
{
	char *line = NULL;
	size_t size = 0;
	int found = -1;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (f == NULL)
		return -1;
	while (getline(&line, &size, f) > 0) {
		char *sep, *type, *source, *super;
		int this;

		if (sscanf(line, "%d ", &this) != 1 || this != id)
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
	int id;

	if (may_trace_all())
		return 0;
	id = mount_id_of(procfd);
	if (id < 0 || super_options(id, opts, sizeof(opts)) < 0) {
		snprintf(why, len, "cannot read its mount options (%s), so "
			 "whether it hides processes is unknown",
			 strerror(errno));
		return 1;
	}
	if (option(opts, "hidepid", mode, sizeof(mode)) == NULL ||
	    strcmp(mode, "0") == 0 || strcmp(mode, "off") == 0 ||
	    strcmp(mode, "1") == 0 || strcmp(mode, "noaccess") == 0)
		return 0;
	/* invisible: the gid= group sees every process; ptraceable: no. */
	if ((strcmp(mode, "2") == 0 || strcmp(mode, "invisible") == 0) &&
	    option(opts, "gid", gid, sizeof(gid)) != NULL &&
	    gid[0] != '\0' && strspn(gid, "0123456789") == strlen(gid) &&
	    in_group((gid_t)strtoul(gid, NULL, 10)))
		return 0;
	snprintf(why, len, "mounted with hidepid=%s: the processes this user "
		 "may not trace are not listed, and not counted", mode);
	return 1;
}
