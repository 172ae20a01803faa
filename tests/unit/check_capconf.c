/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * pam_cap's capability.conf matcher (common/capconf.c, capconf_match.c,
 * linked in) against a fake user database: this file defines getpwnam_r,
 * getgrgid_r and getgrouplist, which take the place of libc's for the
 * matcher, so each lookup can be made to need a huge buffer, fail, or list
 * too many groups. Whatever the matcher cannot read or decide ends the
 * decision with CAPCONF_BROKEN, the line and the reason, logged at LOG_ERR;
 * it never lets a later line decide, and "not found" is no error.
 */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "check_userns.h"
#include "capconf.h"
#include "check_run.h"

#define MAL_UID	 4500
#define MAL_GID	 4500
#define DENY_GID 4700
#define MIB	 (1024 * 1024)

/* What the fake database does; reset before each test. */
static struct {
	int pw_error;	      /* getpwnam_r("mal") fails with this */
	int not_found_enoent; /* "not found" is ENOENT (nss_wrapper) */
	int minus_one;	      /* errors are -1 and errno (nss_wrapper) */
	size_t pw_need;	      /* the buffer mal's entry needs */
	size_t gr_need;	      /* the buffer deny's entry needs */
	gid_t gr_fail;	      /* getgrgid_r(gr_fail) fails with gr_error */
	int gr_error;	      /* 0: gr_fail has no entry */
	int ngroups;	      /* mal's groups: 2 (mal, deny), or more */
	int grouplist_lies;   /* -1 without saying the size it needs */
	int nam_error;	      /* getgrnam_r("deny") fails with this */
	int nam_keeps_errno;  /* ... glibc's way when a service set none */
	int probe_error;      /* getgrnam_r(any other name) fails */
	int deny_lists_mal;   /* deny's gr_mem names mal */
	size_t biggest;	      /* the largest buffer a lookup was given */
} fake;

static void reset(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.pw_need = fake.gr_need = 64;
	fake.gr_fail = (gid_t)-1;
	fake.ngroups = 2;
}

static int nss_fail(int e)
{
	if (fake.minus_one) {
		errno = e;
		return -1;
	}
	return e;
}

static int not_found(void)
{
	return fake.not_found_enoent ? nss_fail(ENOENT) : 0;
}

/* Copies s into the caller's buffer at *at; the buffer was checked. */
static char *put(char **at, const char *s)
{
	char *p = strcpy(*at, s);

	*at += strlen(s) + 1;
	return p;
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t size,
	       struct passwd **res)
{
	char *at = buf;

	*res = NULL;
	if (size > fake.biggest)
		fake.biggest = size;
	if (strcmp(name, "mal") != 0)
		return not_found();
	if (fake.pw_error != 0)
		return nss_fail(fake.pw_error);
	if (size < fake.pw_need)
		return nss_fail(ERANGE);
	pw->pw_name = put(&at, "mal");
	pw->pw_passwd = put(&at, "x");
	pw->pw_gecos = put(&at, "");
	pw->pw_dir = put(&at, "/");
	pw->pw_shell = put(&at, "/bin/sh");
	pw->pw_uid = MAL_UID;
	pw->pw_gid = MAL_GID;
	*res = pw;
	return 0;
}

int getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t size,
	       struct group **res)
{
	static char *no_members[] = { NULL };
	char *at = buf;

	*res = NULL;
	if (size > fake.biggest)
		fake.biggest = size;
	if (gid == fake.gr_fail)
		return fake.gr_error != 0 ? nss_fail(fake.gr_error)
					  : not_found();
	if (gid != MAL_GID && gid != DENY_GID)
		return not_found();
	if (size < (gid == DENY_GID ? fake.gr_need : 64))
		return nss_fail(ERANGE);
	gr->gr_name = put(&at, gid == DENY_GID ? "deny" : "mal");
	gr->gr_passwd = put(&at, "x");
	gr->gr_gid = gid;
	gr->gr_mem = no_members;
	*res = gr;
	return 0;
}

/*
 * By name: "mal" and "deny" (gr_fail and gr_error apply to it as to its
 * gid; nam_error only here: a service that fails for this look-up while
 * getgrouplist() skipped it), every other name not found or probe_error.
 */
int getgrnam_r(const char *name, struct group *gr, char *buf, size_t size,
	       struct group **res)
{
	static char *no_members[] = { NULL };
	static char mal[] = "mal";
	static char *mal_member[] = { mal, NULL };
	int deny = strcmp(name, "deny") == 0;
	char *at = buf;

	*res = NULL;
	if (size > fake.biggest)
		fake.biggest = size;
	if (!deny && strcmp(name, "mal") != 0)
		return fake.probe_error ? nss_fail(fake.probe_error)
					: not_found();
	if (deny && fake.nam_keeps_errno)
		return errno;
	if (deny && fake.nam_error != 0)
		return nss_fail(fake.nam_error);
	if (deny && fake.gr_fail == DENY_GID)
		return fake.gr_error != 0 ? nss_fail(fake.gr_error)
					  : not_found();
	if (size < (deny ? fake.gr_need : 64))
		return nss_fail(ERANGE);
	gr->gr_name = put(&at, deny ? "deny" : "mal");
	gr->gr_passwd = put(&at, "x");
	gr->gr_gid = deny ? DENY_GID : MAL_GID;
	gr->gr_mem = deny && fake.deny_lists_mal ? mal_member : no_members;
	*res = gr;
	return 0;
}

/* Found by dlsym() when the suite is linked with -rdynamic (Makefile). */
bool nss_wrapper_enabled(void)
{
	return fake.not_found_enoent;
}

int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups)
{
	int i, room = *ngroups;

	(void)user;
	for (i = 0; i < fake.ngroups && i < room; i++)
		groups[i] = i == 0   ? group
			    : i == 1 ? DENY_GID
				     : (gid_t)(100000 + i);
	if (room >= fake.ngroups) {
		*ngroups = fake.ngroups;
		return fake.ngroups;
	}
	if (!fake.grouplist_lies)
		*ngroups = fake.ngroups;
	return -1;
}

/* Every message capconf logs, one per line. */
static char logged[8192];

static void collect(void *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void collect(void *ctx, int prio, const char *fmt, ...)
{
	size_t len = strlen(logged);
	va_list ap;

	(void)ctx;
	len += (size_t)snprintf(logged + len, sizeof(logged) - len, "<%d>",
				prio);
	va_start(ap, fmt);
	len += (size_t)vsnprintf(logged + len, sizeof(logged) - len, fmt, ap);
	va_end(ap);
	snprintf(logged + len, sizeof(logged) - len, "\n");
}

/*
 * The config, in a directory of the test's own: a file straight in the
 * sticky /tmp is refused (anyone may have moved a file of root's there).
 */
static char dir[64], path[96];

static void setup(void)
{
	int fd;

	reset();
	logged[0] = '\0';
	strcpy(dir, "/tmp/check_capconf.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/capability.conf", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* Writes len bytes of text as the config. */
static void write_conf(const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Writes the config and looks mal up in it. */
static int find_in(const char *text, size_t len, struct capconf_match *m)
{
	write_conf(text, len);
	return capconf_find(path, "mal", m, collect, NULL);
}

static int find(const char *text, struct capconf_match *m)
{
	return find_in(text, strlen(text), m);
}

static void expect_found(const char *text, unsigned long line, const char *caps,
			 const char *who)
{
	struct capconf_match m;

	ck_assert_int_eq(find(text, &m), CAPCONF_FOUND);
	ck_assert_uint_eq(m.line, line);
	ck_assert_str_eq(m.caps, caps);
	ck_assert_str_eq(m.who, who);
	capconf_match_release(&m);
}

/* The decision stops at line (0: not at a line) for problem, logged so. */
static void expect_broken(const char *text, size_t len, unsigned long line,
			  const char *problem)
{
	struct capconf_match m;
	char want[1024];

	ck_assert_int_eq(find_in(text, len, &m), CAPCONF_BROKEN);
	ck_assert_uint_eq(m.line, line);
	ck_assert_str_eq(m.problem, problem);
	ck_assert_ptr_null(m.caps);
	ck_assert_ptr_null(m.who);
	if (line != 0)
		snprintf(want, sizeof(want),
			 "<%d>%s:%lu: %s; stopped here, nothing granted\n",
			 LOG_ERR, path, line, problem);
	else
		snprintf(want, sizeof(want), "<%d>%s: %s; nothing granted\n",
			 LOG_ERR, path, problem);
	ck_assert_ptr_nonnull(strstr(logged, want));
	capconf_match_release(&m);
}

#define DENY_THEN_ALL "none @deny\n^cap_sys_admin *\n"

/* Lookups once gave up at 1 MiB and took mal for a non-member. */
START_TEST(group_record_over_one_mib)
{
	fake.gr_need = 2 * MIB + 1;
	expect_found(DENY_THEN_ALL, 1, "none", "@deny");
	ck_assert_uint_gt(fake.biggest, 2 * MIB);
	/* nss_wrapper's way of saying ERANGE. */
	fake.minus_one = 1;
	expect_found(DENY_THEN_ALL, 1, "none", "@deny");
}
END_TEST

START_TEST(passwd_record_over_one_mib)
{
	fake.pw_need = 2 * MIB + 1;
	expect_found(DENY_THEN_ALL, 1, "none", "@deny");
}
END_TEST

START_TEST(group_lookup_error_stops)
{
	fake.gr_fail = DENY_GID;
	fake.gr_error = EIO;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': group 'deny' cannot be looked up: Input/output error");
	fake.minus_one = 1;
	fake.gr_error = EAGAIN;
	expect_broken(
		"cap_kill bob\n" DENY_THEN_ALL,
		strlen("cap_kill bob\n" DENY_THEN_ALL), 2,
		"cannot tell whether 'mal' is in '@deny': group 'deny' cannot be looked up: Resource temporarily unavailable");
}
END_TEST

/*
 * glibc's getgrouplist() skips a service that fails (LDAP or sssd down)
 * and returns the others' groups: deny is missing from mal's list, and
 * nothing says so. The look-up of "deny" by name reports the failure, as
 * glibc reports it: the errno the service set (ENOENT: nss-pam-ldapd's
 * "nslcd unreachable", glibc's "input file missing"; EAGAIN), or, when it
 * set none, whatever errno was before the call.
 */
START_TEST(unavailable_service_stops)
{
	fake.ngroups = 1;
	fake.nam_error = ENOENT;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': group 'deny' cannot be looked up: No such file or directory");
	fake.nam_error = EAGAIN;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': group 'deny' cannot be looked up: Resource temporarily unavailable");
	fake.nam_error = 0;
	fake.nam_keeps_errno = 1;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': group 'deny' cannot be looked up: Input/output error");
}
END_TEST

/* Under nss_wrapper (tests), whose look-ups say ENOENT for "not found". */
START_TEST(nss_wrapper_enoent_is_not_found)
{
	fake.ngroups = 1;
	fake.gr_fail = DENY_GID;
	fake.not_found_enoent = 1;
	expect_found(DENY_THEN_ALL, 2, "^cap_sys_admin", "*");
}
END_TEST

/*
 * Left out of the whole list, yet its entry names mal: the login (which
 * gets the list) does not hold the group, the database says mal is in it.
 * A grant would go to a login without the group, "not a member" would
 * skip a restriction: nothing decides.
 */
START_TEST(member_by_the_group_entry)
{
	fake.ngroups = 1;
	fake.deny_lists_mal = 1;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': group 'deny' lists 'mal' as a member, but getgrouplist() leaves the group out");
	expect_broken(
		"^cap_sys_admin @deny\n", 21, 1,
		"cannot tell whether 'mal' is in '@deny': group 'deny' lists 'mal' as a member, but getgrouplist() leaves the group out");
	/* Not named, and the list is whole: not a member. */
	fake.deny_lists_mal = 0;
	expect_found(DENY_THEN_ALL, 2, "^cap_sys_admin", "*");
}
END_TEST

/*
 * A service that fails every look-up (the probe, see common/groups.c)
 * makes the list incomplete: deny's entry not naming mal then proves
 * nothing (members can come from elsewhere than gr_mem).
 */
START_TEST(failing_database_makes_list_incomplete)
{
	fake.ngroups = 1;
	fake.probe_error = ETIMEDOUT;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': the group database failed: Connection timed out");
	fake.probe_error = ENOENT;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': the group database failed: Input/output error");
	/* The entry naming mal decides nothing: the login lacks it too. */
	fake.deny_lists_mal = 1;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': the group database failed: Input/output error");
}
END_TEST

/* With groups missing, a line that selects mal for sure still decides. */
START_TEST(group_lookup_error_decided_lines)
{
	struct capconf_match m;

	fake.gr_fail = DENY_GID;
	fake.gr_error = EIO;
	expect_found("^cap_perfmon mal\nnone @deny\n", 1, "^cap_perfmon",
		     "mal");
	expect_found("none @deny mal\n", 1, "none", "mal");
	expect_found("cap_perfmon @mal\nnone @deny\n", 1, "cap_perfmon",
		     "@mal");
	expect_found("cap_kill bob\ncap_perfmon *\n", 2, "cap_perfmon", "*");
	/* No "@group" line anywhere: the file names mal nowhere, for sure. */
	ck_assert_int_eq(find("cap_perfmon bob\n", &m), CAPCONF_NOT_FOUND);
	ck_assert_str_eq(logged, "");
}
END_TEST

/* "No such group" is an answer, not an error: the gid has no @name. */
START_TEST(group_not_found_is_no_error)
{
	fake.gr_fail = DENY_GID;
	expect_found(DENY_THEN_ALL, 2, "^cap_sys_admin", "*");
	fake.not_found_enoent = 1;
	expect_found(DENY_THEN_ALL, 2, "^cap_sys_admin", "*");
	fake.minus_one = 1;
	expect_found(DENY_THEN_ALL, 2, "^cap_sys_admin", "*");
}
END_TEST

START_TEST(too_many_groups)
{
	fake.ngroups = CAPCONF_GROUPS_MAX + 1;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': 'mal' is in more than 65536 groups");
	/* The primary group is known without the list. */
	expect_found("cap_perfmon @mal\n" DENY_THEN_ALL, 1, "cap_perfmon",
		     "@mal");
	/* As many as a login can hold is fine. */
	fake.ngroups = CAPCONF_GROUPS_MAX;
	expect_found(DENY_THEN_ALL, 1, "none", "@deny");
}
END_TEST

START_TEST(grouplist_without_size)
{
	fake.ngroups = 100;
	fake.grouplist_lies = 1;
	expect_broken(
		DENY_THEN_ALL, strlen(DENY_THEN_ALL), 1,
		"cannot tell whether 'mal' is in '@deny': the group database failed: Input/output error");
}
END_TEST

/* The other direction: a passwd error is no "unknown user". */
START_TEST(user_lookup_error_stops)
{
	fake.pw_error = EIO;
	expect_broken(DENY_THEN_ALL, strlen(DENY_THEN_ALL), 0,
		      "cannot look up user 'mal': Input/output error");
	fake.minus_one = 1;
	fake.pw_error = EACCES;
	expect_broken("^cap_sys_admin *\n", strlen("^cap_sys_admin *\n"), 0,
		      "cannot look up user 'mal': Permission denied");
}
END_TEST

START_TEST(user_not_found)
{
	struct capconf_match m;

	write_conf("^cap_sys_admin *\n", strlen("^cap_sys_admin *\n"));
	ck_assert_int_eq(capconf_find(path, "nosuch", &m, collect, NULL),
			 CAPCONF_UNKNOWN_USER);
	fake.not_found_enoent = 1;
	ck_assert_int_eq(capconf_find(path, "nosuch", &m, collect, NULL),
			 CAPCONF_UNKNOWN_USER);
	fake.minus_one = 1;
	ck_assert_int_eq(capconf_find(path, "nosuch", &m, collect, NULL),
			 CAPCONF_UNKNOWN_USER);
	ck_assert_ptr_null(strstr(logged, "<3>"));
}
END_TEST

/* The scan ends at an unusable line: no later, broader line decides. */
START_TEST(unusable_lines_stop)
{
	static const char nul[] = "none mal\0\n^cap_sys_admin *\n";
	char *text = malloc(6000);
	size_t n;

	ck_assert_ptr_nonnull(text);
	expect_broken(nul, sizeof(nul) - 1, 1, "NUL byte in line");
	n = (size_t)snprintf(text, 6000, "cap_kill bob\nnone mal%5000s\n%s", "",
			     "^cap_sys_admin *\n");
	expect_broken(text, n, 2, "line longer than 4095 bytes");
	/* A comment too: libcap would read its tail as a line. */
	n = (size_t)snprintf(text, 6000, "#%5000s\n%s", "",
			     "^cap_sys_admin mal\n");
	expect_broken(text, n, 1, "line longer than 4095 bytes");
	free(text);
}
END_TEST

/* Files capconf does not trust decide too; a missing one has no lines. */
START_TEST(untrusted_files_stop)
{
	struct capconf_match m;

	write_conf(DENY_THEN_ALL, strlen(DENY_THEN_ALL));
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(capconf_find(path, "mal", &m, collect, NULL),
			 CAPCONF_BROKEN);
	ck_assert_uint_eq(m.line, 0);
	ck_assert_str_eq(m.problem,
			 "world-writable: anyone could have rewritten it");
	ck_assert_int_eq(capconf_find("/nonexistent/capability.conf", "mal", &m,
				      collect, NULL),
			 CAPCONF_UNREADABLE);
	ck_assert_int_eq(capconf_find("/dev/null", "mal", &m, collect, NULL),
			 CAPCONF_NOT_FOUND);
}
END_TEST

/* A stream that gives one line, then fails: a read error mid-file. */
static ssize_t read_then_fail(void *cookie, char *buf, size_t size)
{
	int *calls = cookie;
	static const char line[] = "cap_kill bob\n";

	if ((*calls)++ > 0) {
		errno = EIO;
		return -1;
	}
	ck_assert_uint_ge(size, sizeof(line) - 1);
	memcpy(buf, line, sizeof(line) - 1);
	return (ssize_t)sizeof(line) - 1;
}

START_TEST(read_error_mid_file_stops)
{
	cookie_io_functions_t io = { .read = read_then_fail };
	struct capconf_reader r;
	struct capconf_match m;
	struct capconf_user u;
	int calls = 0;

	ck_assert_int_eq(capconf_user_lookup(&u, "mal"), 0);
	memset(&r, 0, sizeof(r));
	r.fp = fopencookie(&calls, "r", io);
	ck_assert_ptr_nonnull(r.fp);
	ck_assert_int_eq(capconf_scan(&r, "stream", &u, &m, collect, NULL),
			 CAPCONF_BROKEN);
	ck_assert_uint_eq(m.line, 2);
	ck_assert_str_eq(m.problem, "read error: Input/output error");
	ck_assert_ptr_nonnull(strstr(
		logged,
		"<3>stream:2: read error: Input/output error; stopped here"));
	capconf_close(&r);
	capconf_user_release(&u);
}
END_TEST

static Suite *capconf_suite(void)
{
	Suite *s = suite_create("capconf");
	TCase *tc = tcase_create("lookups");
	check_as_root();

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, group_record_over_one_mib);
	tcase_add_test(tc, passwd_record_over_one_mib);
	tcase_add_test(tc, group_lookup_error_stops);
	tcase_add_test(tc, unavailable_service_stops);
	tcase_add_test(tc, nss_wrapper_enoent_is_not_found);
	tcase_add_test(tc, member_by_the_group_entry);
	tcase_add_test(tc, failing_database_makes_list_incomplete);
	tcase_add_test(tc, group_lookup_error_decided_lines);
	tcase_add_test(tc, group_not_found_is_no_error);
	tcase_add_test(tc, too_many_groups);
	tcase_add_test(tc, grouplist_without_size);
	tcase_add_test(tc, user_lookup_error_stops);
	tcase_add_test(tc, user_not_found);
	tcase_add_test(tc, unusable_lines_stop);
	tcase_add_test(tc, untrusted_files_stop);
	tcase_add_test(tc, read_error_mid_file_stops);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(capconf_suite)
