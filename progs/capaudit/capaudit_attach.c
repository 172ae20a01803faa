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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.h"
#include "capaudit_attach.h"
#include "capaudit_launch.h"
#include "capaudit_perf.h"
#include "capaudit_privilege.h"
#include "capaudit_tally.h"
#include "mask.h"
#include "procstatus.h"

/*
 * The user's own privileges: with file capabilities (AT_SECURE, or
 * uid 0 under SECBIT_NOROOT; capaudit_privilege.c)
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
	if (privileged_by_own_file())
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
		snprintf(
			why, len,
			"not dumpable (it ran a set-user-ID or file-capability program, or made itself so with prctl(PR_SET_DUMPABLE))");
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
 * The threads of the process, each pinned by its /proc directory, opened
 * through the process's own: the kernel resolves task/TID there only to
 * a thread of that thread group, and the directory holds that thread's
 * struct pid, whose files answer ENOENT once the thread is gone and its
 * id free for another process. A directory whose files still answer
 * after capaudit opened events on the id proves the id named that
 * thread all along, as a pidfd would (and with no need for
 * PIDFD_THREAD, Linux 6.9).
 */
struct pinned {
	pid_t *tid;
	int *fd;
	size_t n, size;
};

static void pins_release(struct pinned *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		close(p->fd[i]);
	free(p->tid);
	free(p->fd);
	memset(p, 0, sizeof(*p));
}

static int pin_add(struct pinned *p, pid_t tid, int fd)
{
	if (p->n == p->size) {
		size_t size = p->size ? p->size * 2 : 8;
		pid_t *tids = reallocarray(p->tid, size, sizeof(*tids));
		int *fds;

		if (tids == NULL)
			return -1;
		p->tid = tids;
		fds = reallocarray(p->fd, size, sizeof(*fds));
		if (fds == NULL)
			return -1;
		p->fd = fds;
		p->size = size;
	}
	p->tid[p->n] = tid;
	p->fd[p->n] = fd;
	p->n++;
	return 0;
}

/* 1 while fd's thread (or process) is still there, holding its id. */
static int pin_alive(int fd)
{
	struct stat st;

	return fstatat(fd, "stat", &st, 0) == 0;
}

static int pin_held(const struct watch_set *ws, size_t i)
{
	const struct pinned *p = ws->ctx;

	return pin_alive(p->fd[i]);
}

/* Every thread of the process open on dfd, pinned. 0, or -1 with errno. */
static int pins_list(int dfd, struct pinned *p)
{
	struct dirent *d;
	int tdir, tfd;
	DIR *dir;

	memset(p, 0, sizeof(*p));
	tdir = openat(dfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tdir < 0 || (dir = fdopendir(tdir)) == NULL) {
		int saved = errno;

		if (tdir >= 0)
			close(tdir);
		errno = saved;
		return -1;
	}
	for (;;) {
		char *end;
		long tid;

		errno = 0;
		d = readdir(dir);
		if (d == NULL && errno != 0) {
			int saved = errno; /* a listing cut short */

			closedir(dir);
			pins_release(p);
			errno = saved;
			return -1;
		}
		if (d == NULL)
			break;
		tid = strtol(d->d_name, &end, 10);
		if (*end != '\0' || tid <= 0 || tid > INT32_MAX)
			continue;
		tfd = openat(dirfd(dir), d->d_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (tfd < 0 && (errno == ENOENT || errno == ESRCH))
			continue; /* that thread ended meanwhile */
		/* Not one thread left out unsaid (EMFILE: one fd each). */
		if (tfd < 0 || pin_add(p, (pid_t)tid, tfd) < 0) {
			int saved = tfd < 0 ? errno : ENOMEM;

			if (tfd >= 0)
				close(tfd);
			closedir(dir);
			pins_release(p);
			errno = saved;
			return -1;
		}
	}
	closedir(dir);
	if (p->n == 0) {
		errno = ESRCH; /* every thread has ended */
		return -1;
	}
	return 0;
}

/*
 * ptrace(2) asks its question of one thread, and perf_event_open(2) of
 * each thread capaudit opens events for: a thread has credentials of
 * its own (a raw setuid(2) changes only the calling thread's), and a
 * process whose first thread is the user's may hold a thread that is
 * root's. So every thread capaudit watches (the pinned ones) must pass,
 * as the process itself does. 1, 0 (why says which thread and why), or
 * -1 with errno (ESRCH: gone).
 */
static int process_allowed(int dfd, pid_t pid, const struct pinned *p,
			   char *why, size_t len)
{
	char reason[160];
	size_t i;
	int rc;

	rc = ptrace_read_allowed(dfd, pid, why, len);
	for (i = 0; rc == 1 && i < p->n; i++) {
		if (p->tid[i] == pid)
			continue;
		rc = ptrace_read_allowed(p->fd[i], p->tid[i], reason,
					 sizeof(reason));
		/*
		 * Ended meanwhile: nothing of it is watched (tracer_open()
		 * leaves it out), and kcmp(2) may have asked about another
		 * process that has its id now.
		 */
		if (rc != 1 && !pin_alive(p->fd[i]))
			rc = 1;
		else if (rc == 0)
			snprintf(why, len, "its thread %ld: %s",
				 (long)p->tid[i], reason);
	}
	return rc;
}

/*
 * perf_event_open(2) and kcmp(2) take ids in capaudit's own pid
 * namespace; /proc names processes in the namespace it was mounted for.
 * Where the two differ (a /proc from outside a container, or from
 * another one), --pid would watch whatever process holds the id in
 * capaudit's namespace. NSpid of /proc/self lists capaudit's id in
 * /proc's namespace first and in its own last: one id, its own, when
 * they are the same (without the line, before Linux 4.1, /proc/self
 * must at least be capaudit's own id).
 */
static int proc_is_own_pid_ns(void)
{
	char *line = NULL, *end, link[32];
	size_t size = 0;
	int same = -1;
	ssize_t n;
	FILE *f;

	f = fopen("/proc/self/status", "re");
	if (f == NULL)
		return 0;
	while (same < 0 && getline(&line, &size, f) > 0) {
		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		same = strtol(line + 6, &end, 10) == (long)getpid() &&
		       strspn(end, " \t\n") == strlen(end);
	}
	free(line);
	fclose(f);
	if (same >= 0)
		return same;
	n = readlink("/proc/self", link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	return strtol(link, &end, 10) == (long)getpid() && *end == '\0';
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

static void refuse(pid_t pid, int ok, const char *why)
{
	warnx("--pid=%ld: %s: capaudit watches only what ptrace(2) would let you read",
	      (long)pid, ok < 0 ? strerror(errno) : why);
}

int attach_run(pid_t pid, unsigned long long duration, const struct source *src,
	       struct tally *t, struct run_result *rr)
{
	struct watch_set ws = { NULL, 0, pin_held, NULL };
	struct pinned pins = { NULL, NULL, 0, 0 };
	char path[64], why[200];
	struct tracer *tr;
	double start, end;
	int dfd, ok;

	if (!proc_is_own_pid_ns()) {
		warnx("--pid=%ld: /proc shows another pid namespace than capaudit's own, where perf_event_open(2) would find another process by that id: mount the proc file system of capaudit's pid namespace on /proc",
		      (long)pid);
		return 1;
	}
	snprintf(path, sizeof(path), "/proc/%ld", (long)pid);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		warn("--pid=%ld", (long)pid);
		return 1;
	}
	if (pins_list(dfd, &pins) < 0) {
		warn("--pid=%ld: its threads", (long)pid);
		close(dfd);
		return 1;
	}
	ok = process_allowed(dfd, pid, &pins, why, sizeof(why));
	if (ok != 1) {
		refuse(pid, ok, why);
		pins_release(&pins);
		close(dfd);
		return 1;
	}
	describe_target(dfd, pid, t);
	ws.tid = pins.tid;
	ws.n = pins.n;
	ws.ctx = &pins;
	tr = tracer_open(src, &ws);
	if (tr == NULL) {
		pins_release(&pins);
		close(dfd);
		tally_free(t);
		return 1;
	}
	/*
	 * Asked again through the same directories, which belong to the
	 * process and its threads and not to the numbers: gone (a recycled
	 * pid), or changed (it exec'd a set-user-ID program meanwhile), it
	 * is not watched.
	 */
	ok = process_allowed(dfd, pid, &pins, why, sizeof(why));
	pins_release(&pins);
	if (ok != 1) {
		warnx("--pid=%ld: the process changed while capaudit attached (%s); nothing was watched",
		      (long)pid, ok < 0 ? strerror(errno) : why);
		close(dfd);
		tracer_close(tr);
		tally_free(t);
		return 1;
	}
	rr->left_out = tracer_left_out(tr);
	tracer_wake_on(tr, pid);
	tracer_calibrate(tr);
	start = now();
	end = start + (double)(duration ? duration : 10);
	/* Its end, by its directory: its id may be another's by then. */
	while (!launch_stop && now() < end) {
		tracer_drain(tr, 100, tally_record, t);
		if (!pin_alive(dfd))
			break;
	}
	close(dfd);
	tracer_finish(tr, tally_record, t);
	rr->attached = 1;
	rr->seconds = now() - start;
	tracer_close(tr);
	if (tally_finish(t) < 0)
		warnx("out of memory: some checks were not counted");
	return 0;
}
