/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The kernel's release string and version, read once the same way everywhere. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel.h"
#include "textfile.h"

int kernel_release(char *text, size_t len, int *major, int *minor)
{
	struct utsname uts;

	*major = *minor = 0;
	if (len > 0)
		text[0] = '\0';
	if (uname(&uts) != 0)
		return -1;
	if (len > 0)
		snprintf(text, len, "%s", uts.release);
	return kernel_version_parse(uts.release, major, minor);
}

/* A whole decimal number of at most 9 digits at *p, moved past. */
static int version_number(const char **p, int *out)
{
	int n = 0, digits = 0;

	while (**p >= '0' && **p <= '9' && digits < 9) {
		n = n * 10 + (**p - '0');
		(*p)++;
		digits++;
	}
	if (digits == 0 || (**p >= '0' && **p <= '9'))
		return -1;
	*out = n;
	return 0;
}

int kernel_version_parse(const char *release, int *major, int *minor)
{
	const char *p = release;

	if (version_number(&p, major) < 0 || *p++ != '.' ||
	    version_number(&p, minor) < 0) {
		*major = *minor = 0;
		return -1;
	}
	return 0;
}

int kernel_perf_paranoid(const char *path, int *level)
{
	char buf[32], *end;
	long v;

	if (text_file_read(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno != 0 || v < INT_MIN || v > INT_MAX ||
	    (*end != '\0' && strcmp(end, "\n") != 0)) {
		errno = EINVAL;
		return -1;
	}
	*level = (int)v;
	return 0;
}

int kernel_at_least(int major, int minor, int want_major, int want_minor)
{
	return major > want_major ||
	       (major == want_major && minor >= want_minor);
}

/*
 * The kernel numbers the initial user namespace's nsfs inode with a fixed
 * constant (PROC_USER_INIT_INO in include/linux/proc_ns.h), so the link
 * text says which one we are in without asking a parent we may not see.
 */
#define INIT_USER_NS_LINK "user:[4026531837]"

int kernel_in_initial_userns(void)
{
	char link[64];
	ssize_t n;

	n = readlink("/proc/self/ns/user", link, sizeof(link) - 1);
	if (n < 0)
		return errno == ENOENT && access("/proc/self/ns", F_OK) == 0
			       ? 1
			       : -1; /* a kernel without user namespaces: 1 */
	link[n] = '\0';
	return strcmp(link, INIT_USER_NS_LINK) == 0;
}
