/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* libpsx's interface: a system call made by every thread of the process. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lpsx.h"

/*
 * One broadcast at a time. Threads waiting here still run their handlers
 * (a signal interrupts the wait), so a queue of callers cannot deadlock
 * with the broadcast in progress. fork() takes the lock too (atfork, set
 * up by the constructor below): a child is never born in the middle of a
 * broadcast, so it starts with no broadcast active and the lock free, and
 * can broadcast to its own threads at once.
 */
static pthread_mutex_t broadcast_lock = PTHREAD_MUTEX_INITIALIZER;

/* Atomic; read by the broadcaster after each broadcast. */
static int sensitivity = PSX_IGNORE;

/* Generations count up from 1; 0 means "no broadcast". Lock held. */
static uint32_t last_gen;

/* Kept between broadcasts so the hash is not reallocated every time. */
static struct lpsx_run run = { .dirfd = -1 };

static void lock_for_fork(void)
{
	pthread_mutex_lock(&broadcast_lock);
}

static void unlock_after_fork(void)
{
	pthread_mutex_unlock(&broadcast_lock);
}

__attribute__((constructor)) static void register_fork_handlers(void)
{
	int saved = errno;

	pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
	errno = saved;
}

/* "42" or "-1 (EPERM: Operation not permitted)", for the reports. */
static void describe(char *buf, size_t size, long result)
{
	if (result < 0 && result > -4096)
		snprintf(buf, size, "-1 (errno %ld: %s)", -result,
			 strerror((int)-result));
	else
		snprintf(buf, size, "%ld", result);
}

/*
 * The caller has changed and a thread could not be reached: leaving the
 * process with threads that differ is exactly what libpsx exists to
 * prevent, so it ends here. Reached when the thread list, already open,
 * cannot be read again, a thread's namespace id cannot be read, or memory
 * runs out mid-broadcast; the pre-flight check makes each unlikely.
 */
static void die_inconsistent(const char *what)
{
	int err = errno;

	fprintf(stderr, "libpsx: %s: %s; system call %ld was already made by "
		"thread %d, so the process is killed rather than left with "
		"threads that differ\n", what, strerror(err), lpsx_command.nr,
		(int)run.self);
	kill(run.pid, SIGKILL);
	_exit(127);
}

/*
 * No thread answered for LPSX_STALL_NS after the caller's call. Those
 * still pending passed the pre-flight check, so they became unreachable
 * since (they blocked the signal with a raw rt_sigprocmask(), a debugger
 * stopped them) or sit in an uninterruptible sleep (a vfork() parent whose
 * child neither execs nor exits). Whatever the sensitivity: the caller and
 * the threads that answered have changed, these have not, and a late one
 * must not make the call after this function has returned and the program
 * has moved on. So the process is killed, after naming them.
 */
static void die_unreached(void)
{
	uint32_t i, shown = 0;

	fprintf(stderr, "libpsx: system call %ld was made by thread %d, but "
		"these threads did not make it, and none answered for %llu s:\n",
		lpsx_command.nr, (int)run.self,
		(unsigned long long)(LPSX_STALL_NS / 1000000000u));
	for (i = 0; i < run.nslots; i++) {
		const struct lpsx_slot *slot = lpsx_slot_at(i);
		enum lpsx_phase phase = LPSX_PHASE(
			__atomic_load_n(&slot->ticket, __ATOMIC_ACQUIRE));
		struct lpsx_task task;

		if (phase == LPSX_DONE || phase == LPSX_GONE || shown++ >= 32)
			continue;
		if (lpsx_proc_task(run.dirfd, slot->ptid, &task) < 0)
			task.state = '?';
		fprintf(stderr, "libpsx:   thread %d: %s, state %c, signal %d %s\n",
			(int)slot->tid,
			phase == LPSX_RUNNING ? "making the call" : "not started",
			task.state, LPSX_SIGNAL,
			task.state == '?' ? "unknown" : task.blocked ? "blocked" :
			task.pending ? "pending" : "not pending");
	}
	if (shown > 32)
		fprintf(stderr, "libpsx:   and %u more\n", shown - 32);
	fprintf(stderr, "libpsx: killing process %d rather than leave it with "
		"threads that differ\n", (int)run.pid);
	kill(run.pid, SIGKILL);
	_exit(127);
}

/*
 * After the broadcast: a thread whose result differs from the caller's is
 * reported (PSX_WARNING) and kills the process (PSX_ERROR). Lock held.
 */
static void check_results(long expected)
{
	int level = __atomic_load_n(&sensitivity, __ATOMIC_RELAXED);
	const struct lpsx_command *cmd = &lpsx_command;
	char want[80], got[80];
	unsigned mismatches = 0;
	uint32_t i;

	if (level == PSX_IGNORE)
		return;
	describe(want, sizeof(want), expected);
	for (i = 0; i < run.nslots; i++) {
		const struct lpsx_slot *slot = lpsx_slot_at(i);

		if (LPSX_PHASE(__atomic_load_n(&slot->ticket, __ATOMIC_ACQUIRE)) !=
		    LPSX_DONE || slot->result == expected)
			continue;
		if (mismatches++ == 0) {
			int a;

			fprintf(stderr, "libpsx: threads differ on system call %ld(",
				cmd->nr);
			for (a = 0; a < cmd->nargs; a++)
				fprintf(stderr, "%s%ld", a ? ", " : "", cmd->arg[a]);
			fprintf(stderr, "): thread %d (the caller) returned %s\n",
				(int)run.self, want);
		}
		describe(got, sizeof(got), slot->result);
		fprintf(stderr, "libpsx: thread %d returned %s\n", (int)slot->tid, got);
	}
	if (mismatches > 0 && level == PSX_ERROR) {
		fprintf(stderr, "libpsx: PSX_ERROR: killing process %d\n",
			(int)run.pid);
		kill(run.pid, SIGKILL);
		_exit(127);
	}
}

/* Refused before the call: nothing has changed. Lock held. */
static long refuse(void)
{
	int err = errno;

	lpsx_run_close(&run);
	pthread_mutex_unlock(&broadcast_lock);
	errno = err;
	return -1;
}

/*
 * Every broadcast system call ends up here. The caller goes first and
 * alone, and only after every check that could refuse the call has
 * passed (psx_preflight.c); only if its call succeeds do the other
 * threads follow, so a refused change (EPERM, EINVAL) leaves every thread
 * as it was.
 */
static long broadcast(long nr, const long arg[6], int nargs)
{
	int saved_errno = errno, found;
	long ret;

	pthread_mutex_lock(&broadcast_lock);
	if (lpsx_run_open(&run) < 0 || lpsx_run_preflight(&run) < 0 ||
	    lpsx_signal_claim() < 0)
		return refuse();
	ret = syscall(nr, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
	if (ret == -1)
		return refuse();

	lpsx_command.nr = nr;
	memcpy(lpsx_command.arg, arg, sizeof(lpsx_command.arg));
	lpsx_command.nargs = nargs;
	if (++last_gen == 0)
		last_gen = 1;
	run.gen = last_gen;
	__atomic_store_n(&lpsx_active_gen, run.gen, __ATOMIC_RELEASE);
	/*
	 * Until a listing taken after every known thread has settled finds
	 * nobody new: a thread created by one that had not yet run the call
	 * may have inherited the old state, and must run it too.
	 */
	for (;;) {
		found = lpsx_run_sweep(&run);
		if (found < 0)
			die_inconsistent("cannot reach every thread");
		if (found == 0)
			break;
		if (lpsx_run_wait(&run) < 0)
			die_unreached();
	}
	__atomic_store_n(&lpsx_active_gen, 0, __ATOMIC_RELEASE);
	lpsx_run_close(&run);
	check_results(ret);
	pthread_mutex_unlock(&broadcast_lock);
	errno = saved_errno;
	return ret;
}

long int psx_syscall3(long int syscall_nr, long int arg1, long int arg2,
		      long int arg3)
{
	const long arg[6] = { arg1, arg2, arg3, 0, 0, 0 };

	return broadcast(syscall_nr, arg, 3);
}

long int psx_syscall6(long int syscall_nr, long int arg1, long int arg2,
		      long int arg3, long int arg4, long int arg5,
		      long int arg6)
{
	const long arg[6] = { arg1, arg2, arg3, arg4, arg5, arg6 };

	return broadcast(syscall_nr, arg, 6);
}

/*
 * Behind the psx_syscall() macro: the arguments, then 6, 5, ... 0, so
 * the seventh variadic value is the number of arguments the caller gave.
 * The name is libcap's ABI (STYLE.md otherwise forbids "__").
 */
long int __psx_syscall(long int syscall_nr, ...)
{
	long arg[7];
	va_list ap;
	int i, count;

	va_start(ap, syscall_nr);
	for (i = 0; i < 7; i++)
		arg[i] = va_arg(ap, long);
	va_end(ap);
	if (arg[6] < 0 || arg[6] > 6) {
		errno = EINVAL;
		return -1;
	}
	count = (int)arg[6];
	for (i = count; i < 6; i++)
		arg[i] = 0;
	return broadcast(syscall_nr, arg, count);
}

void psx_load_syscalls(long int (**syscall_fn)(long int, long int, long int,
					       long int),
		       long int (**syscall6_fn)(long int, long int, long int,
						long int, long int, long int,
						long int))
{
	if (syscall_fn != NULL)
		*syscall_fn = psx_syscall3;
	if (syscall6_fn != NULL)
		*syscall6_fn = psx_syscall6;
}

int psx_set_sensitivity(psx_sensitivity_t level)
{
	if ((int)level < PSX_IGNORE || (int)level > PSX_ERROR) {
		errno = EINVAL;
		return -1;
	}
	__atomic_store_n(&sensitivity, (int)level, __ATOMIC_RELAXED);
	return 0;
}
