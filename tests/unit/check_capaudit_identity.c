/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Which file a record of the run names (progs/capaudit/capaudit_identity.c):
 * only a regular file is opened (never a FIFO, which would block, nor a
 * last symbolic link), and it is the record's file when stat(2) or a
 * mapping of it gives the record's device and inode. Overlayfs and btrfs,
 * where the two differ, are tried on the real kernel by
 * tests/root/capaudit_suggest.sh and capaudit_trials.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capaudit_identity.h"
#include "check_run.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_capaudit_identity.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* What the tests make, removed without running a program for it. */
static void remove_dir(void)
{
	static const char *const names[] = { "fifo", "link", "file", "other" };
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ck_assert(unlink(path) == 0 || errno == ENOENT);
	}
	snprintf(path, sizeof(path), "%s/sub", dir);
	ck_assert(rmdir(path) == 0 || errno == ENOENT);
	ck_assert_int_eq(rmdir(dir), 0);
}

static void path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

START_TEST(only_a_regular_file_is_opened)
{
	char fifo[256], link[256], sub[256];
	struct stat st;

	make_dir();
	path_in(fifo, sizeof(fifo), "fifo");
	path_in(link, sizeof(link), "link");
	path_in(sub, sizeof(sub), "sub");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(symlink("/bin/sh", link), 0);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	/* A FIFO where the file was: refused at once, never a reader. */
	errno = 0;
	ck_assert_int_eq(identity_open(fifo, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(identity_open(sub, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* A symbolic link is not followed: it is no regular file either. */
	errno = 0;
	ck_assert_int_eq(identity_open(link, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	path_in(sub, sizeof(sub), "absent");
	ck_assert_int_eq(identity_open(sub, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	remove_dir();
}
END_TEST

START_TEST(the_record_names_this_file_or_another)
{
	char file[256], other[256];
	struct stat st, ost;
	int fd, ofd;

	make_dir();
	path_in(file, sizeof(file), "file");
	path_in(other, sizeof(other), "other");
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0755);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	/* An empty file maps too (a record never names one, but no crash). */
	fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0755);
	ck_assert_int_ge(fd, 0);
	close(fd);
	fd = identity_open(file, &st);
	ck_assert_int_ge(fd, 0);
	ofd = identity_open(other, &ost);
	ck_assert_int_ge(ofd, 0);
	/* Opened for reading: a mapping of it can be made. */
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY);
	ck_assert_int_eq(identity_match(fd, &st, major(st.st_dev),
					minor(st.st_dev), st.st_ino),
			 FILE_SAME);
	ck_assert_int_eq(identity_match(fd, &st, major(ost.st_dev),
					minor(ost.st_dev), ost.st_ino),
			 FILE_OTHER);
	ck_assert_int_eq(identity_match(ofd, &ost, major(st.st_dev),
					minor(st.st_dev), st.st_ino),
			 FILE_OTHER);
	ck_assert_int_eq(identity_match(fd, &st, major(st.st_dev) + 1,
					minor(st.st_dev), st.st_ino),
			 FILE_OTHER);
	close(fd);
	close(ofd);
	remove_dir();
}
END_TEST

static Suite *identity_suite(void)
{
	Suite *s = suite_create("capaudit_identity");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, only_a_regular_file_is_opened);
	tcase_add_test(tc, the_record_names_this_file_or_another);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(identity_suite)
