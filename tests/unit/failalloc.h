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
			ck_assert_msg(
				rc == 0,
				"%s failed (errno %d) with no allocation failing",
				c->name, err);
			if (c->release != NULL)
				c->release(c->ctx);
			ck_assert_msg(failalloc_live() == 0,
				      "%s: release left %lu blocks", c->name,
				      failalloc_live());
			return made;
		}
		ck_assert_msg(rc == -1,
			      "%s succeeded although allocation %lu failed",
			      c->name, n);
		ck_assert_msg(err == ENOMEM,
			      "%s: allocation %lu failed, errno %d, not ENOMEM",
			      c->name, n, err);
		ck_assert_msg(failalloc_live() == 0,
			      "%s: allocation %lu failed and %lu blocks leaked",
			      c->name, n, failalloc_live());
		if (c->unchanged != NULL)
			ck_assert_msg(
				c->unchanged(c->ctx),
				"%s: allocation %lu failed and an input changed",
				c->name, n);
	}
	ck_abort_msg("%s: still failing after %lu allocations", c->name, n);
	return 0;
}

/*
 * c with its first allocation failing: -1 with ENOMEM, nothing left
 * allocated, its inputs unchanged (a setter keeps what was set before).
 */
static inline void failalloc_first_fails(const struct failalloc_case *c)
{
	int rc, err;

	errno = 0;
	failalloc_start(1);
	rc = c->run(c->ctx);
	err = errno;
	failalloc_stop();
	ck_assert_msg(rc == -1 && failalloc_failed(),
		      "%s: no failure with its first allocation failing",
		      c->name);
	ck_assert_msg(err == ENOMEM, "%s: errno %d, not ENOMEM", c->name, err);
	ck_assert_msg(failalloc_live() == 0, "%s: %lu blocks leaked", c->name,
		      failalloc_live());
	if (c->unchanged != NULL)
		ck_assert_msg(c->unchanged(c->ctx), "%s: an input changed",
			      c->name);
}

/*
 * c given input it refuses: ENOMEM when its first allocation fails (it
 * could not even look), errno want (EINVAL) when none does; nothing is
 * left allocated either way.
 */
static inline void failalloc_check_refusal(const struct failalloc_case *c,
					   int want)
{
	int rc, err;

	failalloc_first_fails(c);
	errno = 0;
	failalloc_start(0);
	rc = c->run(c->ctx);
	err = errno;
	failalloc_stop();
	ck_assert_msg(rc == -1, "%s: accepted what it must refuse", c->name);
	ck_assert_msg(err == want, "%s: errno %d, want %d", c->name, err, want);
	ck_assert_msg(failalloc_live() == 0, "%s: %lu blocks leaked", c->name,
		      failalloc_live());
}

/*
 * Most operations return an object the library allocates, NULL on
 * failure. A suite's context keeps it in a member "void *out";
 *	FAILALLOC_RUN(run_dup, struct op, cap_dup(op->in))
 * defines the run() that calls it (op is the context) and stores the
 * result there, 0 when an object came back; and
 *	FAILALLOC_RELEASE(release_out, struct op)
 * the release() that frees it with cap_free(), which must succeed.
 */
#define FAILALLOC_RUN(fn, type, call)            \
	static int fn(void *ctx)                 \
	{                                        \
		type *op = ctx;                  \
                                                 \
		op->out = (call);                \
		return op->out != NULL ? 0 : -1; \
	}

#define FAILALLOC_RELEASE(fn, type)                     \
	static void fn(void *ctx)                       \
	{                                               \
		type *op = ctx;                         \
                                                        \
		ck_assert_int_eq(cap_free(op->out), 0); \
		op->out = NULL;                         \
	}

#endif
