/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor_ptrace.c: another process's seccomp filters, read without disturbing it. */
#ifndef PERFDOCTOR_PTRACE_H
#define PERFDOCTOR_PTRACE_H

#include <stddef.h>
#include <sys/types.h>

#include "perfdoctor_cbpf.h"

/* The kernel's bounds on one thread's filters (MAX_INSNS_PER_PATH). */
#define FILTERS_MAX_INSNS 32768
#define FILTERS_MAX	  8192

struct filter_set {
	struct cbpf_filter *filters; /* newest first, as the kernel runs them */
	size_t n;
	struct sock_filter *insns; /* all of them, one block */
};

/*
 * Reads the filters of process pid's main thread (its /proc directory
 * open on dfd) with PTRACE_SECCOMP_GET_FILTER, which needs CAP_SYS_ADMIN
 * and the process in a ptrace stop. Returns 0 with fs filled (release
 * with release_filter_set), or -1 with why (a clause, for a verdict of
 * "unknown": nothing was learnt). The process is stopped only while its
 * filters are copied and is always let go, whatever happens.
 */
int read_seccomp_filters(int dfd, pid_t pid, struct filter_set *fs, char *why,
			 size_t len);
void release_filter_set(struct filter_set *fs);

#endif
