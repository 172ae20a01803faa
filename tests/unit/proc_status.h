/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* What the kernel itself reports: one "CapXxx:" vector of /proc/self/status. */
#ifndef PROC_STATUS_H
#define PROC_STATUS_H

#include <check.h>
#include <stdio.h>
#include <string.h>

/* The hex value after key ("CapBnd:"), or all ones when the line is missing. */
static inline unsigned long long status_vector(const char *key)
{
	char line[256];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, strlen(key)) == 0)
			sscanf(line + strlen(key), "%llx", &v);
	}
	fclose(f);
	return v;
}

#endif
