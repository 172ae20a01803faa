/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The verifier's reason for a refusal (progs/capaudit/capaudit_verifier.c):
 * never the statistics line its log ends with, but the line before it,
 * with the instruction and the source line it names, file and line first.
 * Logs as this kernel writes them, and (as root, where the BPF tool chain
 * built it) a program with a bug planted in it, loaded through
 * capaudit's own loader (bpf/capaudit_skel.c): the refusal names the
 * planted line of unit/verifier_planted.bpf.c.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capaudit_verifier.h"
#include "check_run.h"

#ifdef PLANTED_SOURCE
#include "capaudit_skel.h"
/* bpftool's header: its casts and byte counts are not ours to warn about. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "planted.lskel.h"
#pragma GCC diagnostic pop
#endif

static char out[512];

START_TEST(the_reason_not_the_statistics)
{
	const char *log =
		"func#0 @0\n"
		"0: R1=ctx() R10=fp0\n"
		"0: (bf) r0 = r2\n"
		"R2 !read_ok\n"
		"processed 1 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n";

	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "R2 !read_ok (instruction 0: (bf) r0 = r2)");
}
END_TEST

START_TEST(the_source_line_when_the_log_has_one)
{
	const char *log =
		"func#0 @0\n"
		"; int n = ctx->args[0]; @ check.bpf.c:41\n"
		"0: (79) r2 = *(u64 *)(r1 +0)\n"
		"1: R1=ctx() R2=scalar()\n"
		"; return *(int *)n; @ check.bpf.c:42\n"
		"1: (61) r0 = *(u32 *)(r2 +0)\n"
		"2: R0_w=scalar()\n"
		"2: (07) r0 += 1\n"
		"3: (61) r0 = *(u32 *)(r2 +8)\n"
		"R2 invalid mem access 'scalar'\n"
		"verification time 21 usec\n"
		"stack depth 0\n"
		"processed 4 insns (limit 1000000) max_states_per_insn 0\n\n";

	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_str_eq(
		out,
		"check.bpf.c:42: R2 invalid mem access 'scalar' (instruction 3: (61) r0 = *(u32 *)(r2 +8); source: return *(int *)n;)");
}
END_TEST

START_TEST(no_reason_in_statistics_alone)
{
	ck_assert_int_eq(
		verifier_reason("processed 0 insns\n\n", out, sizeof(out)), -1);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(verifier_reason("", out, sizeof(out)), -1);
	/* a reason with no instruction above it stands alone */
	ck_assert_int_eq(verifier_reason("last insn is not an exit or jmp\n"
					 "processed 0 insns\n",
					 out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "last insn is not an exit or jmp");
	/* cut to the room given, terminated */
	ck_assert_int_eq(
		verifier_reason("0: (bf) r0 = r2\nR2 !read_ok\n", out, 8), 0);
	ck_assert_str_eq(out, "R2 !rea");
}
END_TEST

/* A source line whose text holds " @ " itself: the place is after the last. */
START_TEST(the_place_after_the_last_at)
{
	const char *log = "; s = \"a @ b\"; @ x.bpf.c:7\n"
			  "5: (85) call unknown#195896080\n"
			  "invalid func unknown#195896080\n"
			  "processed 6 insns (limit 1000000)\n";

	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_str_eq(
		out,
		"x.bpf.c:7: invalid func unknown#195896080 (instruction 5: (85) call unknown#195896080; source: s = \"a @ b\";)");
}
END_TEST

/*
 * The log repeats our source's text and its file's name, and the kernel's
 * words: a terminal's escape sequence or a line break there (a source line
 * with an ESC in a string, a build directory whose name has one) reaches
 * the report, --check and stderr. Each is written as \ooo, as every other
 * message of ours writes what it did not make itself.
 */
START_TEST(control_characters_escaped)
{
	const char *log = "; s = \"\033[2J\r\"; @ x\033]0;t\007.bpf.c:7\n"
			  "5: (85) call unknown#1\n"
			  "invalid func\nunknown\n"
			  "processed 6 insns (limit 1000000)\n";

	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_str_eq(
		out,
		"x\\033]0;t\\007.bpf.c:7: unknown (instruction 5: (85) call unknown#1; source: s = \"\\033[2J\\015\";)");
}
END_TEST

/*
 * Escaped, a reason may be four times as long: it is cut to the room
 * given, never inside an escape or a character, and terminated.
 */
START_TEST(escaped_and_cut_whole)
{
	char log[2048], small[32];
	size_t i, n;

	n = 0;
	for (i = 0; i < 300; i++)
		log[n++] = (char)(i % 2 ? 0x1b : 'a');
	memcpy(log + n, "\nprocessed 1 insns\n", 20);
	ck_assert_int_eq(verifier_reason(log, out, sizeof(out)), 0);
	ck_assert_ptr_null(strchr(out, 0x1b));
	/* "a\033" again and again, the last whole, the room used */
	ck_assert_uint_ge(strlen(out), sizeof(out) - 5);
	ck_assert_uint_ge(strlen(strrchr(out, '\\')), 4);
	n = 0;
	for (i = 0; i < 20; i++) {
		memcpy(log + n, "\xc3\xa9", 2); /* é */
		n += 2;
	}
	memcpy(log + n, "\nprocessed 1 insns\n", 20);
	ck_assert_int_eq(verifier_reason(log, small, sizeof(small)), 0);
	ck_assert_uint_eq(strlen(small), 30); /* 15 whole, none cut */
	ck_assert_int_eq(small[29], (char)0xa9);
}
END_TEST

/*
 * The log of a program the verifier accepted ends with an instruction or
 * a state, never a reason: a light skeleton's loader, accepted, leaves
 * its log where the program it failed to load for another cause (no
 * CAP_PERFMON) wrote none.
 */
START_TEST(no_reason_in_an_accepted_log)
{
	ck_assert_int_eq(verifier_reason("0: R1=ctx() R10=fp0\n"
					 "0: (b7) r0 = 0\n"
					 "1: (95) exit\n"
					 "processed 2 insns (limit 1000000)\n",
					 out, sizeof(out)),
			 -1);
	ck_assert_int_eq(
		verifier_reason("12: R0_w=scalar()\nprocessed 13 insns\n", out,
				sizeof(out)),
		-1);
}
END_TEST

#ifdef PLANTED_SOURCE
/* The line of the planted bug: the one marked PLANTED in its source. */
static int planted_line(void)
{
	FILE *f = fopen(PLANTED_SOURCE, "re");
	char line[512];
	int n = 0, found = 0;

	ck_assert_msg(f != NULL, "%s: %s", PLANTED_SOURCE, strerror(errno));
	while (fgets(line, sizeof(line), f) != NULL) {
		n++;
		if (strstr(line, "/* PLANTED: ") != NULL) {
			ck_assert_msg(found == 0, "two PLANTED lines in %s",
				      PLANTED_SOURCE);
			found = n;
		}
	}
	fclose(f);
	ck_assert_msg(found > 0, "no PLANTED line in %s", PLANTED_SOURCE);
	return found;
}

static void *planted_open(void)
{
	return planted_bpf__open();
}

static int planted_load(void *skel)
{
	return planted_bpf__load(skel);
}

static void planted_destroy(void *skel)
{
	planted_bpf__destroy(skel);
}

/*
 * The refused program as capaudit reports one: the verifier's reason,
 * the file and the line of our source, never the statistics.
 */
/* The descriptors this process holds: /proc/self/fd's entries. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ck_assert_msg(d != NULL, "/proc/self/fd: %s", strerror(errno));
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own */
}

START_TEST(a_planted_bug_names_its_line)
{
	static const struct skel_kind planted = { "the planted program",
						  planted_open, NULL,
						  planted_load,
						  planted_destroy };
	char why[512], where[128];
	int fds = open_fds();
	void *skel;

	snprintf(where, sizeof(where),
		 "verifier_planted.bpf.c:%d: ", planted_line());
	errno = 0;
	skel = skel_load(&planted, NULL, why, sizeof(why));
	ck_assert_ptr_null(skel);
	ck_assert_int_eq(errno, EACCES);
	/* Twice refused (the load, then the load for the log): nothing kept. */
	ck_assert_int_eq(open_fds(), fds);
	ck_assert_msg(strncmp(why, "the verifier refused the planted program: ",
			      42) == 0,
		      "not said to be the verifier's refusal: %s", why);
	ck_assert_msg(strstr(why, where) != NULL, "no %s in: %s", where, why);
	ck_assert_msg(strstr(why, "invalid mem access 'map_value_or_null'") !=
			      NULL,
		      "not the verifier's reason: %s", why);
	ck_assert_msg(strstr(why, "source: *v = 1;") != NULL,
		      "not the planted line's text: %s", why);
	ck_assert_msg(strstr(why, "processed") == NULL,
		      "the statistics, not the reason: %s", why);
}
END_TEST
#endif

static Suite *verifier_suite(void)
{
	Suite *s = suite_create("capaudit_verifier");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, the_reason_not_the_statistics);
	tcase_add_test(tc, the_source_line_when_the_log_has_one);
	tcase_add_test(tc, no_reason_in_statistics_alone);
	tcase_add_test(tc, the_place_after_the_last_at);
	tcase_add_test(tc, no_reason_in_an_accepted_log);
	tcase_add_test(tc, control_characters_escaped);
	tcase_add_test(tc, escaped_and_cut_whole);
#ifdef PLANTED_SOURCE
	/* Loading a program takes root: otherwise left out, and said so. */
	if (geteuid() == 0)
		tcase_add_test(tc, a_planted_bug_names_its_line);
	else
		printf("note: not root: no planted program is loaded\n");
#else
	printf("note: built without the BPF tool chain: no planted program is loaded\n");
#endif
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(verifier_suite)
