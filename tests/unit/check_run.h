/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The main() every unit suite shares: run one Check suite, exit with its verdict. */
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

#define CHECK_MAIN(make_suite)						\
	int main(void)							\
	{								\
		SRunner *runner = srunner_create(make_suite());		\
		int failed;						\
									\
		srunner_run_all(runner, CK_NORMAL);			\
		failed = srunner_ntests_failed(runner);			\
		srunner_free(runner);					\
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;	\
	}


#endif
