/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The main() every unit suite shares: run one Check suite, exit with its verdict. */
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/*
 * An argument that keeps valgrind (run.sh's VALGRIND_ARGS) from tracing a
 * foreign program a test runs: a shell reading a quoted word back,
 * sha256sum, rm -rf. Given to the program as an argument it ignores
 * (a "sh -c" command's $0, a shell comment). Never for a program of ours
 * or one that loads our libraries: those are what memcheck is for.
 */
#define UNTRACED_FOREIGN "vg-untraced-foreign"

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
