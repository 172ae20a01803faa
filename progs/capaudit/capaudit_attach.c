/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --pid: watching a running process for a while. perf_event_open(2) lets
 * a holder of CAP_PERFMON watch any process at all, so capaudit asks
 * ptrace(2)'s question itself, as the user it runs for: would
 * PTRACE_MODE_READ_REALCREDS let you read that process?
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <linux/nsfs.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.h"
#include "mask.h"
#include "procstatus.h"

/*
 * The user's own privileges: with file capabilities (AT_SECURE)
 * capaudit's are the file's, held to trace, not the user's, who has
 * none of them (an execve with file capabilities leaves only what the
 * file gives). Its CAP_SYS_PTRACE (effective), into *ptrace, and its
 * permitted set, returned.
 */
static uint64_t own_privileges(int *ptrace)
{
	cap_flag_value_t v = CAP_CLEAR;
	uint64_t permitted;
	cap_t self;

	*ptrace = 0;
	if (getauxval(AT_SECURE))
		return 0;
	self = cap_get_proc();
	if (self != NULL)
		cap_get_flag(self, CAP_SYS_PTRACE, CAP_EFFECTIVE, &v);
	permitted = mask_of_flag(self, CAP_PERMITTED);
	cap_free(self);
	*ptrace = v == CAP_SET;
	return permitted;
}

/*
 * The kernel's cap_capable(): a capability counts in the target's user
 * namespace when it is ours, or one below ours; and the owner of a
 * namespace made directly in ours has every capability in it.
 */
static int caps_reach(int dfd, int have_cap)
{
	struct stat ours, ns;
	int fd, parent, reach = 0;
	uid_t owner;

	if (stat("/proc/self/ns/user", &ours) < 0)
		return 0;
	fd = openat(dfd, "ns/user", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (;;) {
		if (fstat(fd, &ns) < 0)
			break;
		if (ns.st_dev == ours.st_dev && ns.st_ino == ours.st_ino) {
			reach = have_cap;
			break;
		}
		parent = ioctl(fd, NS_GET_PARENT);
		if (parent < 0)
			break; /* EPERM: above ours, so not below it */
		if (fstat(parent, &ns) == 0 && ns.st_dev == ours.st_dev &&
		    ns.st_ino == ours.st_ino &&
		    ioctl(fd, NS_GET_OWNER_UID, &owner) == 0 &&
		    owner == geteuid()) {
			close(parent);
			reach = 1;
			break;
		}
		close(fd);
		fd = parent;
	}
	close(fd);
	return reach;
}

int ptrace_read_allowed(int dfd, pid_t pid, char *why, size_t len)
{
	struct proc_status ps;
	char *bad = NULL;
	struct stat st;
	uid_t ruid = getuid();
	gid_t rgid = getgid();
	uint64_t own;
	int same, cap, ptrace, i;

	if (proc_status_read(dfd, &ps, &bad) < 0) {
		int saved = errno;

		free(bad);
		proc_status_release(&ps);
		errno = saved;
		return -1;
	}
	if ((ps.seen & (PROC_STATUS_UID | PROC_STATUS_GID)) !=
	    (PROC_STATUS_UID | PROC_STATUS_GID)) {
		proc_status_release(&ps);
		snprintf(why, len, "its ids cannot be read");
		return 0;
	}
	/* __ptrace_may_access(): the caller's real ids, the target's real, effective and saved. */
	same = 1;
	for (i = 0; i < 3; i++)
		same = same && ps.uid[i] == ruid && ps.gid[i] == rgid;
	own = own_privileges(&ptrace);
	cap = caps_reach(dfd, ptrace);
	if (!same && !cap) {
		proc_status_release(&ps);
		snprintf(why, len, "not a process of yours");
		return 0;
	}
	/*
	 * cap_ptrace_access_check(): without CAP_SYS_PTRACE over it, a
	 * process may be read only by one permitted every capability it
	 * is (a program with file capabilities, run by the same user).
	 */
	if (!cap &&
	    (!(ps.seen & PROC_STATUS_CAPPRM) || (ps.permitted & ~own))) {
		char list[256];

		mask_names(list, sizeof(list), ps.permitted & ~own, 0);
		proc_status_release(&ps);
		snprintf(why, len, "it holds capabilities you do not (%s)",
			 list);
		return 0;
	}
	/*
	 * Dumpable: the kernel makes the files of /proc/PID of a process
	 * that is not owned by root (of its namespace) instead of its
	 * effective ids (task_dump_owner()); the directory itself keeps them.
	 */
	if (!cap && (fstatat(dfd, "environ", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		     st.st_uid != ps.uid[1] || st.st_gid != ps.gid[1])) {
		proc_status_release(&ps);
		snprintf(why, len,
			 "not dumpable (it ran a set-user-ID or "
			 "file-capability program, or made itself so with "
			 "prctl(PR_SET_DUMPABLE))");
		return 0;
	}
	proc_status_release(&ps);
	/*
	 * And the kernel's own answer, security modules included: kcmp(2)
	 * asks PTRACE_MODE_READ_REALCREDS of both processes.
	 */
	if (syscall(SYS_kcmp, getpid(), pid, KCMP_VM, 0, 0) < 0) {
		if (errno == ESRCH)
			return -1;
		if (errno == EPERM || errno == EACCES) {
			snprintf(why, len,
				 "the kernel's ptrace check refuses it");
			return 0;
		}
	}
	return 1;
}

/*
 * ptrace(2) asks its question of one thread, and perf_event_open(2) of
 * each thread capaudit opens events for: a thread has credentials of
 * its own (a raw setuid(2) changes only the calling thread's), and a
 * process whose first thread is the user's may hold a thread that is
 * root's. So every thread must pass, as the process itself does. 1, 0
 * (why says which thread and why), or -1 with errno (ESRCH: gone).
 */
static int process_allowed(int dfd, pid_t pid, char *why, size_t len)
{
	struct dirent *d;
	char reason[160];
	int rc, tdir, tfd;
	DIR *dir;

	rc = ptrace_read_allowed(dfd, pid, why, len);
	if (rc != 1)
		return rc;
	tdir = openat(dfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tdir < 0 || (dir = fdopendir(tdir)) == NULL) {
		int saved = errno;

		if (tdir >= 0)
			close(tdir);
		errno = saved;
		return -1;
	}
	while (rc == 1 && (d = readdir(dir)) != NULL) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);

		if (*end != '\0' || tid <= 0 || tid == (long)pid)
			continue;
		tfd = openat(dirfd(dir), d->d_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (tfd < 0)
			continue; /* that thread ended meanwhile */
		rc = ptrace_read_allowed(tfd, (pid_t)tid, reason,
					 sizeof(reason));
		close(tfd);
		if (rc < 0 && errno == ESRCH)
			rc = 1; /* ended meanwhile: nothing to watch */
		else if (rc == 0)
			snprintf(why, len, "its thread %ld: %s", tid, reason);
	}
	closedir(dir);
	return rc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Its name and the file it runs, read through its /proc directory. */
static void describe_target(int dfd, pid_t pid, struct tally *t)
{
	char comm[64] = "", exe[4096];
	struct stat st;
	ssize_t n;
	int fd;

	fd = openat(dfd, "comm", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, comm, sizeof(comm) - 1);
		comm[n > 0 ? n : 0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		close(fd);
	}
	tally_init(t, pid, comm);
	n = readlinkat(dfd, "exe", exe, sizeof(exe) - 1);
	if (n <= 0 || fstatat(dfd, "exe", &st, 0) < 0)
		return;
	exe[n] = '\0';
	tally_set_file(t, pid, exe, major(st.st_dev), minor(st.st_dev),
		       st.st_ino);
}

int attach_run(pid_t pid, unsigned long long duration, const struct source *src,
	       struct tally *t, struct run_result *rr)
{
	char path[64], why[200];
	struct tracer *tr;
	double start, end;
	int dfd, ok;

	snprintf(path, sizeof(path), "/proc/%ld", (long)pid);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		warn("--pid=%ld", (long)pid);
		return 1;
	}
	ok = process_allowed(dfd, pid, why, sizeof(why));
	if (ok != 1) {
		warnx("--pid=%ld: %s: capaudit watches only what ptrace(2) "
		      "would let you read",
		      (long)pid, ok < 0 ? strerror(errno) : why);
		close(dfd);
		return 1;
	}
	describe_target(dfd, pid, t);
	tr = tracer_open(src, pid, 1);
	if (tr == NULL) {
		close(dfd);
		tally_free(t);
		return 1;
	}
	/*
	 * Asked again through the same directory, which belongs to the
	 * process and not to the number: gone (a recycled pid), or changed
	 * (it exec'd a set-user-ID program meanwhile), it is not watched.
	 */
	ok = process_allowed(dfd, pid, why, sizeof(why));
	close(dfd);
	if (ok != 1) {
		warnx("--pid=%ld: the process changed while capaudit attached "
		      "(%s); nothing was watched",
		      (long)pid, ok < 0 ? strerror(errno) : why);
		tracer_close(tr);
		tally_free(t);
		return 1;
	}
	tracer_wake_on(tr, pid);
	tracer_calibrate(tr);
	start = now();
	end = start + (double)(duration ? duration : 10);
	while (!launch_stop && now() < end) {
		tracer_drain(tr, 100, tally_record, t);
		if (kill(pid, 0) < 0 && errno == ESRCH)
			break;
	}
	tracer_finish(tr, tally_record, t);
	rr->attached = 1;
	rr->seconds = now() - start;
	tracer_close(tr);
	if (tally_finish(t) < 0)
		warnx("out of memory: some checks were not counted");
	return 0;
}
