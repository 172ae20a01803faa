/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* libpsx's interface: a system call made by every thread of the process. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lpsx.h"

/*
 * One broadcast at a time (psx_lock.c). Threads waiting for the lock still
 * run their handlers (a signal interrupts the wait), so a queue of callers
 * cannot deadlock with the broadcast in progress. fork() takes the lock
 * too (atfork, set up by the constructor below): a child is never born in
 * the middle of a broadcast, so it starts with no broadcast active and
 * the lock free, and can broadcast to its own threads at once. A child
 * born without the atfork handlers (_Fork(), clone()) finds the lock its
 * parent held stale, and takes it over.
 */

/* Atomic; read by the broadcaster after each broadcast. */
static int sensitivity = PSX_IGNORE;

/* Generations count up from 1; 0 means "no broadcast". Lock held. */
static uint32_t last_gen;

/* Kept between broadcasts so the hash is not reallocated every time. */
static struct lpsx_run run = { .dirfd = -1 };

/*
 * Set in a thread whose fork() comes from a signal handler that
 * interrupted its own broadcast: that fork neither waits for the lock
 * (it would wait for itself) nor releases it in the parent, where the
 * broadcast goes on. The child finds the lock stale and takes it over.
 */
static __thread int fork_inside_broadcast;

static void lock_for_fork(void)
{
	fork_inside_broadcast = lpsx_lock() < 0;
}

static void unlock_in_parent(void)
{
	if (!fork_inside_broadcast)
		lpsx_unlock();
	fork_inside_broadcast = 0;
}

static void unlock_in_child(void)
{
	fork_inside_broadcast = 0;
	lpsx_unlock();
}

__attribute__((constructor)) static void register_fork_handlers(void)
{
	int saved = errno;

	pthread_atfork(lock_for_fork, unlock_in_parent, unlock_in_child);
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

/* Ends a process whose threads would otherwise be left differing. */
static __attribute__((noreturn)) void kill_differing(void)
{
	fprintf(stderr,
		"libpsx: killing process %d rather than leave it with threads that differ\n",
		(int)run.pid);
	kill(run.pid, SIGKILL);
	_exit(127);
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

	fprintf(stderr,
		"libpsx: %s: %s; system call %ld was already made by thread %d, so the process is killed rather than left with threads that differ\n",
		what, strerror(err), lpsx_command.nr, (int)run.self);
	kill(run.pid, SIGKILL);
	_exit(127);
}

/*
 * Listings kept finding new threads, or kept missing one that the count
 * says is there, for LPSX_STALL_NS after the caller's call and over
 * ENDLESS_ROUNDS listings (so a slow but finite broadcast, thousands of
 * threads under valgrind, is not taken for an endless one): threads are
 * created faster than they can be reached, or one cannot be listed at
 * all. Each may hold the old state, and waiting longer promises nothing,
 * so, as for a thread that never answers, the process is killed.
 */
#define ENDLESS_ROUNDS 1000u

static void die_endless(void)
{
	fprintf(stderr,
		"libpsx: system call %ld was made by thread %d, but for %llu s every listing of the threads found new ones or missed one; the process is killed rather than left with threads that differ\n",
		lpsx_command.nr, (int)run.self,
		(unsigned long long)(LPSX_STALL_NS / 1000000000u));
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

	fprintf(stderr,
		"libpsx: system call %ld was made by thread %d, but these threads did not make it, and none answered for %llu s:\n",
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
		fprintf(stderr,
			"libpsx:   thread %d: %s, state %c, signal %d %s\n",
			(int)slot->tid,
			phase == LPSX_RUNNING ? "making the call"
					      : "not started",
			task.state, LPSX_SIGNAL,
			task.state == '?' ? "unknown"
			: task.blocked	  ? "blocked"
			: task.pending	  ? "pending"
					  : "not pending");
	}
	if (shown > 32)
		fprintf(stderr, "libpsx:   and %u more\n", shown - 32);
	kill_differing();
}

/* A system call's result that is an error (-errno, as the handler stores it). */
static int failed(long result)
{
	return result < 0 && result > -4096;
}

static void print_call(void)
{
	int a;

	fprintf(stderr, "%ld(", lpsx_command.nr);
	for (a = 0; a < lpsx_command.nargs; a++)
		fprintf(stderr, "%s%ld", a ? ", " : "", lpsx_command.arg[a]);
	fputc(')', stderr);
}

/*
 * The calls that change a thread's own privileges: its credentials and
 * capability sets, securebits (keep-capabilities among them), ambient and
 * bounding sets, no_new_privs and seccomp filters. Each acts on the
 * calling thread alone, so when one fails in a thread, that thread has
 * kept what the caller gave up. Other calls may fail in the other threads
 * for want of anything to do: chroot(2) changes the root every thread
 * shares, after which a relative or absolute path names another place.
 */
static int changes_privilege(const struct lpsx_command *cmd)
{
	switch (cmd->nr) {
	case SYS_capset:
	case SYS_setuid:
	case SYS_setgid:
	case SYS_setreuid:
	case SYS_setregid:
	case SYS_setresuid:
	case SYS_setresgid:
	case SYS_setgroups:
#ifdef SYS_setuid32
	case SYS_setuid32:
	case SYS_setgid32:
	case SYS_setreuid32:
	case SYS_setregid32:
	case SYS_setresuid32:
	case SYS_setresgid32:
	case SYS_setgroups32:
#endif
#ifdef SYS_seccomp
	case SYS_seccomp:
#endif
		return 1;
	case SYS_prctl:
		switch (cmd->arg[0]) {
		case PR_CAPBSET_DROP:
		case PR_SET_SECUREBITS:
		case PR_SET_KEEPCAPS:
		case PR_CAP_AMBIENT:
		case PR_SET_NO_NEW_PRIVS:
		case PR_SET_SECCOMP:
			return 1;
		}
		return 0;
	}
	return 0;
}

/*
 * After the broadcast: a thread in which a call that changes privileges
 * failed (a seccomp filter of its own, credentials or capabilities it
 * changed by itself) has not changed, while the caller has: setuid(65534)
 * that fails in one worker leaves that worker root. That is not a result
 * to weigh with the sensitivity but the half-changed process libpsx
 * exists to prevent, the same as a thread it could not reach, so it ends
 * the process whatever the sensitivity; glibc's own setuid() broadcast
 * aborts the process in this case too (its setxid consistency check).
 * Lock held.
 */
static void check_failures(void)
{
	uint32_t i, shown = 0;

	if (!changes_privilege(&lpsx_command))
		return;

	for (i = 0; i < run.nslots; i++) {
		const struct lpsx_slot *slot = lpsx_slot_at(i);

		if (LPSX_PHASE(__atomic_load_n(
			    &slot->ticket, __ATOMIC_ACQUIRE)) != LPSX_DONE ||
		    !failed(slot->result))
			continue;
		if (shown == 0) {
			fprintf(stderr, "libpsx: system call ");
			print_call();
			fprintf(stderr,
				" was made by thread %d, but failed in these threads, which keep their old state:\n",
				(int)run.self);
		}
		if (shown++ < 32)
			fprintf(stderr, "libpsx:   thread %d: errno %ld (%s)\n",
				(int)slot->tid, -slot->result,
				strerror((int)-slot->result));
	}
	if (shown == 0)
		return;
	if (shown > 32)
		fprintf(stderr, "libpsx:   and %u more\n", shown - 32);
	kill_differing();
}

/*
 * After the broadcast: a thread whose call succeeded with a result that
 * differs from the caller's (setfsuid() returns the previous id, which
 * threads may not share) is reported (PSX_WARNING) and kills the process
 * (PSX_ERROR). Lock held.
 */
static void check_results(long expected)
{
	int level = __atomic_load_n(&sensitivity, __ATOMIC_RELAXED);
	char want[80], got[80];
	unsigned mismatches = 0;
	uint32_t i;

	if (level == PSX_IGNORE)
		return;
	describe(want, sizeof(want), expected);
	for (i = 0; i < run.nslots; i++) {
		const struct lpsx_slot *slot = lpsx_slot_at(i);

		if (LPSX_PHASE(__atomic_load_n(
			    &slot->ticket, __ATOMIC_ACQUIRE)) != LPSX_DONE ||
		    slot->result == expected)
			continue;
		if (mismatches++ == 0) {
			fprintf(stderr,
				"libpsx: threads differ on system call ");
			print_call();
			fprintf(stderr,
				": thread %d (the caller) returned %s\n",
				(int)run.self, want);
		}
		describe(got, sizeof(got), slot->result);
		fprintf(stderr, "libpsx: thread %d returned %s\n",
			(int)slot->tid, got);
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
	lpsx_unlock();
	errno = err;
	return -1;
}

/*
 * The thread list cannot be had: no proc file system at /proc in this
 * root, one of a PID namespace we are not in, or one we cannot open or
 * afford to track. A process whose only thread is the caller needs none,
 * and the kernel can prove that (psx_solo.c). Otherwise the call is
 * refused before anything changed, with the thread list's errno: a
 * caller left to believe its other threads changed with it would keep
 * using a privilege it thinks it gave up. Lock held; released here.
 */
static long without_list(long nr, const long arg[6], int caller_errno)
{
	int err = errno;
	long ret = -1;

	if (lpsx_solo_call(nr, arg, &ret))
		err = ret == -1 ? errno : caller_errno;
	lpsx_unlock();
	errno = err;
	return ret;
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
	int saved_errno = errno, found, complete;
	uint64_t since;
	unsigned rounds = 0;
	long ret;

	if (lpsx_lock() < 0)
		return -1; /* EDEADLK: from a handler inside our broadcast */
	if (lpsx_run_open(&run) < 0)
		return without_list(nr, arg, saved_errno);
	if (lpsx_run_preflight(&run) < 0 || lpsx_signal_claim() < 0)
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
	 * nobody new, and a count shows it skipped nobody either: a thread
	 * created by one that had not yet run the call may have inherited
	 * the old state, and must run it too. Bounded: see die_endless().
	 */
	since = lpsx_now_ns();
	for (;;) {
		if (rounds < ENDLESS_ROUNDS)
			rounds++;
		else if (lpsx_now_ns() - since >= LPSX_STALL_NS)
			die_endless();
		found = lpsx_run_sweep(&run);
		if (found < 0)
			die_inconsistent("cannot reach every thread");
		if (found == 0) {
			complete = lpsx_run_census(&run);
			if (complete < 0)
				die_inconsistent("cannot count the threads");
			if (complete)
				break;
			/*
			 * A listing skipped one: list again, at once the first
			 * times (a skip is a passing exit), then a millisecond
			 * apart, so that a listing that keeps missing a thread
			 * does not spin a core until the bound ends it.
			 */
			if (rounds > ENDLESS_ROUNDS / 10) {
				struct timespec ms = { 0, 1000000 };

				nanosleep(&ms, NULL);
			}
			continue;
		}
		if (lpsx_run_wait(&run) < 0)
			die_unreached();
	}
	__atomic_store_n(&lpsx_active_gen, 0, __ATOMIC_RELEASE);
	lpsx_run_close(&run);
	check_failures();
	check_results(ret);
	lpsx_unlock();
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
 * The name is libcap's ABI (docs/style.md, "Files and names", otherwise
 * forbids "__").
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
