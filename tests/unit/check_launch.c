/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Launchers without privilege: argument checks, exec, envp, callbacks,
 * errors back to the parent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"

static int exit_code(pid_t pid)
{
	int status = -1;

	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int nothing(void *detail)
{
	(void)detail;
	return 0;
}

START_TEST(bad_arguments)
{
	static const char *argv[] = { "true", NULL };
	cap_launch_t attr;

	errno = 0;
	ck_assert_ptr_null(cap_new_launcher(NULL, argv, NULL));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_func_launcher(NULL));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_launch(NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_launcher_setuid(NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_launcher_set_mode(NULL, CAP_MODE_NOPRIV), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_launcher_set_chroot(NULL, "/"), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_launcher_set_iab(NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);

	attr = cap_func_launcher(nothing);
	errno = 0;
	ck_assert_int_eq(cap_launcher_setgroups(attr, 0, -1, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_launcher_setgroups(attr, 0, 2, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* Without its callback a function launcher has nothing to run. */
	ck_assert_int_eq(cap_launcher_callback(attr, NULL), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* A cap_t is not a launcher. */
	{
		cap_t caps = cap_init();

		errno = 0;
		ck_assert_int_eq(cap_launch((cap_launch_t)(void *)caps, NULL),
				 -1);
		ck_assert_int_eq(errno, EINVAL);
		cap_free(caps);
	}
	cap_free(attr);
}
END_TEST

START_TEST(exec_and_reuse)
{
	static const char *t[] = { "true", NULL }, *f[] = { "false", NULL };
	cap_launch_t yes = cap_new_launcher("/bin/true", t, NULL);
	cap_launch_t no = cap_new_launcher("/bin/false", f, NULL);

	ck_assert_int_eq(exit_code(cap_launch(yes, NULL)), 0);
	ck_assert_int_eq(exit_code(cap_launch(yes, NULL)), 0);
	/* The program's own failure is its exit status, not a launch error. */
	ck_assert_int_eq(exit_code(cap_launch(no, NULL)), 1);
	cap_free(yes);
	cap_free(no);
}
END_TEST

/*
 * libcap's contract, observed with 2.66 and kept by 2.76: whatever failed
 * in the child (execve's ENOENT here), cap_launch() says ECHILD.
 */
START_TEST(exec_failure_is_echild)
{
	static const char *argv[] = { "missing", NULL };
	cap_launch_t attr =
		cap_new_launcher("/nonexistent/program", argv, NULL);

	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD);
	/* Already reaped: no zombie left for the caller. */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	cap_free(attr);
}
END_TEST

/*
 * An explicit envp is the child's whole environment, byte for byte; a NULL
 * envp is an empty one (libcap's contract): a secret in the parent's
 * environment must not reach a child that may run with other privileges.
 * The child lists what it got with the shell's own "export -p" (dash
 * exports PWD itself), so the valgrind pass traces no other program;
 * valgrind adds LD_PRELOAD and VALGRIND_LIB to every program it traces,
 * which the child drops first.
 */
#define CHILD_LISTS_ENV \
	"unset LD_PRELOAD VALGRIND_LIB; test \"$(export -p)\" = "
START_TEST(environment)
{
	static const char *argv[] = {
		"sh", "-c",
		CHILD_LISTS_ENV "\"export LCAP_X='given'\n"
				"export LCAP_Y='a b=c'\nexport PWD='$PWD'\"",
		NULL
	};
	static const char *envp[] = { "LCAP_X=given", "LCAP_Y=a b=c", NULL };
	cap_launch_t attr = cap_new_launcher("/bin/sh", argv, envp);

	ck_assert_int_eq(setenv("LCAP_SECRET", "hunter2", 1), 0);
	ck_assert_int_eq(exit_code(cap_launch(attr, NULL)), 0);
	ck_assert_int_eq(unsetenv("LCAP_SECRET"), 0);
	cap_free(attr);
}
END_TEST

START_TEST(null_envp_is_empty)
{
	static const char *argv[] = { "sh", "-c",
				      CHILD_LISTS_ENV "\"export PWD='$PWD'\"",
				      NULL };
	cap_launch_t attr = cap_new_launcher("/bin/sh", argv, NULL);

	ck_assert_int_eq(setenv("LCAP_SECRET", "hunter2", 1), 0);
	ck_assert_int_eq(exit_code(cap_launch(attr, NULL)), 0);
	ck_assert_int_eq(unsetenv("LCAP_SECRET"), 0);
	cap_free(attr);
}
END_TEST

static int answer(void *detail)
{
	*(int *)detail = 42; /* shared memory: visible to the parent */
	return 0;
}

static int fail_with_edom(void *detail)
{
	(void)detail;
	errno = EDOM;
	return 1;
}

static int fail_silently(void *detail)
{
	(void)detail;
	errno = 0;
	return 1;
}

START_TEST(callbacks)
{
	int *shared = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cap_launch_t attr = cap_func_launcher(answer);

	ck_assert_ptr_ne(shared, MAP_FAILED);
	*shared = 0;
	ck_assert_int_eq(exit_code(cap_launch(attr, shared)), 0);
	ck_assert_int_eq(*shared, 42);
	/* The callback's own errno stays in the child, as with libcap. */
	ck_assert_int_eq(cap_launcher_callback(attr, fail_with_edom), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD);
	/* A failure without an errno is the same failure. */
	ck_assert_int_eq(cap_launcher_callback(attr, fail_silently), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD);
	cap_free(attr);
	munmap(shared, sizeof(int));
}
END_TEST

static int say_y(void *detail)
{
	(void)detail;
	printf("y");
	return 0;
}

START_TEST(buffered_output_is_not_duplicated)
{
	char path[] = "/tmp/check_launch.XXXXXX", got[16] = "";
	int fd = mkstemp(path);
	cap_launch_t attr = cap_func_launcher(say_y);
	FILE *f;
	int code;

	ck_assert_int_ge(fd, 0);
	stdout_divert(path);
	printf("x"); /* still in the buffer at fork time */
	code = exit_code(cap_launch(attr, NULL));
	fflush(stdout);
	stdout_restore();
	ck_assert_int_eq(code, 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(got, sizeof(got), f));
	ck_assert_str_eq(got, "xy");
	fclose(f);
	close(fd);
	unlink(path);
	cap_free(attr);
}
END_TEST

START_TEST(launcher_frees_what_it_owns)
{
	static const char *argv[] = { "true", NULL };
	cap_launch_t attr = cap_new_launcher("/bin/true", argv, NULL);
	gid_t groups[3] = { 1, 2, 3 };

	/*
	 * Everything attached is released by cap_free (ASan/valgrind see
	 * leaks).
	 */
	ck_assert_ptr_null(
		cap_launcher_set_iab(attr, cap_iab_from_text("cap_kill")));
	ck_assert_int_eq(cap_launcher_set_chroot(attr, "/"), 0);
	ck_assert_int_eq(cap_launcher_set_chroot(attr, "/tmp"), 0);
	ck_assert_int_eq(cap_launcher_setgroups(attr, 1, 3, groups), 0);
	ck_assert_int_eq(cap_launcher_setgroups(attr, 1, 0, NULL), 0);
	ck_assert_int_eq(cap_free(attr), 0);
}
END_TEST

START_TEST(unprivileged_chroot_is_refused)
{
	static const char *argv[] = { "true", NULL };
	cap_launch_t attr = cap_new_launcher("/bin/true", argv, NULL);
	cap_t none = cap_init();

	/* Give up every capability first, so this holds for root too. */
	ck_assert_int_eq(cap_set_proc(none), 0);
	ck_assert_int_eq(cap_launcher_set_chroot(attr, "/"), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD); /* chroot(2)'s EPERM, in the child */
	cap_free(none);
	cap_free(attr);
}
END_TEST

/* Routed calls, counted in memory the children share with us. */
static int *routed;

static long count3(long nr, long a1, long a2, long a3)
{
	__atomic_add_fetch(routed, 1, __ATOMIC_SEQ_CST);
	return syscall(nr, a1, a2, a3);
}

static long count6(long nr, long a1, long a2, long a3, long a4, long a5,
		   long a6)
{
	__atomic_add_fetch(routed, 1, __ATOMIC_SEQ_CST);
	return syscall(nr, a1, a2, a3, a4, a5, a6);
}

static int apply_current_iab(void *detail)
{
	cap_iab_t iab = cap_iab_get_proc();
	int rc = iab != NULL ? cap_iab_set_proc(iab) : -1;

	(void)detail;
	cap_free(iab);
	return rc;
}

/*
 * The child is single threaded until it execs: its changes are plain
 * system calls, never the routine a program (or libpsx) installed with
 * cap_set_syscall(), which would broadcast them to threads the child
 * does not have. Both
 * the launcher's IAB step and a callback's own change stay unrouted. The
 * child's IAB is the current one, so no privilege is needed; the parent
 * still routes its own changes afterwards.
 */
START_TEST(child_changes_are_not_routed)
{
	static const char *argv[] = { "true", NULL };
	cap_launch_t attr = cap_new_launcher("/bin/true", argv, NULL);
	cap_t caps = cap_get_proc();

	routed = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(routed, MAP_FAILED);
	*routed = 0;
	ck_assert_ptr_null(cap_launcher_set_iab(attr, cap_iab_get_proc()));
	ck_assert_int_eq(cap_launcher_callback(attr, apply_current_iab), 0);
	cap_set_syscall(count3, count6);
	ck_assert_int_eq(exit_code(cap_launch(attr, NULL)), 0);
	ck_assert_int_eq(*routed, 0);
	ck_assert_int_eq(cap_set_proc(caps), 0);
	ck_assert_int_eq(*routed, 1);
	cap_set_syscall(NULL, NULL);
	cap_free(caps);
	cap_free(attr);
	munmap(routed, sizeof(int));
}
END_TEST

static Suite *launch_suite(void)
{
	Suite *s = suite_create("launch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, exec_and_reuse);
	tcase_add_test(tc, exec_failure_is_echild);
	tcase_add_test(tc, environment);
	tcase_add_test(tc, null_envp_is_empty);
	tcase_add_test(tc, callbacks);
	tcase_add_test(tc, buffered_output_is_not_duplicated);
	tcase_add_test(tc, launcher_frees_what_it_owns);
	tcase_add_test(tc, unprivileged_chroot_is_refused);
	tcase_add_test(tc, child_changes_are_not_routed);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(launch_suite)
