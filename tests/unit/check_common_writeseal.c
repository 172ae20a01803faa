/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/writeseal.c and common/mountlist.c on the real kernel: when a
 * directory whose mode lets others write is sealed by its mounts. Each
 * test makes its mounts in a private mount namespace of its forked child
 * (nothing reaches the host's), as root, or as another user in a user
 * namespace of its own (check_userns.h). The mounts a pam_cap login would see are built the
 * way Kubernetes builds a ConfigMap: a read-only bind mount of a volume
 * whose root is 0777, its writable mount somewhere else, or gone.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "check_pidns.h"
#include "check_userns.h"
#include "writeseal.h"

static char base[] = "/tmp/check_writeseal.XXXXXX";
static char why[512];

static void path_of(char *out, size_t len, const char *name)
{
	int n = snprintf(out, len, "%s/%s", base, name);

	ck_assert(n > 0 && (size_t)n < len);
}

/* Everything below base, in memory, seen by this test's child alone. */
static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(base));
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL),
			 0);
	ck_assert_int_eq(mount("base", base, "tmpfs", 0, "mode=0755"), 0);
}

static void teardown(void)
{
	umount2(base, MNT_DETACH);
	rmdir(base);
}

static void make_dir(const char *name, mode_t mode)
{
	char p[256];

	path_of(p, sizeof(p), name);
	ck_assert_int_eq(mkdir(p, mode), 0);
	ck_assert_int_eq(chmod(p, mode), 0);
}

/*
 * The ConfigMap layout: tmpfs "vol" (root 0777) mounted writable on
 * base/vol, bound read-only on base/etc; with keep_rw 0 the writable
 * mount is then unmounted, as it is in the container's namespace.
 */
static void configmap(int keep_rw)
{
	char vol[256], etc[256];

	path_of(vol, sizeof(vol), "vol");
	path_of(etc, sizeof(etc), "etc");
	make_dir("vol", 0755);
	make_dir("etc", 0755);
	ck_assert_int_eq(mount("vol", vol, "tmpfs", 0, "mode=0777"), 0);
	make_dir("vol/..2026_12_05", 0755);
	ck_assert_int_eq(mount(vol, etc, "none", MS_BIND, NULL), 0);
	ck_assert_int_eq(mount("none", etc, "none",
			       MS_BIND | MS_REMOUNT | MS_RDONLY, NULL),
			 0);
	if (!keep_rw)
		ck_assert_int_eq(umount(vol), 0);
}

/* statmount(2) and listmount(2) fail with ENOSYS, as before Linux 6.8. */
static void without_statmount(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 457, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 458, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]),
				   .filter = filter };

	ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ck_assert_int_eq(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), 0);
}

/*
 * Whether the kernel (and valgrind, which knows neither call) lets
 * statmount(2) answer: else mountinfo is what dir_sealed() reads.
 */
static int have_statmount(void)
{
	errno = 0;
	return syscall(457, NULL, NULL, 0, 0) == -1 && errno != ENOSYS;
}

/* dir_sealed() of base/NAME (as the trust walker calls it). */
static int sealed(const char *name)
{
	char p[256];
	int fd, rc;

	path_of(p, sizeof(p), name);
	fd = open(p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	memset(why, 'x', sizeof(why));
	rc = dir_sealed(fd, p, why, sizeof(why));
	close(fd);
	return rc;
}

START_TEST(writable_mount_is_no_seal)
{
	make_dir("open", 0777);
	ck_assert_int_eq(sealed("open"), 0);
	ck_assert_str_eq(why, "");
}
END_TEST

static void configmap_sealed(void)
{
	ck_assert_int_eq(sealed("etc"), 1);
	/* and the kernel agrees: nobody may add a name there */
	{
		char p[256];

		path_of(p, sizeof(p), "etc/new");
		errno = 0;
		ck_assert_int_eq(mkdir(p, 0755), -1);
		ck_assert_int_eq(errno, EROFS);
	}
	/* a writable mount of another directory of it reaches nothing here */
	make_dir("beside", 0755);
	{
		char src[256], dst[256];

		path_of(src, sizeof(src), "etc/..2026_12_05");
		path_of(dst, sizeof(dst), "beside");
		ck_assert_int_eq(mount(src, dst, "none", MS_BIND, NULL), 0);
		ck_assert_int_eq(
			mount("none", dst, "none", MS_BIND | MS_REMOUNT, NULL),
			0);
	}
	ck_assert_int_eq(sealed("etc"), 1);
}

/*
 * Each test that lists mounts does it as pid 1 of a pid namespace of its
 * own, in the mount namespace it made: there mountinfo, which dir_sealed()
 * reads where statmount(2) is missing (valgrind), shows every mount too,
 * and both ways must give the same answer.
 */
START_TEST(configmap_is_sealed)
{
	configmap(0);
	check_as_init(configmap_sealed);
}
END_TEST

static void writable_elsewhere(void)
{
	char want[512], vol[256];

	path_of(vol, sizeof(vol), "vol");
	snprintf(
		want, sizeof(want),
		"its mount is read-only, but the writable mount on %s reaches it too",
		vol);
	ck_assert_int_eq(sealed("etc"), 0);
	ck_assert_str_eq(why, want);
}

START_TEST(writable_mount_elsewhere_unseals)
{
	configmap(1);
	check_as_init(writable_elsewhere);
}
END_TEST

/* Every mount of a read-only superblock refuses writes. */
static void sealed_etc(void)
{
	ck_assert_int_eq(sealed("etc"), 1);
}

START_TEST(read_only_superblock_seals)
{
	char vol[256];

	configmap(1);
	path_of(vol, sizeof(vol), "vol");
	ck_assert_int_eq(
		mount("none", vol, "none", MS_REMOUNT | MS_RDONLY, NULL), 0);
	check_as_init(sealed_etc);
}
END_TEST

/* Set before a child runs: it reads mountinfo, as without statmount. */
static int no_statmount;

/* "the writable mount on base/NAME that process 1 sees reaches it too" */
static void seen_by_init(char *out, size_t len, const char *name)
{
	char p[256];

	path_of(p, sizeof(p), name);
	snprintf(
		out, len,
		"its mount is read-only, but the writable mount on %s that process 1 sees reaches it too",
		p);
}

static void chrooted_in_root(void)
{
	char root[256], want[512];
	int fd;

	if (no_statmount)
		without_statmount();
	seen_by_init(want, sizeof(want), "vol");
	path_of(root, sizeof(root), "root");
	ck_assert_int_eq(chroot(root), 0);
	ck_assert_int_eq(chdir("/"), 0);
	fd = open("/etc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dir_sealed(fd, "/etc", why, sizeof(why)), 0);
	close(fd);
	/*
	 * statmount lists this namespace whole, chroot or not; mountinfo
	 * shows what is under this root, and pid 1's what is under its own
	 */
	if (have_statmount())
		ck_assert_str_eq(
			why,
			"its mount is read-only, but a writable mount outside this root (of / in its file system) reaches it too");
	else
		ck_assert_str_eq(why, want);
}

/* pid 1 stays where it is; its child chroots, as a login service may. */
static void chroot_child_of_init(void)
{
	char proc[256];

	path_of(proc, sizeof(proc), "root/proc");
	ck_assert_int_eq(mount("/proc", proc, "none", MS_BIND, NULL), 0);
	check_in_child(chrooted_in_root);
}

static void writable_mount_outside_chroot_body(void)
{
	char vol[256], etc[256];

	make_dir("root", 0755);
	make_dir("root/etc", 0755);
	make_dir("root/proc", 0555);
	make_dir("vol", 0755);
	path_of(vol, sizeof(vol), "vol");
	path_of(etc, sizeof(etc), "root/etc");
	ck_assert_int_eq(mount("vol", vol, "tmpfs", 0, "mode=0777"), 0);
	ck_assert_int_eq(mount(vol, etc, "none", MS_BIND, NULL), 0);
	ck_assert_int_eq(mount("none", etc, "none",
			       MS_BIND | MS_REMOUNT | MS_RDONLY, NULL),
			 0);
	check_as_init(chroot_child_of_init);
}

START_TEST(writable_mount_outside_chroot)
{
	writable_mount_outside_chroot_body();
}
END_TEST

/* Overlayfs is written through its layers, whatever its mounts say. */
START_TEST(overlay_is_no_seal)
{
	char opts[1024], lower[256], m[256], etc[256];

	make_dir("lower", 0777);
	make_dir("upper", 0755);
	make_dir("work", 0755);
	make_dir("ovl", 0755);
	make_dir("etc", 0755);
	path_of(lower, sizeof(lower), "lower");
	path_of(m, sizeof(m), "ovl");
	path_of(etc, sizeof(etc), "etc");
	snprintf(opts, sizeof(opts),
		 "lowerdir=%s,upperdir=%s/upper,workdir=%s/work", lower, base,
		 base);
	if (mount("overlay", m, "overlay", 0, opts) < 0) {
		printf("note: no overlayfs here (%s)\n", strerror(errno));
		return;
	}
	ck_assert_int_eq(chmod(m, 0777), 0);
	ck_assert_int_eq(mount(m, etc, "none", MS_BIND, NULL), 0);
	ck_assert_int_eq(mount("none", etc, "none",
			       MS_BIND | MS_REMOUNT | MS_RDONLY, NULL),
			 0);
	ck_assert_int_eq(umount(m), 0);
	ck_assert_int_eq(sealed("etc"), 0);
	ck_assert_str_eq(
		why,
		"its mount is read-only, but its file system (type 0x794c7630) may be written by another way than its mounts");
}
END_TEST

/*
 * A mount namespace that a user namespace below ours owns: its root may
 * remount the bind writable, so it seals nothing for us, though the mount
 * is read-only and no other mount reaches it.
 */
static pid_t ns_holder;

static void in_ns_of_holder(void)
{
	char ns[64];
	int fd;

	snprintf(ns, sizeof(ns), "/proc/%ld/ns/mnt", (long)ns_holder);
	fd = open(ns, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(setns(fd, CLONE_NEWNS), 0);
	close(fd);
	ck_assert_int_eq(sealed("etc"), 0);
	ck_assert_str_eq(
		why,
		"its mount is read-only, but this mount namespace belongs to a user namespace below this one, whose root may change its mounts");
}

START_TEST(namespace_of_another_root)
{
	int ready[2];
	char c;

	configmap(0);
	ck_assert_int_eq(pipe(ready), 0);
	ns_holder = fork();
	ck_assert_int_ge(ns_holder, 0);
	if (ns_holder == 0) {
		/* EPERM in a chroot, or where user namespaces are off */
		int made = unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0;

		if (write(ready[1], made ? "r" : "n", 1) != 1 || !made)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	if (c == 'r')
		check_in_child(in_ns_of_holder);
	else
		printf("note: no user namespace to be made here (a chroot?): the case of another root's namespace not run\n");
	kill(ns_holder, SIGKILL);
	waitpid(ns_holder, NULL, 0);
}
END_TEST

static void mountinfo_seals(void)
{
	without_statmount();
	ck_assert_int_eq(sealed("etc"), 1);
}

static void mountinfo_sees_writable(void)
{
	char want[512], vol[256];

	without_statmount();
	path_of(vol, sizeof(vol), "vol");
	snprintf(
		want, sizeof(want),
		"its mount is read-only, but the writable mount on %s reaches it too",
		vol);
	ck_assert_int_eq(sealed("etc"), 0);
	ck_assert_str_eq(why, want);
}

/* Without statmount, mountinfo decides: where it shows every mount. */
START_TEST(mountinfo_when_no_statmount)
{
	configmap(0);
	check_as_init(mountinfo_seals);
}
END_TEST

START_TEST(mountinfo_sees_the_writable_mount)
{
	configmap(1);
	check_as_init(mountinfo_sees_writable);
}
END_TEST

/*
 * A process in a mount namespace of its own where the volume's writable
 * mount is gone, while pid 1 (another namespace) still sees it, as a
 * service made read-only by systemd's ProtectSystem= sees "/" while
 * everybody else may write it.
 */
static void own_namespace(void)
{
	char want[512];

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	if (no_statmount)
		without_statmount();
	{
		char vol[256];

		path_of(vol, sizeof(vol), "vol");
		ck_assert_int_eq(umount(vol), 0);
	}
	seen_by_init(want, sizeof(want), "vol");
	ck_assert_int_eq(sealed("etc"), 0);
	ck_assert_str_eq(why, want);
}

static void namespace_beside_init(void)
{
	check_in_child(own_namespace);
}

START_TEST(writable_in_another_namespace)
{
	configmap(1);
	check_as_init(namespace_beside_init);
}
END_TEST

START_TEST(mountinfo_of_another_namespace)
{
	configmap(1);
	no_statmount = 1;
	check_as_init(namespace_beside_init);
}
END_TEST

/* A chroot without statmount: pid 1's mountinfo shows what is outside. */
START_TEST(mountinfo_outside_a_chroot)
{
	no_statmount = 1;
	writable_mount_outside_chroot_body();
}
END_TEST

/* An empty /proc (a user namespace may not unmount the real one). */
static void no_proc(void)
{
	/* in a copy of the namespace: the test's process keeps its /proc */
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount("noproc", "/proc", "tmpfs", 0, "mode=0555"), 0);
	ck_assert_int_eq(access("/proc/self", F_OK), -1);
}

/* Without /proc the namespaces are reached by a pidfd (Linux 6.11). */
/*
 * Without /proc the mounts other processes see are unknown: refused.
 * (The leak check at exit needs /proc: no /proc in a child alone.)
 */
static void sealed_without_proc_child(void)
{
	static const char ro_but[] = "its mount is read-only, but ";

	no_proc();
	ck_assert_int_eq(sealed("etc"), 0);
	if (have_statmount())
		ck_assert_str_eq(
			why,
			"its mount is read-only, but what mounts other processes see cannot be read (/proc: No such file or directory)");
	/* under valgrind, which lacks statmount: refused, and why */
	ck_assert_int_eq(strncmp(why, ro_but, strlen(ro_but)), 0);
	ck_assert_uint_gt(strlen(why), strlen(ro_but));
}

START_TEST(sealed_without_proc)
{
	configmap(0);
	check_in_child(sealed_without_proc_child);
}
END_TEST

/*
 * What processes hold. A child of pid 1 keeps a directory of the volume
 * open (a descriptor, or its working directory) while the volume's
 * writable mount is unmounted lazily: no namespace lists that mount, but
 * through the directory a write still reaches the ConfigMap. Or it keeps
 * a descriptor of a mount namespace made while the writable mount was
 * there, and no process lives in that namespace. Without the walk over
 * every namespace (pid namespaces refuse it), what is held is what tells.
 */
enum held_kind { HELD_FD, HELD_CWD, HELD_NS, HELD_IN_FLIGHT };
static enum held_kind held_kind;

/* SCM_RIGHTS: fd sent through socket s, or received from it. */
static int send_fd(int s, int fd)
{
	char c = 'f', control[CMSG_SPACE(sizeof(int))];
	struct iovec io = { &c, 1 };
	struct msghdr m = { .msg_iov = &io,
			    .msg_iovlen = 1,
			    .msg_control = control,
			    .msg_controllen = sizeof(control) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	memset(control, 0, sizeof(control)); /* its padding too */
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(s, &m, 0) == 1 ? 0 : -1;
}

static int receive_fd(int s)
{
	char c, control[CMSG_SPACE(sizeof(int))];
	struct iovec io = { &c, 1 };
	struct msghdr m = { .msg_iov = &io,
			    .msg_iovlen = 1,
			    .msg_control = control,
			    .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(s, &m, MSG_CMSG_CLOEXEC) != 1 ||
	    (cm = CMSG_FIRSTHDR(&m)) == NULL || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static void hold_and_wait(int ready, int go)
{
	char vol[256], c = 'r';
	int fd = -1, pair[2] = { -1, -1 };

	path_of(vol, sizeof(vol), "vol");
	if (held_kind == HELD_FD || held_kind == HELD_IN_FLIGHT) {
		fd = open(vol, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* sent to itself, not received: in no table while searched */
		if (held_kind == HELD_IN_FLIGHT && fd >= 0 &&
		    (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) <
			     0 ||
		     send_fd(pair[0], fd) < 0 || close(fd) < 0))
			fd = -1;
	} else if (held_kind == HELD_CWD)
		fd = chdir(vol);
	else if (unshare(CLONE_NEWNS) == 0)
		fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		c = 'n';
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) < 0)
		_exit(1);
	if (held_kind == HELD_IN_FLIGHT)
		fd = receive_fd(pair[1]);
	/* the written file is the proof: a write reaches the ConfigMap */
	if (held_kind == HELD_FD || held_kind == HELD_IN_FLIGHT) {
		int made = openat(fd, "through-the-held-directory",
				  O_CREAT | O_WRONLY | O_CLOEXEC, 0644);

		_exit(made >= 0 ? 0 : 1);
	}
	_exit(0);
}

static void held_sealed(void)
{
	char want[512], etc[256], vol[256], c;
	int ready[2], go[2], status, ns = -1;
	pid_t holder, gone;

	path_of(vol, sizeof(vol), "vol");
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	holder = fork();
	ck_assert_int_ge(holder, 0);
	if (holder == 0)
		hold_and_wait(ready[1], go[0]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(c, 'r');
	if (held_kind == HELD_NS) {
		/* the namespace, kept by a descriptor here, no process in it */
		char link[64];

		snprintf(link, sizeof(link), "/proc/%ld/ns/mnt", (long)holder);
		ns = open(link, O_RDONLY | O_CLOEXEC);
		ck_assert_int_ge(ns, 0);
		ck_assert_int_eq(write(go[1], "g", 1), 1);
		ck_assert_int_eq(waitpid(holder, &status, 0), holder);
		holder = 0;
	}
	ck_assert_int_eq(umount2(vol, MNT_DETACH), 0);
	if (held_kind == HELD_NS) {
		struct stat st;

		ck_assert_int_eq(fstat(ns, &st), 0);
		snprintf(
			want, sizeof(want),
			"its mount is read-only, but process %ld holds mount namespace mnt:[%lu], whose mounts were not judged",
			(long)getpid(), (unsigned long)st.st_ino);
	} else if (held_kind == HELD_IN_FLIGHT) {
		snprintf(
			want, sizeof(want),
			"its mount is read-only, but process %ld holds a socket with descriptors sent through it and not received (1), which may hold a way to it",
			(long)holder);
	} else {
		snprintf(
			want, sizeof(want),
			"its mount is read-only, but process %ld holds a directory on a mount that no mount namespace shows (one unmounted lazily?), by which a write may reach it",
			(long)holder);
	}
	/* what this very process holds is the caller's, never looked at */
	if (held_kind == HELD_NS) {
		gone = fork();
		ck_assert_int_ge(gone, 0);
		if (gone == 0) {
			ck_assert_int_eq(sealed("etc"), 0);
			ck_assert_str_eq(why, want);
			_exit(0);
		}
		ck_assert_int_eq(waitpid(gone, &status, 0), gone);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		close(ns);
	} else {
		ck_assert_int_eq(sealed("etc"), 0);
		ck_assert_str_eq(why, want);
		ck_assert_int_eq(write(go[1], "g", 1), 1);
		ck_assert_int_eq(waitpid(holder, &status, 0), holder);
		ck_assert_msg(
			WIFEXITED(status) && WEXITSTATUS(status) == 0,
			"the holder could not write through its directory");
	}
	/* once nothing holds it, the seal is the mounts' again */
	ck_assert_int_eq(sealed("etc"), 1);
	if (held_kind == HELD_FD || held_kind == HELD_IN_FLIGHT) {
		path_of(etc, sizeof(etc), "etc/through-the-held-directory");
		ck_assert_int_eq(access(etc, F_OK), 0);
	}
}

START_TEST(held_directory_unseals)
{
	configmap(1);
	held_kind = HELD_FD;
	check_as_init(held_sealed);
}
END_TEST

START_TEST(held_working_directory_unseals)
{
	configmap(1);
	held_kind = HELD_CWD;
	check_as_init(held_sealed);
}
END_TEST

/*
 * The directory's descriptor sent through a socket and not received:
 * in no process's table while the search looks (it was judged sealed),
 * received and written through once the search is done.
 */
START_TEST(held_in_flight_unseals)
{
	configmap(1);
	held_kind = HELD_IN_FLIGHT;
	check_as_init(held_sealed);
}
END_TEST

START_TEST(held_namespace_unseals)
{
	configmap(1);
	held_kind = HELD_NS;
	check_as_init(held_sealed);
}
END_TEST

/*
 * The 3 s a search may take bound its look at what processes hold too.
 * It was asked for between processes only, and one process of a user's,
 * its threads each with a table of its own as full as RLIMIT_NOFILE lets
 * it (a million descriptors in all), took 7 s to look at: a login waited
 * as long as he liked. Each descriptor is of a judged mount, so that only
 * the deadline ends the look.
 */
/* about a million in all, whatever RLIMIT_NOFILE lets one table hold */
#define MANY_FDS   1000000
#define TABLES_MAX 1000

static int many_fd = -1;
static unsigned long per_table;

/* A table of its own, of per_table descriptors (grow_tables() waits). */
static void *fill_table(void *arg)
{
	int i;

	(void)arg;
	if (unshare(CLONE_FILES) == 0)
		for (i = 0; (unsigned long)i < per_table && dup(many_fd) >= 0;
		     i++)
			;
	for (;;)
		pause();
	return NULL;
}

/* Threads and their tables, up to tables in all: 0, or -1. */
static int grow_tables(unsigned long *have, unsigned long tables)
{
	char path[sizeof("/proc/self/task//fd/") + NAME_MAX + 16];
	struct dirent *de;
	struct stat st;
	unsigned long n, full;
	pthread_t t;
	int i;
	DIR *d;

	if (tables > TABLES_MAX)
		return -1;
	for (; *have < tables; ++*have)
		if (pthread_create(&t, NULL, fill_table, NULL) != 0)
			return -1;
	/* each table full: /proc shows them all */
	for (i = 0; i < 2000; i++, usleep(10000)) {
		d = opendir("/proc/self/task");
		if (d == NULL)
			return -1;
		n = full = 0;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			n++;
			snprintf(path, sizeof(path),
				 "/proc/self/task/%s/fd/%lu", de->d_name,
				 per_table + 2);
			full += stat(path, &st) == 0;
		}
		closedir(d);
		if (n == tables + 1 && full == tables)
			return 0;
	}
	return -1;
}

/*
 * A process holding fds descriptors of base/etc (a judged mount), in
 * threads with tables of their own; each number read from go asks for
 * that many in all (0: exit), each answered on ready ('r', or 'n').
 */
static void hold_many(int ready, int go)
{
	unsigned long have = 0, fds;
	struct rlimit r;
	char etc[256], c;

	path_of(etc, sizeof(etc), "etc");
	many_fd = open(etc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (many_fd < 0 || getrlimit(RLIMIT_NOFILE, &r) < 0 ||
	    r.rlim_max < 1064)
		_exit(1);
	r.rlim_cur = r.rlim_max;
	per_table = r.rlim_max - 64 < 100000 ? r.rlim_max - 64 : 100000;
	if (setrlimit(RLIMIT_NOFILE, &r) < 0)
		_exit(1);
	while (read(go, &fds, sizeof(fds)) == sizeof(fds) && fds != 0) {
		c = grow_tables(&have, (fds + per_table - 1) / per_table) == 0
			    ? 'r'
			    : 'n';
		if (write(ready, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

struct many {
	pid_t pid;
	int ready, go;
};

static void many_start(struct many *m)
{
	int ready[2], go[2];

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	m->pid = fork();
	ck_assert_int_ge(m->pid, 0);
	if (m->pid == 0)
		hold_many(ready[1], go[0]);
	close(ready[1]);
	close(go[0]);
	m->ready = ready[0];
	m->go = go[1];
}

static void many_hold(struct many *m, unsigned long fds)
{
	char c = 'n';

	ck_assert_int_eq(write(m->go, &fds, sizeof(fds)), sizeof(fds));
	ck_assert_int_eq(read(m->ready, &c, 1), 1);
	ck_assert_msg(c == 'r', "cannot hold %lu descriptors", fds);
}

static void many_stop(struct many *m)
{
	unsigned long none = 0;
	int status;

	ck_assert_int_eq(write(m->go, &none, sizeof(none)), sizeof(none));
	ck_assert_int_eq(waitpid(m->pid, &status, 0), m->pid);
	close(m->ready);
	close(m->go);
}

/* dir_sealed() of base/etc, and how many seconds it took. */
static int sealed_timed(double *took)
{
	struct timespec a, b;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &a);
	rc = sealed("etc");
	clock_gettime(CLOCK_MONOTONIC, &b);
	*took = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	return rc;
}

static void many_past_deadline(void)
{
	struct many m;
	double took;
	int rc;

	many_start(&m);
	many_hold(&m, MANY_FDS);
	rc = sealed_timed(&took);
	many_stop(&m);
	ck_assert_msg(took < 3.5, "the search took %.2f s, past its 3 s", took);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(
		why,
		"its mount is read-only, but the mounts could not all be judged in 3 seconds, so whether one reaches it is unknown");
}

/* in a pid namespace of its own: what the search reads is this test's */
START_TEST(many_descriptors_within_deadline)
{
	configmap(0);
	check_as_init(many_past_deadline);
}
END_TEST

/*
 * A search made again that runs out of time names what the one before
 * found, not the time: each search here takes about 1 s, looking at a
 * process of many descriptors (pid 2 of a new pid namespace) before
 * another (pid 3) that holds a directory on the volume's writable mount,
 * unmounted lazily. The first searches find that directory, the last of
 * the four runs out of time; "could not all be judged in 3 seconds" sent
 * an administrator after a slow host, and away from the process that
 * holds a way. 1 s, not more: the time is measured once, and a machine
 * that grows busier (other suites) may slow the searches, and at three
 * times slower the first runs out too, and rightly gives the 3 s message.
 */
/*
 * As the search looks at them (mountheld.c), every descriptor process
 * pid holds: how many (*n), in how many seconds.
 */
static double look_at_all(pid_t pid, unsigned long *n)
{
	char path[sizeof("/proc//task//fd/") + 3 * NAME_MAX];
	struct dirent *task, *fd;
	struct timespec a, b;
	struct statx sx;
	DIR *tasks, *fds;

	*n = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	tasks = opendir(path);
	ck_assert_ptr_nonnull(tasks);
	while ((task = readdir(tasks)) != NULL) {
		if (task->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%s/fd", (long)pid,
			 task->d_name);
		fds = opendir(path);
		ck_assert_ptr_nonnull(fds);
		while ((fd = readdir(fds)) != NULL) {
			if (fd->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%ld/task/%s/fd/%s",
				 (long)pid, task->d_name, fd->d_name);
			if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC,
				  STATX_TYPE | STATX_MNT_ID, &sx) == 0)
				++*n;
		}
		closedir(fds);
	}
	closedir(tasks);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

static void held_past_deadline(void)
{
	unsigned long sample = 20000, fds;
	char want[512], vol[256], c;
	int ready[2], go[2], status;
	struct many m;
	pid_t holder;
	double took;

	many_start(&m);
	/* how long a descriptor takes to look at, here and now */
	many_hold(&m, sample);
	took = look_at_all(m.pid, &fds);
	ck_assert_uint_ge(fds, sample);
	fds = (unsigned long)(1.0 / took * (double)fds);
	many_hold(&m, fds < MANY_FDS ? fds : MANY_FDS);
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	held_kind = HELD_FD;
	holder = fork();
	ck_assert_int_ge(holder, 0);
	if (holder == 0)
		hold_and_wait(ready[1], go[0]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(c, 'r');
	ck_assert_int_gt(holder, m.pid);
	path_of(vol, sizeof(vol), "vol");
	ck_assert_int_eq(umount2(vol, MNT_DETACH), 0);
	ck_assert_int_eq(sealed_timed(&took), 0);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(holder, &status, 0), holder);
	many_stop(&m);
	snprintf(
		want, sizeof(want),
		"its mount is read-only, but process %ld holds a directory on a mount that no mount namespace shows (one unmounted lazily?), by which a write may reach it",
		(long)holder);
	ck_assert_str_eq(why, want);
	ck_assert_msg(took < 3.5, "the search took %.2f s, past its 3 s", took);
}

START_TEST(held_named_past_deadline)
{
	configmap(1);
	check_as_init(held_past_deadline);
}
END_TEST

static Suite *writeseal_suite(void)
{
	Suite *s = suite_create("common_writeseal");
	TCase *tc = tcase_create("writeseal"), *slow;

	check_as_root();
	/*
	 * Every test changes its process's mount namespace, and some its
	 * pid namespace or root: each needs a process of its own, under
	 * valgrind too (where run.sh turns forking off).
	 */
	setenv("CK_FORK", "yes", 1);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, writable_mount_is_no_seal);
	tcase_add_test(tc, configmap_is_sealed);
	tcase_add_test(tc, writable_mount_elsewhere_unseals);
	tcase_add_test(tc, read_only_superblock_seals);
	tcase_add_test(tc, writable_mount_outside_chroot);
	tcase_add_test(tc, overlay_is_no_seal);
	tcase_add_test(tc, namespace_of_another_root);
	tcase_add_test(tc, mountinfo_when_no_statmount);
	tcase_add_test(tc, mountinfo_sees_the_writable_mount);
	tcase_add_test(tc, writable_in_another_namespace);
	tcase_add_test(tc, mountinfo_of_another_namespace);
	tcase_add_test(tc, mountinfo_outside_a_chroot);
	tcase_add_test(tc, sealed_without_proc);
	tcase_add_test(tc, held_directory_unseals);
	tcase_add_test(tc, held_working_directory_unseals);
	tcase_add_test(tc, held_namespace_unseals);
	tcase_add_test(tc, held_in_flight_unseals);
	suite_add_tcase(s, tc);
	/* its own, for its 3 s and more before the deadline was kept */
	/*
	 * The deadline's cases wait out its 3 s with a million descriptors
	 * held: the plain pass alone runs them. Under valgrind or the
	 * sanitizers they cost three times as much and check no code the
	 * cases above do not (the same look, the same deadline test); they
	 * are left out there, and said so, not passed.
	 */
	/*
	 * Nor are they run again in root/progs_container_world.sh's world,
	 * which runs this suite for the cases above: a ConfigMap's seal on
	 * an overlay root. The deadline's cases judge mounts of their own
	 * (tmpfs), in a pid namespace with a /proc of its own; what the
	 * world changes (/, /etc/security, tracefs) none of them reads, and
	 * their million descriptors cost 4 CPU s a run.
	 */
	if ((getenv("SANITIZE") != NULL && getenv("SANITIZE")[0] != '\0') ||
	    (getenv("VALGRIND") != NULL &&
	     strcmp(getenv("VALGRIND"), "1") == 0)) {
		printf("note: the deadline cases run in the plain pass only\n");
	} else if (getenv("CONTAINER_WORLD") != NULL &&
		   strcmp(getenv("CONTAINER_WORLD"), "inside") == 0) {
		printf("note: the deadline cases run outside the container "
		       "world only\n");
	} else {
		slow = tcase_create("deadline");
		tcase_add_checked_fixture(slow, setup, teardown);
		tcase_set_timeout(slow, 60);
		tcase_add_test(slow, many_descriptors_within_deadline);
		tcase_add_test(slow, held_named_past_deadline);
		suite_add_tcase(s, slow);
	}
	return s;
}

CHECK_MAIN(writeseal_suite)
