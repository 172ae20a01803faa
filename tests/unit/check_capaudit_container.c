/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --suggest's grant in a container (progs/capaudit/capaudit_container.c
 * and capaudit_container_text.c) without root: the sets each way gives,
 * as the runtimes were seen to give them; the IAB that makes them; the
 * flags and securityContext of each way, exactly as printed, proven,
 * unproven and shown not to work; and the writers, given hostile text,
 * keep it one shell word and one YAML string. The runs themselves are
 * check_capaudit_verdict's; on the real kernel, capaudit_suggest.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>

#include "capaudit.h"
#include "capaudit_ambient.h"
#include "capaudit_container.h"
#include "capaudit_container_text.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "check_run.h"
#include "mask.h"

#define BIT(c)	  MASK_BIT(c)
#define EXITED(n) ((n) << 8)

/* What container_print() writes for sg. */
static char *printed(const struct suggestion *sg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	container_print(sg, out);
	ck_assert_int_eq(fclose(out), 0);
	return text;
}

/*
 * got is want, or the test fails naming where they part (Check cannot
 * carry a message as long as these texts).
 */
static void expect_text(const char *got, const char *want)
{
	size_t at = 0;

	while (got[at] != '\0' && got[at] == want[at])
		at++;
	ck_assert_msg(got[at] == want[at],
		      "the text differs at byte %zu: got \"%.120s\", want "
		      "\"%.120s\"",
		      at, got + at, want + at);
}

/* A suggestion whose grant is grant, for uid:gid, its ways planned. */
static void planned(struct suggestion *sg, uint64_t grant, uid_t uid, gid_t gid,
		    int proven)
{
	static struct need_file file;

	memset(sg, 0, sizeof(*sg));
	memset(&file, 0, sizeof(file));
	file.fd = -1;
	file.grant = grant;
	sg->files = &file;
	sg->nfiles = 1;
	sg->proven = proven;
	container_plan(sg, uid, gid, NULL);
}

/* Each way proven by its run, numbered from first. */
static void proven_by_runs(struct suggestion *sg, int first)
{
	size_t i;

	sg->container.runs = (int)sg->container.nways;
	for (i = 0; i < sg->container.nways; i++) {
		struct container_proof *p = &sg->container.ways[i];

		p->ran = p->proven = 1;
		p->run = first + (int)i;
		p->status = EXITED(0);
		p->unproven[0] = '\0';
	}
}

START_TEST(each_way_gives_the_sets_the_runtimes_give)
{
	uint64_t g = BIT(CAP_NET_RAW) | BIT(CAP_CHOWN);
	struct container_sets cs;

	/* podman 4.3 (runc), root: CapBnd = CapPrm = CapEff, CapInh = CapAmb = 0. */
	container_sets_of(WAY_ROOT, g, &cs);
	ck_assert_uint_eq(cs.bounding, g);
	ck_assert_uint_eq(cs.inheritable, 0);
	ck_assert_uint_eq(cs.ambient, 0);
	ck_assert_int_eq(cs.no_new_privs, 1);
	ck_assert_int_eq(cs.file_caps, 0);
	/* podman, --user=65534: the added ones in all five. */
	container_sets_of(WAY_AMBIENT, g, &cs);
	ck_assert_uint_eq(cs.bounding, g);
	ck_assert_uint_eq(cs.inheritable, g);
	ck_assert_uint_eq(cs.ambient, g);
	ck_assert_int_eq(cs.no_new_privs, 1);
	ck_assert_int_eq(cs.file_caps, 0);
	/* docker, Kubernetes, another user: the bounding set, and the files'. */
	container_sets_of(WAY_FILE_CAPS, g, &cs);
	ck_assert_uint_eq(cs.bounding, g);
	ck_assert_uint_eq(cs.inheritable, 0);
	ck_assert_uint_eq(cs.ambient, 0);
	ck_assert_int_eq(cs.no_new_privs, 0);
	ck_assert_int_eq(cs.file_caps, 1);
}
END_TEST

/*
 * The IAB drops every capability of the kernel's but the grant from the
 * bounding set, and raises exactly the sets' inheritable and ambient.
 */
START_TEST(the_iab_makes_the_sets)
{
	uint64_t g = BIT(CAP_NET_RAW) | BIT(CAP_NET_BIND_SERVICE);
	uint64_t kernel = mask_below(cap_max_bits());
	struct container_sets cs;
	cap_iab_t iab;

	container_sets_of(WAY_AMBIENT, g, &cs);
	iab = container_iab(&cs);
	ck_assert_ptr_nonnull(iab);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_BOUND), kernel & ~g);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_INH), g);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_AMB), g);
	cap_free(iab);
	container_sets_of(WAY_ROOT, g, &cs);
	iab = container_iab(&cs);
	ck_assert_ptr_nonnull(iab);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_BOUND), kernel & ~g);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_INH), 0);
	ck_assert_uint_eq(mask_of_iab(iab, CAP_IAB_AMB), 0);
	cap_free(iab);
}
END_TEST

START_TEST(root_in_a_container_proven)
{
	struct suggestion sg;
	char *text;

	planned(&sg, BIT(CAP_NET_RAW) | BIT(CAP_CHOWN), 0, 0, 1);
	ck_assert_uint_eq(sg.container.nways, 1);
	proven_by_runs(&sg, 7);
	text = printed(&sg);
	expect_text(
		text,
		"# podman, docker or Kubernetes, as uid 0 in the container: the "
		"flags of podman run or docker run, proven by run 7 in the sets "
		"the container gets there (bounding, permitted and effective "
		"set cap_chown,cap_net_raw, inheritable and ambient set empty, "
		"no_new_privs set)\n"
		"#   run 7, in those sets: exited with status 0\n"
		"--cap-drop=ALL --cap-add=CHOWN --cap-add=NET_RAW --user=0:0 "
		"--security-opt=no-new-privileges\n"
		"# Kubernetes, the container's securityContext (the sets of run "
		"7):\n"
		"securityContext:\n"
		"  runAsUser: 0\n"
		"  runAsGroup: 0\n"
		"  runAsNonRoot: false\n"
		"  allowPrivilegeEscalation: false\n"
		"  capabilities:\n"
		"    drop: [\"ALL\"]\n"
		"    add: [\"CHOWN\", \"NET_RAW\"]\n"
		"# note: the container runs had the runtime's capability sets "
		"and the user's ids, not its seccomp profile, security module, "
		"cgroups or image, and ran in the initial user namespace, as in "
		"a container that root starts (in a rootless container's own "
		"namespace no capability counts outside it)\n");
	free(text);
}
END_TEST

/*
 * Another user: podman's flags (ambient, no_new_privs); docker's and
 * Kubernetes' need the files' own capabilities and no no_new_privs.
 * cap_perfmon brings the note on the runtimes' seccomp profiles.
 */
START_TEST(another_user_in_a_container_proven)
{
	struct suggestion sg;
	char *text;

	planned(&sg, BIT(CAP_PERFMON), 65534, 65534, 1);
	ck_assert_uint_eq(sg.container.nways, 2);
	proven_by_runs(&sg, 5);
	sg.container.ways[1].left = 2;
	text = printed(&sg);
	expect_text(
		text,
		"# podman, as uid 65534 in the container: the flags of podman "
		"run, proven by run 5 in the sets the container gets there "
		"(bounding, inheritable, permitted, effective and ambient set "
		"cap_perfmon, no_new_privs set)\n"
		"#   podman gives a user other than root what --cap-add adds as "
		"ambient capabilities: every program in the container holds "
		"them\n"
		"#   run 5, in those sets: exited with status 0\n"
		"--cap-drop=ALL --cap-add=PERFMON --user=65534:65534 "
		"--security-opt=no-new-privileges\n"
		"# docker or Kubernetes, as uid 65534 in the container: the "
		"flags of docker run, proven by run 6 in the sets the container "
		"gets there (bounding set cap_perfmon, inheritable and ambient "
		"set empty, no_new_privs not set, each file with its grant as "
		"file capabilities)\n"
		"#   docker and Kubernetes give a user other than root no "
		"ambient capability: each file needs its grant in the image "
		"(the setcap lines above), and privilege escalation allowed\n"
		"#   run 6, in those sets: exited with status 0 (it left 2 "
		"processes behind, which capaudit ended)\n"
		"--cap-drop=ALL --cap-add=PERFMON --user=65534:65534 "
		"--security-opt=no-new-privileges=false\n"
		"# Kubernetes, the container's securityContext (the sets of run "
		"6):\n"
		"securityContext:\n"
		"  runAsUser: 65534\n"
		"  runAsGroup: 65534\n"
		"  runAsNonRoot: true\n"
		"  allowPrivilegeEscalation: true\n"
		"  capabilities:\n"
		"    drop: [\"ALL\"]\n"
		"    add: [\"PERFMON\"]\n"
		"# note: the container runs had the runtime's capability sets "
		"and the user's ids, not its seccomp profile, security module, "
		"cgroups or image, and ran in the initial user namespace, as in "
		"a container that root starts (in a rootless container's own "
		"namespace no capability counts outside it)\n"
		"# note: the default seccomp profile of podman 4 (and of docker "
		"before 2022) lets perf_event_open(2) and bpf(2) through only "
		"with CAP_SYS_ADMIN, whatever else a container holds: "
		"perfdoctor, run in the container, says whether a filter "
		"refuses them\n");
	free(text);
}
END_TEST

/*
 * Unproven, the lines are given with NOT PROVEN and why, as setcap's
 * are; a way whose run failed gives no line to paste, and says why.
 */
START_TEST(unproven_and_failed_ways)
{
	struct suggestion sg;
	char *text;

	planned(&sg, BIT(CAP_NET_RAW), 0, 0, 0);
	text = printed(&sg);
	{
		static const char head[] =
			"# podman, docker or Kubernetes, as uid 0 in the "
			"container: the flags of podman run or docker run, NOT "
			"PROVEN (the grant itself is not proven, and no run "
			"was made in these sets); the sets the container gets "
			"there: bounding, permitted and effective set "
			"cap_net_raw, inheritable and ambient set empty, "
			"no_new_privs set\n"
			"--cap-drop=ALL --cap-add=NET_RAW --user=0:0 "
			"--security-opt=no-new-privileges\n"
			"# Kubernetes, the container's securityContext (NOT "
			"PROVEN, as above):\n"
			"securityContext:\n";

		ck_assert_msg(strncmp(text, head, strlen(head)) == 0, "%s",
			      text);
		/* No run was made: nothing is said of what runs had. */
		ck_assert_ptr_null(strstr(text, "# note: the container runs"));
	}
	free(text);
	planned(&sg, BIT(CAP_NET_RAW), 1000, 1000, 1);
	sg.container.ways[0].ran = 1;
	sg.container.ways[0].run = 7;
	snprintf(sg.container.ways[0].unproven,
		 sizeof(sg.container.ways[0].unproven),
		 "run 7, in these sets, exited with status 2, where run 2, "
		 "with every candidate granted as file capabilities, exited "
		 "with status 0");
	sg.container.ways[1].ran = 1;
	sg.container.ways[1].run = 8;
	sg.container.runs = 2;
	snprintf(sg.container.ways[1].unproven,
		 sizeof(sg.container.ways[1].unproven), "run 8 was \033[31m");
	text = printed(&sg);
	expect_text(
		text,
		"# podman, as uid 1000 in the container: no flags: run 7, in "
		"these sets, exited with status 2, where run 2, with every "
		"candidate granted as file capabilities, exited with status 0\n"
		"# docker or Kubernetes, as uid 1000 in the container: no "
		"flags: run 8 was \\033[31m\n"
		"# note: the container runs had the runtime's capability sets "
		"and the user's ids, not its seccomp profile, security module, "
		"cgroups or image, and ran in the initial user namespace, as in "
		"a container that root starts (in a rootless container's own "
		"namespace no capability counts outside it)\n");
	free(text);
	/* --pid: the user is not known. */
	memset(&sg, 0, sizeof(sg));
	sg.container.asked = 1;
	snprintf(sg.container.why_not, sizeof(sg.container.why_not),
		 "capaudit watched a running process");
	text = printed(&sg);
	ck_assert_str_eq(text, "# containers: no lines: capaudit watched a "
			       "running process\n");
	free(text);
}
END_TEST

/* A container runner that records each run's sets; each run succeeds. */
struct fake_ways {
	int runs;
	struct container_sets sets[CONTAINER_WAYS];
	uint64_t shell_grant[CONTAINER_WAYS]; /* files[1]'s copy */
};

static int run_way(void *ctx, struct suggestion *sg, const uint64_t *grant,
		   const struct container_sets *cs, struct run_result *rr,
		   struct tally *t)
{
	struct fake_ways *f = ctx;

	ck_assert_int_lt(f->runs, CONTAINER_WAYS);
	ck_assert_uint_eq(sg->nfiles, 2);
	f->sets[f->runs] = *cs;
	f->shell_grant[f->runs++] = grant[1];
	rr->status = EXITED(0);
	memset(t, 0, sizeof(*t));
	return 0;
}

/*
 * A wrapper shell (sh -c '. ~user/rc; exec prog') runs the user's code
 * and then prog, whose proven grant is for prog alone. podman's way for
 * another user gives every program it runs the grant as ambient
 * capabilities: a root-equivalent one would be the user's in his rc.
 * That run is not made, said why; docker's way (the files' own grants:
 * none on the shell) is, and a grant that is not root-equivalent is
 * run in both ways as before. The shell's own root-equivalent grant as
 * a file capability is not given either.
 */
START_TEST(no_root_equivalent_run_on_an_interpreter)
{
	static char prog[] = "/usr/local/bin/prog", dash[] = "/usr/bin/dash";
	struct need_file files[2], programs[2];
	struct success succ = { 0 };
	struct fake_ways f;
	struct container_runner runner = { run_way, &f };
	struct suggestion sg;
	uint64_t grant;
	int pass;

	for (pass = 0; pass < 3; pass++) {
		grant = pass == 1 ? BIT(CAP_NET_BIND_SERVICE)
				  : BIT(CAP_DAC_READ_SEARCH);
		memset(&sg, 0, sizeof(sg));
		memset(files, 0, sizeof(files));
		memset(programs, 0, sizeof(programs));
		memset(&f, 0, sizeof(f));
		files[0].path = programs[0].path = prog;
		files[1].path = programs[1].path = dash;
		files[0].fd = files[1].fd = programs[0].fd = programs[1].fd =
			-1;
		files[0].grant = pass == 2 ? 0 : grant;
		files[1].grant = pass == 2 ? grant : 0;
		sg.files = files;
		sg.nfiles = 2;
		sg.programs = programs;
		sg.nprograms = 2;
		sg.proven = sg.have_reference = 1;
		sg.reference = EXITED(0);
		sg.runs = 4;
		container_plan(&sg, 65534, 65534, NULL);
		ck_assert_uint_eq(sg.container.nways, 2);
		container_prove(&sg, &succ, &runner);
		if (pass == 1) {
			ck_assert_int_eq(f.runs, 2);
			ck_assert_int_eq(sg.container.ways[0].proven, 1);
			ck_assert_int_eq(sg.container.ways[1].proven, 1);
			continue;
		}
		/* podman's way: not made. */
		ck_assert_int_eq(sg.container.ways[0].ran, 0);
		ck_assert_int_eq(sg.container.ways[0].proven, 0);
		ck_assert_str_eq(
			sg.container.ways[0].unproven,
			"not tried: /usr/bin/dash is an interpreter: a trial giving it cap_dac_read_search (as ambient capabilities) would give cap_dac_read_search to every script it runs, its user's included");
		ck_assert_int_eq(f.runs, pass == 0 ? 1 : 0);
		if (pass == 0) { /* docker's: prog's grant, none on the shell */
			ck_assert_int_eq(sg.container.ways[1].proven, 1);
			ck_assert_uint_eq(f.sets[0].ambient, 0);
			ck_assert_uint_eq(f.shell_grant[0], 0);
		} else {
			ck_assert_int_eq(sg.container.ways[1].ran, 0);
			ck_assert_str_eq(
				sg.container.ways[1].unproven,
				"not tried: /usr/bin/dash is an interpreter: a trial giving it cap_dac_read_search would give cap_dac_read_search to every script it runs, its user's included");
		}
		ck_assert_int_eq(sg.runs, 4);
	}
	/* Root in the container: root's own code, run as before. */
	memset(&f, 0, sizeof(f));
	files[0].grant = 0;
	files[1].grant = BIT(CAP_DAC_READ_SEARCH);
	container_plan(&sg, 0, 0, NULL);
	container_prove(&sg, &succ, &runner);
	ck_assert_int_eq(f.runs, 1);
	ck_assert_int_eq(sg.container.ways[0].proven, 1);
}
END_TEST

/*
 * The writers given text no capability name holds today: each flag stays
 * one word for the shell (quoted, its quote escaped), each name one YAML
 * string on its line; a word a terminal would not show as it is makes
 * no line at all.
 */
START_TEST(hostile_text_stays_one_word_and_one_string)
{
	struct container_context k;
	struct container_flags f;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	memset(&f, 0, sizeof(f));
	snprintf(f.word[f.n++], sizeof(f.word[0]), "--cap-drop=ALL");
	snprintf(f.word[f.n++], sizeof(f.word[0]), "--cap-add=X;touch Y");
	snprintf(f.word[f.n++], sizeof(f.word[0]), "--cap-add=$(id)'`id`");
	ck_assert_int_eq(container_flags_fputs(&f, out), 0);
	memset(&k, 0, sizeof(k));
	k.run_as_user = 1;
	k.run_as_group = 2;
	snprintf(k.add[k.nadd++], sizeof(k.add[0]),
		 "NET_RAW\"]\n  privileged: true #");
	snprintf(k.add[k.nadd++], sizeof(k.add[0]), "A\\\"B");
	container_context_fputs(&k, out);
	snprintf(f.word[f.n++], sizeof(f.word[0]), "--cap-add=\033[2J");
	ck_assert_int_eq(container_flags_fputs(&f, out), -1);
	ck_assert_int_eq(fclose(out), 0);
	ck_assert_str_eq(text,
			 "--cap-drop=ALL '--cap-add=X;touch Y' "
			 "'--cap-add=$(id)'\\''`id`'\n"
			 "securityContext:\n"
			 "  runAsUser: 1\n"
			 "  runAsGroup: 2\n"
			 "  runAsNonRoot: false\n"
			 "  allowPrivilegeEscalation: false\n"
			 "  capabilities:\n"
			 "    drop: [\"ALL\"]\n"
			 "    add: [\"NET_RAW\\\"]\\n  privileged: true #\", "
			 "\"A\\\\\\\"B\"]\n");
	free(text);
}
END_TEST

/*
 * podman's ambient run gives every program the command runs the grant:
 * a program the suggestion lists with nothing to grant is no file of
 * the grant, and the run is not made (it would hold the grant there
 * alone). Where Landlock is missing the run is refused before that, for
 * that reason; refused all the same.
 */
START_TEST(ambient_run_refuses_a_file_granted_nothing)
{
	struct need_file files[2], program;
	struct suggestion sg;
	struct ambient_guard g;
	char why[512], env[] = "/usr/bin/env", env2[] = "/usr/bin/env",
		       pinger[] = "/usr/local/bin/pinger";

	memset(files, 0, sizeof(files));
	memset(&program, 0, sizeof(program));
	memset(&sg, 0, sizeof(sg));
	files[0].path = env;
	files[0].fd = -1;
	files[1].path = pinger;
	files[1].fd = -1;
	files[1].grant = BIT(CAP_NET_RAW);
	program.path = env2;
	sg.files = files;
	sg.nfiles = 2;
	sg.programs = &program;
	sg.nprograms = 1;
	ck_assert_int_eq(
		ambient_guard_make(&sg, "/usr/bin/env", &g, why, sizeof(why)),
		0);
	if (strstr(why, "Landlock") == NULL)
		ck_assert_msg(strstr(why, "/usr/bin/env") != NULL &&
				      strstr(why, "not a file of the grant") !=
					      NULL,
			      "why: %s", why);
}
END_TEST

static Suite *container_suite(void)
{
	Suite *s = suite_create("capaudit_container");
	TCase *tc = tcase_create("container");

	tcase_add_test(tc, each_way_gives_the_sets_the_runtimes_give);
	tcase_add_test(tc, the_iab_makes_the_sets);
	tcase_add_test(tc, root_in_a_container_proven);
	tcase_add_test(tc, another_user_in_a_container_proven);
	tcase_add_test(tc, no_root_equivalent_run_on_an_interpreter);
	tcase_add_test(tc, unproven_and_failed_ways);
	tcase_add_test(tc, hostile_text_stays_one_word_and_one_string);
	tcase_add_test(tc, ambient_run_refuses_a_file_granted_nothing);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(container_suite)
