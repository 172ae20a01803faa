/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit without counting in the kernel: what bpf/capaudit_bpf.c
 * provides, for a build without the BPF tool chain (clang that targets
 * bpf, bpftool, libbpf-dev's <bpf/skel_internal.h>; see progs/Makefile).
 * Every check is then read as a perf sample, and --version and --check
 * say why.
 */
#include <errno.h>
#include <stdio.h>

#include "capaudit_counting.h"

const char *counter_not_built(void)
{
	return "not built in: capaudit was built without the BPF tool chain (clang, bpftool, libbpf-dev)";
}

int counter_probe(struct counting *cfg, void (*check)(void))
{
	(void)check;
	snprintf(cfg->why, sizeof(cfg->why), "%s", counter_not_built());
	errno = ENOSYS;
	return -1;
}

void counting_release(struct counting *cfg)
{
	cfg->probed = NULL;
}

/* Never reached: counting is never usable here (counter_probe()). */
struct counter *counter_open(const struct counting *cfg, char *why,
			     size_t whylen)
{
	(void)cfg;
	snprintf(why, whylen, "%s", counter_not_built());
	errno = ENOSYS;
	return NULL;
}

int counter_follow(struct counter *c, pid_t tid)
{
	(void)c;
	(void)tid;
	errno = ENOSYS;
	return -1;
}

int counter_unfollow(struct counter *c, pid_t tid)
{
	(void)c;
	(void)tid;
	errno = ENOSYS;
	return -1;
}

int counter_calibrate(struct counter *c, void (*check)(void), char *why,
		      size_t whylen)
{
	(void)c;
	(void)check;
	snprintf(why, whylen, "%s", counter_not_built());
	errno = ENOSYS;
	return -1;
}

int counter_collect(struct counter *c,
		    int (*push)(const struct record *, void *), void *arg,
		    struct counter_losses *lost)
{
	(void)c;
	(void)push;
	(void)arg;
	lost->checks = lost->threads = lost->signals = 0;
	errno = ENOSYS;
	return -1;
}

void counter_close(struct counter *c)
{
	(void)c;
}
