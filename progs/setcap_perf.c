/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap --perf: the least a perf binary needs, by kernel version and perf
 * subcommand, so an administrator need not remember the table:
 *   Linux 5.9+  cap_perfmon (events, tracing), cap_syslog (kernel symbols);
 *   Linux 5.8   the same plus cap_sys_ptrace, which perf's access checks
 *               still asked for before 5.9 moved them to CAP_PERFMON;
 *   older       cap_sys_admin: there is no CAP_PERFMON to grant.
 * Sampling subcommands map ring buffers that can exceed RLIMIT_MEMLOCK,
 * which the kernel allows above the limit only with cap_ipc_lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "setcap_perf.h"

/* Subcommands whose buffers may need locking beyond RLIMIT_MEMLOCK. */
static const char *const buffered[] = {
	"record", "top", "trace", "sched", "kmem", "mem", "lock", "c2c", "kvm",
};
/* Subcommands that count and need nothing more than the base set. */
static const char *const counting[] = { "stat", "list", "report", "script" };

static int in_list(const char *word, size_t len, const char *const *list,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && strncmp(list[i], word, len) == 0)
			return 1;
	return 0;
}

static void kernel_version(int *major, int *minor)
{
	struct utsname uts;

	*major = *minor = 0;
	if (uname(&uts) == 0 && sscanf(uts.release, "%d.%d", major, minor) != 2)
		*major = *minor = 0;
}

cap_t perf_preset(const char *subcommands)
{
	cap_value_t list[4];
	int n = 0, major, minor, lock = 0;
	const char *p = subcommands;
	cap_t caps;

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");

		if (in_list(p, len, buffered, sizeof(buffered) / sizeof(*buffered)))
			lock = 1;
		else if (!in_list(p, len, counting, sizeof(counting) / sizeof(*counting))) {
			fprintf(stderr, "setcap: --perf: unknown perf subcommand '%.*s' "
				"(known: record top trace sched kmem mem lock c2c kvm "
				"stat list report script)\n", (int)len, p);
			return NULL;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	kernel_version(&major, &minor);
	if (cap_max_bits() <= CAP_PERFMON) {
		list[n++] = CAP_SYS_ADMIN;
		fprintf(stderr, "setcap: warning: --perf: this kernel predates "
			"CAP_PERFMON (Linux 5.8); granting cap_sys_admin, which "
			"is equivalent to root\n");
	} else {
		list[n++] = CAP_PERFMON;
		if (major < 5 || (major == 5 && minor < 9))
			list[n++] = CAP_SYS_PTRACE;
	}
	list[n++] = CAP_SYSLOG;
	if (lock)
		list[n++] = CAP_IPC_LOCK;
	caps = cap_init();
	if (caps == NULL ||
	    cap_set_flag(caps, CAP_PERMITTED, n, list, CAP_SET) < 0 ||
	    cap_set_flag(caps, CAP_EFFECTIVE, n, list, CAP_SET) < 0) {
		perror("setcap: --perf");
		cap_free(caps);
		return NULL;
	}
	return caps;
}

int perf_restrict_to_group(const char *file, const char *group)
{
	struct group *gr = getgrnam(group);
	struct stat st;
	int fd, saved;

	if (gr == NULL) {
		fprintf(stderr, "setcap: --perf-group: no group named '%s' "
			"(create it first: groupadd %s)\n", group, group);
		return -1;
	}
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "setcap: %s: %s\n", file, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		saved = S_ISREG(st.st_mode) ? errno : EINVAL;
		fprintf(stderr, "setcap: %s: %s\n", file,
			saved == EINVAL ? "not a regular file" : strerror(saved));
		close(fd);
		return -1;
	}
	/* Group first, then mode: a chown can clear set-id bits and capabilities. */
	if (fchown(fd, (uid_t)-1, gr->gr_gid) < 0 || fchmod(fd, 0750) < 0) {
		fprintf(stderr, "setcap: %s: cannot give it to group %s: %s\n",
			file, group, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
