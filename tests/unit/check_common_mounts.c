/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/mounts.c: mountinfo's lines read as the kernel writes them, and
 * which mounts let a write reach a directory. A trust check relies on
 * both: a line misread, or a mount of the directory's file system taken
 * for one that cannot reach it, would call a writable directory sealed.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_run.h"
#include "mounts.h"

/* parse TEXT (copied, since the parser writes into it) into e */
static int parse(const char *text, struct mount_entry *e, char *buf, size_t len)
{
	ck_assert_uint_lt(strlen(text), len);
	strcpy(buf, text);
	return mountinfo_parse_line(buf, e);
}

START_TEST(line_fields)
{
	struct mount_entry e;
	char buf[512];

	ck_assert_int_eq(
		parse("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue",
		      &e, buf, sizeof(buf)),
		0);
	ck_assert_uint_eq(e.id, 36);
	ck_assert_uint_eq(e.major, 98);
	ck_assert_uint_eq(e.minor, 0);
	ck_assert_str_eq(e.root, "/mnt1");
	ck_assert_str_eq(e.point, "/mnt2");
	ck_assert_int_eq(e.read_only, 0);
	ck_assert_int_eq(e.idmapped, 0);
	ck_assert_str_eq(e.fstype, "ext3");
	ck_assert_str_eq(e.super_opts, "rw,errors=continue");
	/* no optional field; several */
	ck_assert_int_eq(
		parse("7 1 0:5 / /x ro - tmpfs t rw", &e, buf, sizeof(buf)), 0);
	ck_assert_int_eq(e.read_only, 1);
	ck_assert_int_eq(
		parse("7 1 259:65536 / /x rw shared:4 master:2 propagate_from:1 - xfs /dev/a rw",
		      &e, buf, sizeof(buf)),
		0);
	ck_assert_uint_eq(e.minor, 65536);
	/* an empty source, as fsconfig(2) allows */
	ck_assert_int_eq(parse("8 1 0:40 / /y rw - tmpfs  rw,size=4k", &e, buf,
			       sizeof(buf)),
			 0);
	ck_assert_str_eq(e.point, "/y");
}
END_TEST

/* Read-only at the superblock counts as at the mount; words are whole. */
START_TEST(read_only_words)
{
	struct mount_entry e;
	char buf[512];

	ck_assert_int_eq(parse("9 1 8:1 / /z rw,relatime - ext4 /dev/b ro", &e,
			       buf, sizeof(buf)),
			 0);
	ck_assert_int_eq(e.read_only, 1);
	ck_assert_int_eq(parse("9 1 8:1 / /z rw,rox - ext4 /dev/b rw,ro_x,xro",
			       &e, buf, sizeof(buf)),
			 0);
	ck_assert_int_eq(e.read_only, 0);
	ck_assert_int_eq(parse("9 1 8:1 / /z ro,idmapped - ext4 /dev/b rw", &e,
			       buf, sizeof(buf)),
			 0);
	ck_assert_int_eq(e.read_only, 1);
	ck_assert_int_eq(e.idmapped, 1);
}
END_TEST

/* Blanks, newlines and backslashes in paths come as \ooo. */
START_TEST(escaped_paths)
{
	struct mount_entry e;
	char buf[512];

	ck_assert_int_eq(
		parse("10 1 0:41 /a\\040b\\134c /d\\011e\\012f rw - tmpfs x\\040y rw",
		      &e, buf, sizeof(buf)),
		0);
	ck_assert_str_eq(e.root, "/a b\\c");
	ck_assert_str_eq(e.point, "/d\te\nf");
	/* not an escape: left as it is */
	ck_assert_int_eq(parse("10 1 0:41 /a\\9 /b\\04 rw - tmpfs x rw", &e,
			       buf, sizeof(buf)),
			 0);
	ck_assert_str_eq(e.root, "/a\\9");
	ck_assert_str_eq(e.point, "/b\\04");
}
END_TEST

START_TEST(bad_lines)
{
	static const char *const bad[] = {
		"",
		"36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 ext3 /dev/root rw",
		"36 35 98:0 /mnt1 /mnt2 rw -",
		"36 35 98:0 /mnt1 /mnt2 rw - ext3",
		"36 35 98:0 /mnt1 /mnt2 rw - ext3 /dev/root",
		"36 35 98:0 /mnt1 /mnt2 rw - ext3 /dev/root rw extra",
		"x6 35 98:0 /mnt1 /mnt2 rw - ext3 /dev/root rw",
		"36 35 98 /mnt1 /mnt2 rw - ext3 /dev/root rw",
		"36 35 98:-1 /mnt1 /mnt2 rw - ext3 /dev/root rw",
		"36 35 4294967296:0 /mnt1 /mnt2 rw - ext3 /dev/root rw",
		"36 35 98:0 mnt1 /mnt2 rw - ext3 /dev/root rw",
		"36 35 98:0 /mnt1 mnt2 rw - ext3 /dev/root rw",
		"36 35 98:0 /mnt1",
	};
	struct mount_entry e;
	char buf[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ck_assert_msg(parse(bad[i], &e, buf, sizeof(buf)) == -1,
			      "read: %s", bad[i]);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_ptr_null(e.root);
	}
}
END_TEST

static struct mount_entry mount_of(const char *root, const char *point,
				   int read_only)
{
	struct mount_entry m = { .id = 1,
				 .major = 0,
				 .minor = 41,
				 .read_only = read_only,
				 .root = root,
				 .point = point };

	return m;
}

START_TEST(fs_paths)
{
	struct mount_entry m = mount_of("/", "/", 0);
	char out[64];

	ck_assert_int_eq(mount_fs_path(&m, "/etc/security", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "/etc/security");
	ck_assert_int_eq(mount_fs_path(&m, "/", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/");
	m = mount_of("/pods/p1/volumes/cm", "/etc/security", 1);
	ck_assert_int_eq(mount_fs_path(&m, "/etc/security", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "/pods/p1/volumes/cm");
	ck_assert_int_eq(
		mount_fs_path(&m, "/etc/security/..2026", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/pods/p1/volumes/cm/..2026");
	m = mount_of("/", "/etc/security", 1);
	ck_assert_int_eq(mount_fs_path(&m, "/etc/security", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "/");
	ck_assert_int_eq(mount_fs_path(&m, "/etc/security/a", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "/a");
	/* not on this mount: a name that only starts the same */
	errno = 0;
	ck_assert_int_eq(mount_fs_path(&m, "/etc/securityX", out, sizeof(out)),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(mount_fs_path(&m, "/etc", out, sizeof(out)), -1);
	/* a mount point outside the caller's root: unknown */
	m = mount_of("/", NULL, 1);
	errno = 0;
	ck_assert_int_eq(mount_fs_path(&m, "/etc", out, sizeof(out)), -1);
	ck_assert_int_eq(errno, EINVAL);
	m = mount_of("/a/very/long/root/that/does/not/fit", "/", 1);
	errno = 0;
	ck_assert_int_eq(mount_fs_path(&m, "/etc", out, 16), -1);
	ck_assert_int_eq(errno, ENAMETOOLONG);
}
END_TEST

/* A writable mount of the directory, or of one above it, reaches it. */
START_TEST(reaching_mounts)
{
	struct mount_entry m = mount_of("/", "/node", 0);

	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vol/cm"), 1);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/"), 1);
	m = mount_of("/vol", "/node", 0);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vol"), 1);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vol/cm"), 1);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/volume/cm"), 0);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vo"), 0);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/"), 0);
	/* below it, or another file system, or read-only: no way in */
	m = mount_of("/vol/cm/sub", "/node", 0);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vol/cm"), 0);
	m = mount_of("/", "/node", 0);
	ck_assert_int_eq(mount_reaches(&m, 0, 42, "/vol/cm"), 0);
	ck_assert_int_eq(mount_reaches(&m, 1, 41, "/vol/cm"), 0);
	m = mount_of("/", "/node", 1);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vol/cm"), 0);
	/* outside a chroot (no mount point here) it reaches all the same */
	m = mount_of("/vol", NULL, 0);
	ck_assert_int_eq(mount_reaches(&m, 0, 41, "/vol/cm"), 1);
}
END_TEST

static Suite *mounts_suite(void)
{
	Suite *s = suite_create("common_mounts");
	TCase *tc = tcase_create("mounts");

	tcase_add_test(tc, line_fields);
	tcase_add_test(tc, read_only_words);
	tcase_add_test(tc, escaped_paths);
	tcase_add_test(tc, bad_lines);
	tcase_add_test(tc, fs_paths);
	tcase_add_test(tc, reaching_mounts);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(mounts_suite)
