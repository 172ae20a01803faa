/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's trust in a file it proves a grant with, or that a line it
 * suggests grants (progs/capaudit/capaudit_trust.c): common/path_trust.h
 * under capaudit's policy, and the clauses capaudit says its verdicts in.
 * Each test runs in a world of its own (check_world.h): as root, or as
 * another user in a user namespace of its own (check_userns.h), where
 * files of other owners cannot be made (those cases then run as root
 * alone, and tests/root/capaudit_trials.sh tries them on capaudit itself).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "acl.h"
#include "capaudit_trust.h"
#include "check_run.h"
#include "check_userns.h"
#define WORLD_BASE "/tmp/check_capaudit_trust.XXXXXX"
#include "check_world.h"

static char clause[512];

/* One entry of an access ACL's xattr at p: tag, permissions, id. */
static void put_entry(unsigned char *p, unsigned tag, unsigned perm,
		      unsigned id)
{
	p[0] = (unsigned char)tag;
	p[1] = (unsigned char)(tag >> 8);
	p[2] = (unsigned char)perm;
	p[3] = 0;
	p[4] = (unsigned char)id;
	p[5] = (unsigned char)(id >> 8);
	p[6] = (unsigned char)(id >> 16);
	p[7] = (unsigned char)(id >> 24);
}

/*
 * An access ACL on path: user::rwx, tag:id:rwx (ACL_NAMED_USER or
 * ACL_NAMED_GROUP), group::r-x, mask::rwx, other::r-x, in the order of
 * their tags, as the kernel wants them; the mode's group bits become the
 * mask's, rwx.
 */
static void set_acl(const char *path, unsigned tag, unsigned id)
{
	const unsigned none = 0xffffffffu;
	unsigned char raw[4 + 5 * 8] = { 2, 0, 0, 0 };
	int named_first = tag == ACL_NAMED_USER;

	put_entry(raw + 4, ACL_USER_OBJ, 7, none);
	put_entry(raw + 12, named_first ? tag : ACL_GROUP_OBJ,
		  named_first ? 7 : 5, named_first ? id : none);
	put_entry(raw + 20, named_first ? ACL_GROUP_OBJ : tag,
		  named_first ? 5 : 7, named_first ? none : id);
	put_entry(raw + 28, ACL_MASK, 7, none);
	put_entry(raw + 36, ACL_OTHER, 5, none);
	ck_assert_int_eq(setxattr(path, ACL_XATTR_ACCESS, raw, sizeof(raw), 0),
			 0);
}

/* trust_path() of path, as the trials ask it (TRUST_NOW). */
static enum trust_verdict judged(const char *path)
{
	clause[0] = '\0';
	return trust_path(path, -1, TRUST_NOW, clause, sizeof(clause));
}

START_TEST(roots_alone)
{
	world_make("/bin", S_IFDIR | 0755);
	world_make("/bin/cmd", S_IFREG | 0755);
	ck_assert_int_eq(judged("/bin/cmd"), TRUST_ROOTS);
	ck_assert_int_eq(trust_path("/bin/cmd", -1, TRUST_PASTED, clause,
				    sizeof(clause)),
			 TRUST_ROOTS);
	/* a symbolic link of root's in root's directory is root's to point */
	ck_assert_int_eq(symlink("bin", "/lnk"), 0);
	ck_assert_int_eq(judged("/lnk/cmd"), TRUST_ROOTS);
	ck_assert_int_eq(judged("/bin"), TRUST_UNVOUCHED);
	ck_assert_str_eq(clause, "is not a regular file");
	ck_assert_int_eq(judged("/bin/none"), TRUST_UNVOUCHED);
	ck_assert_str_eq(clause,
			 "cannot be checked (No such file or directory)");
}
END_TEST

/* Who may write the file itself: its mode, or an ACL entry beside it. */
START_TEST(file_writers)
{
	world_make("/bin", S_IFDIR | 0755);
	world_make("/bin/grp", S_IFREG | 0775);
	world_make("/bin/acl", S_IFREG | 0755);
	set_acl("/bin/acl", ACL_NAMED_GROUP, 0);
	ck_assert_int_eq(judged("/bin/grp"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"is writable by others than root (its group 0 may write it)");
	ck_assert_int_eq(judged("/bin/acl"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"is writable by others than root (an ACL entry lets group 0 write it)");
}
END_TEST

/* The same with owners other than root: as real root alone. */
START_TEST(file_of_another_user)
{
	world_make("/bin", S_IFDIR | 0755);
	world_make("/bin/nb", S_IFREG | 0755);
	world_make("/bin/acl", S_IFREG | 0755);
	ck_assert_int_eq(chown("/bin/nb", 65534, 0), 0);
	set_acl("/bin/acl", ACL_NAMED_USER, 65534);
	ck_assert_int_eq(judged("/bin/nb"), TRUST_OTHERS);
	ck_assert_str_eq(clause, "is not root's");
	ck_assert_int_eq(judged("/bin/acl"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"is writable by others than root (an ACL entry lets uid 65534 write it)");
	/* a link another user owns: they point it */
	world_make("/d", S_IFDIR | 0755);
	ck_assert_int_eq(symlink("/bin", "/d/l"), 0);
	ck_assert_int_eq(lchown("/d/l", 65534, 65534), 0);
	ck_assert_int_eq(judged("/d/l/grp"), TRUST_UNVOUCHED); /* no file */
	world_make("/bin/cmd", S_IFREG | 0755);
	ck_assert_int_eq(judged("/d/l/cmd"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"has a symbolic link in its path (/d/l: uid 65534 owns it, and may point it elsewhere)");
	/* a directory another user owns: the words capaudit always said */
	world_make("/nb", S_IFDIR | 0755);
	world_make("/nb/cmd", S_IFREG | 0755);
	ck_assert_int_eq(chown("/nb", 65534, 0), 0);
	ck_assert_int_eq(judged("/nb/cmd"), TRUST_OTHERS);
	ck_assert_str_eq(clause,
			 "is in a directory others than root may change");
}
END_TEST

/*
 * A directory others may write by its mode: the words capaudit always
 * said; through an ACL entry: the directory and the entry named.
 */
START_TEST(directory_writers)
{
	world_make("/open", S_IFDIR | 0777);
	world_make("/open/cmd", S_IFREG | 0755);
	world_make("/acl", S_IFDIR | 0755);
	world_make("/acl/cmd", S_IFREG | 0755);
	world_make("/acl/sub", S_IFDIR | 0755);
	world_make("/acl/sub/cmd", S_IFREG | 0755);
	set_acl("/acl", ACL_NAMED_GROUP, 0);
	ck_assert_int_eq(judged("/open/cmd"), TRUST_OTHERS);
	ck_assert_str_eq(clause,
			 "is in a directory others than root may change");
	ck_assert_int_eq(judged("/acl/cmd"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"is under directory /acl, which others than root may change (an ACL entry lets group 0 write it)");
	ck_assert_int_eq(judged("/acl/sub/cmd"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"is under directory /acl, which others than root may change (an ACL entry lets group 0 write it)");
}
END_TEST

/* A sticky directory everyone may write: above the file's, not holding it. */
START_TEST(sticky_above_only)
{
	world_make("/w", S_IFDIR | 01777);
	world_make("/w/cmd", S_IFREG | 0755);
	world_make("/w/bin", S_IFDIR | 0755);
	world_make("/w/bin/cmd", S_IFREG | 0755);
	ck_assert_int_eq(judged("/w/bin/cmd"), TRUST_ROOTS);
	ck_assert_int_eq(judged("/w/cmd"), TRUST_OTHERS);
	ck_assert_str_eq(
		clause,
		"is in directory /w, which is sticky but lets others than root add names, a file of root's moved in among them (everybody may write it)");
	/* a name a terminal would act on, escaped where printed as it is */
	world_make("/w\n", S_IFDIR | 01777);
	world_make("/w\n/cmd", S_IFREG | 0755);
	ck_assert_int_eq(judged("/w\n/cmd"), TRUST_OTHERS);
	trust_clause_escape(clause, sizeof(clause));
	ck_assert_str_eq(
		clause,
		"is in directory /w\\012, which is sticky but lets others than root add names, a file of root's moved in among them (everybody may write it)");
}
END_TEST

/* The way must end at the file judged. */
START_TEST(way_to_another_file)
{
	struct stat other;

	world_make("/bin", S_IFDIR | 0755);
	world_make("/bin/cmd", S_IFREG | 0755);
	world_make("/bin/other", S_IFREG | 0755);
	ck_assert_int_eq(stat("/bin/other", &other), 0);
	ck_assert_int_eq(trust_way("/bin/cmd", &other, TRUST_NOW, clause,
				   sizeof(clause)),
			 TRUST_UNVOUCHED);
	ck_assert_str_eq(
		clause,
		"cannot be checked (its path now leads to another file: a directory on its way changed)");
}
END_TEST

/*
 * A directory everyone may write by its mode, on a read-only mount no
 * other mount reaches: root's alone while capaudit runs, not for a line
 * pasted later (setcap needs the mount writable). As real root: a mount
 * namespace a user namespace owns seals nothing.
 */
START_TEST(read_only_mount)
{
	static const char ro_but[] = "is in a directory others than root "
				     "may change (its mount is read-only, but ";
	enum trust_verdict now;

	world_make("/ro", S_IFDIR | 0755);
	ck_assert_int_eq(mount("ro", "/ro", "tmpfs", 0, "mode=0777"), 0);
	world_make("/ro/cmd", S_IFREG | 0755);
	ck_assert_int_eq(mount("none", "/ro", "none",
			       MS_REMOUNT | MS_RDONLY | MS_BIND, NULL),
			 0);
	now = judged("/ro/cmd");
	/*
	 * Where statmount(2) answers, the seal is proven; under valgrind,
	 * which knows no such call, the mounts of every namespace cannot be
	 * listed, and it is refused, saying why.
	 */
	errno = 0;
	if (syscall(457, NULL, NULL, 0, 0) == -1 && errno != ENOSYS)
		ck_assert_msg(now == TRUST_ROOTS, "%s", clause);
	else
		ck_assert_msg(now == TRUST_OTHERS &&
				      strncmp(clause, ro_but, strlen(ro_but)) ==
					      0,
			      "%s", clause);
	/* for a line to paste, no seal is asked for */
	ck_assert_int_eq(
		trust_path("/ro/cmd", -1, TRUST_PASTED, clause, sizeof(clause)),
		TRUST_OTHERS);
	ck_assert_str_eq(clause,
			 "is in a directory others than root may change");
}
END_TEST

static Suite *capaudit_trust_suite(void)
{
	int real_root = geteuid() == 0;
	Suite *s = suite_create("capaudit_trust");
	TCase *files = tcase_create("files");

	check_as_root();
	world_fixtures(files);
	tcase_add_test(files, roots_alone);
	tcase_add_test(files, file_writers);
	tcase_add_test(files, directory_writers);
	tcase_add_test(files, sticky_above_only);
	tcase_add_test(files, way_to_another_file);
	if (real_root) {
		tcase_add_test(files, file_of_another_user);
		tcase_add_test(files, read_only_mount);
	} else {
		printf("note: not root: files of other owners and read-only mounts are not tried\n");
	}
	suite_add_tcase(s, files);
	return s;
}

CHECK_MAIN(capaudit_trust_suite)
