/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * How libpsx's signal (33, glibc's hidden SIGSETXID) gets through, on the
 * real kernel:
 *  - it is shared: a foreign signal 33 reaches the program's handler, or
 *    its default or SIG_IGN, never ours; glibc's own setuid() broadcast
 *    works beside ours; SIGSYS (and seccomp's SIGSYS) is left alone;
 *  - threads that block "every" signal the way programs can (sigfillset,
 *    pthread_sigmask, one thread in sigwait) are reached at once; one
 *    that blocks 33 for a moment is waited for; one that keeps it blocked
 *    with a raw rt_sigprocmask() refuses the call (EDEADLK, in about 2 s)
 *    before anything changed; so does RLIMIT_SIGPENDING 0 (EAGAIN);
 *  - a copy discarded by SIG_IGN while it was pending is sent again.
 * The state broadcast is the thread name, as in check_psx (see there);
 * PID namespaces are check_psx_pidns's.
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>
#include <sys/resource.h>

#include "check_run.h"
#include "check_psx.h"

#define PSX_SIG 33

/* ---- signal 33 as the kernel sees it -------------------------------- */

/*
 * The program's own handler for 33 must go in with rt_sigaction(), as
 * glibc's sigaction() refuses the signal. The kernel's struct sigaction
 * is written out for x86_64; with SA_RESTORER the restorer is glibc's,
 * read back from a handler glibc installed on another signal.
 */
#if defined(__x86_64__) && !defined(__ILP32__)
#define RAW_HANDLERS 1
#else
#define RAW_HANDLERS 0
#endif

struct ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask;
};
#define K_SA_RESTORER 0x04000000ul

static void scratch_handler(int sig)
{
	(void)sig;
}

static void *glibc_restorer(void)
{
	struct sigaction sa, old;
	struct ksigaction k;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = scratch_handler;
	sigaction(SIGURG, &sa, &old);
	syscall(SYS_rt_sigaction, SIGURG, NULL, &k, 8);
	sigaction(SIGURG, &old, NULL);
	return k.restorer;
}

static int raw_set(int sig, void *handler, unsigned long flags)
{
	struct ksigaction k = { handler, flags | K_SA_RESTORER,
				glibc_restorer(), 0 };

	return (int)syscall(SYS_rt_sigaction, sig, &k, NULL, 8);
}

static void *raw_handler_of(int sig)
{
	struct ksigaction k;

	memset(&k, 0, sizeof(k));
	syscall(SYS_rt_sigaction, sig, NULL, &k, 8);
	return k.handler;
}

/* A signal 33 that is not libpsx's: queued with no mark. */
static int send_foreign(pid_t tid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = PSX_SIG;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	return (int)syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, PSX_SIG, &si);
}

/* What glibc cannot filter: 33 blocked (or unblocked) in this thread. */
static void raw_mask_33(int how)
{
	unsigned long set = 1ul << (PSX_SIG - 1);

	syscall(SYS_rt_sigprocmask, how, &set, NULL, sizeof(set));
}

static int own_count; /* atomic */
static int own_code;

static void own_handler(int sig, siginfo_t *info, void *ctx)
{
	(void)sig;
	(void)ctx;
	own_code = info->si_code;
	__atomic_add_fetch(&own_count, 1, __ATOMIC_SEQ_CST);
}

/* Waits a little for a queued foreign signal to be handled. */
static int own_count_reaches(int n)
{
	int i;

	for (i = 0;
	     i < 500 && __atomic_load_n(&own_count, __ATOMIC_SEQ_CST) < n; i++)
		usleep(1000);
	return __atomic_load_n(&own_count, __ATOMIC_SEQ_CST) == n;
}

/* ---- sharing signal 33 ---------------------------------------------- */

/*
 * A runtime of the program's (Go's, say) handles 33 itself: its handler,
 * installed after glibc's, gets every foreign 33, ours none, also after
 * it replaced ours, which the next broadcast takes back.
 */
static int chains_to_program(void)
{
	struct worker w[4];

	memset(w, 0, sizeof(w));
	if (start_workers(w, 4)) /* glibc's handler goes in here */
		return 1;
	if (raw_set(PSX_SIG, (void *)own_handler, SA_SIGINFO) < 0)
		FAIL("rt_sigaction: %s", strerror(errno));
	send_foreign(w[1].tid);
	if (!own_count_reaches(1))
		FAIL("program handler ran %d times before any broadcast",
		     own_count);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-chain1") != 0 ||
	    expect_all_named("psx-chain1"))
		FAIL("broadcast with a program handler installed");
	if (raw_handler_of(PSX_SIG) == (void *)own_handler)
		FAIL("libpsx did not install its handler");
	send_foreign(w[2].tid);
	if (!own_count_reaches(2) || own_code != SI_QUEUE)
		FAIL("a foreign signal was not passed on (%d, code %d)",
		     own_count, own_code);
	if (raw_set(PSX_SIG, (void *)own_handler, SA_SIGINFO) < 0)
		FAIL("rt_sigaction again: %s", strerror(errno));
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-chain2") != 0 ||
	    expect_all_named("psx-chain2"))
		FAIL("broadcast after the program replaced our handler");
	if (own_count != 2)
		FAIL("our signals reached the program's handler (%d)",
		     own_count);
	syscall(SYS_tgkill, getpid(), my_tid(), PSX_SIG);
	if (!own_count_reaches(3) || own_code != SI_TKILL)
		FAIL("a tgkill()ed 33 was not passed on after reclaiming (%d, code %d)",
		     own_count, own_code);
	printf("program handler ran %d times, for its own signals only\n",
	       own_count);
	return stop_workers(w, 4);
}

START_TEST(foreign_signal_reaches_the_program)
{
	if (!RAW_HANDLERS) {
		printf("skipped: the kernel's struct sigaction is written out for x86_64 only\n");
		return;
	}
	ck_assert_int_eq(run_child(chains_to_program), 0);
}
END_TEST

/* Before libpsx, 33's default ended the process: it still does. */
static int default_kills(void)
{
	struct ksigaction dfl;

	memset(&dfl, 0, sizeof(dfl)); /* SIG_DFL, whatever glibc did */
	if (syscall(SYS_rt_sigaction, PSX_SIG, &dfl, NULL, 8) < 0 ||
	    psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-dfl") != 0)
		return 1;
	send_foreign(my_tid());
	usleep(500 * 1000);
	return 0; /* survived: wrong */
}

static int ignore_kept(void)
{
	struct ksigaction ign;

	memset(&ign, 0, sizeof(ign));
	ign.handler = (void *)SIG_IGN;
	if (syscall(SYS_rt_sigaction, PSX_SIG, &ign, NULL, 8) < 0 ||
	    psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-ign") != 0)
		return 1;
	send_foreign(my_tid());
	usleep(100 * 1000);
	return psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-ign2") == 0 ? 0
									  : 1;
}

START_TEST(foreign_signal_default_and_ignore_kept)
{
	ck_assert_int_eq(run_child(default_kills), 128 + PSX_SIG);
	ck_assert_int_eq(run_child(ignore_kept), 0);
}
END_TEST

/*
 * SIGSYS is the program's alone (libpsx before 2.76, and ours before,
 * used it): its disposition is untouched, and seccomp's SECCOMP_RET_TRAP
 * reaches the program's handler while libpsx broadcasts around it.
 */
static void install_sigsys(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = own_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSYS, &sa, NULL);
}

static int seccomp_trap_passed_on(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	struct sigaction now;
	struct worker w[2];

	memset(w, 0, sizeof(w));
	install_sigsys();
	if (start_workers(w, 2))
		return 1;
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-trap") != 0)
		FAIL("broadcast");
	if (sigaction(SIGSYS, NULL, &now) < 0 ||
	    now.sa_sigaction != own_handler)
		FAIL("libpsx changed the SIGSYS disposition");
	/*
	 * valgrind 3.19 aborts on a SIGSYS from seccomp, whoever handles it
	 * ("Assertion 'tst->status == VgTs_WaitSys' failed"), so there the
	 * trap itself is left to the plain and sanitizer passes.
	 */
	if (valgrind_now) {
		printf("seccomp trap skipped under valgrind (it aborts on SIGSYS)\n");
	} else {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			FAIL("seccomp: %s", strerror(errno));
		syscall(SYS_getppid);
		if (own_count != 1 || own_code != 1 /* SYS_SECCOMP */)
			FAIL("seccomp's SIGSYS not passed on (%d, code %d)",
			     own_count, own_code);
	}
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-trap2") != 0 ||
	    expect_all_named("psx-trap2"))
		FAIL("broadcast after a seccomp trap");
	return stop_workers(w, 2);
}

static int sigsys_default_kept(void)
{
	struct sigaction now;

	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-sys") != 0 ||
	    sigaction(SIGSYS, NULL, &now) < 0)
		return 1;
	return now.sa_handler == SIG_DFL && !(now.sa_flags & SA_SIGINFO) ? 0
									 : 1;
}

START_TEST(sigsys_left_to_the_program)
{
	ck_assert_int_eq(run_child(seccomp_trap_passed_on), 0);
	ck_assert_int_eq(run_child(sigsys_default_kept), 0);
}
END_TEST

/*
 * glibc's setuid() family sends 33 to every thread it knows and waits
 * for each: with our handler installed in front of its own, it must still
 * complete. The first broadcast runs before any thread exists, so glibc's
 * first pthread_create() replaces our handler (glibc 2.36 installs its own
 * there) and the next broadcast must take it back, chaining glibc's. As
 * root the change is real and checked in every thread; otherwise the
 * calls change nothing, and a hang is what would show.
 */
static int setxid_beside_ours(void)
{
	struct worker w[4];
	gid_t gid = getgid();
	int root = geteuid() == 0, i;
	void *ours, *after_create;

	memset(w, 0, sizeof(w));
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-alone") != 0)
		FAIL("single-threaded broadcast");
	ours = raw_handler_of(PSX_SIG);
	if (start_workers(w, 4))
		return 1;
	after_create = raw_handler_of(PSX_SIG);
	printf("glibc's first pthread_create %s libpsx's handler\n",
	       after_create == ours ? "kept" : "replaced");
	if (setresgid(root ? 1001 : gid, root ? 1001 : gid,
		      root ? 1001 : gid) != 0)
		FAIL("glibc setresgid before a broadcast: %s", strerror(errno));
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-setxid") != 0 ||
	    expect_all_named("psx-setxid"))
		FAIL("broadcast after glibc's");
	if (raw_handler_of(PSX_SIG) != ours)
		FAIL("the broadcast did not take signal 33 back");
	if (setresgid(root ? 1002 : gid, root ? 1002 : gid,
		      root ? 1002 : gid) != 0)
		FAIL("glibc setresgid with libpsx's handler in front: %s",
		     strerror(errno));
	if (root)
		for (i = 0; i < 4; i++)
			if (task_status(w[i].tid, "Gid:") != 1002)
				FAIL("thread %d: gid %ld after glibc's setresgid",
				     (int)w[i].tid,
				     task_status(w[i].tid, "Gid:"));
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-setxid2") != 0 ||
	    expect_all_named("psx-setxid2"))
		FAIL("broadcast after glibc's second");
	return stop_workers(w, 4);
}

START_TEST(glibc_setxid_works_beside_ours)
{
	ck_assert_int_eq(run_child(setxid_beside_ours), 0);
}
END_TEST

/* ---- threads that block signals ------------------------------------- */

static int blocker_ready; /* atomic */

/* Blocks 33 for 300 ms (raw), then unblocks it. */
static void *blocker_main(void *arg)
{
	(void)arg;
	raw_mask_33(SIG_BLOCK);
	__atomic_store_n(&blocker_ready, 1, __ATOMIC_SEQ_CST);
	usleep(300 * 1000);
	raw_mask_33(SIG_UNBLOCK);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static int blocked_for_a_while(void)
{
	pthread_t t;
	double t0, waited;

	if (pthread_create(&t, NULL, blocker_main, NULL) != 0)
		return 1;
	while (!__atomic_load_n(&blocker_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	t0 = now_s();
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-late") != 0)
		FAIL("broadcast: %s", strerror(errno));
	waited = now_s() - t0;
	printf("broadcast waited %.3f s for the thread blocking the signal\n",
	       waited);
	if (expect_all_named("psx-late"))
		return 1;
	if (waited < 0.15)
		FAIL("returned after %.3f s, before the blocking thread could run it",
		     waited);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	return 0;
}

START_TEST(thread_blocking_briefly_is_waited_for)
{
	ck_assert_int_eq(run_child(blocked_for_a_while), 0);
}
END_TEST

/* The daemon pattern: workers block "everything", one sits in sigwait(). */
static void *daemon_worker(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static void *sigwaiter(void *arg)
{
	sigset_t all;
	int sig;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (sigwait(&all, &sig) == 0 && sig != SIGUSR1)
		if (sig == SIGALRM)
			_exit(128 + SIGALRM); /* run_child's alarm: a hang */
	return NULL;
}

static int daemon_pattern(void)
{
	pthread_t t[5];
	sigset_t all;
	double t0, took;
	int i;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, daemon_worker, NULL) != 0)
			return 1;
	if (pthread_create(&t[4], NULL, sigwaiter, NULL) != 0)
		return 1;
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 5)
		usleep(1000);
	t0 = now_s();
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-daemon") != 0 ||
	    psx_syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		FAIL("broadcast: %s", strerror(errno));
	took = now_s() - t0;
	printf("two broadcasts to threads blocking every signal took %.3f s\n",
	       took);
	if (expect_all_named("psx-daemon"))
		return 1;
	if (took > 1.5)
		FAIL("took %.3f s: were the threads reached only by luck?",
		     took);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_kill(t[4], SIGUSR1);
	for (i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	return 0;
}

START_TEST(daemon_pattern_is_reached)
{
	ck_assert_int_eq(run_child(daemon_pattern), 0);
}
END_TEST

static void *raw_blocker(void *arg)
{
	(void)arg;
	raw_mask_33(SIG_BLOCK);
	__atomic_store_n(&blocker_ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

/* A thread that keeps 33 blocked: refused in time, nothing changed. */
static int raw_block_refused(void)
{
	struct worker w[3];
	pthread_t t;
	double t0, took;
	char name[32];
	long r;
	int i;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 3) ||
	    pthread_create(&t, NULL, raw_blocker, NULL) != 0)
		return 1;
	while (!__atomic_load_n(&blocker_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	t0 = now_s();
	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-refused");
	took = now_s() - t0;
	printf("refused after %.2f s: %s\n", took, strerror(errno));
	if (r != -1 || errno != EDEADLK)
		FAIL("expected -1/EDEADLK, got %ld/%s", r, strerror(errno));
	if (took < 1.9 || took > 8)
		FAIL("refused after %.2f s, expected about 2", took);
	if (prctl(PR_GET_NAME, (long)name, 0, 0, 0) != 0 ||
	    strcmp(name, "psx-refused") == 0)
		FAIL("the refused call renamed the caller");
	for (i = 0; i < 3; i++) {
		task_comm(w[i].tid, name, sizeof(name));
		if (name[0] == '\0' || strcmp(name, "psx-refused") == 0)
			FAIL("thread %d made the refused call (\"%s\")",
			     (int)w[i].tid, name);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-after") != 0 ||
	    expect_all_named("psx-after"))
		FAIL("broadcast once the blocking thread had gone");
	return stop_workers(w, 3);
}

START_TEST(raw_blocked_thread_refuses_the_call)
{
	ck_assert_int_eq(run_child(raw_block_refused), 0);
}
END_TEST

/* No real-time signal can be queued at all: refused before the call. */
static int no_sigqueue(void)
{
	struct rlimit zero = { 0, 0 };
	struct worker w[2];
	char name[16];
	long r;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2) || setrlimit(RLIMIT_SIGPENDING, &zero) < 0)
		FAIL("setup: %s", strerror(errno));
	errno = 0;
	r = psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-noqueue");
	if (r != -1 || errno != EAGAIN)
		FAIL("expected -1/EAGAIN, got %ld/%s", r, strerror(errno));
	if (prctl(PR_GET_NAME, (long)name, 0, 0, 0) != 0 ||
	    strcmp(name, "psx-noqueue") == 0)
		FAIL("the refused call renamed the caller");
	if (stop_workers(w, 2))
		return 1;
	/* Alone, nothing needs to be queued. */
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-alone") != 0)
		FAIL("single-threaded broadcast refused: %s", strerror(errno));
	return 0;
}

START_TEST(no_signal_queue_refuses_the_call)
{
	ck_assert_int_eq(run_child(no_sigqueue), 0);
}
END_TEST

/*
 * A copy of our signal is pending for a thread that cannot take it yet
 * (it waits, uninterruptibly, in vfork() for a child that sleeps 300 ms)
 * when the program sets SIG_IGN for 33, which discards it. libpsx must
 * notice the copy is gone, take the signal back and send again, or it
 * would wait for ever. (Under valgrind vfork() is a fork() and the thread
 * never waits: the broadcast then simply completes.)
 */
static void *vforker(void *arg)
{
	(void)arg;
	__atomic_store_n(&blocker_ready, 1, __ATOMIC_SEQ_CST);
	usleep(50 * 1000);
	if (vfork() == 0) {
		struct timespec ts = { 0, 300 * 1000 * 1000 };

		syscall(SYS_nanosleep, &ts, NULL);
		_exit(0);
	}
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		usleep(1000);
	return NULL;
}

static void *ignorer(void *arg)
{
	struct ksigaction ign;

	(void)arg;
	usleep(200 * 1000);
	memset(&ign, 0, sizeof(ign));
	ign.handler = (void *)SIG_IGN;
	syscall(SYS_rt_sigaction, PSX_SIG, &ign, NULL, 8);
	return NULL;
}

static int ignored_mid_broadcast(void)
{
	pthread_t t, ig;
	double t0;

	if (pthread_create(&t, NULL, vforker, NULL) != 0)
		return 1;
	while (!__atomic_load_n(&blocker_ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	usleep(100 * 1000); /* in vfork() now */
	if (pthread_create(&ig, NULL, ignorer, NULL) != 0)
		return 1;
	t0 = now_s();
	if (psx_syscall(SYS_prctl, PR_SET_NAME, (long)"psx-reclaim") != 0 ||
	    expect_all_named("psx-reclaim"))
		FAIL("broadcast across a change of disposition");
	printf("SIG_IGN set mid-broadcast: every thread reached after %.3f s\n",
	       now_s() - t0);
	pthread_join(ig, NULL);
	/* The program's SIG_IGN is what a foreign 33 meets. */
	send_foreign(my_tid());
	usleep(100 * 1000);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	return 0;
}

START_TEST(discarded_signal_is_sent_again)
{
	ck_assert_int_eq(run_child(ignored_mid_broadcast), 0);
}
END_TEST

static Suite *psx_signal_suite(void)
{
	Suite *s = suite_create("psx_signal");
	TCase *shared = tcase_create("shared");
	TCase *blocked = tcase_create("blocked");

	tcase_set_timeout(shared, 120);
	tcase_add_test(shared, foreign_signal_reaches_the_program);
	tcase_add_test(shared, foreign_signal_default_and_ignore_kept);
	tcase_add_test(shared, sigsys_left_to_the_program);
	tcase_add_test(shared, glibc_setxid_works_beside_ours);
	suite_add_tcase(s, shared);
	tcase_set_timeout(blocked, 120);
	tcase_add_test(blocked, thread_blocking_briefly_is_waited_for);
	tcase_add_test(blocked, daemon_pattern_is_reached);
	tcase_add_test(blocked, raw_blocked_thread_refuses_the_call);
	tcase_add_test(blocked, no_signal_queue_refuses_the_call);
	tcase_add_test(blocked, discarded_signal_is_sent_again);
	suite_add_tcase(s, blocked);
	return s;
}

int main(void)
{
	return run_psx_suite(psx_signal_suite);
}
