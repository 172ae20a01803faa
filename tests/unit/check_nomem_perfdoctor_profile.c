/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory in perfdoctor --seccomp-profile's change
 * (progs/perfdoctor/perfdoctor_profile.c and the reader and splice it
 * uses, compiled in): whichever allocation fails, profile_allow_perfmon()
 * returns -1 with ENOMEM, no text and nothing leaked; never a profile
 * with part of the change, which a runtime would load as it is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "perfdoctor_profile.h"

struct op {
	const char *in;
	const char *want;
	struct profile_change c;
};

static int run_change(void *ctx)
{
	struct op *op = ctx;

	return profile_allow_perfmon(op->in, strlen(op->in), &op->c);
}

static void release_change(void *ctx)
{
	struct op *op = ctx;

	ck_assert_str_eq(op->c.text, op->want);
	profile_change_free(&op->c);
}

START_TEST(split_and_new_rule)
{
	struct op op = {
		"{\n\t\"defaultAction\": \"SCMP_ACT_ERRNO\",\n\t\"syscalls\": [\n"
		"\t\t{\n\t\t\t\"names\": [\n\t\t\t\t\"bpf\",\n\t\t\t\t\"perf_event_open\"\n\t\t\t],\n"
		"\t\t\t\"action\": \"SCMP_ACT_ERRNO\",\n\t\t\t\"excludes\": {}\n\t\t}\n\t]\n}\n",
		"{\n\t\"defaultAction\": \"SCMP_ACT_ERRNO\",\n\t\"syscalls\": [\n"
		"\t\t{\n\t\t\t\"names\": [\n\t\t\t\t\"bpf\"\n\t\t\t],\n"
		"\t\t\t\"action\": \"SCMP_ACT_ERRNO\",\n\t\t\t\"excludes\": {}\n\t\t},\n"
		"\t\t{\n\t\t\t\"names\": [\n\t\t\t\t\"perf_event_open\"\n\t\t\t],\n"
		"\t\t\t\"action\": \"SCMP_ACT_ERRNO\",\n\t\t\t\"excludes\": {\n"
		"\t\t\t\t\"caps\": [\n\t\t\t\t\t\"CAP_PERFMON\"\n\t\t\t\t]\n\t\t\t}\n\t\t},\n"
		"\t\t{\n\t\t\t\"names\": [\n\t\t\t\t\"perf_event_open\"\n\t\t\t],\n"
		"\t\t\t\"action\": \"SCMP_ACT_ALLOW\",\n\t\t\t\"includes\": {\n"
		"\t\t\t\t\"caps\": [\n\t\t\t\t\t\"CAP_PERFMON\"\n\t\t\t\t]\n\t\t\t}\n\t\t}\n\t]\n}\n",
		{ 0 },
	};
	struct failalloc_case c = { "profile_allow_perfmon", run_change,
				    release_change, NULL, &op };

	/* The reader's two, the splices', the copy's, the output's, again. */
	ck_assert_uint_ge(failalloc_check(&c), 10);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("nomem_perfdoctor_profile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, split_and_new_rule);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
