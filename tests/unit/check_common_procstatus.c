/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/procstatus.c: /proc/<pid>/status read strictly. A directory of
 * our own with a "status" file stands in for /proc/<pid>, so the parser
 * meets the lines a kernel never writes (and an atoi() would take for 0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "procstatus.h"

static const char good[] = "Name:\tperf\n"
			   "Uid:\t1000\t1001\t1002\t1003\n"
			   "Gid:\t2000\t2001\t2002\t2003\n"
			   "Groups:\t4 24 27 4294967295 \n"
			   "CapInh:\t0000004000000000\n"
			   "CapPrm:\t0000000000000000\n"
			   "CapEff:\t0000000000200000\n"
			   "CapBnd:\t000001ffffffffff\n"
			   "CapAmb:\t0000004000000000\n"
			   "NoNewPrivs:\t1\n"
			   "Seccomp:\t2\n"
			   "Threads:\t3\n"
			   "TracerPid:\t77\n";

/* Reads text as a status file; returns proc_status_read()'s result. */
static int read_text(const char *text, struct proc_status *s, char **bad)
{
	char tmp[] = "/tmp/check_procstatus.XXXXXX", path[64];
	int dfd, fd, rc;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s/status", tmp);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	dfd = open(tmp, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dfd, 0);
	rc = proc_status_read(dfd, s, bad);
	close(dfd);
	unlink(path);
	rmdir(tmp);
	return rc;
}

START_TEST(reads_every_field)
{
	struct proc_status s;
	char *bad;

	ck_assert_int_eq(read_text(good, &s, &bad), 0);
	ck_assert_ptr_null(bad);
	ck_assert_uint_eq(s.seen, PROC_STATUS_ALL);
	ck_assert_int_eq(s.tracer, 77);
	ck_assert_uint_eq(s.uid[0], 1000);
	ck_assert_uint_eq(s.uid[3], 1003);
	ck_assert_uint_eq(s.gid[1], 2001);
	ck_assert_int_eq(s.ngroups, 4);
	ck_assert_uint_eq(s.groups[3], 4294967295U);
	ck_assert_uint_eq(s.inheritable, UINT64_C(1) << 38);
	ck_assert_uint_eq(s.effective, UINT64_C(1) << 21);
	ck_assert_uint_eq(s.bounding, UINT64_C(0x1ffffffffff));
	ck_assert_uint_eq(s.ambient, UINT64_C(1) << 38);
	ck_assert_int_eq(s.no_new_privs, 1);
	ck_assert_int_eq(s.seccomp, 2);
	ck_assert_uint_eq(s.threads, 3);
	ck_assert_int_eq(proc_status_ambient_known(&s), 1);
	proc_status_release(&s);
}
END_TEST

/*
 * A kernel before 4.3 writes no CapAmb line, one before 4.10 no
 * NoNewPrivs: unknown, never "no ambient capabilities" or "no_new_privs
 * off" (a daemon would be flagged for lacking what it may well have).
 */
START_TEST(missing_lines_are_unknown)
{
	static const char old_kernel[] =
		"Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\n"
		"CapInh:\t0000000000002000\nCapPrm:\t0000000000003000\n"
		"CapEff:\t0000000000003000\nCapBnd:\t0000003fffffffff\n";
	static const char disjoint[] =
		"CapInh:\t0000000000002000\nCapPrm:\t0000000000001000\n";
	struct proc_status s;
	const char *bad;
	char *bad_line;

	ck_assert_int_eq(read_text(old_kernel, &s, &bad_line), 0);
	ck_assert_uint_eq(s.seen & (PROC_STATUS_CAPAMB | PROC_STATUS_NNP |
				    PROC_STATUS_SECCOMP),
			  0);
	ck_assert_int_eq(s.no_new_privs, -1);
	ck_assert_int_eq(s.seccomp, -1);
	/* cap_net_raw in both P and I: it may be ambient */
	ck_assert_int_eq(proc_status_ambient_known(&s), 0);
	proc_status_release(&s);
	ck_assert_int_eq(proc_status_parse(old_kernel, &s, &bad), 0);
	ck_assert_int_eq(s.no_new_privs, -1);
	ck_assert_int_eq(proc_status_ambient_known(&s), 0);
	proc_status_release(&s);
	/* nothing in both P and I: no capability can be ambient */
	ck_assert_int_eq(proc_status_parse(disjoint, &s, &bad), 0);
	ck_assert_int_eq(proc_status_ambient_known(&s), 1);
	ck_assert_uint_eq(s.ambient, 0);
	proc_status_release(&s);
	/* neither line at all: nothing is known */
	ck_assert_int_eq(proc_status_parse("Uid:\t1\t1\t1\t1\n", &s, &bad), 0);
	ck_assert_int_eq(proc_status_ambient_known(&s), 0);
	proc_status_release(&s);
}
END_TEST

/* Text already read (getpcaps --all's way): the same fields, the same refusals. */
START_TEST(parses_text_in_memory)
{
	static const char broken[] =
		"Uid:\t0\t0\t0\t0\nCapEff:\t-1\nCapInh:\t0\n";
	struct proc_status s;
	const char *bad;

	ck_assert_int_eq(proc_status_parse(good, &s, &bad), 0);
	ck_assert_ptr_null(bad);
	ck_assert_uint_eq(s.seen, PROC_STATUS_ALL);
	ck_assert_uint_eq(s.effective, UINT64_C(1) << 21);
	ck_assert_int_eq(s.ngroups, 4);
	proc_status_release(&s);
	errno = 0;
	ck_assert_int_eq(proc_status_parse(broken, &s, &bad), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(bad, broken + strlen("Uid:\t0\t0\t0\t0\n"));
	ck_assert_uint_eq(s.seen, PROC_STATUS_UID);
	proc_status_release(&s);
	/* The last line may lack its newline. */
	ck_assert_int_eq(proc_status_parse("CapEff:\t1", &s, &bad), 0);
	ck_assert_uint_eq(s.effective, 1);
	proc_status_release(&s);
}
END_TEST

START_TEST(refuses_what_atoi_would_take)
{
	static const char *const lines[] = {
		"Uid:\t0\t0\t0\n",	 /* three ids */
		"Uid:\t0\t0\t0\t0\t0\n", /* five */
		"Uid:\t-1\t0\t0\t0\n",
		"Uid:\tx\t0\t0\t0\n",
		"Uid:\t4294967296\t0\t0\t0\n",
		"Gid:\t0\t0\t0\t0x\n",
		"Groups:\t1 +2\n",
		"CapBnd:\t\n",
		"CapPrm:\t10000000000000000\n", /* 65 bits */
		"CapAmb:\t0000g00000000000\n",
		"NoNewPrivs:\t2\n",
		"Seccomp:\t3\n",
		"Seccomp:\t\n",
	};
	struct proc_status s;
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		memset(&s, 0, sizeof(s));
		errno = 0;
		ck_assert_msg(proc_status_line(lines[i], &s) == -1,
			      "accepted: %s", lines[i]);
		ck_assert_int_eq(errno, EINVAL);
		proc_status_release(&s);
	}
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(proc_status_line("VmRSS:\tjunk\n", &s), 0);
	ck_assert_int_eq(proc_status_line("Groups:\t\n", &s),
			 PROC_STATUS_GROUPS);
	ck_assert_int_eq(s.ngroups, 0);
}
END_TEST

START_TEST(a_bad_line_stops_the_read)
{
	struct proc_status s;
	char *bad;

	errno = 0;
	ck_assert_int_eq(
		read_text("Uid:\t0\t0\t0\t0\nGid:\t0 zero\nCapInh:\t0\n", &s,
			  &bad),
		-1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(bad);
	ck_assert_str_eq(bad, "Gid:\t0 zero");
	ck_assert_uint_eq(s.seen, PROC_STATUS_UID);
	free(bad);
	proc_status_release(&s);
	/* Missing fields are the caller's to judge. */
	ck_assert_int_eq(read_text("Uid:\t0\t0\t0\t0\n", &s, &bad), 0);
	ck_assert_uint_eq(s.seen, PROC_STATUS_UID);
	proc_status_release(&s);
}
END_TEST

START_TEST(no_status_file)
{
	struct proc_status s;
	char tmp[] = "/tmp/check_procstatus.XXXXXX", *bad;
	int dfd;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	dfd = open(tmp, O_RDONLY | O_DIRECTORY);
	errno = 0;
	ck_assert_int_eq(proc_status_read(dfd, &s, &bad), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(bad);
	proc_status_release(&s);
	close(dfd);
	rmdir(tmp);
}
END_TEST

START_TEST(reads_our_own)
{
	struct proc_status s;
	char *bad;
	int dfd = open("/proc/self", O_RDONLY | O_DIRECTORY);

	if (dfd < 0)
		return; /* no /proc here */
	ck_assert_int_eq(proc_status_read(dfd, &s, &bad), 0);
	ck_assert_uint_eq(s.seen, PROC_STATUS_ALL);
	ck_assert_uint_eq(s.uid[0], getuid());
	ck_assert_uint_eq(s.uid[1], geteuid());
	ck_assert_uint_eq(s.gid[0], getgid());
	ck_assert_int_eq(s.ngroups, getgroups(0, NULL));
	proc_status_release(&s);
	close(dfd);
}
END_TEST

static Suite *procstatus_suite(void)
{
	Suite *s = suite_create("common_procstatus");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reads_every_field);
	tcase_add_test(tc, missing_lines_are_unknown);
	tcase_add_test(tc, parses_text_in_memory);
	tcase_add_test(tc, refuses_what_atoi_would_take);
	tcase_add_test(tc, a_bad_line_stops_the_read);
	tcase_add_test(tc, no_status_file);
	tcase_add_test(tc, reads_our_own);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(procstatus_suite)
