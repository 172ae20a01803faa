/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all: does the /proc it reads hide processes from its caller?
 *
 * proc mounted with hidepid=invisible (2) or hidepid=ptraceable (4) leaves
 * out of its listing every process the caller may not trace
 * (fs/proc/base.c, has_pid_permissions(): ptrace_may_access() in
 * PTRACE_MODE_READ, or membership of the mount's gid= group). Nothing in
 * the listing says so: an audit run by a user would find only that user's
 * processes and call itself complete. hidepid=noaccess (1) lists them and
 * refuses to read them, which the scan counts already.
 */
#define _GNU_SOURCE		/* statx */
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

/* The super options of mount id (or, id 0, of the proc mounted at /proc). */
static int super_options(int procfd, unsigned long long id, char *out,
			 size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	int fd, found = 0;
	FILE *f;

	fd = openat(procfd, "self/mountinfo", O_RDONLY | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (f == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (!found && getline(&line, &cap, f) > 0) {
		unsigned long long mid;
		char point[4096], *dash;
		char type[64], source[4096], opts[4096];

		if (sscanf(line, "%llu %*u %*s %*s %4095s", &mid, point) != 2)
			continue;
		dash = strstr(line, " - ");
		if (dash == NULL ||
		    sscanf(dash + 3, "%63s %4095s %4095s", type, source,
			   opts) != 3)
			continue;
		if (id != 0 ? mid != id :
		    strcmp(point, "/proc") != 0 || strcmp(type, "proc") != 0)
			continue;
		snprintf(out, len, "%s", opts);
		found = 1;
	}
	free(line);
	fclose(f);
	if (!found)
		errno = ENOENT;
	return found ? 0 : -1;
}

/* The value of option name= in a comma-separated list, or NULL. */
static const char *option(char *opts, const char *name, char *val,
			  size_t len)
{
	size_t n = strlen(name);
	char *tok, *save = NULL;

	for (tok = strtok_r(opts, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save))
		if (strncmp(tok, name, n) == 0 && tok[n] == '=') {
			snprintf(val, len, "%s", tok + n + 1);
			return val;
		}
	return NULL;
}

/* May this process see every process despite hidepid? */
static int sees_all(unsigned long gid_option, int have_gid)
{
	cap_flag_value_t v = CAP_CLEAR;
	gid_t *groups;
	cap_t caps;
	int n, in;

	caps = cap_get_proc();
	if (caps != NULL)
		cap_get_flag(caps, CAP_SYS_PTRACE, CAP_EFFECTIVE, &v);
	cap_free(caps);
	if (v == CAP_SET)
		return 1;
	if (!have_gid)
		return 0;
	if (getegid() == (gid_t)gid_option)
		return 1;
	n = groups_of_process(&groups);
	in = n > 0 && groups_have(groups, n, (gid_t)gid_option);
	free(groups);
	return in;
}

int proc_hides(int procfd, char *how, size_t len)
{
	char opts[4096], copy[4096], val[64], gidval[64];
	unsigned long long id = 0;
	struct statx stx;
	const char *hide;
	int have_gid;

	how[0] = '\0';
	if (statx(procfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID))
		id = stx.stx_mnt_id;
	if (super_options(procfd, id, opts, sizeof(opts)) < 0)
		return -1;
	snprintf(copy, sizeof(copy), "%s", opts);
	hide = option(copy, "hidepid", val, sizeof(val));
	/* Only these leave processes out of the listing. */
	if (hide == NULL || (strcmp(hide, "2") != 0 &&
			     strcmp(hide, "invisible") != 0 &&
			     strcmp(hide, "4") != 0 &&
			     strcmp(hide, "ptraceable") != 0))
		return 0;
	snprintf(copy, sizeof(copy), "%s", opts);
	have_gid = option(copy, "gid", gidval, sizeof(gidval)) != NULL;
	if (sees_all(have_gid ? strtoul(gidval, NULL, 10) : 0, have_gid))
		return 0;
	snprintf(how, len, "hidepid=%s", hide);
	return 1;
}
