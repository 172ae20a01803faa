/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A world of a test's own for the trust checks (common/path_trust.h),
 * which follow every way from "/": in a private mount namespace, / is a
 * fresh tmpfs of root's (0755) with the host's /proc bound in, so that no
 * directory of the host's decides. For a checked fixture of a suite run
 * with CK_FORK=yes: each test enters it in its own process
 * (world_fixtures()). The includer defines _GNU_SOURCE (unshare) before
 * its first include, and WORLD_BASE, the mkdtemp() template of the
 * directory the world is mounted on ("/tmp/check_NAME.XXXXXX").
 */
#ifndef CHECK_WORLD_H
#define CHECK_WORLD_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"

static char world_base[] = WORLD_BASE;

static void world_base_make(void)
{
	ck_assert_ptr_nonnull(mkdtemp(world_base));
}

static void world_base_remove(void)
{
	rmdir(world_base);
}

/* mkdir -p of path (below the world's base, while it is being made). */
static void world_make_dirs(char *path)
{
	char *slash;

	for (slash = strchr(path + 1, '/'); slash != NULL;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
		*slash = '/';
	}
	ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
}

/*
 * The directory of a log file that options name after key (run.sh names
 * one per suite: the sanitizers' log_path=, valgrind's --log-file=),
 * bound at the same path in the world at base: what they find in a
 * chrooted test, or in a process it forks, is written where run.sh
 * reads it.
 */
static void world_keep_log_dir(const char *base, const char *options,
			       const char *key)
{
	const char *at = options != NULL ? strstr(options, key) : NULL;
	char dir[512], inside[1024], *slash;
	size_t len;

	if (at == NULL)
		return;
	at += strlen(key);
	len = strcspn(at, ": ");
	ck_assert_uint_lt(len, sizeof(dir));
	memcpy(dir, at, len);
	dir[len] = '\0';
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return;
	*slash = '\0';
	snprintf(inside, sizeof(inside), "%s%s", base, dir);
	world_make_dirs(inside);
	ck_assert_int_eq(mount(dir, inside, "none", MS_BIND, NULL), 0);
}

/* This test's process enters the world: "/" its working directory, umask 0. */
static void world_enter(void)
{
	const char *base = world_base;
	char proc[512];

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL),
			 0);
	ck_assert_int_eq(mount("world", base, "tmpfs", 0, "mode=0755"), 0);
	snprintf(proc, sizeof(proc), "%s/proc", base);
	ck_assert_int_eq(mkdir(proc, 0555), 0);
	ck_assert_int_eq(mount("/proc", proc, "none", MS_BIND | MS_REC, NULL),
			 0);
	world_keep_log_dir(base, getenv("ASAN_OPTIONS"), "log_path=");
	world_keep_log_dir(base, getenv("UBSAN_OPTIONS"), "log_path=");
	world_keep_log_dir(base, getenv("VALGRIND_CMD"), "--log-file=");
	ck_assert_int_eq(chroot(base), 0);
	ck_assert_int_eq(chdir("/"), 0);
	umask(0);
}

/* A directory, or an empty regular file, at path with mode's permissions. */
static void world_make(const char *path, mode_t mode)
{
	if (S_ISDIR(mode)) {
		ck_assert_int_eq(mkdir(path, mode & 07777), 0);
	} else {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode & 07777);

		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	ck_assert_int_eq(chmod(path, mode & 07777), 0);
}

/* Each test of tc in a world of its own, made before it and gone after. */
static void world_fixtures(TCase *tc)
{
	setenv("CK_FORK", "yes", 1);
	tcase_add_unchecked_fixture(tc, world_base_make, world_base_remove);
	tcase_add_checked_fixture(tc, world_enter, NULL);
}

#endif
