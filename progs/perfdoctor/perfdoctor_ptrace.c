/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Reading another process's seccomp filters. The kernel hands them out
 * only through PTRACE_SECCOMP_GET_FILTER: to a reader with CAP_SYS_ADMIN
 * and no filter of its own, about a tracee in a ptrace stop. So the
 * process is stopped, for as long as the copy takes, as a debugger would
 * stop it, and this file's whole concern is that nothing else happens
 * to it:
 *
 *  - The tracer is a child of perfdoctor that exits when done. A tracer
 *    that exits detaches from its tracee whatever state it is in, so no
 *    path (an error, a timeout, perfdoctor killed: the child dies with
 *    it, PR_SET_PDEATHSIG) leaves the process stopped or traced.
 *  - PTRACE_SEIZE, not PTRACE_ATTACH: no SIGSTOP is sent, which its
 *    parent would see; PTRACE_INTERRUPT stops it, a stop no one else
 *    observes. A signal that arrives meanwhile is handed back on detach;
 *    a job-control stop stays in effect, as it would have.
 *  - A set-user-ID execve() made while it is traced gains its privileges
 *    only if the tracer holds CAP_SYS_PTRACE (ptracer_capable()): the
 *    reader insists on it, so being read never costs a program its
 *    privileges.
 *  - A process that does not stop within a bound (uninterruptible sleep,
 *    a vfork() parent, a cgroup v1 freezer's: a paused container) is let
 *    go by the reader's exit: SIGALRM's default action ends it.
 *  - The pid is pinned with a pidfd, and the /proc directory opened
 *    before: if the process exits while it is read, or the pid now names
 *    another process, what was read is thrown away.
 *  - The count of filters (Seccomp_filters, since Linux 5.9) is read
 *    with the thread stopped, before and after the copy: another
 *    thread's SECCOMP_FILTER_FLAG_TSYNC can still add one, and filters
 *    only ever grow, so an unchanged count means an unchanged chain.
 *    (Without the count, the copy is still one chain: ptrace numbers
 *    filters from the oldest, which a new one does not renumber.)
 *  - Filters belong to threads, and any thread may start perf: each
 *    thread (up to 64) is read in turn, stopped only for its own copy,
 *    and a chain that differs from the main thread's makes the answer
 *    unknown.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfdoctor.h"
#include "perfdoctor_ptrace.h"

/* How long the threads may take to stop; how long the reader may take in all. */
#define STOP_SECONDS 2
#define READER_MS    5000
/* The most threads whose filters are read, one after the other. */
#define THREADS_MAX 64

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Where the reader stopped, for the reason. */
enum read_stage {
	READ_OK,
	READ_SEIZE,
	READ_INTERRUPT,
	READ_WAIT,
	READ_GONE,
	READ_COUNT,
	READ_FILTER,
	READ_TOO_BIG,
	READ_NOMEM,
	READ_CHANGED,
	READ_TOO_MANY_THREADS,
	READ_THREADS_DIFFER,
};

/* The reader's report, before the lengths and the instructions. */
struct report {
	int32_t stage;
	int32_t err;
	uint32_t nfilters, ninsns;
	uint32_t
		filter; /* READ_FILTER: which one; READ_THREADS_DIFFER: the thread */
	uint32_t pad;
};

#define REPORT_MAX                                                \
	(sizeof(struct report) + FILTERS_MAX * sizeof(uint32_t) + \
	 FILTERS_MAX_INSNS * sizeof(struct sock_filter))

/*
 * A number from a "Name:\tvalue" line of a status file under dfd (path
 * "status" or "task/N/status"); UINT32_MAX when the line is missing.
 */
static int status_value(int dfd, const char *path, const char *name,
			uint32_t *value)
{
	char buf[4096], *line;
	size_t nlen = strlen(name), have = 0;
	ssize_t n;
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);

	*value = UINT32_MAX;
	if (fd < 0)
		return -1;
	while (have < sizeof(buf) - 1 &&
	       (n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0)
		have += (size_t)n;
	close(fd);
	if (have == 0)
		return -1;
	buf[have] = '\0';
	for (line = buf; line != NULL && *line != '\0';) {
		char *next = strchr(line, '\n');

		if (strncmp(line, name, nlen) == 0 && line[nlen] == ':') {
			char *end;
			unsigned long v = strtoul(line + nlen + 1, &end, 10);

			if (end == line + nlen + 1 || v >= UINT32_MAX ||
			    (*end != '\n' && *end != '\0'))
				return -1;
			*value = (uint32_t)v;
			return 0;
		}
		line = next != NULL ? next + 1 : NULL;
	}
	return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Waits for the first ptrace stop. A signal-delivery stop holds a signal
 * on its way: *inject gets it, for the detach to hand back.
 */
static int wait_stop(pid_t pid, int *inject, struct report *r)
{
	int st;

	for (;;) {
		pid_t w = waitpid(pid, &st, __WALL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			r->stage = READ_WAIT;
			r->err = errno;
			return -1;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			r->stage = READ_GONE;
			r->err = ESRCH;
			return -1;
		}
		if (!WIFSTOPPED(st))
			continue;
		/*
		 * PTRACE_EVENT_STOP: ours, or a job-control stop (which the
		 * detach leaves in effect); event 0: a signal on its way.
		 */
		if (((unsigned)st >> 16) == 0)
			*inject = WSTOPSIG(st);
		return 0;
	}
}

/* One thread's filters, oldest first (ptrace's order). */
struct chain {
	uint32_t nfilters, ninsns;
	uint32_t lens[FILTERS_MAX];
	struct sock_filter insns[FILTERS_MAX_INSNS];
};

/* Copies every filter of the stopped thread tid into c. */
static int copy_filters(pid_t tid, struct report *r, struct chain *c)
{
	c->nfilters = c->ninsns = 0;
	for (;;) {
		long n = ptrace(PTRACE_SECCOMP_GET_FILTER, tid,
				(void *)(uintptr_t)c->nfilters, NULL);
		long got;

		if (n < 0 && errno == ENOENT)
			return 0; /* past the newest */
		if (n <= 0 || n > 4096) {
			r->stage = READ_FILTER;
			r->err = n < 0 ? errno : EINVAL;
			r->filter = c->nfilters;
			return -1;
		}
		if (c->nfilters >= FILTERS_MAX ||
		    (uint64_t)c->ninsns + (uint64_t)n > FILTERS_MAX_INSNS) {
			r->stage = READ_TOO_BIG;
			return -1;
		}
		got = ptrace(PTRACE_SECCOMP_GET_FILTER, tid,
			     (void *)(uintptr_t)c->nfilters,
			     c->insns + c->ninsns);
		if (got != n) {
			r->stage = READ_FILTER;
			r->err = got < 0 ? errno : EINVAL;
			r->filter = c->nfilters;
			return -1;
		}
		c->lens[c->nfilters++] = (uint32_t)n;
		c->ninsns += (uint32_t)n;
	}
}

/*
 * Seizes thread tid, stops it, copies its filters into c between two
 * reads of its filter count (from status, a path under dfd), and lets it
 * go. 0, or -1 with r's stage and errno (READ_GONE: it has exited).
 */
static int read_thread(pid_t tid, int dfd, const char *status, struct report *r,
		       struct chain *c)
{
	uint32_t before = UINT32_MAX, after = UINT32_MAX;
	int inject = 0, rc = -1;

	if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) < 0) {
		r->stage = errno == ESRCH ? READ_GONE : READ_SEIZE;
		r->err = errno;
		return -1;
	}
	if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) < 0) {
		r->stage = READ_INTERRUPT;
		r->err = errno;
		return -1; /* the reader's exit lets it go */
	}
	if (wait_stop(tid, &inject, r) < 0)
		return -1;
	if (status_value(dfd, status, "Seccomp_filters", &before) < 0 &&
	    (errno == ENOENT || errno == ESRCH)) {
		/* Gone from the process: exited, or a reused id. */
		r->stage = READ_GONE;
		r->err = ESRCH;
	} else if (copy_filters(tid, r, c) < 0 ||
		   status_value(dfd, status, "Seccomp_filters", &after) < 0) {
		if (r->stage == READ_OK) {
			r->stage = READ_COUNT;
			r->err = errno;
		}
	} else if (before != after ||
		   (before != UINT32_MAX && before != c->nfilters)) {
		r->stage = READ_CHANGED;
	} else {
		rc = 0;
	}
	/* Let it go now; should this fail, the reader's exit does it. */
	ptrace(PTRACE_DETACH, tid, NULL, (void *)(uintptr_t)inject);
	return rc;
}

/*
 * The other threads of process pid, each read and compared with the
 * main thread's chain: perf may be started by any of them. A thread that
 * exits meanwhile runs nothing, and is passed over.
 */
static void read_other_threads(pid_t pid, int dfd, struct report *r,
			       const struct chain *main_chain)
{
	struct chain *c = malloc(sizeof(*c));
	int tfd = openat(dfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = tfd >= 0 ? fdopendir(tfd) : NULL;
	struct dirent *e;
	unsigned n = 0;

	if (c == NULL || d == NULL) {
		r->stage = c == NULL ? READ_NOMEM : READ_COUNT;
		r->err = c == NULL ? ENOMEM : errno;
		if (d == NULL && tfd >= 0)
			close(tfd);
		goto out;
	}
	while (r->stage == READ_OK && (e = readdir(d)) != NULL) {
		char status[300], *end;
		long tid = strtol(e->d_name, &end, 10);

		if (e->d_name[0] == '.' || *end != '\0' || tid == pid)
			continue;
		if (++n > THREADS_MAX) {
			r->stage = READ_TOO_MANY_THREADS;
			break;
		}
		/*
		 * The status path goes through the process's own directory:
		 * a thread id reused by another process meanwhile is let go
		 * unread, its status being nowhere there.
		 */
		put(status, sizeof(status), "task/%ld/status", tid);
		if (read_thread((pid_t)tid, dfd, status, r, c) < 0) {
			if (r->stage == READ_GONE)
				r->stage = READ_OK;
			continue;
		}
		if (c->nfilters != main_chain->nfilters ||
		    memcmp(c->lens, main_chain->lens,
			   c->nfilters * sizeof(c->lens[0])) != 0 ||
		    memcmp(c->insns, main_chain->insns,
			   c->ninsns * sizeof(c->insns[0])) != 0) {
			r->stage = READ_THREADS_DIFFER;
			r->filter = (uint32_t)tid;
		}
	}
out:
	if (d != NULL)
		closedir(d);
	free(c);
}

/* The reader: a child of perfdoctor; its exit is the detach of last resort. */
static void reader(int out, int dfd, pid_t pid, pid_t parent)
{
	struct chain *c = calloc(1, sizeof(*c));
	struct report r;
	uint32_t threads = 1;

	memset(&r, 0, sizeof(r));
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
	    getppid() != parent || c == NULL)
		_exit(3);
	/* SIGALRM's default action ends the reader, and so every trace. */
	signal(SIGALRM, SIG_DFL);
	alarm(STOP_SECONDS);
	if (read_thread(pid, dfd, "status", &r, c) == 0 &&
	    status_value(dfd, "status", "Threads", &threads) == 0 &&
	    threads > 1)
		read_other_threads(pid, dfd, &r, c);
	alarm(0);
	if (r.stage == READ_OK) {
		r.nfilters = c->nfilters;
		r.ninsns = c->ninsns;
	}
	if (write_all(out, &r, sizeof(r)) < 0 ||
	    write_all(out, c->lens, r.nfilters * sizeof(c->lens[0])) < 0 ||
	    write_all(out, c->insns, r.ninsns * sizeof(c->insns[0])) < 0)
		_exit(2);
	_exit(0);
}

/* Does the process whose /proc directory is dfd still exist (or linger)? */
static int still_there(int dfd, int pidfd)
{
	struct pollfd p = { pidfd, POLLIN, 0 };
	int fd = openat(dfd, "stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	/* A pidfd turns readable when its process exits. */
	return pidfd < 0 || (poll(&p, 1, 0) == 0);
}

static void said_frozen(pid_t pid, char *why, size_t len)
{
	put(why, len,
	    "process %d is frozen (its cgroup's freezer: a container paused with podman pause or docker pause) and cannot stop to have its seccomp filter read; it was let go untouched: unpause it, then ask again",
	    (int)pid);
}

/* Why perfdoctor itself may not read filters, or NULL when it may. */
static const char *reader_cannot(void)
{
	cap_flag_value_t admin = CAP_CLEAR, ptrace_cap = CAP_CLEAR;
	cap_t own = cap_get_proc();

	if (own != NULL) {
		cap_get_flag(own, CAP_SYS_ADMIN, CAP_EFFECTIVE, &admin);
		cap_get_flag(own, CAP_SYS_PTRACE, CAP_EFFECTIVE, &ptrace_cap);
		cap_free(own);
	}
	if (admin != CAP_SET || ptrace_cap != CAP_SET)
		return "perfdoctor may read another process's seccomp filter only with CAP_SYS_ADMIN and CAP_SYS_PTRACE: run it as root";
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 0)
		return "perfdoctor runs under a seccomp filter itself, and the kernel shows filters only to a reader without one";
	return NULL;
}

/* Reads everything the reader sends, within READER_MS; returns the bytes. */
static size_t drain(int in, char *buf, size_t max, int *timed_out)
{
	struct timespec end, now;
	size_t have = 0;

	*timed_out = 0;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += READER_MS / 1000;
	for (;;) {
		struct pollfd p = { in, POLLIN, 0 };
		long ms;
		ssize_t n;
		int r;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (end.tv_sec - now.tv_sec) * 1000 +
		     (end.tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0) {
			*timed_out = 1;
			return have;
		}
		r = poll(&p, 1, (int)ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*timed_out = r == 0;
			return have;
		}
		if (have >= max)
			return have; /* more than a report holds: malformed */
		n = read(in, buf + have, max - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return have;
		have += (size_t)n;
	}
}

/*
 * Is the process whose /proc directory is dfd exiting, or a zombie?
 * ptrace refuses to attach to it with EPERM, which alone would read as
 * a refusal of perfdoctor's rights. Its stat's flags say PF_EXITING.
 */
static int exiting(int dfd)
{
	char buf[1024], *p;
	unsigned long flags;
	int fd = openat(dfd, "stat", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ESRCH || errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags: comm may hold ')' */
	p = strrchr(buf, ')');
	if (p == NULL ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return 0;
	return (flags & 0x4) != 0; /* PF_EXITING */
}

/* The reason for a reader's failure, into why. */
static void explain(const struct report *r, int dfd, pid_t pid, char *why,
		    size_t len)
{
	const char *e = errno_name(r->err);
	uint32_t tracer = 0;
	char en[40];

	put(en, sizeof(en), "%s", e != NULL ? e : "an error");
	switch (r->stage) {
	case READ_SEIZE:
		if (r->err == EPERM &&
		    status_value(dfd, "status", "TracerPid", &tracer) == 0 &&
		    tracer != 0 && tracer != UINT32_MAX)
			put(why, len,
			    "process %d is traced by process %u, and a process has one tracer: its seccomp filter cannot be read",
			    (int)pid, (unsigned)tracer);
		else if (r->err == ESRCH || (r->err == EPERM && exiting(dfd)))
			put(why, len,
			    "process %d exited before its seccomp filter could be read",
			    (int)pid);
		else
			put(why, len,
			    "the kernel would not let perfdoctor trace process %d to read its seccomp filter (%s: %s)",
			    (int)pid, en, strerror(r->err));
		break;
	case READ_GONE:
		put(why, len,
		    "process %d exited while its seccomp filter was being read",
		    (int)pid);
		break;
	case READ_FILTER:
		put(why, len,
		    "the kernel would not hand over filter %u of process %d (%s: %s%s)",
		    (unsigned)r->filter + 1, (int)pid, en, strerror(r->err),
		    r->err == EMEDIUMTYPE ? ", it keeps no copy of the program"
					  : "");
		break;
	case READ_TOO_BIG:
		put(why, len,
		    "process %d has more seccomp filters or instructions than the kernel allows one thread (%d instructions)",
		    (int)pid, FILTERS_MAX_INSNS);
		break;
	case READ_CHANGED:
		put(why, len,
		    "the seccomp filters of process %d changed while being read",
		    (int)pid);
		break;
	case READ_TOO_MANY_THREADS:
		put(why, len,
		    "process %d has more than %d threads, whose filters (any of them may start perf) are not all read",
		    (int)pid, THREADS_MAX);
		break;
	case READ_THREADS_DIFFER:
		put(why, len,
		    "thread %u of process %d runs under other seccomp filters than its main thread, and which one starts perf is not known",
		    (unsigned)r->filter, (int)pid);
		break;
	default:
		put(why, len,
		    "reading the seccomp filter of process %d failed (step %d, %s: %s)",
		    (int)pid, (int)r->stage, en, strerror(r->err));
	}
}

/* fs from the report in buf (n bytes), every length checked. */
static int unpack(const char *buf, size_t n, struct filter_set *fs)
{
	const struct report *r = (const struct report *)buf;
	const uint32_t *lens = (const uint32_t *)(buf + sizeof(*r));
	size_t i, at = 0;

	if (r->nfilters == 0 || r->nfilters > FILTERS_MAX ||
	    r->ninsns > FILTERS_MAX_INSNS ||
	    n != sizeof(*r) + r->nfilters * sizeof(uint32_t) +
			    r->ninsns * sizeof(struct sock_filter))
		return -1;
	fs->filters = calloc(r->nfilters, sizeof(*fs->filters));
	fs->insns = malloc(r->ninsns * sizeof(*fs->insns));
	if (fs->filters == NULL || fs->insns == NULL)
		return -1;
	memcpy(fs->insns, lens + r->nfilters, r->ninsns * sizeof(*fs->insns));
	/*
	 * ptrace numbers them from the oldest (get_nth_filter() walks back
	 * from the newest), and seccomp runs them from the newest, which
	 * wins a tie: the newest goes first.
	 */
	for (i = 0; i < r->nfilters; i++) {
		struct cbpf_filter *f = &fs->filters[r->nfilters - 1 - i];

		if (lens[i] == 0 || lens[i] > r->ninsns - at)
			return -1;
		f->insns = fs->insns + at;
		f->len = lens[i];
		at += lens[i];
	}
	fs->n = r->nfilters;
	return at == r->ninsns ? 0 : -1;
}

int read_seccomp_filters(int dfd, pid_t pid, struct filter_set *fs, char *why,
			 size_t len)
{
	const char *cannot = reader_cannot();
	struct report r;
	char *buf = NULL;
	size_t n = 0;
	int pipefd[2] = { -1, -1 }, pidfd, st = 0, timed_out = 0, rc = -1, err;
	pid_t child, me = getpid();

	memset(fs, 0, sizeof(*fs));
	if (cannot != NULL) {
		put(why, len, "%s", cannot);
		return -1;
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if ((pidfd < 0 && errno == ESRCH) || !still_there(dfd, -1)) {
		put(why, len,
		    "process %d exited before its seccomp filter could be read",
		    (int)pid);
		goto out;
	}
	/* Frozen now: no stop would come, and no wait for one helps. */
	if (process_frozen(dfd)) {
		said_frozen(pid, why, len);
		goto out;
	}
	buf = malloc(REPORT_MAX);
	if (buf == NULL || pipe2(pipefd, O_CLOEXEC) < 0) {
		put(why, len, "cannot read its seccomp filter: %s",
		    strerror(errno));
		goto out;
	}
	fflush(NULL);
	child = fork_child();
	err = errno;
	if (child == 0) {
		close(pipefd[0]);
		reader(pipefd[1], dfd, pid, me);
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	if (child < 0) {
		put(why, len, "cannot read its seccomp filter: %s",
		    strerror(err));
		goto out;
	}
	n = drain(pipefd[0], buf, REPORT_MAX, &timed_out);
	if (timed_out)
		kill(child, SIGKILL); /* its exit lets the process go */
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM && process_frozen(dfd)) {
		said_frozen(pid, why, len);
		goto out;
	}
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
		put(why, len,
		    "process %d did not stop within %d seconds to have its seccomp filter read (an uninterruptible wait, a frozen cgroup, or a vfork() parent?); it was let go untouched",
		    (int)pid, STOP_SECONDS);
		goto out;
	}
	if (n < sizeof(r) || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		put(why, len,
		    "the reader of process %d's seccomp filter failed (%s %d)",
		    (int)pid, WIFSIGNALED(st) ? "signal" : "exit status",
		    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		goto out;
	}
	memcpy(&r, buf, sizeof(r));
	if (r.stage != READ_OK) {
		explain(&r, dfd, pid, why, len);
		goto out;
	}
	if (!still_there(dfd, pidfd)) {
		put(why, len,
		    "process %d exited while its seccomp filter was being read",
		    (int)pid);
		goto out;
	}
	if (unpack(buf, n, fs) < 0) {
		release_filter_set(fs);
		put(why, len,
		    "the seccomp filters of process %d came back malformed",
		    (int)pid);
		goto out;
	}
	rc = 0;
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pidfd >= 0)
		close(pidfd);
	free(buf);
	return rc;
}

void release_filter_set(struct filter_set *fs)
{
	free(fs->filters);
	free(fs->insns);
	memset(fs, 0, sizeof(*fs));
}
