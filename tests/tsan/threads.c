/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Several threads on one cap_t, one cap_iab_t and one launcher, as libcap
 * (2.61 and later) allows: every call on an object holds that object's
 * lock. Built with -fsanitize=thread against a TSan build of the library
 * by tests/cli/libcap_thread_safety.sh, which fails on any ThreadSanitizer
 * report. Prints how many calls each kind of thread made.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS	 3000
#define LAUNCHES 40

static cap_t shared_caps;
static cap_iab_t shared_iab;
static cap_launch_t shared_launcher;
static unsigned long calls[4];
static int launches_done;

static void fail(const char *what)
{
	perror(what);
	exit(2);
}

static int nothing(void *detail)
{
	(void)detail;
	return 0;
}

/* cap_t: writes and reads from every thread, two-object calls both ways. */
static void *hammer_caps(void *arg)
{
	cap_t mine = cap_init();
	unsigned seed = (unsigned)(uintptr_t)arg;
	unsigned long n = 0;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		cap_value_t v = (cap_value_t)(rand_r(&seed) % 41);
		cap_flag_t f = (cap_flag_t)(rand_r(&seed) % 3);
		cap_flag_value_t got;
		char *text;
		cap_t copy;

		if (cap_set_flag(shared_caps, f, 1, &v,
				 r & 1 ? CAP_SET : CAP_CLEAR) != 0)
			fail("cap_set_flag");
		text = cap_to_text(shared_caps, NULL);
		if (text == NULL)
			fail("cap_to_text");
		cap_free(text);
		cap_get_flag(shared_caps, v, f, &got);
		cap_compare(shared_caps, mine);
		cap_compare(mine, shared_caps);
		cap_fill_flag(mine, f, shared_caps, CAP_PERMITTED);
		cap_fill_flag(shared_caps, CAP_INHERITABLE, mine, f);
		cap_fill(shared_caps, CAP_EFFECTIVE, CAP_PERMITTED);
		copy = cap_dup(shared_caps);
		cap_free(copy);
		if (r % 64 == 0)
			cap_clear_flag(shared_caps, f);
		n += 10;
	}
	cap_free(mine);
	__atomic_add_fetch(&calls[0], n, __ATOMIC_RELAXED);
	return NULL;
}

/* cap_iab_t: vectors, text, fill from the shared cap_t, compare, dup. */
static void *hammer_iab(void *arg)
{
	cap_iab_t mine = cap_iab_init();
	unsigned seed = (unsigned)(uintptr_t)arg;
	unsigned long n = 0;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		cap_value_t v = (cap_value_t)(rand_r(&seed) % 41);
		static const cap_iab_vector_t vecs[] = {
			CAP_IAB_INH,
			CAP_IAB_AMB,
			CAP_IAB_BOUND,
		};
		cap_iab_vector_t vec = vecs[rand_r(&seed) % 3];
		char *text;
		cap_iab_t copy;

		if (cap_iab_set_vector(shared_iab, vec, v,
				       r & 1 ? CAP_SET : CAP_CLEAR) != 0)
			fail("cap_iab_set_vector");
		text = cap_iab_to_text(shared_iab);
		if (text == NULL)
			fail("cap_iab_to_text");
		cap_free(text);
		cap_iab_get_vector(shared_iab, vec, v);
		cap_iab_compare(shared_iab, mine);
		cap_iab_compare(mine, shared_iab);
		if (r % 16 == 0)
			cap_iab_fill(shared_iab, CAP_IAB_INH, shared_caps,
				     CAP_INHERITABLE);
		copy = cap_iab_dup(shared_iab);
		cap_free(copy);
		n += 7;
	}
	cap_free(mine);
	__atomic_add_fetch(&calls[1], n, __ATOMIC_RELAXED);
	return NULL;
}

/* The launcher: one thread launches while another reconfigures it. */
static void *launch_loop(void *arg)
{
	unsigned long n = 0;
	int r, status;

	(void)arg;
	for (r = 0; r < LAUNCHES; r++) {
		pid_t pid = cap_launch(shared_launcher, NULL);

		if (pid <= 0)
			fail("cap_launch");
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			fail("launched child");
		n++;
	}
	__atomic_store_n(&launches_done, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&calls[2], n, __ATOMIC_RELAXED);
	return NULL;
}

static void *reconfigure_launcher(void *arg)
{
	unsigned long n = 0;
	int r;

	(void)arg;
	/* Until the last launch: every launch races with these calls. */
	for (r = 0; !__atomic_load_n(&launches_done, __ATOMIC_ACQUIRE); r++) {
		cap_iab_t fresh = cap_iab_init(), old;
		char *text;

		cap_launcher_callback(shared_launcher, r & 1 ? nothing : NULL);
		cap_launcher_set_chroot(shared_launcher, NULL);
		/* The IAB a launch applies is swapped under it, then freed. */
		old = cap_launcher_set_iab(shared_launcher, fresh);
		if (old == NULL)
			fail("cap_launcher_set_iab");
		text = cap_iab_to_text(fresh);
		cap_free(text);
		cap_free(old);
		n += 5;
	}
	__atomic_add_fetch(&calls[3], n, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	static const char *argv[] = { "true", NULL };
	pthread_t t[8];
	int i;

	shared_caps = cap_init();
	shared_iab = cap_iab_init();
	shared_launcher = cap_new_launcher("/bin/true", argv, NULL);
	if (shared_caps == NULL || shared_iab == NULL ||
	    shared_launcher == NULL)
		fail("setup");
	/* An empty IAB: applying it needs no privilege. */
	if (cap_launcher_set_iab(shared_launcher, cap_iab_init()) != NULL)
		fail("cap_launcher_set_iab");
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, hammer_caps,
			       (void *)(uintptr_t)(i + 1));
	for (i = 3; i < 6; i++)
		pthread_create(&t[i], NULL, hammer_iab,
			       (void *)(uintptr_t)(i + 1));
	pthread_create(&t[6], NULL, launch_loop, NULL);
	pthread_create(&t[7], NULL, reconfigure_launcher, NULL);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	printf("calls: %lu on one cap_t (3 threads), %lu on one cap_iab_t (3 threads), %lu launches and %lu launcher changes\n",
	       calls[0], calls[1], calls[2], calls[3]);
	cap_free(shared_launcher);
	cap_free(shared_iab);
	cap_free(shared_caps);
	return 0;
}
