/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capsh: a capability shell wrapper. Acts on its arguments strictly in
 * order, stops with exit status 1 at the first failure, and exits 0 after
 * the last argument (or with the status of what -- / -+ / == / =+ ran).
 *
 * Output, messages and exit codes follow libcap 2.76's capsh line for
 * line. The deliberate differences are rows of docs/differences.md, which
 * tests/cli/progs_upstream_diff.sh holds us to:
 *  - the usage line for --has-b says "exit 1 if capability xxx dropped":
 *    libcap's says "not dropped", but both fail when the capability HAS
 *    been dropped from the bounding set;
 *  - --explain and --suggest print this project's own descriptions;
 *  - numbers must be whole and in range (--uid=4294967296 is not uid 0);
 *  - buffered standard output is flushed before --, ==, -+ and =+ start a
 *    program, and before --forkfor forks (whose child leaves with
 *    _exit()): libcap's capsh loses its --print text at exec when stdout
 *    is a pipe or a file, and writes it twice after a fork;
 *  - --license names this project's authors on its second line;
 *  - additions, never in place of libcap's text: --json, --version, the
 *    usage line for --dropped (an option libcap accepts but does not
 *    list), each ending "(not in libcap)", and after libcap's lines for an
 *    unknown argument or capability name, one stderr line naming it with
 *    the nearest option or name (common/suggest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsh.h"
#include "opts.h"
#include "suggest.h"

/*
 * How a row's name matches an argument: the whole word, a "name=" prefix
 * with the value after it, or any word that starts with the name (libcap
 * resets the ambient set for "--noambXYZ" too).
 */
enum match { MATCH_WORD, MATCH_VALUE, MATCH_PREFIX };

/* What a handler is given: the word, the text after the name, what follows. */
struct call {
	const char *word;
	const char *value;
	char **rest; /* the arguments after word (the launchers') */
};

/*
 * One argument capsh knows. The handler returns 0 to carry on, or the
 * exit status; a row marked last ends the run with whatever it returns
 * (the launchers, --license, --version).
 */
struct capsh_opt {
	const char *name;
	enum match match;
	int last;
	int (*run)(struct opts *o, const struct call *c);
	/* The usage line, as libcap writes it; NULL for an alias (-h). */
	const char *usage;
	int ours; /* not in libcap: listed after its text */
};

/* A handler that calls one capsh_*() function with what the row gives. */
#define HANDLER(fn, expr)                                   \
	static int fn(struct opts *o, const struct call *c) \
	{                                                   \
		(void)o;                                    \
		(void)c;                                    \
		return expr;                                \
	}

static int run_license(struct opts *o, const struct call *c);
static int set_flag(int *flag, int value);

/*
 * --help (-h) and --version are the rows every program shares
 * (common/opts): capsh's own rows below run them. Help exits with
 * usage_status, which is 0 only when help was the first argument.
 */
static int help(void *p)
{
	const struct opts *o = p;

	capsh_usage(o, o->usage_status);
}

static const struct opts_prog prog = { "capsh", help, 1 };
static const struct opt common_rows[] = {
	{ OPTS_HELP_ROW("help", 'h') },
	{ OPTS_VERSION_ROW },
};

HANDLER(run_addamb, capsh_ambient(c->value, CAP_SET))
HANDLER(run_cap_uid, capsh_cap_uid(c->value))
HANDLER(run_caps, capsh_caps(o, c->word, c->value))
HANDLER(run_chroot, capsh_chroot(c->value))
HANDLER(run_current, capsh_current())
HANDLER(run_decode,
	o->json ? capsh_decode_json(c->value) : capsh_decode(c->value))
HANDLER(run_delamb, capsh_ambient(c->value, CAP_CLEAR))
HANDLER(run_drop, capsh_drop(o, c->value))
HANDLER(run_dropped, capsh_dropped(c->value))
HANDLER(run_explain, capsh_explain(c->value))
HANDLER(run_forkfor, capsh_forkfor(o, c->value))
HANDLER(run_gid, capsh_gid(c->value))
HANDLER(run_groups, capsh_groups(c->value))
HANDLER(run_has_a, capsh_has_ambient_bit(c->value))
HANDLER(run_has_b, capsh_has_bound(c->value))
HANDLER(run_has_ambient, capsh_has_ambient())
HANDLER(run_has_i, capsh_has_flag(c->value, CAP_INHERITABLE))
HANDLER(run_has_p, capsh_has_flag(c->value, CAP_PERMITTED))
HANDLER(run_has_nnp, capsh_has_no_new_privs())
HANDLER(run_help, opts_run(&prog, &common_rows[0], o, NULL))
HANDLER(run_iab, capsh_iab(c->value))
HANDLER(run_inh, capsh_inh(o, c->value))
HANDLER(run_inmode, capsh_inmode(c->value))
HANDLER(run_is_uid, capsh_is_id(c->value, 0))
HANDLER(run_is_gid, capsh_is_id(c->value, 1))
HANDLER(run_keep, capsh_keep(c->value))
HANDLER(run_killit, capsh_killit(o, c->value))
HANDLER(run_show_mode, capsh_show_mode())
HANDLER(run_set_mode, capsh_set_mode(c->value))
HANDLER(run_modes, capsh_show_modes())
HANDLER(run_nnp, capsh_no_new_privs())
HANDLER(run_noamb, capsh_noamb())
HANDLER(run_noenv, set_flag(&o->noenv, 1))
HANDLER(run_print, o->json ? capsh_print_json() : capsh_print())
HANDLER(run_quiet, set_flag(&o->quiet, 1))
HANDLER(run_secbits, capsh_secbits(c->value))
HANDLER(run_shell, (o->shell = c->value, 0))
HANDLER(run_strict, set_flag(&o->strict, !o->strict))
HANDLER(run_suggest, capsh_suggest(c->value))
HANDLER(run_supports, capsh_supports(c->value))
HANDLER(run_uid, capsh_uid(c->value))
HANDLER(run_user, capsh_user(o, c->value))
HANDLER(run_json, set_flag(&o->json, 1))
HANDLER(run_version,
	opts_run(&prog, &common_rows[1], o, NULL)) /* ours, as --license */
HANDLER(run_exec_self, capsh_exec_self(o, c->rest))
HANDLER(run_launch_self, capsh_launch_self(o, c->rest))
HANDLER(run_exec_shell, capsh_exec_shell(o, c->rest))
HANDLER(run_launch_shell, capsh_launch_shell(o, c->rest))

#define W MATCH_WORD
#define V MATCH_VALUE

/*
 * Every argument, in the order of the usage text (and of the names the
 * "did you mean" line picks from: on a tie, the earlier row).
 */
static const struct capsh_opt options[] = {
	{ "--addamb=", V, 0, run_addamb,
	  "  --addamb=xxx   add xxx,... capabilities to ambient set", 0 },
	{ "--cap-uid=", V, 0, run_cap_uid,
	  "  --cap-uid=<n>  use libcap cap_setuid() to change uid", 0 },
	{ "--caps=", V, 0, run_caps,
	  "  --caps=xxx     set caps as per cap_from_text()", 0 },
	{ "--chroot=", V, 0, run_chroot,
	  "  --chroot=path  chroot(2) to this path", 0 },
	{ "--current", W, 0, run_current,
	  "  --current      show current caps and IAB vectors", 0 },
	{ "--decode=", V, 0, run_decode,
	  "  --decode=xxx   decode a hex string to a list of caps", 0 },
	{ "--delamb=", V, 0, run_delamb,
	  "  --delamb=xxx   remove xxx,... capabilities from ambient", 0 },
	{ "--drop=", V, 0, run_drop,
	  "  --drop=xxx     drop xxx,... caps from bounding set", 0 },
	{ "--dropped=", V, 0, run_dropped,
	  "  --dropped=xxx  exit 1 unless capability xxx dropped (not in libcap)",
	  1 },
	{ "--explain=", V, 0, run_explain,
	  "  --explain=xxx  explain what capability xxx permits", 0 },
	{ "--forkfor=", V, 0, run_forkfor,
	  "  --forkfor=<n>  fork and make child sleep for <n> sec", 0 },
	{ "--gid=", V, 0, run_gid,
	  "  --gid=<n>      set gid to <n> (hint: id <username>)", 0 },
	{ "--groups=", V, 0, run_groups,
	  "  --groups=g,... set the supplemental groups", 0 },
	{ "--has-a=", V, 0, run_has_a,
	  "  --has-a=xxx    exit 1 if capability xxx not ambient", 0 },
	{ "--has-b=", V, 0, run_has_b,
	  "  --has-b=xxx    exit 1 if capability xxx dropped", 0 },
	{ "--has-ambient", W, 0, run_has_ambient,
	  "  --has-ambient  exit 1 unless ambient vector supported", 0 },
	{ "--has-i=", V, 0, run_has_i,
	  "  --has-i=xxx    exit 1 if capability xxx not inheritable", 0 },
	{ "--has-p=", V, 0, run_has_p,
	  "  --has-p=xxx    exit 1 if capability xxx not permitted", 0 },
	{ "--has-no-new-privs", W, 0, run_has_nnp,
	  "  --has-no-new-privs  exit 1 if privs not limited", 0 },
	{ "--help", W, 0, run_help,
	  "  --help, -h     this message (or try 'man capsh')", 0 },
	{ "-h", W, 0, run_help, NULL, 0 },
	{ "--iab=", V, 0, run_iab,
	  "  --iab=...      use cap_iab_from_text() to set iab", 0 },
	{ "--inh=", V, 0, run_inh,
	  "  --inh=xxx      set xxx,.. inheritable set", 0 },
	{ "--inmode=", V, 0, run_inmode,
	  "  --inmode=<xxx> exit 1 if current mode is not <xxx>", 0 },
	{ "--is-uid=", V, 0, run_is_uid,
	  "  --is-uid=<n>   exit 1 if uid != <n>", 0 },
	{ "--is-gid=", V, 0, run_is_gid,
	  "  --is-gid=<n>   exit 1 if gid != <n>", 0 },
	{ "--keep=", V, 0, run_keep,
	  "  --keep=<n>     set keep-capability bit to <n>", 0 },
	{ "--killit=", V, 0, run_killit,
	  "  --killit=<n>   send signal(n) to child", 0 },
	{ "--license", W, 1, run_license,
	  "  --license      display license info", 0 },
	{ "--mode", W, 0, run_show_mode,
	  "  --mode         display current libcap mode", 0 },
	{ "--mode=", V, 0, run_set_mode,
	  "  --mode=<xxx>   set libcap mode to <xxx>", 0 },
	{ "--modes", W, 0, run_modes,
	  "  --modes        list libcap named modes", 0 },
	{ "--no-new-privs", W, 0, run_nnp,
	  "  --no-new-privs set sticky process privilege limiter", 0 },
	{ "--noamb", MATCH_PREFIX, 0, run_noamb,
	  "  --noamb        reset (drop) all ambient capabilities", 0 },
	{ "--noenv", W, 0, run_noenv,
	  "  --noenv        no fixup of env vars (for --user)", 0 },
	{ "--print", W, 0, run_print,
	  "  --print        display capability relevant state", 0 },
	{ "--quiet", W, 0, run_quiet,
	  "  --quiet        if first argument skip max cap check", 0 },
	{ "--secbits=", V, 0, run_secbits,
	  "  --secbits=<n>  write a new value for securebits", 0 },
	{ "--shell=", V, 0, run_shell,
	  "  --shell=/xx/yy use /xx/yy instead of /bin/bash for --", 0 },
	{ "--strict", W, 0, run_strict,
	  "  --strict       toggle --caps, --drop and --inh fixups", 0 },
	{ "--suggest=", V, 0, run_suggest,
	  "  --suggest=text search cap descriptions for text", 0 },
	{ "--supports=", V, 0, run_supports,
	  "  --supports=xxx exit 1 if capability xxx unsupported", 0 },
	{ "--uid=", V, 0, run_uid,
	  "  --uid=<n>      set uid to <n> (hint: id <username>)", 0 },
	{ "--user=", V, 0, run_user,
	  "  --user=<name>  set uid,gid and groups to that of user", 0 },
	/* Our own options, after libcap's text so nothing of it moves. */
	{ "--json", W, 0, run_json,
	  "  --json         later --print and --decode print JSON (not in libcap)",
	  1 },
	{ "--version", W, 1, run_version,
	  "  --version      print capsh's version and exit (not in libcap)",
	  1 },
	/* The launchers take every remaining argument. */
	{ "==", W, 1, run_exec_self,
	  "  ==             re-exec(capsh) with args as for --", 0 },
	{ "=+", W, 1, run_launch_self,
	  "  =+             cap_launch capsh with args as for -+", 0 },
	{ "--", W, 1, run_exec_shell,
	  "  --             remaining arguments are for /bin/bash", 0 },
	{ "-+", W, 1, run_launch_shell,
	  "  -+             cap_launch /bin/bash with remaining args", 0 },
};

#undef W
#undef V

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static int set_flag(int *flag, int value)
{
	*flag = value;
	return 0;
}

static int run_license(struct opts *o, const struct call *c)
{
	(void)c;
	printf("%s see License file for details.\n", o->argv0);
	printf("Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap's capsh)\n");
	return 0;
}

/* Usage goes to stdout, as libcap's does; its first and last lines carry argv[0]. */
static void print_usage(const struct opts *o)
{
	size_t i;

	printf("usage: %s [args ...]\n", o->argv0);
	for (i = 0; i < N_OPTIONS; i++)
		if (options[i].usage != NULL && !options[i].ours)
			puts(options[i].usage);
	printf("                 (without -- [%s] will simply exit(0))\n",
	       o->argv0);
	for (i = 0; i < N_OPTIONS; i++)
		if (options[i].usage != NULL && options[i].ours)
			puts(options[i].usage);
}

/* The caller picks the status. */
void capsh_usage(const struct opts *o, int status)
{
	print_usage(o);
	exit(status);
}

/*
 * After libcap's usage text for a word it does not know, ours on stderr:
 * the word and the nearest option (every row with a usage line).
 */
static void __attribute__((noreturn))
usage_unknown(const struct opts *o, const char *arg)
{
	const char *names[N_OPTIONS];
	size_t i, n = 0;

	for (i = 0; i < N_OPTIONS; i++)
		if (options[i].usage != NULL)
			names[n++] = options[i].name;
	print_usage(o);
	fflush(stdout); /* libcap's text first, also into one pipe */
	suggest_unknown(stderr, "capsh", "option", arg, names, n);
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

/* The row for arg, or NULL. Names never overlap, so the order does not matter. */
static const struct capsh_opt *find_option(const char *arg)
{
	size_t i;

	for (i = 0; i < N_OPTIONS; i++) {
		const struct capsh_opt *r = &options[i];

		if (r->match == MATCH_WORD
			    ? strcmp(arg, r->name) == 0
			    : strncmp(arg, r->name, strlen(r->name)) == 0)
			return r;
	}
	return NULL;
}

int main(int argc, char *argv[])
{
	struct opts o = { .argv0 = argv[0],
			  .shell = "/bin/bash",
			  .usage_status = 1 };
	int i, status;

	if (o.argv0 == NULL)
		o.argv0 = "capsh";
	/* Asking for help is a success only as the first argument. */
	if (argc > 1 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		o.usage_status = 0;
	if (argc < 2 || strcmp(argv[1], "--quiet") != 0) {
		if (check_highest_name() != 0)
			return 1;
	}

	for (i = 1; i < argc; i++) {
		const struct capsh_opt *r = find_option(argv[i]);
		struct call c;

		if (r == NULL) {
			/* A near miss such as "--modex" is named first, as libcap does. */
			if (strncmp(argv[i], "--mode", 6) == 0)
				printf("unrecognized command [%s]\n", argv[i]);
			usage_unknown(&o, argv[i]);
		}
		c.word = argv[i];
		c.value = argv[i] + strlen(r->name);
		c.rest = argv + i + 1;
		status = r->run(&o, &c);
		if (r->last || status != 0)
			return status;
	}
	return 0;
}
