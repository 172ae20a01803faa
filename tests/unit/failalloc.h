/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Allocation-failure injection for Check suites named check_nomem_*.c.
 * tests/Makefile links them with the static library and -Wl,--wrap for the
 * malloc family, so every allocation the library (or the suite) makes goes
 * through failalloc.c, which can fail the n-th one and tracks what is still
 * live. Unlike an LD_PRELOAD malloc this works under ASan and valgrind.
 * To cover pam_cap or another component, link its objects the same way.
 */
#ifndef FAILALLOC_H
#define FAILALLOC_H

#include <errno.h>
#include <stddef.h>

#include "check_run.h"

/* Count allocations from now; the fail_at-th (1-based) fails, 0 = none. */
void failalloc_start(unsigned long fail_at);
/* Stop counting; returns how many allocations were attempted. */
unsigned long failalloc_stop(void);
/* Whether the injected failure happened since failalloc_start(). */
int failalloc_failed(void);
/* Blocks allocated while counting and not freed since. */
unsigned long failalloc_live(void);

/*
 * One operation to test. run() returns 0 on success (keeping its result in
 * ctx for release()) and -1 on failure; unchanged(), when given, returns 1
 * when every input the operation was handed is as it was before.
 */
struct failalloc_case {
	const char *name;
	int (*run)(void *ctx);
	void (*release)(void *ctx);
	int (*unchanged)(void *ctx);
	void *ctx;
};

/*
 * Runs c with the 1st, 2nd, ... allocation failing until a run makes no
 * failing allocation (that run must succeed). Every failing run must
 * return -1 with errno ENOMEM, leave nothing allocated and its inputs
 * unchanged. Returns the allocations a successful run makes.
 */
static inline unsigned long failalloc_check(const struct failalloc_case *c)
{
	unsigned long n;

	for (n = 1; n < 10000; n++) {
		unsigned long made;
		int rc, err;

		errno = 0;
		failalloc_start(n);
		rc = c->run(c->ctx);
		err = errno;
		made = failalloc_stop();
		if (!failalloc_failed()) {
			ck_assert_msg(rc == 0,
				      "%s failed (errno %d) with no "
				      "allocation failing",
				      c->name, err);
			if (c->release != NULL)
				c->release(c->ctx);
			ck_assert_msg(failalloc_live() == 0,
				      "%s: release left "
				      "%lu blocks",
				      c->name, failalloc_live());
			return made;
		}
		ck_assert_msg(rc == -1,
			      "%s succeeded although allocation %lu "
			      "failed",
			      c->name, n);
		ck_assert_msg(err == ENOMEM,
			      "%s: allocation %lu failed, errno "
			      "%d, not ENOMEM",
			      c->name, n, err);
		ck_assert_msg(failalloc_live() == 0,
			      "%s: allocation %lu failed "
			      "and %lu blocks leaked",
			      c->name, n, failalloc_live());
		if (c->unchanged != NULL)
			ck_assert_msg(c->unchanged(c->ctx),
				      "%s: allocation %lu "
				      "failed and an input changed",
				      c->name, n);
	}
	ck_abort_msg("%s: still failing after %lu allocations", c->name, n);
	return 0;
}

#endif
