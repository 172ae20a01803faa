/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/say.c, the one printer of our programs' own lines: the prefix
 * as it is, the formatted text escaped (a name holding a newline or an
 * ESC cannot forge or hide a line), a tail as it is, a failure's errno
 * after it; and a line that cannot be made is none at all, and the end
 * of the program with the status it set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>

#include "check_run.h"
#include "say.h"

static char *text;
static size_t len;
static FILE *out;

static void setup(void)
{
	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
}

static void teardown(void)
{
	fclose(out);
	free(text);
}

/* What was printed so far. */
static const char *printed(void)
{
	ck_assert_int_eq(fflush(out), 0);
	return text;
}

START_TEST(text_escaped_prefix_as_it_is)
{
	say(out, "capcheck: ", "%s: unknown user", "bob\nroot: granted\033[2K");
	ck_assert_str_eq(
		printed(),
		"capcheck: bob\\012root: granted\\033[2K: unknown user\n");
}
END_TEST

/* Text to copy: a backslash is kept, as a terminal shows it. */
START_TEST(tail_as_it_is)
{
	say_tail(out, "capcheck: ", "@we\\ird'", "%s:%lu: warning: write '",
		 "/etc/c\\f", 3UL);
	ck_assert_str_eq(
		printed(),
		"capcheck: /etc/c\\134f:3: warning: write '@we\\ird'\n");
}
END_TEST

START_TEST(errno_after_the_text)
{
	say_errno(out, "capmanifest: ", ENOENT, "%s", "/etc/m\tx");
	ck_assert_str_eq(
		printed(),
		"capmanifest: /etc/m\\011x: No such file or directory\n");
}
END_TEST

/*
 * A line that cannot be made: nothing of it on out, the reason on
 * stderr, and the status set. (A wide character the C locale cannot
 * write fails as an allocation would.)
 */
START_TEST(unmade_line_ends_the_program)
{
	int pipefd[2], status;
	char err[256] = "";
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		say_exit_status(7);
		say(out, "x: ", "%s %ls", "before", L"\x263a");
		_exit(0);
	}
	close(pipefd[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	n = read(pipefd[0], err, sizeof(err) - 1);
	close(pipefd[0]);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 7,
		      "status %d", status);
	ck_assert_int_gt(n, 0);
	ck_assert_msg(
		strstr(err,
		       ": Invalid or incomplete multibyte or wide character\n") !=
			NULL,
		"%s", err);
	ck_assert_str_eq(printed(), "");
}
END_TEST

static Suite *say_suite(void)
{
	Suite *s = suite_create("common_say");
	TCase *tc = tcase_create("say");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, text_escaped_prefix_as_it_is);
	tcase_add_test(tc, tail_as_it_is);
	tcase_add_test(tc, errno_after_the_text);
	tcase_add_test(tc, unmade_line_ends_the_program);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(say_suite)
