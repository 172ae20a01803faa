/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory building a launcher: cap_new_launcher, cap_func_launcher,
 * cap_launcher_set_chroot and cap_launcher_setgroups fail cleanly (NULL or
 * -1, ENOMEM, nothing leaked) whichever allocation fails, and a failed
 * setter keeps what was set before: as root this is seen by launching
 * (the groups a child gets, the chroot its exec happens in).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

#include "failalloc.h"

static const char *const argv_ok[] = { "sh", "-c", "exit 0", NULL };
static const char *const argv_groups[] = {
	"sh",
	"-c",
	"test \"$(id -G)\" = \"4242 4243 4244\"",
	NULL,
};

struct op {
	cap_launch_t attr;
	const char *path;
	gid_t groups[3];
	void *out;
};

static int nothing(void *detail __attribute__((unused)))
{
	return 0;
}

FAILALLOC_RUN(run_new, struct op, cap_new_launcher("/bin/sh", argv_ok, NULL))
FAILALLOC_RUN(run_func, struct op, cap_func_launcher(nothing))
FAILALLOC_RELEASE(release_out, struct op)

static int run_chroot(void *ctx)
{
	struct op *op = ctx;

	return cap_launcher_set_chroot(op->attr, op->path);
}

static int run_setgroups(void *ctx)
{
	struct op *op = ctx;

	return cap_launcher_setgroups(op->attr, 5000, 3, op->groups);
}

/* Runs the launcher and returns the child's exit status, or -errno. */
static int launch(cap_launch_t attr)
{
	int status = -1;
	pid_t pid = cap_launch(attr, NULL);

	if (pid < 0)
		return -errno;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* After a successful set: launch with it, then drop the copy it holds. */
static void release_chroot(void *ctx)
{
	struct op *op = ctx;

	if (geteuid() == 0 && op->path != NULL)
		ck_assert_int_eq(launch(op->attr), 0); /* now in "/" */
	ck_assert_int_eq(cap_launcher_set_chroot(op->attr, NULL), 0);
}

static void release_groups(void *ctx)
{
	struct op *op = ctx;

	if (geteuid() == 0)
		ck_assert_int_eq(launch(op->attr), 1); /* 5000 5001 ... */
	ck_assert_int_eq(cap_launcher_setgroups(op->attr, 0, 0, NULL), 0);
}

START_TEST(new_launchers)
{
	struct op op;
	struct failalloc_case exec = { "cap_new_launcher", run_new, release_out,
				       NULL, &op };
	struct failalloc_case func = { "cap_func_launcher", run_func,
				       release_out, NULL, &op };

	memset(&op, 0, sizeof(op));
	ck_assert_uint_eq(failalloc_check(&exec), 1);
	ck_assert_uint_eq(failalloc_check(&func), 1);
}
END_TEST

START_TEST(set_chroot)
{
	char dir[] = "/tmp/nomem_launch.XXXXXX";
	struct op op;
	struct failalloc_case c = { "cap_launcher_set_chroot", run_chroot,
				    release_chroot, NULL, &op };

	memset(&op, 0, sizeof(op));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	op.attr = cap_new_launcher("/bin/sh", argv_ok, NULL);
	ck_assert_ptr_nonnull(op.attr);
	/* An empty directory: an exec inside it finds no /bin/sh. */
	ck_assert_int_eq(cap_launcher_set_chroot(op.attr, dir), 0);
	op.path = "/";
	failalloc_first_fails(&c);
	if (geteuid() == 0) {
		/*
		 * Still dir: no /bin/sh to exec there (any failure is ECHILD).
		 */
		ck_assert_int_eq(launch(op.attr), -ECHILD);
	} else {
		fprintf(stderr,
			"nomem_launch: not root, the chroot kept is not launched into\n");
	}
	ck_assert_uint_eq(failalloc_check(&c), 1);
	op.path = NULL; /* cancelling frees and allocates nothing */
	ck_assert_uint_eq(failalloc_check(&c), 0);
	ck_assert_int_eq(cap_free(op.attr), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(setgroups)
{
	static const gid_t first[2] = { 4243, 4244 };
	struct op op = { .groups = { 5001, 5002, 5003 } };
	struct failalloc_case c = { "cap_launcher_setgroups", run_setgroups,
				    release_groups, NULL, &op };

	op.attr = cap_new_launcher("/bin/sh", argv_groups, NULL);
	ck_assert_ptr_nonnull(op.attr);
	ck_assert_int_eq(cap_launcher_setgroups(op.attr, 4242, 2, first), 0);
	failalloc_first_fails(&c);
	if (geteuid() == 0)
		ck_assert_int_eq(launch(op.attr), 0); /* the first groups */
	else
		fprintf(stderr,
			"nomem_launch: not root, the groups kept are not launched with\n");
	ck_assert_uint_eq(failalloc_check(&c), 1);
	ck_assert_int_eq(cap_free(op.attr), 0);
}
END_TEST

/*
 * The child's steps allocate nothing: in the child of a
 * threaded program the allocator may be locked by a thread that no longer
 * exists, so between fork and exec only async-signal-safe work is done.
 * With every allocation failing, a launch with each step still works: as
 * root uid, groups, mode, IAB and chroot; otherwise the IAB alone (the
 * current one, which needs no privilege).
 */
START_TEST(child_allocates_nothing)
{
	static const char *const argv_true[] = { "true", NULL };
	static const gid_t groups[] = { 0 };
	cap_launch_t attr = cap_new_launcher("/bin/true", argv_true, NULL);
	int rc;

	ck_assert_ptr_nonnull(attr);
	ck_assert_ptr_null(cap_launcher_set_iab(attr, cap_iab_get_proc()));
	if (geteuid() == 0) {
		ck_assert_int_eq(cap_launcher_setuid(attr, 0), 0);
		ck_assert_int_eq(cap_launcher_setgroups(attr, 0, 1, groups), 0);
		ck_assert_int_eq(cap_launcher_set_mode(attr, CAP_MODE_HYBRID),
				 0);
		ck_assert_int_eq(cap_launcher_set_chroot(attr, "/"), 0);
	} else {
		fprintf(stderr,
			"nomem_launch: not root, the child applies only an IAB\n");
	}
	failalloc_start(1);
	rc = launch(attr);
	failalloc_stop();
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(cap_free(attr), 0);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_launch");
	TCase *tc = tcase_create("launch");

	tcase_add_test(tc, new_launchers);
	tcase_add_test(tc, set_chroot);
	tcase_add_test(tc, setgroups);
	tcase_add_test(tc, child_allocates_nothing);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
