/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The kernel's release string and version, read once the same way everywhere. */
#include <stdio.h>
#include <sys/utsname.h>

#include "kernel.h"

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
	if (sscanf(uts.release, "%d.%d", major, minor) != 2) {
		*major = *minor = 0;
		return -1;
	}
	return 0;
}

int kernel_at_least(int major, int minor, int want_major, int want_minor)
{
	return major > want_major || (major == want_major && minor >= want_minor);
}
