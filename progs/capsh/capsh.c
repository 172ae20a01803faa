/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capsh: a capability shell wrapper. Acts on its arguments strictly in
 * order, stops with exit status 1 at the first failure, and exits 0 after
 * the last argument (or with the status of what -- / -+ / == / =+ ran).
 *
 * Output, messages and exit codes follow libcap's capsh (2.66/2.76) line for
 * line. Deliberate differences, each kept small (for the man page):
 *  1. The usage line for --has-b says "exit 1 if capability xxx dropped".
 *     libcap's help says "not dropped", but both libcap and this capsh
 *     fail when the capability HAS been dropped from the bounding set.
 *  2. The usage text lists --dropped=xxx, which libcap accepts but does not
 *     document ("exit 1 unless capability xxx dropped").
 *  3. The usage line for --shell says the shell is used "for -- and -+";
 *     libcap's says "for --" although -+ uses it as well.
 *  4. --explain and --suggest print this project's own descriptions, which
 *     add since-which-kernel facts and root-equivalence warnings (and, for
 *     cap_perfmon, a recipe for giving perf to a group without root).
 *  5. Buffered standard output is flushed before --, ==, -+ and =+ start a
 *     program. libcap's capsh does not, so "capsh --print -- -c true" with
 *     stdout redirected to a file loses the --print text there, and with
 *     -+/=+ the child's output can come before capsh's own.
 *  6. --license keeps libcap's first line but names this project's
 *     authors on the second: this is not Andrew G. Morgan's code.
 *  7. stdout is flushed before --forkfor forks and its child leaves with
 *     _exit(). libcap's child calls exit(), so with stdout redirected,
 *     text capsh had buffered ("--mode --forkfor=1") is written twice.
 *  8. Additions, never in place of libcap's text: --version, and after
 *     libcap's lines for an unknown argument or capability name, one
 *     stderr line naming it with the nearest option or name
 *     (common/suggest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsh.h"
#include "suggest.h"
#include "version.h"

/* Usage text, first and last lines carry argv[0]. */
static const char *const usage_lines[] = {
	"  --addamb=xxx   add xxx,... capabilities to ambient set",
	"  --cap-uid=<n>  use libcap cap_setuid() to change uid",
	"  --caps=xxx     set caps as per cap_from_text()",
	"  --chroot=path  chroot(2) to this path",
	"  --current      show current caps and IAB vectors",
	"  --decode=xxx   decode a hex string to a list of caps",
	"  --delamb=xxx   remove xxx,... capabilities from ambient",
	"  --drop=xxx     drop xxx,... caps from bounding set",
	"  --dropped=xxx  exit 1 unless capability xxx dropped",
	"  --explain=xxx  explain what capability xxx permits",
	"  --forkfor=<n>  fork and make child sleep for <n> sec",
	"  --gid=<n>      set gid to <n> (hint: id <username>)",
	"  --groups=g,... set the supplemental groups",
	"  --has-a=xxx    exit 1 if capability xxx not ambient",
	"  --has-b=xxx    exit 1 if capability xxx dropped",
	"  --has-ambient  exit 1 unless ambient vector supported",
	"  --has-i=xxx    exit 1 if capability xxx not inheritable",
	"  --has-p=xxx    exit 1 if capability xxx not permitted",
	"  --has-no-new-privs  exit 1 if privs not limited",
	"  --help, -h     this message (or try 'man capsh')",
	"  --iab=...      use cap_iab_from_text() to set iab",
	"  --inh=xxx      set xxx,.. inheritable set",
	"  --inmode=<xxx> exit 1 if current mode is not <xxx>",
	"  --is-uid=<n>   exit 1 if uid != <n>",
	"  --is-gid=<n>   exit 1 if gid != <n>",
	"  --keep=<n>     set keep-capability bit to <n>",
	"  --killit=<n>   send signal(n) to child",
	"  --license      display license info",
	"  --mode         display current libcap mode",
	"  --mode=<xxx>   set libcap mode to <xxx>",
	"  --modes        list libcap named modes",
	"  --no-new-privs set sticky process privilege limiter",
	"  --noamb        reset (drop) all ambient capabilities",
	"  --noenv        no fixup of env vars (for --user)",
	"  --print        display capability relevant state",
	"  --quiet        if first argument skip max cap check",
	"  --secbits=<n>  write a new value for securebits",
	"  --shell=/xx/yy use /xx/yy instead of /bin/bash for -- and -+",
	"  --strict       toggle --caps, --drop and --inh fixups",
	"  --suggest=text search cap descriptions for text",
	"  --supports=xxx exit 1 if capability xxx unsupported",
	"  --uid=<n>      set uid to <n> (hint: id <username>)",
	"  --user=<name>  set uid,gid and groups to that of user",
	"  ==             re-exec(capsh) with args as for --",
	"  =+             cap_launch capsh with args as for -+",
	"  --             remaining arguments are for /bin/bash",
	"  -+             cap_launch /bin/bash with remaining args",
};

/* Usage goes to stdout, as libcap's does. */
static void print_usage(const struct opts *o)
{
	size_t i;

	printf("usage: %s [args ...]\n", o->argv0);
	for (i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]); i++)
		puts(usage_lines[i]);
	printf("                 (without -- [%s] will simply exit(0))\n",
	       o->argv0);
	/* Our own options, after libcap's text so nothing of it moves. */
	puts("  --json         later --print and --decode print JSON (not in libcap)");
	puts("  --version      print capsh's version and exit (not in libcap)");
}

/* The caller picks the status. */
void capsh_usage(const struct opts *o, int status)
{
	print_usage(o);
	exit(status);
}

/*
 * After libcap's usage text for a word it does not know, ours on stderr:
 * the word and the nearest option. The list is every option as written.
 */
static void __attribute__((noreturn))
usage_unknown(const struct opts *o, const char *arg)
{
	static const char *const options[] = {
		"--addamb=", "--cap-uid=", "--caps=", "--chroot=", "--current",
		"--decode=", "--delamb=", "--drop=", "--dropped=", "--explain=",
		"--forkfor=", "--gid=", "--groups=", "--has-a=", "--has-b=",
		"--has-ambient", "--has-i=", "--has-p=", "--has-no-new-privs",
		"--help", "--iab=", "--inh=", "--inmode=", "--is-uid=",
		"--is-gid=", "--keep=", "--killit=", "--license", "--mode",
		"--mode=", "--modes", "--no-new-privs", "--noamb", "--noenv",
		"--print", "--quiet", "--secbits=", "--shell=", "--strict",
		"--suggest=", "--supports=", "--uid=", "--user=", "--json",
		"--version", "==", "=+", "--", "-+",
	};

	print_usage(o);
	fflush(stdout);		/* libcap's text first, also into one pipe */
	suggest_unknown(stderr, "capsh", "option", arg, options,
			sizeof(options) / sizeof(options[0]));
	exit(o->usage_status);
}

/*
 * A kernel newer than this library has capabilities we cannot name; say so
 * on stdout (libcap's wording), unless the first argument is --quiet.
 */
static int check_highest_name(void)
{
	cap_value_t top = cap_max_bits() - 1;
	char *name = cap_to_name(top);

	if (name == NULL) {
		capsh_perror("obtaining highest capability name");
		return 1;
	}
	if (name[0] >= '0' && name[0] <= '9')
		printf("WARNING: libcap needs an update (cap=%d should have a name).\n",
		       top);
	cap_free(name);
	return 0;
}

/* Options taking "=<value>": the name includes the '='. */
enum valued {
	V_CAPS, V_INH, V_DROP, V_DROPPED, V_HAS_P, V_HAS_I, V_HAS_A, V_HAS_B,
	V_ADDAMB, V_DELAMB, V_IAB, V_INMODE, V_SECBITS, V_KEEP, V_UID, V_GID,
	V_CAP_UID, V_GROUPS, V_USER, V_IS_UID, V_IS_GID, V_CHROOT, V_FORKFOR,
	V_KILLIT, V_DECODE, V_SUPPORTS, V_EXPLAIN, V_SUGGEST, V_SHELL,
};

static const struct {
	const char *prefix;
	enum valued id;
} valued_opts[] = {
	{ "--caps=", V_CAPS },		{ "--inh=", V_INH },
	{ "--drop=", V_DROP },		{ "--dropped=", V_DROPPED },
	{ "--has-p=", V_HAS_P },	{ "--has-i=", V_HAS_I },
	{ "--has-a=", V_HAS_A },	{ "--has-b=", V_HAS_B },
	{ "--addamb=", V_ADDAMB },	{ "--delamb=", V_DELAMB },
	{ "--iab=", V_IAB },		{ "--inmode=", V_INMODE },
	{ "--secbits=", V_SECBITS },	{ "--keep=", V_KEEP },
	{ "--uid=", V_UID },		{ "--gid=", V_GID },
	{ "--cap-uid=", V_CAP_UID },	{ "--groups=", V_GROUPS },
	{ "--user=", V_USER },		{ "--is-uid=", V_IS_UID },
	{ "--is-gid=", V_IS_GID },	{ "--chroot=", V_CHROOT },
	{ "--forkfor=", V_FORKFOR },	{ "--killit=", V_KILLIT },
	{ "--decode=", V_DECODE },	{ "--supports=", V_SUPPORTS },
	{ "--explain=", V_EXPLAIN },	{ "--suggest=", V_SUGGEST },
	{ "--shell=", V_SHELL },
};

static int run_valued(struct opts *o, enum valued id, const char *arg,
		      const char *v)
{
	switch (id) {
	case V_CAPS:	return capsh_caps(o, arg, v);
	case V_INH:	return capsh_inh(o, v);
	case V_DROP:	return capsh_drop(o, v);
	case V_DROPPED:	return capsh_dropped(v);
	case V_HAS_P:	return capsh_has_flag(v, CAP_PERMITTED);
	case V_HAS_I:	return capsh_has_flag(v, CAP_INHERITABLE);
	case V_HAS_A:	return capsh_has_ambient_bit(v);
	case V_HAS_B:	return capsh_has_bound(v);
	case V_ADDAMB:	return capsh_ambient(v, CAP_SET);
	case V_DELAMB:	return capsh_ambient(v, CAP_CLEAR);
	case V_IAB:	return capsh_iab(v);
	case V_INMODE:	return capsh_inmode(v);
	case V_SECBITS:	return capsh_secbits(v);
	case V_KEEP:	return capsh_keep(v);
	case V_UID:	return capsh_uid(v);
	case V_GID:	return capsh_gid(v);
	case V_CAP_UID:	return capsh_cap_uid(v);
	case V_GROUPS:	return capsh_groups(v);
	case V_USER:	return capsh_user(o, v);
	case V_IS_UID:	return capsh_is_id(v, 0);
	case V_IS_GID:	return capsh_is_id(v, 1);
	case V_CHROOT:	return capsh_chroot(v);
	case V_FORKFOR:	return capsh_forkfor(o, v);
	case V_KILLIT:	return capsh_killit(o, v);
	case V_DECODE:	return o->json ? capsh_decode_json(v) : capsh_decode(v);
	case V_SUPPORTS: return capsh_supports(v);
	case V_EXPLAIN:	return capsh_explain(v);
	case V_SUGGEST:	return capsh_suggest(v);
	case V_SHELL:	o->shell = v; return 0;
	}
	return 1;
}

/* Flags: exact matches only ("--printx" is a usage error). */
static int run_flag(struct opts *o, const char *arg, int *matched)
{
	*matched = 1;
	if (strcmp(arg, "--print") == 0)
		return o->json ? capsh_print_json() : capsh_print();
	if (strcmp(arg, "--json") == 0) {
		o->json = 1;
		return 0;
	}
	if (strcmp(arg, "--current") == 0)
		return capsh_current();
	if (strcmp(arg, "--strict") == 0) {
		o->strict = !o->strict;
		return 0;
	}
	if (strcmp(arg, "--quiet") == 0) {
		o->quiet = 1;
		return 0;
	}
	if (strcmp(arg, "--noenv") == 0) {
		o->noenv = 1;
		return 0;
	}
	if (strcmp(arg, "--has-ambient") == 0)
		return capsh_has_ambient();
	if (strcmp(arg, "--no-new-privs") == 0)
		return capsh_no_new_privs();
	if (strcmp(arg, "--has-no-new-privs") == 0)
		return capsh_has_no_new_privs();
	*matched = 0;
	return 0;
}

/*
 * Everything beginning "--mode" belongs to the mode options; a near miss
 * such as "--modex" is named before the usage text, as libcap does.
 */
static int run_mode(const struct opts *o, const char *arg)
{
	if (strcmp(arg, "--mode") == 0)
		return capsh_show_mode();
	if (strcmp(arg, "--modes") == 0)
		return capsh_show_modes();
	if (strncmp(arg, "--mode=", 7) == 0)
		return capsh_set_mode(arg + 7);
	printf("unrecognized command [%s]\n", arg);
	usage_unknown(o, arg);
}

int main(int argc, char *argv[])
{
	struct opts o = { .argv0 = argv[0], .shell = "/bin/bash",
			  .usage_status = 1 };
	int i, status, matched;
	size_t k;

	if (o.argv0 == NULL)
		o.argv0 = "capsh";
	/* Asking for help is a success only as the first argument. */
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
			 strcmp(argv[1], "-h") == 0))
		o.usage_status = 0;
	if (argc < 2 || strcmp(argv[1], "--quiet") != 0) {
		if (check_highest_name() != 0)
			return 1;
	}

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		/* The launchers take every remaining argument and never return. */
		if (strcmp(arg, "--") == 0)
			return capsh_exec_shell(&o, argv + i + 1);
		if (strcmp(arg, "-+") == 0)
			return capsh_launch_shell(&o, argv + i + 1);
		if (strcmp(arg, "==") == 0)
			return capsh_exec_self(&o, argv + i + 1);
		if (strcmp(arg, "=+") == 0)
			return capsh_launch_self(&o, argv + i + 1);

		status = run_flag(&o, arg, &matched);
		if (matched) {
			if (status != 0)
				return status;
			continue;
		}
		if (strncmp(arg, "--mode", 6) == 0) {
			status = run_mode(&o, arg);
			if (status != 0)
				return status;
			continue;
		}
		/* libcap matches only the prefix here: "--noambXYZ" resets too. */
		if (strncmp(arg, "--noamb", 7) == 0) {
			status = capsh_noamb();
			if (status != 0)
				return status;
			continue;
		}
		if (strcmp(arg, "--version") == 0)
			return version_print("capsh");	/* ours, as --license */
		if (strcmp(arg, "--license") == 0) {
			printf("%s see License file for details.\n", o.argv0);
			printf("Copyright (c) 2026 the libcap-perfmon authors "
			       "(an independent reimplementation of libcap's capsh)\n");
			return 0;
		}
		for (k = 0; k < sizeof(valued_opts) / sizeof(valued_opts[0]); k++) {
			size_t n = strlen(valued_opts[k].prefix);

			if (strncmp(arg, valued_opts[k].prefix, n) == 0)
				break;
		}
		if (k == sizeof(valued_opts) / sizeof(valued_opts[0])) {
			if (strcmp(arg, "--help") == 0 ||
			    strcmp(arg, "-h") == 0)
				capsh_usage(&o, o.usage_status);
			usage_unknown(&o, arg);
		}
		status = run_valued(&o, valued_opts[k].id, arg,
				    arg + strlen(valued_opts[k].prefix));
		if (status != 0)
			return status;
	}
	return 0;
}
