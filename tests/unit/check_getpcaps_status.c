/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * progs/getpcaps/getpcaps_status.c: what getpcaps --all takes from a
 * main thread's status besides its credentials (name, state, parent,
 * thread count, kernel thread or not), since it reads stat only where it
 * must, and the stat fields it still reads. A name comes back byte for
 * byte as stat has it; a line we cannot read fails the record, never a
 * 0 taken for a parent or a kernel thread taken for a process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "getpcaps.h"

static const char creds[] = "Uid:\t1000\t1000\t1000\t1000\n"
			    "Gid:\t1000\t1000\t1000\t1000\n"
			    "Groups:\t4 24\n"
			    "CapInh:\t0000000000000000\n"
			    "CapPrm:\t0000000000002000\n"
			    "CapEff:\t0000000000002000\n"
			    "CapBnd:\t000001ffffffffff\n"
			    "CapAmb:\t0000000000000000\n"
			    "NoNewPrivs:\t0\n"
			    "Threads:\t3\n";

/* A status text: the head lines given, then the credentials. */
static char *status_with(const char *head)
{
	char *text;

	ck_assert_int_ge(asprintf(&text, "%s%s", head, creds), 0);
	return text;
}

/* creds_parse() of head + credentials: its result, errno in *err. */
static int parse_with(const char *head, struct status_facts *f, int *err)
{
	char *text = status_with(head);
	struct creds c;
	int rc;

	errno = 0;
	rc = creds_parse(text, &c, f);
	*err = errno;
	if (rc == 0)
		creds_release(&c);
	free(text);
	return rc;
}

START_TEST(reads_the_main_threads_facts)
{
	struct status_facts f;
	struct creds c;
	char *text = status_with("Name:\tsleep\nUmask:\t0022\n"
				 "State:\tS (sleeping)\nTgid:\t77\n"
				 "PPid:\t2147483647\nKthread:\t0\n");

	ck_assert_int_eq(creds_parse(text, &c, &f), 0);
	ck_assert_str_eq(f.comm, "sleep");
	ck_assert_int_eq(f.comm_known, 1);
	ck_assert_int_eq(f.state, 'S');
	ck_assert_int_eq(f.ppid, 2147483647);
	ck_assert_int_eq(f.kthread, 0);
	ck_assert_uint_eq(f.threads, 3);
	ck_assert_uint_eq(c.prm, 0x2000);
	ck_assert_int_eq(c.ngroups, 2);
	creds_release(&c);
	free(text);
}
END_TEST

/* What each head gives; the credentials after it are always the same. */
static const struct accepted {
	const char *why, *head;
	int kthread;
	char state;
	pid_t ppid;
	int comm_known; /* and then the name */
	const char *comm;
} accepted[] = {
	{ "a kernel thread says so",
	  "Name:\tkworker/0:1\nState:\tI (idle)\nPPid:\t2\nKthread:\t1\n", 1,
	  'I', 2, 1, "kworker/0:1" },
	{ "kernels that write no Kthread line: unknown, left to stat's flags",
	  "Name:\tsh\nState:\tR (running)\nPPid:\t1\n", -1, 'R', 1, 1, "sh" },
	/*
	 * The kernel writes a newline in a name as \n and a backslash as \\,
	 * the rest raw (a tab, an ESC): the name comes back as stat has it.
	 */
	{ "the kernel's two escapes undone",
	  "Name:\tn\\nl\\\\b\t\033x\nState:\tS\nPPid:\t1\nKthread:\t0\n", 0,
	  'S', 1, 1, "n\nl\\b\t\033x" },
	{ "the other escapes of its classes, should a kernel write them",
	  "Name:\t\\t\\e\\\"\nState:\tS\nPPid:\t1\n", -1, 'S', 1, 1,
	  "\t\033\"" },
	{ "an escape we do not know: the name is left to stat, the rest stands",
	  "Name:\ta\\qb\nState:\tS\nPPid:\t9\nKthread:\t0\n", 0, 'S', 9, 0,
	  NULL },
	{ "a backslash that ends the name: left to stat",
	  "Name:\tend\\\nState:\tS\nPPid:\t9\n", -1, 'S', 9, 0, NULL },
};

START_TEST(reads_what_the_kernel_writes)
{
	const struct accepted *a = &accepted[_i]; /* _i: Check's loop index */
	struct status_facts f;
	int err;

	ck_assert_msg(parse_with(a->head, &f, &err) == 0, "%s: refused",
		      a->why);
	ck_assert_msg(f.kthread == a->kthread, "%s: kthread %d", a->why,
		      f.kthread);
	ck_assert_msg(f.state == a->state, "%s: state %c", a->why, f.state);
	ck_assert_msg(f.ppid == a->ppid, "%s: ppid %d", a->why, (int)f.ppid);
	ck_assert_msg(f.comm_known == a->comm_known, "%s: comm_known %d",
		      a->why, f.comm_known);
	if (a->comm != NULL)
		ck_assert_msg(strcmp(f.comm, a->comm) == 0, "%s: comm [%s]",
			      a->why, f.comm);
}
END_TEST

/* Every line the facts need, well formed, or no record. */
START_TEST(refuses_what_it_cannot_read)
{
	static const char *const heads[] = {
		"Name:\tx\nState:\tS\n",		    /* no PPid */
		"Name:\tx\nPPid:\t1\n",			    /* no State */
		"State:\tS\nPPid:\t1\n",		    /* no Name */
		"Name:\tx\nState:\tS\nPPid:\t-1\n",	    /* a sign */
		"Name:\tx\nState:\tS\nPPid:\t12x\n",	    /* junk */
		"Name:\tx\nState:\tS\nPPid:\t\n",	    /* empty */
		"Name:\tx\nState:\tS\nPPid:\t2147483648\n", /* past pid_t */
		"Name:\tx\nState:\tS\nPPid:\t1\nKthread:\t2\n",
		"Name:\tx\nState:\tS\nPPid:\t1\nKthread:\t\n",
		"Name:\tx\nState:\t?\nPPid:\t1\n",
		"Name:\tx\nState:\t\nPPid:\t1\n",
	};
	struct status_facts f;
	size_t i;
	int err;

	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		ck_assert_msg(parse_with(heads[i], &f, &err) == -1,
			      "accepted: %s", heads[i]);
		ck_assert_int_eq(err, EPROTO);
	}
}
END_TEST

/* Another thread's status needs no facts, and none is read. */
START_TEST(a_threads_status_needs_no_facts)
{
	struct creds c;

	ck_assert_int_eq(creds_parse(creds, &c, NULL), 0);
	ck_assert_uint_eq(c.eff, 0x2000);
	creds_release(&c);
}
END_TEST

START_TEST(stat_with_parentheses_in_the_name)
{
	static const char text[] =
		"42 (a) (b)) S 7 42 42 34816 42 4194560 1 2 3 4 5 6 7 8 20 0 "
		"1 0 123456789 1000 100 18446744073709551615\n";
	struct stat_fields f;
	char comm[64];

	ck_assert_int_eq(stat_parse(text, comm, sizeof(comm), &f), 0);
	ck_assert_str_eq(comm, "a) (b)");
	ck_assert_int_eq(f.state, 'S');
	ck_assert_int_eq(f.ppid, 7);
	ck_assert_int_eq(f.tty_nr, 34816);
	ck_assert_uint_eq(f.flags, 4194560);
	ck_assert_uint_eq(f.start, 123456789);
	ck_assert_int_eq(stat_parse("42 (x S 7\n", comm, sizeof(comm), &f), -1);
	ck_assert_int_eq(stat_parse("42 (x) S\n", comm, sizeof(comm), &f), -1);
}
END_TEST

/* Reads name into buf (NUL-terminated). */
static void slurp(const char *name, char *buf, size_t size)
{
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	ck_assert_int_ge(fd, 0);
	len = read(fd, buf, size - 1);
	ck_assert_int_gt(len, 0);
	buf[len] = '\0';
	close(fd);
}

/* This kernel's own texts: status's facts agree with stat's fields. */
START_TEST(agrees_with_stat_on_this_kernel)
{
	char status[16384], stat[1024], comm[64];
	struct status_facts f;
	struct stat_fields sf;
	struct creds c;

	slurp("/proc/self/status", status, sizeof(status));
	slurp("/proc/self/stat", stat, sizeof(stat));
	ck_assert_int_eq(creds_parse(status, &c, &f), 0);
	creds_release(&c);
	ck_assert_int_eq(stat_parse(stat, comm, sizeof(comm), &sf), 0);
	ck_assert_int_eq(f.comm_known, 1);
	ck_assert_str_eq(f.comm, comm);
	ck_assert_int_eq(f.state, sf.state);
	ck_assert_int_eq(f.ppid, sf.ppid);
	ck_assert_int_eq(f.ppid, getppid());
	ck_assert_uint_eq(f.threads, 1);
	/* 0 when this kernel writes the line, -1 when it does not */
	ck_assert_int_le(f.kthread, 0);
}
END_TEST

static Suite *getpcaps_status_suite(void)
{
	Suite *s = suite_create("getpcaps_status");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reads_the_main_threads_facts);
	tcase_add_loop_test(tc, reads_what_the_kernel_writes, 0,
			    sizeof(accepted) / sizeof(accepted[0]));
	tcase_add_test(tc, refuses_what_it_cannot_read);
	tcase_add_test(tc, a_threads_status_needs_no_facts);
	tcase_add_test(tc, stat_with_parentheses_in_the_name);
	tcase_add_test(tc, agrees_with_stat_on_this_kernel);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(getpcaps_status_suite)
