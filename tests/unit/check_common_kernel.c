/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/kernel.c: the release's version and perf_event_paranoid, read the
 * same way by perfdoctor, capaudit and the perf policy, and whether we run
 * in the initial user namespace. A file of our own
 * stands in for /proc/sys/kernel/perf_event_paranoid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "kernel.h"

START_TEST(version_from_release_text)
{
	int major = -5, minor = -5;

	ck_assert_int_eq(
		kernel_version_parse("6.18.0-1-amd64\n", &major, &minor), 0);
	ck_assert_int_eq(major, 6);
	ck_assert_int_eq(minor, 18);
	ck_assert_int_eq(kernel_version_parse("5.8", &major, &minor), 0);
	ck_assert_int_eq(major, 5);
	ck_assert_int_eq(minor, 8);
	/* Unreadable: 0.0, an old kernel to every comparison. */
	ck_assert_int_eq(kernel_version_parse("linux", &major, &minor), -1);
	ck_assert_int_eq(major, 0);
	ck_assert_int_eq(minor, 0);
	ck_assert_int_eq(kernel_version_parse("6", &major, &minor), -1);
	ck_assert_int_eq(kernel_version_parse("-6.1", &major, &minor), -1);
	ck_assert_int_eq(major, 0);
	ck_assert_int_eq(kernel_version_parse("", &major, &minor), -1);
	/* No wrap: a number too long for an int is not a version. */
	ck_assert_int_eq(kernel_version_parse("99999999999.1", &major, &minor),
			 -1);
	ck_assert_int_eq(major, 0);
	ck_assert_int_eq(kernel_version_parse("6.99999999999", &major, &minor),
			 -1);
	ck_assert_int_eq(kernel_version_parse(" 6.1", &major, &minor), -1);
}
END_TEST

START_TEST(release_is_unames)
{
	struct utsname u;
	char text[256];
	int major, minor, want_major, want_minor;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(kernel_release(text, sizeof(text), &major, &minor), 0);
	ck_assert_str_eq(text, u.release);
	ck_assert_int_eq(sscanf(u.release, "%d.%d", &want_major, &want_minor),
			 2);
	ck_assert_int_eq(major, want_major);
	ck_assert_int_eq(minor, want_minor);
}
END_TEST

START_TEST(at_least_compares_both_numbers)
{
	ck_assert(kernel_at_least(6, 14, 6, 14));
	ck_assert(kernel_at_least(7, 0, 6, 14));
	ck_assert(!kernel_at_least(6, 13, 6, 14));
	ck_assert(
		!kernel_at_least(5, 15, 6, 14)); /* minor alone is not enough */
	ck_assert(!kernel_at_least(0, 0, 5, 8));
}
END_TEST

/* Writes text to a scratch file and reads it as perf_event_paranoid. */
static int paranoid_of(const char *text, int *level)
{
	char path[] = "/tmp/check_kernel.XXXXXX";
	int fd = mkstemp(path), rc, saved;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	rc = kernel_perf_paranoid(path, level);
	saved = errno;
	unlink(path);
	errno = saved;
	return rc;
}

START_TEST(paranoid_is_one_whole_number)
{
	static const char *const bad[] = {
		"", "\n", "two\n", "2abc\n", "2 3\n", "99999999999\n", "2\n\n",
	};
	int level = 77;
	size_t i;

	ck_assert_int_eq(paranoid_of("2\n", &level), 0);
	ck_assert_int_eq(level, 2);
	ck_assert_int_eq(paranoid_of("-1\n", &level), 0);
	ck_assert_int_eq(level, -1);
	ck_assert_int_eq(paranoid_of("4", &level), 0);
	ck_assert_int_eq(level, 4);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		level = 77;
		errno = 0;
		ck_assert_msg(paranoid_of(bad[i], &level) == -1,
			      "accepted '%s'", bad[i]);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(level, 77);
	}
	errno = 0;
	ck_assert_int_eq(kernel_perf_paranoid("/nonexistent/paranoid", &level),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(paranoid_of_this_kernel)
{
	int level = INT_MIN;

	if (access("/proc/sys/kernel/perf_event_paranoid", R_OK) != 0)
		return; /* a kernel without perf events */
	ck_assert_int_eq(
		kernel_perf_paranoid("/proc/sys/kernel/perf_event_paranoid",
				     &level),
		0);
	ck_assert_int_ge(level, -1);
}
END_TEST

/*
 * Here: what the nsfs inode says (the initial namespace's is fixed). In a
 * child that made a user namespace of its own: never the initial one,
 * whatever its capabilities there.
 */
START_TEST(user_namespace_initial_or_not)
{
	struct stat st;
	int status;
	pid_t pid;

	ck_assert_int_eq(stat("/proc/self/ns/user", &st), 0);
	ck_assert_int_eq(kernel_in_initial_userns(), st.st_ino == 0xEFFFFFFDu);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) < 0)
			_exit(3); /* user namespaces refused here */
		_exit(kernel_in_initial_userns() == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3)
		fprintf(stderr,
			"note: unshare(CLONE_NEWUSER) refused: the other namespace is not checked\n");
	else
		ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

static Suite *kernel_suite(void)
{
	Suite *s = suite_create("common_kernel");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, version_from_release_text);
	tcase_add_test(tc, release_is_unames);
	tcase_add_test(tc, at_least_compares_both_numbers);
	tcase_add_test(tc, paranoid_is_one_whole_number);
	tcase_add_test(tc, paranoid_of_this_kernel);
	tcase_add_test(tc, user_namespace_initial_or_not);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(kernel_suite)
