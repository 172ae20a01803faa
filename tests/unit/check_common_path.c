/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/path.c: nftw's joining rule and the PATH search. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "path.h"

START_TEST(join_like_nftw)
{
	static const struct {
		const char *dir, *name, *want;
	} cases[] = {
		{ "/", "bin", "/bin" }, { "/usr", "bin", "/usr/bin" },
		{ "a/", "b", "a/b" },	{ ".", "x", "./x" },
		{ "", "x", "x" },	{ NULL, "x", "x" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *d = cases[i].dir;
		size_t dl = d != NULL ? strlen(d) : 0;
		char *p = path_join(d, dl, cases[i].name);

		ck_assert_ptr_nonnull(p);
		ck_assert_str_eq(p, cases[i].want);
		ck_assert_int_eq(
			path_is_join(cases[i].want, d, dl, cases[i].name), 1);
		ck_assert_int_eq(path_needs_slash(d, dl),
				 strlen(p) > dl + strlen(cases[i].name));
		free(p);
	}
	/* Only dirlen bytes of dir count. */
	{
		char *p = path_join("/usr/lib", 4, "bin");

		ck_assert_str_eq(p, "/usr/bin");
		free(p);
	}
	ck_assert_int_eq(path_is_join("/usr//bin", "/usr", 4, "bin"), 0);
	ck_assert_int_eq(path_is_join("/usrxbin", "/usr", 4, "bin"), 0);
	ck_assert_int_eq(path_is_join("/usr/bi", "/usr", 4, "bin"), 0);
	ck_assert_int_eq(path_is_join("/usr/binx", "/usr", 4, "bin"), 0);
	ck_assert_int_eq(path_is_join("//bin", "/", 1, "bin"), 0);
}
END_TEST

START_TEST(search_finds_the_first_allowed)
{
	char tmp[] = "/tmp/check_path.XXXXXX", a[64], b[64], f[96], *search;
	char *found;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(a, sizeof(a), "%s/a", tmp);
	snprintf(b, sizeof(b), "%s/b", tmp);
	ck_assert_int_eq(mkdir(a, 0755), 0);
	ck_assert_int_eq(mkdir(b, 0755), 0);
	/* a/tool is there but not executable; b/tool is. */
	snprintf(f, sizeof(f), "%s/tool", a);
	fd = open(f, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(f, sizeof(f), "%s/tool", b);
	fd = open(f, O_WRONLY | O_CREAT, 0755);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_gt(asprintf(&search, "::%s/none:%s:%s/", tmp, a, b), 0);

	found = path_search(search, "tool", F_OK);
	ck_assert_ptr_nonnull(found);
	snprintf(f, sizeof(f), "%s/tool", a);
	ck_assert_str_eq(found, f);
	free(found);
	if (geteuid() != 0) { /* root passes X_OK on any x bit */
		found = path_search(search, "tool", X_OK);
		ck_assert_ptr_nonnull(found);
		/* The '/' is always added, as execvp() adds it. */
		snprintf(f, sizeof(f), "%s//tool", b);
		ck_assert_str_eq(found, f);
		free(found);
	}
	errno = 0;
	ck_assert_ptr_null(path_search(search, "missing", F_OK));
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_ptr_null(path_search(NULL, "tool", F_OK));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(path_search("", "tool", F_OK));

	free(search);
	snprintf(f, sizeof(f), "%s/tool", a);
	unlink(f);
	snprintf(f, sizeof(f), "%s/tool", b);
	unlink(f);
	rmdir(a);
	rmdir(b);
	rmdir(tmp);
}
END_TEST

static Suite *path_suite(void)
{
	Suite *s = suite_create("common_path");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, join_like_nftw);
	tcase_add_test(tc, search_finds_the_first_allowed);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(path_suite)
