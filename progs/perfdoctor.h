/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor: the facts it gathers, one struct per subject, and who fills them. */
#ifndef PERFDOCTOR_H
#define PERFDOCTOR_H

#include <stdint.h>
#include <sys/capability.h>
#include <sys/types.h>

struct kernel_facts {
	char release[128];
	int major, minor;
	int cap_bits;		/* cap_max_bits() */
	int paranoid;		/* kernel.perf_event_paranoid, or INT32_MIN if unreadable */
};

struct binary_facts {
	const char *path;
	int exists;
	int err;		/* errno of the first failure while looking at it */
	uid_t uid;
	gid_t gid;
	mode_t mode;
	int is_regular;
	int nosuid;		/* its filesystem ignores set-id bits and file capabilities */
	int xattr_unsupported;
	cap_t caps;		/* NULL when it carries none */
};

struct user_facts {
	const char *name;
	int known;
	uid_t uid;
	gid_t gid;
	gid_t groups[256];
	int ngroups;
};

/* The capability state of the session the user would run perf from. */
struct session_facts {
	pid_t pid;		/* 0: this process */
	int readable;
	uint64_t inheritable, bounding, ambient;
	int no_new_privs;
	int seccomp;		/* 0 none, 1 strict, 2 filter; -1 unknown */
};

void gather_kernel(struct kernel_facts *k);
void gather_binary(struct binary_facts *b, const char *path);
void gather_user(struct user_facts *u, const char *name);
void gather_session(struct session_facts *s, pid_t pid);
const char *paranoid_meaning(int level);

#endif
