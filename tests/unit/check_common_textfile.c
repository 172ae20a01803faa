/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/textfile.c: small files read whole, cut to the buffer, errors with errno. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "textfile.h"

static char path[] = "/tmp/check_textfile.XXXXXX";

static void write_file(const char *text)
{
	int fd;

	strcpy(path, "/tmp/check_textfile.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

START_TEST(reads_the_whole_file)
{
	char buf[64];

	write_file("6.18.0\n");
	ck_assert_int_eq(text_file_read(path, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "6.18.0\n");
	unlink(path);
}
END_TEST

START_TEST(cuts_at_the_buffer)
{
	char buf[4];

	write_file("123456789");
	ck_assert_int_eq(text_file_read(path, buf, sizeof(buf)), 3);
	ck_assert_str_eq(buf, "123");
	/* One byte: room for the NUL only. */
	ck_assert_int_eq(text_file_read(path, buf, 1), 0);
	ck_assert_str_eq(buf, "");
	unlink(path);
}
END_TEST

START_TEST(errors_carry_errno)
{
	char buf[16];

	errno = 0;
	ck_assert_int_eq(text_file_read("/nonexistent/file", buf, sizeof(buf)),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(text_file_read("/", buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EISDIR);
}
END_TEST

static Suite *textfile_suite(void)
{
	Suite *s = suite_create("common_textfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reads_the_whole_file);
	tcase_add_test(tc, cuts_at_the_buffer);
	tcase_add_test(tc, errors_carry_errno);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(textfile_suite)
