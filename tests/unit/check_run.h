/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The main() every unit suite shares: run one Check suite, exit with its verdict. */
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

#include <check.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * An argument that keeps valgrind (run.sh's VALGRIND_ARGS) from tracing a
 * foreign program a test runs: a shell reading a quoted word back,
 * sha256sum, rm -rf. Given to the program as an argument it ignores
 * (a "sh -c" command's $0, a shell comment). Never for a program of ours
 * or one that loads our libraries: those are what memcheck is for.
 */
#define UNTRACED_FOREIGN "vg-untraced-foreign"

/*
 * stdout sent to path for a test, then given back: in the valgrind pass
 * (CK_FORK=no) every test runs in the runner's own process, and a stdout
 * left on /dev/full or a file takes the runner's summary with it, which
 * run.sh then counts as a suite that checked nothing.
 */
static int check_stdout_saved = -1;

static inline void stdout_divert(const char *path)
{
	fflush(stdout);
	check_stdout_saved = dup(STDOUT_FILENO);
	ck_assert_int_ge(check_stdout_saved, 0);
	ck_assert_ptr_nonnull(freopen(path, "w", stdout));
}

/* What the test left unwritten is dropped, not sent to the real stdout. */
static inline void stdout_restore(void)
{
	__fpurge(stdout);
	clearerr(stdout);
	ck_assert_int_eq(dup2(check_stdout_saved, STDOUT_FILENO),
			 STDOUT_FILENO);
	close(check_stdout_saved);
	check_stdout_saved = -1;
}

/*
 * Runs fn in a forked child that leaves by _exit(): for a test that
 * changes its namespaces, its root or its /proc (which the test's own
 * process must keep: its sanitizer leak check at exit reads /proc), or
 * must not take its process along. The test fails when fn does (an
 * assertion) or the child dies.
 */
static inline void check_in_child(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the test's child failed (status %d)", status);
}

#define CHECK_MAIN(make_suite)                                    \
	int main(void)                                            \
	{                                                         \
		SRunner *runner = srunner_create(make_suite());   \
		int failed;                                       \
                                                                  \
		srunner_run_all(runner, CK_NORMAL);               \
		failed = srunner_ntests_failed(runner);           \
		srunner_free(runner);                             \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE; \
	}

#endif
