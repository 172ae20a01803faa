/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh tests of the state: --has-*, --dropped, --supports, --is-*, --inmode. */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "capsh.h"
#include "suggest.h"

static int lookup(const char *name, cap_value_t *cap)
{
	if (capsh_cap_value(name, cap) != 0) {
		fprintf(stderr, "cap[%s] not recognized by library\n", name);
		suggest_unknown_cap(stderr, "capsh", name);
		return -1;
	}
	return 0;
}

/* --has-p= and --has-i=: the bit must be set in P (or I) right now. */
int capsh_has_flag(const char *name, cap_flag_t flag)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_value_t cap;
	cap_t caps;

	if (lookup(name, &cap) != 0)
		return 1;
	caps = cap_get_proc();
	if (caps == NULL) {
		capsh_perror("Capabilities not available");
		return 1;
	}
	if (cap_get_flag(caps, cap, flag, &v) != 0)
		v = CAP_CLEAR;
	cap_free(caps);
	if (v != CAP_SET) {
		fprintf(stderr, "cap[%s] %s\n", name,
			flag == CAP_PERMITTED ? "not permitted"
					      : "not inheritable");
		return 1;
	}
	return 0;
}

/*
 * --has-a=: fails only on a definite "clear". A kernel that cannot answer
 * (-1: no ambient support, or a bit past its last capability) passes, as
 * in libcap.
 */
int capsh_has_ambient_bit(const char *name)
{
	cap_value_t cap;

	if (lookup(name, &cap) != 0)
		return 1;
	if (cap_get_ambient(cap) == 0) {
		fprintf(stderr, "cap[%s] not in ambient vector\n", name);
		return 1;
	}
	return 0;
}

/* --has-b=: fails when the capability has left the bounding set. */
int capsh_has_bound(const char *name)
{
	cap_value_t cap;

	if (lookup(name, &cap) != 0)
		return 1;
	if (cap_get_bound(cap) == 0) {
		fprintf(stderr, "cap[%s] not in bounding vector\n", name);
		return 1;
	}
	return 0;
}

/* --dropped=: the opposite test; fails while the bit is still bounding. */
int capsh_dropped(const char *name)
{
	cap_value_t cap;

	if (lookup(name, &cap) != 0)
		return 1;
	if (cap_get_bound(cap) > 0) {
		fprintf(stderr, "cap[%s] raised in bounding vector\n", name);
		return 1;
	}
	return 0;
}

/* --supports=: the library knows the name and the running kernel the bit. */
int capsh_supports(const char *name)
{
	cap_value_t cap;

	if (lookup(name, &cap) != 0)
		return 1;
	if (!CAP_IS_SUPPORTED(cap)) {
		fprintf(stderr, "cap[%s=%d] not supported by kernel\n", name,
			cap);
		return 1;
	}
	return 0;
}

int capsh_has_ambient(void)
{
	if (!CAP_AMBIENT_SUPPORTED()) {
		capsh_perror("ambient set not supported");
		return 1;
	}
	return 0;
}

int capsh_has_no_new_privs(void)
{
	if (cap_prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0, 0) != 1) {
		fprintf(stderr, "no-new-privs not set\n");
		return 1;
	}
	return 0;
}

/* --is-uid= / --is-gid=: compare with the real id. */
int capsh_is_id(const char *text, int gid)
{
	unsigned want;
	int got;

	if (capsh_parse_uint(text,
			     gid ? "invalid --is-gid value"
				 : "invalid --is-uid value",
			     &want) != 0)
		return 1;
	got = gid ? (int)getgid() : (int)getuid();
	if ((unsigned)got != want) {
		fprintf(stderr, "%s: got=%d, want=%d\n", gid ? "gid" : "uid",
			got, (int)want);
		return 1;
	}
	return 0;
}

/* --inmode=: the mode libcap guesses for this process must be the one named. */
int capsh_inmode(const char *name)
{
	const char *got = cap_mode_name(cap_get_mode());

	if (strcmp(got, name) != 0) {
		printf("mismatched mode got=%s want=%s\n", got, name);
		return 1;
	}
	return 0;
}
