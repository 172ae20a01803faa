/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/path_trust.c and path_trust_way.c, the one judge of "could anyone
 * but root have changed this file, through its path": the rule itself on
 * owners, modes and ACL entries (no file needed), then files and ways on
 * the real kernel, each test in a chroot of its own into a fresh tmpfs (a
 * private mount namespace of its forked child), so that no directory of
 * the host's decides: as root, or as another user in a user namespace of
 * its own (check_userns.h), where files of other owners cannot be made
 * (their cases then run in the root shell suites alone, and are said so).
 * Each policy the callers use is checked where they differ: pam_cap's
 * (sticky directories only above, seals, the overflow uid) and
 * capmanifest's (a second uid, sticky directories never or only above,
 * no seals).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "check_run.h"
#include "check_pidns.h"
#include "check_userns.h"
#define WORLD_BASE "/tmp/check_path_trust.XXXXXX"
#include "check_world.h"
#include "acl.h"
#include "capconf.h"
#include "fsowner.h"
#include "path_trust.h"

/* pam_cap's, capcheck's and perfdoctor's policy, as they ask it */
static const struct path_trust_policy *const conf = &capconf_trust_policy;

/* capmanifest's, for its tree (progs/capmanifest/capmanifest_trust.c) */
static const struct path_trust_policy manifest = {
	.also = (uid_t)-1,
	.overflow_uid = 0,
	.sticky = PATH_TRUST_STICKY_NEVER,
	.sealed_mounts = 0,
	.words = PATH_TRUST_WORDS_MANIFEST,
};

static struct path_trust t;

static struct path_trust_policy with_sticky(enum path_trust_sticky sticky)
{
	struct path_trust_policy p = manifest;

	p.sticky = sticky;
	return p;
}

static struct stat meta(uid_t uid, gid_t gid, mode_t mode)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_uid = uid;
	st.st_gid = gid;
	st.st_mode = mode;
	st.st_nlink = 1;
	return st;
}

/* path_trust_meta() under policy p: its answer; t keeps why. */
static int judge(const struct path_trust_policy *p, struct stat st,
		 const struct acl_entry *e, int n)
{
	path_trust_init(&t, p);
	return path_trust_meta(&t, &st, e, n);
}

/* --- The rule, without files --- */

START_TEST(owner_not_trusted)
{
	struct path_trust_policy mine = manifest;

	ck_assert_int_eq(judge(conf, meta(4002, 0, S_IFREG | 0644), NULL, 0),
			 1);
	ck_assert_int_eq(t.how, PATH_TRUST_OWNER);
	ck_assert_int_eq(t.where, PATH_TRUST_IT);
	ck_assert_str_eq(t.why, "uid 4002 owns it");
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0644), NULL, 0), 0);
	/* the uid a policy names beside root: its own, and nobody else's */
	mine.also = 4002;
	ck_assert_int_eq(
		judge(&mine, meta(4002, 4002, S_IFREG | 0644), NULL, 0), 0);
	ck_assert_int_eq(judge(&mine, meta(4003, 0, S_IFREG | 0644), NULL, 0),
			 1);
	ck_assert_str_eq(t.why, "uid 4003 owns it");
}
END_TEST

/* Each program's words for the same writers, as its tests quote them. */
START_TEST(mode_writers_in_each_voice)
{
	ck_assert_int_eq(judge(conf, meta(0, 4200, S_IFREG | 0664), NULL, 0),
			 1);
	ck_assert_int_eq(t.how, PATH_TRUST_WRITER);
	ck_assert_str_eq(t.why, "its group 4200 may write it");
	ck_assert_int_eq(
		judge(&manifest, meta(0, 4200, S_IFREG | 0664), NULL, 0), 1);
	ck_assert_str_eq(t.why, "group 4200 may write it (mode 0664)");
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0646), NULL, 0), 1);
	ck_assert_str_eq(t.why, "everybody may write it");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFREG | 0646), NULL, 0),
			 1);
	ck_assert_str_eq(t.why, "everyone may write it (mode 0646)");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFDIR | 01777), NULL, 0),
			 1);
	ck_assert_str_eq(
		t.why,
		"everyone may write it (mode 1777, sticky, which still lets them add names)");
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0644), NULL, 0), 0);
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFREG | 0755), NULL, 0),
			 0);
}
END_TEST

/* Processes that are not root hold gid 0: root's group is no root. */
START_TEST(group_root_is_no_root)
{
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0664), NULL, 0), 1);
	ck_assert_str_eq(t.why, "its group 0 may write it");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFDIR | 0775), NULL, 0),
			 1);
	ck_assert_str_eq(t.why, "group 0 may write it (mode 0775)");
}
END_TEST

#define ENTRY(tag, perm, id)                  \
	{                                     \
		(tag), (perm), (uint32_t)(id) \
	}
#define NO_ID 0xffffffffU

/* user::rw- user:ID:PERM group::r-- mask::MASK other::r-- */
static int named_user(struct acl_entry *e, uint32_t id, unsigned perm,
		      unsigned mask)
{
	struct acl_entry all[] = {
		ENTRY(ACL_USER_OBJ, 6, NO_ID),	ENTRY(ACL_NAMED_USER, perm, id),
		ENTRY(ACL_GROUP_OBJ, 4, NO_ID), ENTRY(ACL_MASK, mask, NO_ID),
		ENTRY(ACL_OTHER, 4, NO_ID),
	};

	memcpy(e, all, sizeof(all));
	return 5;
}

START_TEST(acl_entries_as_the_kernel_weighs_them)
{
	struct acl_entry e[8];
	struct path_trust_policy mine = manifest;
	int n = named_user(e, 4002, 6, 6);

	/* the mode shows the mask: 0664 */
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0664), e, n), 1);
	ck_assert_str_eq(t.why, "an ACL entry lets uid 4002 write it");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFREG | 0664), e, n), 1);
	ck_assert_str_eq(t.why, "uid 4002 may write it (ACL entry)");
	/* the mask r-- takes the write away */
	n = named_user(e, 4002, 6, 4);
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0644), e, n), 0);
	/* root's own entry, and the uid a policy names */
	n = named_user(e, 0, 6, 6);
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0664), e, n), 0);
	mine.also = 4002;
	n = named_user(e, 4002, 6, 6);
	ck_assert_int_eq(judge(&mine, meta(0, 0, S_IFREG | 0664), e, n), 0);
	/*
	 * No group bit in the mode: the kernel never looks at the ACL, and
	 * neither does the judge (the named entry cannot write).
	 */
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0604), e, n), 0);
	/* the owning group's entry writes: root's group too */
	e[2].perm = 6;
	n = named_user(e, 0, 6, 6);
	e[2].perm = 6;
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0664), e, n), 1);
	ck_assert_str_eq(t.why, "its group 0 may write it");
	ck_assert_int_eq(judge(&manifest, meta(0, 7, S_IFREG | 0664), e, n), 1);
	ck_assert_str_eq(t.why, "group 7 may write it (ACL entry)");
}
END_TEST

START_TEST(acl_named_group_and_other)
{
	struct acl_entry e[] = {
		ENTRY(ACL_USER_OBJ, 6, NO_ID), ENTRY(ACL_GROUP_OBJ, 4, NO_ID),
		ENTRY(ACL_NAMED_GROUP, 6, 0),  ENTRY(ACL_MASK, 6, NO_ID),
		ENTRY(ACL_OTHER, 4, NO_ID),
	};

	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0664), e, 5), 1);
	ck_assert_str_eq(t.why, "an ACL entry lets group 0 write it");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFREG | 0664), e, 5), 1);
	ck_assert_str_eq(t.why, "group 0 may write it (ACL entry)");
	/* the mask does not limit other */
	e[2].perm = 4;
	e[3].perm = 4;
	e[4].perm = 6;
	ck_assert_int_eq(judge(conf, meta(0, 0, S_IFREG | 0646), e, 5), 1);
	ck_assert_str_eq(t.why, "everybody may write it");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFREG | 0646), e, 5), 1);
	ck_assert_str_eq(t.why, "everyone may write it (ACL entry)");
}
END_TEST

/*
 * In a nested user namespace the overflow uid counts as root where the
 * policy says and the namespace does not map it; never where it does.
 */
START_TEST(overflow_uid_by_policy)
{
	struct acl_entry e[8];
	int n = named_user(e, 65534, 6, 6);

	path_trust_init(&t, conf);
	t.overflow = 65534;
	t.overflow_trusted = 1;
	ck_assert_int_eq(path_trust_uid(&t, 65534), 1);
	ck_assert_int_eq(path_trust_uid(&t, 65533), 0);
	t.overflow_trusted = 0;
	ck_assert_int_eq(path_trust_uid(&t, 65534), 0);
	ck_assert_int_eq(judge(&manifest, meta(65534, 0, S_IFREG | 0644), e, n),
			 1);
	ck_assert_str_eq(t.why, "uid 65534 owns it");
	ck_assert_int_eq(judge(&manifest, meta(0, 0, S_IFREG | 0664), e, n), 1);
	ck_assert_str_eq(t.why, "uid 65534 may write it (ACL entry)");
}
END_TEST

/* Whether this process is in the first user namespace (an identity map). */
static int in_first_userns(void)
{
	char text[128] = "";
	unsigned long a, b, c;
	FILE *f = fopen("/proc/self/uid_map", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	fclose(f);
	return sscanf(text, "%lu %lu %lu", &a, &b, &c) == 3 && a == 0 &&
	       b == 0 && c == 4294967295UL;
}

/* The kernel's overflow uid, as it says (65534 unless set otherwise). */
static unsigned long overflow_uid(void)
{
	unsigned long uid = 0;
	FILE *f = fopen("/proc/sys/kernel/overflowuid", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%lu", &uid), 1);
	fclose(f);
	ck_assert_uint_ne(uid, 0);
	return uid;
}

static void overflow_in_new_userns(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (unshare(CLONE_NEWUSER) < 0)
		_exit(3); /* the caller fails the test */
	write_proc_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %lu 1\n", (unsigned long)uid);
	write_proc_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %lu 1\n", (unsigned long)gid);
	write_proc_file("/proc/self/gid_map", map);
	path_trust_init(&t, conf);
	ck_assert_uint_eq(t.overflow, overflow_uid());
	ck_assert_int_eq(path_trust_uid(&t, overflow_uid()), 1);
	/* the same namespace, a policy that trusts no overflow uid */
	path_trust_init(&t, &manifest);
	ck_assert_int_eq(path_trust_uid(&t, overflow_uid()), 0);
}

START_TEST(overflow_uid_read_from_the_namespace)
{
	path_trust_init(&t, conf);
	if (in_first_userns())
		ck_assert_int_eq(t.overflow_trusted, 0);
	check_in_child(overflow_in_new_userns);
}
END_TEST

/* --- Files and ways, in a chroot into a fresh tmpfs --- */

/* The files the tests judge: empty, no test reads them. */
static void make(const char *path, mode_t mode)
{
	world_make(path, mode);
}

/* path_trust_way() of path, judged to lead to target's file, under p. */
static int way(const struct path_trust_policy *p, const char *path,
	       const char *target)
{
	struct stat st;

	ck_assert_int_eq(stat(target, &st), 0);
	path_trust_init(&t, p);
	return path_trust_way(&t, path, &st);
}

START_TEST(way_of_roots_alone)
{
	make("/etc", S_IFDIR | 0755);
	make("/etc/security", S_IFDIR | 0755);
	make("/etc/security/capability.conf", S_IFREG | 0644);
	ck_assert_int_eq(way(conf, "/etc/security/capability.conf",
			     "/etc/security/capability.conf"),
			 0);
	ck_assert_int_eq(way(&manifest, "/etc/security/capability.conf",
			     "/etc/security/capability.conf"),
			 0);
	/* ".", "..", doubled slashes, and a relative way */
	ck_assert_int_eq(way(conf,
			     "//etc/./security/../security//capability.conf",
			     "/etc/security/capability.conf"),
			 0);
	ck_assert_int_eq(chdir("/etc"), 0);
	ck_assert_int_eq(way(&manifest, "security/capability.conf",
			     "/etc/security/capability.conf"),
			 0);
	/* a directory, the way's end */
	ck_assert_int_eq(way(&manifest, "/etc/security", "/etc/security"), 0);
	ck_assert_int_eq(way(&manifest, "/", "/"), 0);
}
END_TEST

/* A directory others may write, anywhere on the way, names itself. */
START_TEST(way_through_a_writable_directory)
{
	make("/open", S_IFDIR | 0777);
	make("/open/a", S_IFDIR | 0755);
	make("/open/a/f", S_IFREG | 0644);
	ck_assert_int_eq(way(conf, "/open/a/f", "/open/a/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.how, PATH_TRUST_WRITER);
	ck_assert_int_eq(t.holder, 0);
	ck_assert_str_eq(t.path, "/open");
	ck_assert_str_eq(t.why, "everybody may write it");
	ck_assert_str_eq(t.note, ""); /* a writable mount: nothing to say */
	ck_assert_int_eq(way(&manifest, "/open/a/f", "/open/a/f"), 1);
	ck_assert_str_eq(t.path, "/open");
	ck_assert_str_eq(t.why, "everyone may write it (mode 0777)");
	/* reached by "..": judged again */
	ck_assert_int_eq(way(conf, "/open/a/../a/f", "/open/a/f"), 1);
	ck_assert_str_eq(t.path, "/open");
}
END_TEST

/*
 * A sticky directory others may write keeps root's names from being
 * renamed or removed, not from being added: anyone who may write it may
 * move a file or a symbolic link of root's in from a directory of theirs
 * under a free name (rename(2) asks nothing of what it moves but a
 * directory, which it must be able to write). So it is root's on the way
 * where the next name is a directory, never where it holds the file, a
 * link on the way, or is judged itself: pam_cap's policy and
 * capmanifest's manifest alike; capmanifest's tree never.
 */
START_TEST(sticky_by_policy)
{
	const struct path_trust_policy above =
		with_sticky(PATH_TRUST_STICKY_ABOVE);

	make("/sticky", S_IFDIR | 01777);
	make("/sticky/f", S_IFREG | 0644);
	make("/sticky/d", S_IFDIR | 0755);
	make("/sticky/d/f", S_IFREG | 0644);
	make("/srv", S_IFDIR | 0755);
	make("/srv/f", S_IFREG | 0644);
	/* on the way */
	ck_assert_int_eq(way(conf, "/sticky/d/f", "/sticky/d/f"), 0);
	ck_assert_int_eq(way(&above, "/sticky/d/f", "/sticky/d/f"), 0);
	ck_assert_int_eq(way(&above, "/sticky/d", "/sticky/d"), 0);
	/* holding the file: root's file may have been moved in */
	ck_assert_int_eq(way(conf, "/sticky/f", "/sticky/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.how, PATH_TRUST_FREE_NAME);
	ck_assert_int_eq(t.holder, 1);
	ck_assert_str_eq(t.path, "/sticky");
	ck_assert_str_eq(t.why, "everybody may write it");
	ck_assert_str_eq(t.note, "");
	ck_assert_int_eq(way(&above, "/sticky/f", "/sticky/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.holder, 1);
	ck_assert_str_eq(t.path, "/sticky");
	ck_assert_str_eq(
		t.why,
		"everyone may write it (mode 1777, sticky, which still lets them add names)");
	/* a group that may write it, as a Nix store's nixbld may (1775) */
	ck_assert_int_eq(chmod("/sticky", 01775), 0);
	ck_assert_int_eq(way(conf, "/sticky/f", "/sticky/f"), 1);
	ck_assert_int_eq(t.holder, 1);
	ck_assert_str_eq(t.why, "its group 0 may write it");
	ck_assert_int_eq(way(conf, "/sticky/d/f", "/sticky/d/f"), 0);
	ck_assert_int_eq(chmod("/sticky", 01777), 0);
	/* holding a link of root's on the way: as well moved in */
	ck_assert_int_eq(symlink("/srv/f", "/sticky/l"), 0);
	ck_assert_int_eq(symlink("../srv", "/sticky/up"), 0);
	ck_assert_int_eq(way(conf, "/sticky/l", "/srv/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.how, PATH_TRUST_FREE_NAME);
	ck_assert_int_eq(t.holder, 0);
	ck_assert_str_eq(t.path, "/sticky");
	ck_assert_int_eq(way(&above, "/sticky/up/f", "/srv/f"), 1);
	ck_assert_int_eq(t.holder, 0);
	ck_assert_str_eq(t.path, "/sticky");
	/* ".." back into it: the name after is what it holds */
	ck_assert_int_eq(way(conf, "/sticky/d/../f", "/sticky/f"), 1);
	ck_assert_str_eq(t.path, "/sticky");
	ck_assert_int_eq(way(conf, "/sticky/d/../d/f", "/sticky/d/f"), 0);
	/* judged itself */
	ck_assert_int_eq(way(&above, "/sticky", "/sticky"), 1);
	ck_assert_int_eq(t.holder, 1);
	ck_assert_str_eq(t.path, "/sticky");
	/* never: wherever it is */
	ck_assert_int_eq(way(&manifest, "/sticky/d/f", "/sticky/d/f"), 1);
	ck_assert_int_eq(t.holder, 0);
	ck_assert_str_eq(t.path, "/sticky");
}
END_TEST

/* path_trust_dir() alone, as capmanifest judges its tree's directories. */
START_TEST(directory_judged_alone)
{
	const struct path_trust_policy above =
		with_sticky(PATH_TRUST_STICKY_ABOVE);
	struct stat st;
	int fd, sticky = -1;

	make("/sticky", S_IFDIR | 01777);
	fd = open("/sticky", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	path_trust_init(&t, &above);
	ck_assert_int_eq(path_trust_dir(&t, fd, "/sticky", &st, 0, &sticky), 0);
	ck_assert_int_eq(sticky, 1);
	ck_assert_int_eq(path_trust_dir(&t, fd, "sticky", &st, 1, &sticky), 1);
	ck_assert_int_eq(sticky, 0);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.holder, 1);
	ck_assert_str_eq(t.path, "sticky");
	path_trust_init(&t, conf);
	ck_assert_int_eq(path_trust_dir(&t, fd, "/sticky", &st, 0, &sticky), 0);
	ck_assert_int_eq(sticky, 1);
	ck_assert_int_eq(path_trust_dir(&t, fd, "/sticky", &st, 1, &sticky), 1);
	ck_assert_int_eq(sticky, 0);
	ck_assert_int_eq(t.how, PATH_TRUST_FREE_NAME);
	ck_assert_int_eq(t.holder, 1);
	path_trust_init(&t, &manifest);
	ck_assert_int_eq(path_trust_dir(&t, fd, "/sticky", &st, 0, &sticky), 1);
	ck_assert_int_eq(t.holder, 0);
	close(fd);
}
END_TEST

static void store_sealed_once_alone(void)
{
	/* its volume's writable mount is there too: no seal, said why */
	ck_assert_int_eq(way(conf, "/store/f", "/store/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.how, PATH_TRUST_FREE_NAME);
	ck_assert_int_eq(t.holder, 1);
	ck_assert_str_eq(t.path, "/store");
	ck_assert_str_eq(t.why, "its group 0 may write it");
	ck_assert_str_eq(
		t.note,
		"its mount is read-only, but the writable mount on /vol reaches it too");
	ck_assert_int_eq(umount("/vol"), 0);
	ck_assert_int_eq(way(conf, "/store/f", "/store/f"), 0);
	/* the kernel agrees: nobody may add a name there */
	errno = 0;
	ck_assert_int_eq(mkdir("/store/new", 0755), -1);
	ck_assert_int_eq(errno, EROFS);
	/* a seal is pam_cap's; capmanifest asks for modes alone */
	ck_assert_int_eq(way(&manifest, "/store/f", "/store/f"), 1);
}

/*
 * A sticky directory no mount lets anyone write (writeseal.h) holds
 * root's files as root's alone under pam_cap's policy: a store made
 * read-only as a ConfigMap is, a read-only bind of a volume (mode 1775)
 * whose writable mount is then gone.
 */
START_TEST(sealed_sticky_directory)
{
	make("/vol", S_IFDIR | 0755);
	make("/store", S_IFDIR | 0755);
	ck_assert_int_eq(mount("vol", "/vol", "tmpfs", 0, "mode=1775"), 0);
	make("/vol/f", S_IFREG | 0444);
	ck_assert_int_eq(mount("/vol", "/store", "none", MS_BIND, NULL), 0);
	ck_assert_int_eq(mount("none", "/store", "none",
			       MS_BIND | MS_REMOUNT | MS_RDONLY, NULL),
			 0);
	check_as_init(store_sealed_once_alone);
}
END_TEST

/* The ACL beside the mode bits of a directory on the way. */
START_TEST(way_through_an_acl)
{
	/* user::rwx group::r-x group:0:rwx mask::rwx other::r-x */
	static const unsigned char acl[] = {
		2,    0,    0,	  0,	1, 0,	 7,    0,    0xff, 0xff, 0xff,
		0xff, 4,    0,	  5,	0, 0xff, 0xff, 0xff, 0xff, 8,	 0,
		7,    0,    0,	  0,	0, 0,	 0x10, 0,    7,	   0,	 0xff,
		0xff, 0xff, 0xff, 0x20, 0, 5,	 0,    0xff, 0xff, 0xff, 0xff,
	};

	make("/d", S_IFDIR | 0755);
	make("/d/f", S_IFREG | 0644);
	ck_assert_int_eq(setxattr("/d", ACL_XATTR_ACCESS, acl, sizeof(acl), 0),
			 0);
	ck_assert_int_eq(way(conf, "/d/f", "/d/f"), 1);
	ck_assert_str_eq(t.path, "/d");
	ck_assert_str_eq(t.why, "an ACL entry lets group 0 write it");
	ck_assert_int_eq(way(&manifest, "/d/f", "/d/f"), 1);
	ck_assert_str_eq(t.why, "group 0 may write it (ACL entry)");
	/* chmod g-w narrows the mask: the entry no longer writes */
	ck_assert_int_eq(chmod("/d", 0755), 0);
	ck_assert_int_eq(way(conf, "/d/f", "/d/f"), 0);
}
END_TEST

/* Symbolic links are followed as the kernel follows them, and judged. */
START_TEST(way_through_links)
{
	make("/etc", S_IFDIR | 0755);
	make("/srv", S_IFDIR | 0755);
	make("/srv/f", S_IFREG | 0644);
	make("/open", S_IFDIR | 0777);
	make("/open/d", S_IFDIR | 0755);
	make("/open/d/f", S_IFREG | 0644);
	ck_assert_int_eq(symlink("/srv/f", "/etc/abs"), 0);
	ck_assert_int_eq(symlink("../srv", "/etc/rel"), 0);
	ck_assert_int_eq(symlink("/open/d", "/etc/opened"), 0);
	ck_assert_int_eq(way(conf, "/etc/abs", "/srv/f"), 0);
	ck_assert_int_eq(way(&manifest, "/etc/rel/f", "/srv/f"), 0);
	/* judged where it leads */
	ck_assert_int_eq(way(&manifest, "/etc/opened/f", "/open/d/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_str_eq(t.path, "/open");
	/* a link held by a directory others may write: refused there */
	ck_assert_int_eq(symlink("/srv/f", "/open/l"), 0);
	ck_assert_int_eq(way(conf, "/open/l", "/srv/f"), 1);
	ck_assert_str_eq(t.path, "/open");
	/* a loop is the kernel's ELOOP; a missing name its ENOENT */
	ck_assert_int_eq(symlink("/etc/loop", "/etc/loop"), 0);
	errno = 0;
	ck_assert_int_eq(way(conf, "/etc/loop", "/srv/f"), -1);
	ck_assert_int_eq(errno, ELOOP);
	errno = 0;
	path_trust_init(&t, conf);
	ck_assert_int_eq(path_trust_way(&t, "/etc/none", &(struct stat){ 0 }),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* The way must end at the file judged: else something on it changed. */
START_TEST(way_to_another_file)
{
	make("/a", S_IFREG | 0644);
	make("/b", S_IFREG | 0644);
	make("/d", S_IFDIR | 0755);
	ck_assert_int_eq(way(conf, "/a", "/b"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_MOVED);
	ck_assert_str_eq(t.path, "/a");
	ck_assert_int_eq(way(&manifest, "/d", "/"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_MOVED);
	/* a file's way that ends at a directory; a file used as one */
	errno = 0;
	ck_assert_int_eq(way(conf, "/d/", "/a"), -1);
	ck_assert_int_eq(errno, EISDIR);
	errno = 0;
	ck_assert_int_eq(way(conf, "/a/x", "/a"), -1);
	ck_assert_int_eq(errno, ENOTDIR);
}
END_TEST

/* path_trust_inode(): the ACL read through an O_PATH descriptor. */
static int inode(const struct path_trust_policy *p, const char *path,
		 const char *name)
{
	struct stat st;
	int fd = open(path, O_PATH | O_CLOEXEC), rc;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	path_trust_init(&t, p);
	rc = path_trust_inode(&t, fd, name, &st);
	close(fd);
	return rc;
}

/* user::rw- group::r-- group:0:rw- mask::rw- other::r-- */
static const unsigned char group0_rw[] = {
	2,    0,    0,	  0,	1, 0,	 6,    0,    0xff, 0xff, 0xff,
	0xff, 4,    0,	  4,	0, 0xff, 0xff, 0xff, 0xff, 8,	 0,
	6,    0,    0,	  0,	0, 0,	 0x10, 0,    6,	   0,	 0xff,
	0xff, 0xff, 0xff, 0x20, 0, 4,	 0,    0xff, 0xff, 0xff, 0xff,
};

START_TEST(inode_acl_through_o_path)
{
	make("/f", S_IFREG | 0644);
	ck_assert_int_eq(inode(conf, "/f", NULL), 0);
	ck_assert_int_eq(setxattr("/f", ACL_XATTR_ACCESS, group0_rw,
				  sizeof(group0_rw), 0),
			 0);
	ck_assert_int_eq(inode(conf, "/f", NULL), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_IT);
	ck_assert_str_eq(t.why, "an ACL entry lets group 0 write it");
}
END_TEST

/*
 * Whether the kernel (and valgrind, which knows neither call) lets
 * statmount(2) answer: else only mountinfo, in /proc, says what a mount
 * is.
 */
static int have_statmount(void)
{
	errno = 0;
	return syscall(457, NULL, NULL, 0, 0) == -1 && errno != ENOSYS;
}

static void acl_without_proc(void)
{
	/* in a mount namespace of its own: the test's process keeps /proc */
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(umount2("/proc", MNT_DETACH), 0);
	if (!have_statmount()) {
		/* mountinfo, in /proc, alone could say what the mount is */
		static const char unknown[] =
			"reached through a mount of which it cannot be told whether it is idmapped (";

		ck_assert_int_eq(inode(conf, "/f", "/f"), 1);
		ck_assert_int_eq(t.how, PATH_TRUST_SHOWN);
		ck_assert_msg(strncmp(t.why, unknown, strlen(unknown)) == 0,
			      "%s", t.why);
		return;
	}
	ck_assert_int_eq(inode(conf, "/f", "/f"), 1);
	ck_assert_str_eq(t.why, "an ACL entry lets group 0 write it");
	errno = 0;
	ck_assert_int_eq(inode(conf, "/f", NULL), -1);
	ck_assert_int_eq(t.how, PATH_TRUST_UNKNOWN);
	ck_assert_str_eq(
		t.why,
		"its ACL cannot be read (No such file or directory), so who may write it is unknown");
}

/*
 * Without /proc an O_PATH descriptor's ACL is read by the name given;
 * with none given it cannot be read: unknown, never "nobody".
 */
START_TEST(inode_acl_without_proc)
{
	make("/f", S_IFREG | 0644);
	ck_assert_int_eq(setxattr("/f", ACL_XATTR_ACCESS, group0_rw,
				  sizeof(group0_rw), 0),
			 0);
	check_in_child(acl_without_proc);
}
END_TEST

/* As a change about to be made will leave it: its ACL given. */
START_TEST(inode_as_it_will_be)
{
	struct acl_entry e[] = {
		ENTRY(ACL_USER_OBJ, 6, NO_ID), ENTRY(ACL_GROUP_OBJ, 4, NO_ID),
		ENTRY(ACL_NAMED_GROUP, 6, 50), ENTRY(ACL_MASK, 6, NO_ID),
		ENTRY(ACL_OTHER, 4, NO_ID),
	};
	struct stat st;
	int fd;

	make("/f", S_IFREG | 0644);
	fd = open("/f", O_PATH | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	path_trust_init(&t, &manifest);
	ck_assert_int_eq(path_trust_inode(&t, fd, NULL, &st), 0);
	st.st_mode = S_IFREG | 0664;
	ck_assert_int_eq(path_trust_inode_as(&t, fd, &st, e, 5), 1);
	ck_assert_str_eq(t.why, "group 50 may write it (ACL entry)");
	ck_assert_int_eq(path_trust_inode_as(&t, fd, &st, NULL, 0), 1);
	ck_assert_str_eq(t.why, "group 0 may write it (mode 0664)");
	close(fd);
}
END_TEST

/* --- Other owners: made only by real root --- */

START_TEST(owners_on_the_way)
{
	struct path_trust_policy mine = manifest;

	make("/bobs", S_IFDIR | 0755);
	make("/bobs/f", S_IFREG | 0644);
	make("/etc", S_IFDIR | 0755);
	make("/etc/f", S_IFREG | 0644);
	ck_assert_int_eq(chown("/bobs", 4002, 4002), 0);
	ck_assert_int_eq(way(conf, "/bobs/f", "/bobs/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_DIR);
	ck_assert_int_eq(t.how, PATH_TRUST_OWNER);
	ck_assert_str_eq(t.path, "/bobs");
	ck_assert_str_eq(t.why, "uid 4002 owns it");
	/* his link, in root's directory: he may point it anywhere */
	ck_assert_int_eq(symlink("/etc/f", "/etc/his"), 0);
	ck_assert_int_eq(lchown("/etc/his", 4002, 4002), 0);
	ck_assert_int_eq(way(&manifest, "/etc/his", "/etc/f"), 1);
	ck_assert_int_eq(t.where, PATH_TRUST_LINK);
	ck_assert_str_eq(t.path, "/etc/his");
	ck_assert_str_eq(t.why, "uid 4002 owns it");
	/* a sticky directory he owns keeps nothing: he may remove names */
	make("/sticky", S_IFDIR | 01777);
	make("/sticky/f", S_IFREG | 0644);
	ck_assert_int_eq(chown("/sticky", 4002, 4002), 0);
	ck_assert_int_eq(way(conf, "/sticky/f", "/sticky/f"), 1);
	ck_assert_int_eq(t.how, PATH_TRUST_OWNER);
	/* the uid the policy names is trusted as root is */
	mine.also = 4002;
	ck_assert_int_eq(way(&mine, "/bobs/f", "/bobs/f"), 0);
	ck_assert_int_eq(way(&mine, "/etc/his", "/etc/f"), 0);
}
END_TEST

/* Whether a process may make a user namespace of its own here. */
static int userns_available(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static Suite *path_trust_suite(void)
{
	/* asked before anything is allocated for the child to lose */
	int userns = userns_available(), real_root = geteuid() == 0;
	Suite *s = suite_create("common_path_trust");
	TCase *rule = tcase_create("rule"), *files = tcase_create("files");

	tcase_add_test(rule, owner_not_trusted);
	tcase_add_test(rule, mode_writers_in_each_voice);
	tcase_add_test(rule, group_root_is_no_root);
	tcase_add_test(rule, acl_entries_as_the_kernel_weighs_them);
	tcase_add_test(rule, acl_named_group_and_other);
	tcase_add_test(rule, overflow_uid_by_policy);
	if (userns)
		tcase_add_test(rule, overflow_uid_read_from_the_namespace);
	else
		printf("note: no user namespaces here: the overflow uid is not read from one\n");
	suite_add_tcase(s, rule);

	check_as_root();
	/*
	 * Each file test mounts and chroots in its own process, under
	 * valgrind too (where run.sh turns forking off).
	 */
	world_fixtures(files);
	tcase_add_test(files, way_of_roots_alone);
	tcase_add_test(files, way_through_a_writable_directory);
	tcase_add_test(files, sticky_by_policy);
	tcase_add_test(files, directory_judged_alone);
	tcase_add_test(files, way_through_an_acl);
	tcase_add_test(files, way_through_links);
	tcase_add_test(files, way_to_another_file);
	tcase_add_test(files, inode_acl_through_o_path);
	tcase_add_test(files, inode_acl_without_proc);
	tcase_add_test(files, inode_as_it_will_be);
	if (real_root) {
		tcase_add_test(files, owners_on_the_way);
		tcase_add_test(files, sealed_sticky_directory);
	} else {
		printf("note: not root: files of other owners are left to the root suites (pam_cap_trust, capmanifest_trust)\n");
		printf("note: not root: a seal holds only where root alone may change the mounts; left to pam_cap_layouts\n");
	}
	suite_add_tcase(s, files);
	return s;
}

CHECK_MAIN(path_trust_suite)
