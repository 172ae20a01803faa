/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxnoproc: libcap's cap_set_proc() through libpsx when /proc cannot
 * list the threads. Linked with libcap and libpsx as libcap documents
 * (bin/psxnoproc; bin/psxnoproc-static with libpsx.a and
 * -Wl,-wrap,pthread_create). Runs as root with the full capability sets.
 *
 *   psxnoproc WORLD SCENARIO
 *
 * WORLD takes /proc away (unit/psx_noproc.h: unmounted, fake, foreign,
 * chroot:DIR), or keeps it (proc). SCENARIO sets up the threads, then
 * cap_set_proc() of an empty set is called from the main thread:
 *
 *   alone    one thread: the call must succeed;
 *   joined   three threads started and joined first: the same;
 *   threads  two pthread_create() threads and one raw clone(2) thread
 *            alive: the call must be refused (ENOENT) before anything
 *            changed;
 *   iouring  one thread of the program's, and an io_uring worker the
 *            kernel made for a read forced to it (IOSQE_ASYNC): with
 *            /proc the worker is left out and the call succeeds; without,
 *            it is another thread of the process for the kernel, and the
 *            call must be refused (ENOENT) before anything changed;
 *   eperm    one thread, and a seccomp filter refuses every unshare(2),
 *            the call libpsx proves it with among them (EPERM): refused,
 *            nothing changed;
 *   fake     the threads of "threads", and a filter answers every
 *            unshare(2) with 0 without the kernel's check: refused,
 *            nothing changed;
 *   exiting  a raw clone(2) thread has called exit(2) and is held, by
 *            a tracer (PTRACE_O_TRACEEXIT), on its way out for 20 ms:
 *            still a member of the thread group when the call is made,
 *            gone soon after. The call must succeed (libpsx asks again).
 *   signal   one thread; a supervisor process holds that unshare(2)
 *            (a seccomp user notification), queues SIGUSR1 meanwhile,
 *            and lets the kernel answer. The SIGUSR1 handler starts a
 *            raw clone(2) thread. The call must succeed and that thread
 *            have the new sets too: a handler run between the proof
 *            and the call would create it with the old ones.
 *
 * With /proc (WORLD proc) every scenario must succeed. Each thread's
 * sets are read back with capget(2) by thread id, never from /proc,
 * one line per thread, then "N threads, M differ from the expected
 * state". Exit 0 when the call did what the scenario expects and no
 * thread differs, 1 otherwise, 2 when the set-up failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capget_tid.h"
#include "iou_ring.h"
#include "psx_noproc.h"

#define MAXTHREADS 8

static int stop;	       /* atomic; futex word of the raw threads */
static int nthreads;	       /* atomic; tids[0] is the main thread */
static pid_t tids[MAXTHREADS]; /* atomic entries */
static const char *roles[MAXTHREADS];
/* The roles of the raw threads, handed to them as their argument. */
static char raw_role[] = "raw clone", late_role[] = "started by the handler";

static void add_thread(pid_t tid, const char *role)
{
	int i = __atomic_fetch_add(&nthreads, 1, __ATOMIC_SEQ_CST);

	if (i < MAXTHREADS) {
		roles[i] = role;
		__atomic_store_n(&tids[i], tid, __ATOMIC_SEQ_CST);
	}
}

/* Prints every thread; returns how many differ from want. */
static int compare_threads(const struct sets *want, int want_n)
{
	int n = __atomic_load_n(&nthreads, __ATOMIC_SEQ_CST), i, bad = 0;

	for (i = 0; i < n && i < MAXTHREADS; i++) {
		pid_t tid = __atomic_load_n(&tids[i], __ATOMIC_SEQ_CST);
		struct sets s;
		int differs;

		if (tid <= 0 || read_sets(tid, &s) < 0) {
			printf("thread %d (%s): capget: %s   <-- differs\n",
			       (int)tid, roles[i], strerror(errno));
			bad++;
			continue;
		}
		differs = s.eff != want->eff || s.prm != want->prm ||
			  s.inh != want->inh;
		printf("thread %d (%s): eff %016llx prm %016llx inh %016llx%s\n",
		       (int)tid, roles[i], s.eff, s.prm, s.inh,
		       differs ? "   <-- differs" : "");
		bad += differs;
	}
	if (n != want_n) {
		printf("%d threads, expected %d\n", n, want_n);
		bad++;
	}
	printf("%d threads, %d differ from the expected state\n", n, bad);
	return bad;
}

/* ---- threads -------------------------------------------------------- */

static void *pthread_main(void *arg)
{
	add_thread((pid_t)syscall(SYS_gettid), "pthread");
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return arg;
}

static void *pthread_brief(void *arg)
{
	return arg;
}

static int raw_main(void *arg)
{
	add_thread((pid_t)syscall(SYS_gettid), arg);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &stop, FUTEX_WAIT, 0, NULL, NULL, 0);
	return 0;
}

static int wait_threads(int n)
{
	int i;

	for (i = 0; __atomic_load_n(&nthreads, __ATOMIC_SEQ_CST) < n; i++) {
		if (i == 10000) {
			fprintf(stderr, "psxnoproc: threads did not start\n");
			return -1;
		}
		usleep(1000);
	}
	return 0;
}

static pthread_t workers[2];

static int start_threads(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (pthread_create(&workers[i], NULL, pthread_main, NULL) != 0)
			return -1;
	if (noproc_raw_thread(raw_main, raw_role) < 0)
		return -1;
	return wait_threads(4);
}

static void stop_threads(void)
{
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &stop, FUTEX_WAKE, 100, NULL, NULL, 0);
	pthread_join(workers[0], NULL);
	pthread_join(workers[1], NULL);
}

static int start_and_join(void)
{
	pthread_t t[3];
	int i;

	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, pthread_brief, NULL) != 0)
			return -1;
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/*
 * An io-wq worker, made by the kernel when the read is submitted (it
 * waits for data there for as long as the process lives): a member of
 * the thread group from the moment io_uring_enter(2) returns, /proc or
 * not.
 */
static int start_io_worker(void)
{
	static struct iou_ring ring;
	static char byte;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0 || iou_setup(&ring, 0) < 0)
		return -1;
	iou_push_read(&ring, 0, fds[0], &byte, IOSQE_ASYNC);
	return iou_submit(&ring, 1);
}

/* ---- the thread of "exiting" ----------------------------------------- */

static int go; /* atomic futex word: the exiting thread exits when set */

static int exiting_main(void *arg)
{
	(void)arg;
	add_thread((pid_t)syscall(SYS_gettid), raw_role);
	while (!__atomic_load_n(&go, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &go, FUTEX_WAIT, 0, NULL, NULL, 0);
	syscall(SYS_exit, 0);
	return 0;
}

/*
 * The tracer: holds the thread at its exit stop for 20 ms, after telling
 * the main thread it is there. A tracer, not a sleep in the thread,
 * because the thread must already be past the point of no return.
 */
static int hold_exit(pid_t tid, int to_main)
{
	struct timespec hold = { 0, 20 * 1000 * 1000 };
	int status;

	if (ptrace(PTRACE_SEIZE, tid, 0, PTRACE_O_TRACEEXIT) < 0 ||
	    write(to_main, "s", 1) != 1)
		return 1;
	if (waitpid(tid, &status, __WALL) != tid ||
	    status >> 8 != (SIGTRAP | PTRACE_EVENT_EXIT << 8) ||
	    write(to_main, "e", 1) != 1)
		return 1;
	nanosleep(&hold, NULL);
	return ptrace(PTRACE_DETACH, tid, 0, 0) < 0;
}

static pid_t start_exiting(void)
{
	int pipefd[2];
	pid_t tid, tracer;
	char byte;

	if (pipe(pipefd) < 0)
		return -1;
	tid = noproc_raw_thread(exiting_main, NULL);
	if (tid < 0 || wait_threads(2) < 0)
		return -1;
	tracer = fork();
	if (tracer == 0)
		_exit(hold_exit(tid, pipefd[1]));
	if (tracer < 0 || read(pipefd[0], &byte, 1) != 1)
		return -1;
	__atomic_store_n(&go, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &go, FUTEX_WAKE, 1, NULL, NULL, 0);
	if (read(pipefd[0], &byte, 1) != 1 || byte != 'e') {
		fprintf(stderr, "psxnoproc: the thread was not held at exit\n");
		return -1;
	}
	/* What libpsx will find: not alone yet. */
	if (unshare(CLONE_THREAD) == 0 || errno != EINVAL) {
		fprintf(stderr,
			"psxnoproc: the exiting thread is not a member\n");
		return -1;
	}
	printf("thread %d is held on its way out\n", (int)tid);
	close(pipefd[0]);
	close(pipefd[1]);
	return tracer;
}

/* ---- the supervisor of "signal" ------------------------------------- */

static void on_usr1(int sig)
{
	(void)sig;
	noproc_raw_thread(raw_main, late_role);
}

/* One byte and room for one descriptor, for sendmsg() and recvmsg(). */
struct fd_message {
	struct msghdr msg;
	struct iovec iov;
	char byte;
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
};

static void fd_message_init(struct fd_message *m)
{
	memset(m, 0, sizeof(*m));
	m->byte = 'f';
	m->iov.iov_base = &m->byte;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->control.buf;
	m->msg.msg_controllen = sizeof(m->control.buf);
}

static int send_fd(int sock, int fd)
{
	struct fd_message m;
	struct cmsghdr *cmsg;

	fd_message_init(&m);
	cmsg = CMSG_FIRSTHDR(&m.msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(sock, &m.msg, 0) == 1 ? 0 : -1;
}

static int receive_fd(int sock)
{
	struct fd_message m;
	struct cmsghdr *cmsg;
	int fd;

	fd_message_init(&m);
	if (recvmsg(sock, &m.msg, 0) != 1 ||
	    (cmsg = CMSG_FIRSTHDR(&m.msg)) == NULL ||
	    cmsg->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/*
 * The supervisor: for each unshare(CLONE_THREAD) held, the first time
 * queues SIGUSR1 for the thread that asked (the filter has
 * WAIT_KILLABLE_RECV, so once received the call is not interrupted by
 * it), then lets the kernel make the call. Ends when the process it
 * serves does, or is killed by it.
 */
static int supervise(int sock, pid_t target)
{
	struct seccomp_notif notif;
	struct seccomp_notif_resp resp;
	int listener = receive_fd(sock), signalled = 0;

	if (listener < 0)
		return 1;
	for (;;) {
		memset(&notif, 0, sizeof(notif));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &notif) < 0)
			return errno == ENOENT ? 0 : 1;
		if (!signalled) {
			if (syscall(SYS_tgkill, target, notif.pid, SIGUSR1) < 0)
				return 1;
			signalled = 1;
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = notif.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 &&
		    errno != ENOENT)
			return 1;
	}
}

static pid_t start_supervisor(void)
{
	struct sigaction sa;
	pid_t target = getpid(), pid;
	int sock[2], listener, status;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, NULL) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(sock[0]);
		_exit(supervise(sock[1], target));
	}
	close(sock[1]);
	if (pid < 0)
		return -1;
	listener = noproc_filter(SECCOMP_RET_USER_NOTIF,
				 SECCOMP_FILTER_FLAG_NEW_LISTENER |
					 SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
				 1);
	if (listener < 0 || send_fd(sock[0], listener) < 0) {
		perror("psxnoproc: a seccomp user notification");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	close(listener);
	close(sock[0]);
	return pid;
}

/* ---- main ----------------------------------------------------------- */

static int drop_all(int *err)
{
	cap_t none = cap_init();
	int rc;

	errno = 0;
	rc = cap_set_proc(none);
	*err = errno;
	printf("cap_set_proc(empty) = %d (%s)\n", rc,
	       rc == 0 ? "success" : strerror(*err));
	cap_free(none);
	return rc;
}

int main(int argc, char **argv)
{
	const char *world, *scenario;
	struct sets before, none = { 0, 0, 0 };
	char why[256];
	int rc, err, bad, want_n = 1, refuse;
	pid_t helper = 0; /* the tracer or the supervisor */

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3) {
		fprintf(stderr,
			"usage: psxnoproc proc|unmounted|fake|foreign|chroot:DIR alone|joined|threads|eperm|fake|exiting|signal|iouring\n");
		return 2;
	}
	world = argv[1];
	scenario = argv[2];
	add_thread((pid_t)syscall(SYS_gettid), "main");
	if (read_sets(0, &before) < 0 || before.prm == 0) {
		fprintf(stderr, "psxnoproc: needs root's capability sets\n");
		return 2;
	}
	if (noproc_world(world, why, sizeof(why)) < 0) {
		fprintf(stderr, "psxnoproc: %s\n", why);
		return 2;
	}
	refuse = strcmp(world, "proc") != 0;
	if (strcmp(scenario, "alone") == 0) {
		refuse = 0;
	} else if (strcmp(scenario, "joined") == 0) {
		refuse = 0;
		if (start_and_join() < 0)
			return 2;
	} else if (strcmp(scenario, "threads") == 0 ||
		   strcmp(scenario, "fake") == 0) {
		want_n = 4;
		if (start_threads() < 0 ||
		    (strcmp(scenario, "fake") == 0 &&
		     noproc_filter(SECCOMP_RET_ERRNO | 0, 0, 0) < 0)) {
			perror("psxnoproc: set-up");
			return 2;
		}
	} else if (strcmp(scenario, "iouring") == 0) {
		if (start_io_worker() < 0) {
			perror("psxnoproc: io_uring");
			return 2;
		}
	} else if (strcmp(scenario, "eperm") == 0) {
		if (noproc_filter(SECCOMP_RET_ERRNO | EPERM, 0, 0) < 0) {
			perror("psxnoproc: seccomp");
			return 2;
		}
	} else if (strcmp(scenario, "exiting") == 0) {
		refuse = 0;
		helper = start_exiting();
		if (helper < 0)
			return 2;
		/* gone by the time the threads are checked: main alone */
		__atomic_store_n(&nthreads, 1, __ATOMIC_SEQ_CST);
	} else if (strcmp(scenario, "signal") == 0) {
		if (!refuse) {
			fprintf(stderr,
				"psxnoproc: signal needs a world without /proc\n");
			return 2;
		}
		refuse = 0;
		want_n = 2;
		helper = start_supervisor();
		if (helper < 0)
			return 2;
	} else {
		fprintf(stderr, "psxnoproc: unknown scenario %s\n", scenario);
		return 2;
	}

	rc = drop_all(&err);
	if (want_n > 1 && wait_threads(want_n) < 0)
		return 2;
	bad = compare_threads(refuse ? &before : &none, want_n);
	if (refuse && (rc != -1 || err != ENOENT)) {
		printf("expected -1 with %s\n", strerror(ENOENT));
		bad++;
	} else if (!refuse && rc != 0) {
		printf("expected success\n");
		bad++;
	}
	if (helper > 0) {
		kill(helper, SIGKILL);
		waitpid(helper, NULL, 0);
	} else if (want_n > 1) {
		stop_threads();
	}
	/*
	 * _exit: LeakSanitizer's check at exit lists /proc/PID/task, which
	 * is gone here, and fails the run whatever it found. valgrind,
	 * which needs no /proc for it, still checks leaks at _exit.
	 */
	fflush(NULL);
	_exit(bad != 0);
}
