/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor --seccomp-profile: a container runtime's seccomp profile
 * (containers-common's, which podman and CRI-O use, or docker's: the same
 * format) changed so that perf_event_open() is allowed to a container
 * whose capabilities hold CAP_PERFMON, and nothing else changes, for any
 * container. Needs libc, perfdoctor_jscan.c and perfdoctor_splice.c.
 */
#ifndef PERFDOCTOR_PROFILE_H
#define PERFDOCTOR_PROFILE_H

#include <stddef.h>

/* The largest profile read: 64 times podman's and docker's (16 KB). */
#define PROFILE_MAX_BYTES (1024 * 1024)

struct profile_change {
	char *text; /* the profile to print (malloc'd), BASE when unchanged */
	size_t len;
	int changed;	/* 0: nothing to change, text is BASE byte for byte */
	char what[900]; /* what changed, or why nothing did: one line */
	/* After a failure: why, and where in BASE when err_has_at. */
	char err[400];
	size_t err_at;
	int err_has_at;
};

/*
 * The change for the profile text[0, len), which a NUL byte follows
 * (text[len]). Returns 0 with c filled, or -1
 * with c->err (errno ENOMEM for no memory, else EINVAL: not JSON, or not
 * a profile a runtime would read the same way we do), and no text.
 * profile_change_free() either way.
 */
int profile_allow_perfmon(const char *text, size_t len,
			  struct profile_change *c);
void profile_change_free(struct profile_change *c);

#endif
