/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Which listed threads are io_uring's workers, which libpsx leaves out. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lpsx.h"

/*
 * Since Linux 5.12, io_uring runs its asynchronous work in threads of the
 * submitting process: "iou-wrk-N" (io-wq workers, made for a request
 * that must block, or one marked IOSQE_ASYNC) and "iou-sqp-N" (the
 * thread that polls a ring set up with IORING_SETUP_SQPOLL). They are
 * made by create_io_thread() (kernel/fork.c), are listed in
 * /proc/self/task and counted in Threads:, but never run a line of the
 * program's code or return to user space, and copy_process() gives them
 * every signal blocked but SIGKILL and SIGSTOP. No signal handler can run
 * in them, nor can any other way make them run a system call: libpsx
 * cannot reach them, and neither can glibc's own setuid() broadcast.
 *
 * Nor does the kernel use their own credentials for the work they do.
 * Each request carries the credentials it is to run with: those of the
 * thread that submitted it, taken when it was submitted
 * (io_prep_async_work() sets req->creds before a request is handed to a
 * worker), those registered as a personality named in the request, or,
 * for a request taken from the ring by the SQPOLL thread, those of the
 * thread that set the ring up, taken at io_uring_setup() (ctx->sq_creds).
 * io_issue_sqe() runs every request under override_creds() of these. So a
 * request submitted after a broadcast runs with the new credentials
 * whichever worker takes it, and one submitted before, or on a ring or a
 * personality made before, keeps the old ones, as an open file keeps the
 * access it was opened with: nothing done to the workers would change
 * that. What a worker's own credentials still decide is confined to the
 * worker: what others see of it in /proc and may do to it, and the
 * credentials of a worker it makes itself (copy_process() copies them,
 * and lets a thread whose user is over RLIMIT_NPROC be made when the
 * maker holds CAP_SYS_RESOURCE or CAP_SYS_ADMIN or is root), which run no
 * request under their own credentials either.
 *
 * So an io_uring worker is left out of a broadcast, as if it had exited:
 * signalling it would only leave a signal queued on it that nothing will
 * ever take (libcap 2.76 does that and waits for ever), and refusing the
 * call would leave a program that once used io_uring unable to drop a
 * privilege (the last io-wq worker of a thread stays until that thread
 * exits, its rings closed or not).
 *
 * How one is recognised, from what the kernel sets and a program cannot:
 *
 *  - PF_IO_WORKER in the flags field of /proc/.../stat (the ninth: the
 *    kernel's task flags, as include/linux/sched.h defines them), which
 *    copy_process() sets for these threads and nothing else. Its value,
 *    0x10, came with io-wq (Linux 5.5), but before 5.12 io_uring's
 *    workers were kernel threads outside the process, and before io-wq
 *    the bit was PF_VCPU, which KVM sets on a thread of a virtual machine
 *    monitor while it runs guest code. So the flag is believed only on
 *    Linux 5.12 or later, and a kernel release that cannot be read means
 *    it is not believed.
 *  - Signal 33 blocked (SigBlk in its status), which copy_process() sets
 *    for them and an ordinary thread can only get with a raw
 *    rt_sigprocmask() (see lpsx.h). Should a later kernel give the bit
 *    another meaning, a thread that takes our signal is still sent it:
 *    only one that could never take it is ever left out.
 *
 * The name ("iou-wrk-"), which a program may give any thread and may
 * change in a worker through /proc/self/task/N/comm, proves nothing.
 */
#define FLAG_IO_WORKER 0x10ul

/*
 * 1 when the running kernel is 5.12 or later, 0 otherwise or when its
 * release cannot be read. Asked once; the broadcast lock is held by
 * every caller, so the cache needs no atomics.
 */
static int io_threads_in_process(void)
{
	static int known; /* 0: not asked yet; 1: yes; 2: no */
	struct utsname uts;
	unsigned long major, minor;
	char *end;

	if (known != 0)
		return known == 1;
	known = 2;
	if (uname(&uts) < 0)
		return 0;
	errno = 0;
	major = strtoul(uts.release, &end, 10);
	if (end == uts.release || *end != '.' || errno != 0)
		return 0;
	minor = strtoul(end + 1, &end, 10);
	if (errno != 0)
		return 0;
	if (major > 5 || (major == 5 && minor >= 12))
		known = 1;
	return known == 1;
}

/*
 * The flags field of a thread's stat line: after the name, which is in
 * parentheses and may hold any character, ')' included, so the last ')'
 * ends it; then the state and five numbers (ppid, pgrp, session, tty_nr,
 * tpgid), then the flags. -1 with errno: ESRCH when the thread has gone
 * (an empty file), EPROTO when the line is not one.
 */
static int read_flags(int dirfd, pid_t ptid, unsigned long *flags)
{
	char name[32], buf[512];
	const char *p;
	ssize_t n;
	int fd, field, saved;

	snprintf(name, sizeof(name), "%d/stat", (int)ptid);
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	if (n == 0) {
		errno = ESRCH;
		return -1;
	}
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL) {
		errno = EPROTO;
		return -1;
	}
	for (field = 0; field < 7; field++) {
		p = strchr(p + 1, ' ');
		if (p == NULL) {
			errno = EPROTO;
			return -1;
		}
	}
	if (p[1] < '0' || p[1] > '9') {
		errno = EPROTO;
		return -1;
	}
	*flags = strtoul(p + 1, NULL, 10);
	return 0;
}

int lpsx_proc_io_worker(int dirfd, pid_t ptid)
{
	struct lpsx_task task;
	unsigned long flags;

	if (!io_threads_in_process())
		return 0;
	if (read_flags(dirfd, ptid, &flags) < 0)
		return -1;
	if (!(flags & FLAG_IO_WORKER))
		return 0;
	if (lpsx_proc_task(dirfd, ptid, &task) < 0)
		return -1;
	return task.blocked;
}
