/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest for containers: the capability sets a container
 * runtime gives the process of a container that holds the grant, and the
 * runs that prove the command works under exactly those sets.
 */
#ifndef CAPAUDIT_CONTAINER_H
#define CAPAUDIT_CONTAINER_H

#include <stdint.h>
#include <sys/capability.h>
#include <sys/types.h>

struct run_result;
struct success;
struct suggestion;
struct tally;

/* The sets a container's process starts its command with. */
struct container_sets {
	uint64_t bounding; /* what --cap-add added; every other one dropped */
	uint64_t inheritable;
	uint64_t ambient;
	int no_new_privs; /* no-new-privileges, allowPrivilegeEscalation false */
	int file_caps;	  /* each file carries its grant, in the image */
};

/* How the grant reaches the process in a container. */
enum container_way {
	/* root in the container: podman, docker and Kubernetes alike */
	WAY_ROOT,
	/* another user, in podman: what --cap-add adds, as ambient ones */
	WAY_AMBIENT,
	/* another user, in docker and Kubernetes: the files' own capabilities */
	WAY_FILE_CAPS,
};

/* One way, its sets, and what its run proved. */
struct container_proof {
	enum container_way way;
	struct container_sets sets;
	int ran;     /* its run was made and could be judged */
	int proven;  /* that run succeeded */
	int run;     /* the run's number, after the proof's own; 0: none */
	int status;  /* its wait status */
	size_t left; /* processes it left behind, which capaudit ended */
	char unproven[512]; /* why not proven; "" when proven */
};

#define CONTAINER_WAYS 2

/* What --suggest says for containers. */
struct container_advice {
	int asked; /* not --no-container: said, if only that nothing is */
	int shown; /* the lines are printed (a grant, a user known) */
	/*
	 * Not shown: why not, or "" when nothing is said (no grant, or
	 * --no-container).
	 */
	char why_not[200];
	uid_t uid; /* the user the trials ran as, as the container's user */
	gid_t gid;
	uint64_t grant; /* every file's grant together */
	int runs;	/* container runs made */
	size_t nways;
	struct container_proof ways[CONTAINER_WAYS];
};

/*
 * One container run: the command with each file of sg a copy carrying
 * grant[i] as its file capabilities, under the sets cs, into rr and t
 * (as struct trial_runner's run). 0, or -1 with the reason in
 * sg->unproven (and t left free).
 */
struct container_runner {
	int (*run)(void *ctx, struct suggestion *sg, const uint64_t *grant,
		   const struct container_sets *cs, struct run_result *rr,
		   struct tally *t);
	void *ctx;
};

/* Which runtimes give their container's process way's sets. */
const char *const *container_runtimes(enum container_way way);
/*
 * A runtime's name for cap, as --cap-add and capabilities.add take it
 * ("NET_RAW"): 0, or -1 when the library has no name for it.
 */
int container_cap_name(cap_value_t cap, char *buf, size_t len);

/* The words of a way's flags, for podman run, docker run (and create). */
#define CONTAINER_WORDS (4 + 64)
struct container_flags {
	size_t n;
	char word[CONTAINER_WORDS][64];
};
/* A Kubernetes container's securityContext, as --suggest gives it. */
struct container_context {
	uid_t run_as_user;
	gid_t run_as_group;
	int run_as_non_root;
	int allow_privilege_escalation;
	size_t nadd;
	char add[64][64]; /* capabilities.add; drop is ["ALL"] */
};
/*
 * p's flags and securityContext for the container's user uid:gid: 0, or
 * -1 when a capability of the grant has no name a runtime knows.
 */
int container_flags_of(const struct container_proof *p, uid_t uid, gid_t gid,
		       struct container_flags *f);
int container_context_of(const struct container_proof *p, uid_t uid, gid_t gid,
			 struct container_context *k);
/* Whether way has a securityContext (Kubernetes gives it these sets). */
int container_has_context(enum container_way way);

/* The sets way gives a container's process that was added grant. */
void container_sets_of(enum container_way way, uint64_t grant,
		       struct container_sets *cs);
/*
 * The IAB that puts a process about to execve into cs's bounding,
 * inheritable and ambient sets (the kernel's capabilities, below
 * cap_max_bits()). Caller frees with cap_free(); NULL with errno.
 */
cap_iab_t container_iab(const struct container_sets *cs);
/*
 * The ways of sg's grant for a container's user uid:gid (the user the
 * trials ran as), each unproven until container_prove(); why_not, when
 * not NULL, says that no line is shown and why (a watched process).
 * Nothing is shown for a suggestion without a grant.
 */
void container_plan(struct suggestion *sg, uid_t uid, gid_t gid,
		    const char *why_not);
/*
 * Runs the command once under each way's sets, numbered after sg's own
 * runs (sg->runs is as it was after), and judges each run by succ as the
 * trials are judged: a way is proven only when its run succeeded. Call
 * it only for a proven grant.
 */
void container_prove(struct suggestion *sg, const struct success *succ,
		     const struct container_runner *runner);

#endif
