/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory in pam_cap's capability.conf matcher (common/capconf.c,
 * capconf_match.c, linked in): whichever allocation fails, capconf_find()
 * answers CAPCONF_NOMEM with nothing leaked, never a grant. In particular
 * a group name it could not copy must not make the user look like a
 * non-member, which would hand out a later line's grant instead. Nor
 * may a mount list it could not hold make a directory read-only mounts
 * seal (common/writeseal.c) look writable or sealed: it is out of memory.
 */
#define _GNU_SOURCE /* unshare (check_userns.h) */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_userns.h"
#include "capconf.h"
#include "failalloc.h"

struct op {
	char path[64];
	struct capconf_match m;
	int rc;
};

static int run_find(void *ctx)
{
	struct op *op = ctx;

	op->rc = capconf_find(op->path, "root", &op->m, NULL, NULL);
	if (op->rc == CAPCONF_NOMEM)
		return -1;
	/* Any answer but NOMEM counts as success: it must then be right. */
	return 0;
}

static void release_match(void *ctx)
{
	struct op *op = ctx;

	ck_assert_int_eq(op->rc, CAPCONF_FOUND);
	ck_assert_uint_eq(op->m.line, 1);
	ck_assert_str_eq(op->m.caps, "cap_perfmon");
	ck_assert_str_eq(op->m.who, "@root");
	capconf_match_release(&op->m);
}

START_TEST(find_by_group)
{
	struct op op;
	struct failalloc_case c = { "capconf_find", run_find, release_match,
				    NULL, &op };
	char dir[] = "/tmp/nomem_capconf.XXXXXX";
	FILE *f;

	memset(&op, 0, sizeof(op));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(op.path, sizeof(op.path), "%s/capability.conf", dir);
	f = fopen(op.path, "w");
	ck_assert_ptr_nonnull(f);
	/* root is in group root: line 1 applies, never line 2. */
	fputs("cap_perfmon @root\ncap_chown root\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_ge(failalloc_check(&c), 4);
	ck_assert_int_eq(unlink(op.path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * The ConfigMap layout (a read-only bind of a 0777 volume root, its
 * writable mount gone) in a mount namespace of its own, found as pid 1 of
 * a pid namespace of its own, with its /proc: there the mounts are listed
 * by statmount(2) or, under valgrind, which lacks it, by mountinfo.
 */
static void configmap_as_init(void)
{
	static const char vol[] = "/tmp/nomem_capconf.vol",
			  etc[] = "/tmp/nomem_capconf.etc";
	struct op op;
	struct failalloc_case c = { "capconf_find (ConfigMap)", run_find,
				    release_match, NULL, &op };
	FILE *f;

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL),
			 0);
	ck_assert_int_eq(mount("proc", "/proc", "proc", 0, NULL), 0);
	ck_assert_int_eq(mount("tmp", "/tmp", "tmpfs", 0, "mode=1777"), 0);
	ck_assert_int_eq(mkdir(vol, 0755), 0);
	ck_assert_int_eq(mkdir(etc, 0755), 0);
	ck_assert_int_eq(mount("vol", vol, "tmpfs", 0, "mode=0777"), 0);
	f = fopen("/tmp/nomem_capconf.vol/capability.conf", "w");
	ck_assert_ptr_nonnull(f);
	fputs("cap_perfmon @root\ncap_chown root\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(mount(vol, etc, "none", MS_BIND, NULL), 0);
	ck_assert_int_eq(mount("none", etc, "none",
			       MS_BIND | MS_REMOUNT | MS_RDONLY, NULL),
			 0);
	ck_assert_int_eq(umount(vol), 0);
	memset(&op, 0, sizeof(op));
	snprintf(op.path, sizeof(op.path), "%s/capability.conf", etc);
	ck_assert_uint_ge(failalloc_check(&c), 4);
}

START_TEST(find_in_configmap)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pid_t init;

		if (unshare(CLONE_NEWPID) < 0) {
			printf("note: no pid namespace (%s): case not run\n",
			       strerror(errno));
			_exit(0);
		}
		init = fork();
		if (init == 0) {
			configmap_as_init();
			_exit(0);
		}
		_exit(init > 0 && waitpid(init, &status, 0) == init &&
				      WIFEXITED(status) &&
				      WEXITSTATUS(status) == 0
			      ? 0
			      : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the ConfigMap case failed (status %d)", status);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_capconf");
	TCase *tc = tcase_create("capconf");
	check_as_root();

	tcase_add_test(tc, find_by_group);
	tcase_add_test(tc, find_in_configmap);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
