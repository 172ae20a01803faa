/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The perf policy (see perf.h): one table of subcommands, one preset. */
#include <string.h>

#include "kernel.h"
#include "mask.h"
#include "perf.h"

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

enum perf_subcommand perf_subcommand_kind(const char *word, size_t len)
{
	if (in_list(word, len, buffered, sizeof(buffered) / sizeof(*buffered)))
		return PERF_SUB_BUFFERED;
	if (in_list(word, len, counting, sizeof(counting) / sizeof(*counting)))
		return PERF_SUB_COUNTING;
	return PERF_SUB_UNKNOWN;
}

int perf_knows_perfmon(int max_bits)
{
	return max_bits > CAP_PERFMON;
}

int perf_preset_caps(int buffered_too, cap_value_t list[PERF_PRESET_MAX])
{
	int n = 0, major, minor;

	kernel_release(NULL, 0, &major, &minor);
	if (!perf_knows_perfmon(cap_max_bits())) {
		list[n++] = CAP_SYS_ADMIN;
	} else {
		list[n++] = CAP_PERFMON;
		if (!kernel_at_least(major, minor, 5, 9))
			list[n++] = CAP_SYS_PTRACE;
	}
	list[n++] = CAP_SYSLOG;
	if (buffered_too)
		list[n++] = CAP_IPC_LOCK;
	return n;
}

uint64_t perf_enough(int max_bits)
{
	return perf_knows_perfmon(max_bits)
		       ? MASK_BIT(CAP_PERFMON) | MASK_BIT(CAP_SYS_ADMIN)
		       : MASK_BIT(CAP_SYS_ADMIN);
}

int perf_is_binary(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strcmp(base, "perf") == 0 || strncmp(base, "perf_", 5) == 0 ||
	       strncmp(base, "perf-", 5) == 0;
}
