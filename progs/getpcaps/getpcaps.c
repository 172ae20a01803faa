/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getpcaps: print the capabilities (and optionally the IAB) of processes. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/types.h>

#include "getpcaps.h"
#include "json.h"
#include "escape.h"
#include "mask.h"
#include "opts.h"

enum format {
	FORMAT_PLAIN,	/* "<arg>: <text>" */
	FORMAT_VERBOSE, /* "Capabilities for '<arg>': <text>" */
	FORMAT_LEGACY,	/* the same with `...', on stderr */
	FORMAT_JSON,	/* ours: one JSON object per pid (common/json.h) */
};

/*
 * Options apply to the pids after them; the last format option wins. With
 * --all or --tree, the same options say how the audit prints (audit).
 */
struct opts {
	enum format format;
	int iab;
	struct print_opts audit;
};

static void __attribute__((noreturn)) usage(int status);

/* The handlers: each returns OPTS_NEXT, or ends the run. */
static int opt_license(void *p, const char *arg)
{
	/*
	 * libcap echoes the option as typed, not the program name: the one
	 * word that reaches here is "--license".
	 */
	(void)p;
	(void)arg;
	printf("--license see LICENSE file for details.\n"
	       "[Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap's getpcaps)]\n");
	exit(EXIT_SUCCESS);
}

static int opt_verbose(void *p, const char *arg)
{
	((struct opts *)p)->format = FORMAT_VERBOSE;
	((struct opts *)p)->audit.verbose = 1;
	(void)arg;
	return OPTS_NEXT;
}

static int opt_legacy(void *p, const char *arg)
{
	((struct opts *)p)->format = FORMAT_LEGACY;
	(void)arg;
	return OPTS_NEXT;
}

static int opt_iab(void *p, const char *arg)
{
	((struct opts *)p)->iab = 1;
	((struct opts *)p)->audit.iab = 1;
	(void)arg;
	return OPTS_NEXT;
}

static int opt_json(void *p, const char *arg)
{
	((struct opts *)p)->format = FORMAT_JSON;
	((struct opts *)p)->audit.json = 1;
	(void)arg;
	return OPTS_NEXT;
}

static int opt_tree(void *p, const char *arg)
{
	((struct opts *)p)->audit.tree = 1;
	(void)arg;
	return OPTS_NEXT;
}

/* --help, -h, --usage: the usage text, on stderr as libcap's, and success. */
static int help(void *p)
{
	(void)p;
	usage(EXIT_SUCCESS);
}

static const struct opts_prog prog = { "getpcaps", help, EXIT_FAILURE };

/*
 * Where a row works: among pids (libcap's getpcaps) or in the audit; and
 * whether it asks for the audit wherever it stands.
 */
enum { PIDS = 1, AUDIT = 2, SELECTS_AUDIT = 4 };

/*
 * Every option, in the order of the usage text: libcap's lines as libcap
 * writes them, then ours, formatted.
 */
static const struct opt options[] = {
	{ OPTS_HELP_ROW("help", 'h'), .tags = PIDS | AUDIT,
	  .line = "     --help, -h or --usage display this message." },
	{ OPTS_HELP_ROW("usage", 0), .tags = PIDS | AUDIT },
	{ .name = "verbose",
	  .handle = opt_verbose,
	  .tags = PIDS | AUDIT,
	  .line = "     --verbose             use a more verbose output format." },
	{ .name = "ugly",
	  .handle = opt_legacy,
	  .tags = PIDS,
	  .line = "     --ugly or --legacy    use the archaic legacy output format." },
	{ .name = "legacy", .handle = opt_legacy, .tags = PIDS },
	{ .name = "iab",
	  .handle = opt_iab,
	  .tags = PIDS | AUDIT,
	  .line = "     --iab                 show IAB of process too." },
	{ .name = "license",
	  .handle = opt_license,
	  .tags = PIDS,
	  .line = "     --license             display license info" },
	{ .name = "json",
	  .handle = opt_json,
	  .tags = PIDS | AUDIT,
	  .help = "one JSON object per process (not in libcap)" },
	{ OPTS_VERSION_ROW, .tags = PIDS | AUDIT,
	  .help = "print the version and exit (not in libcap)" },
	{ .name = "all",
	  .tags = AUDIT | SELECTS_AUDIT,
	  .help = "every process holding capabilities (not in libcap)" },
	{ .name = "tree",
	  .handle = opt_tree,
	  .tags = AUDIT | SELECTS_AUDIT,
	  .help = "the same as a process tree (not in libcap)" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/*
 * libcap 2.66 printed "getcaps" here, a typo fixed in 2.70; we follow
 * 2.76. Everything else is byte-identical to libcap's text.
 */
static void usage(int status)
{
	fputs("usage: getpcaps [opts] <pid> [<pid> ...]\n"
	      "\n"
	      "  This program displays the capabilities on the queried process(es).\n"
	      "  The capabilities are displayed in the cap_from_text(3) format.\n"
	      "\n"
	      "  Optional arguments:\n",
	      stderr);
	opts_help(stderr, options, N_OPTIONS, "     ", 22);
	exit(status);
}

/* The row of the option word arg, when it carries one of tags; or NULL. */
static const struct opt *find_option(const char *arg, unsigned tags)
{
	const char *value;
	const struct opt *row = opts_find(options, N_OPTIONS, arg, &value);

	return row != NULL && (row->tags & tags) ? row : NULL;
}

/* A word that looks like an option: "-" and a letter ("-1" is a bad pid). */
static int looks_like_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0' &&
	       (arg[1] < '0' || arg[1] > '9');
}

/*
 * Decimal only, surrounding rules as libcap's: leading blanks and a sign
 * are accepted, an empty argument means 0 (this process), strtol's ERANGE
 * wins over trailing junk (EINVAL), and anything outside 0..INT_MAX is
 * EOVERFLOW. Returns 0 or an errno value.
 */
static int parse_pid(const char *arg, pid_t *pid)
{
	char *end;
	long value;

	errno = 0;
	value = strtol(arg, &end, 10);
	if (errno != 0)
		return errno;
	if (*end != '\0')
		return EINVAL;
	if (value < 0 || value > INT_MAX)
		return EOVERFLOW;
	*pid = (pid_t)value;
	return 0;
}

/* True when the IAB blocks or passes ambient anything; I alone is dull. */
static int iab_is_interesting(cap_iab_t iab)
{
	cap_iab_t empty = cap_iab_init();
	int differs = cap_iab_compare(iab, empty);

	cap_free(empty);
	return differs < 0 || CAP_IAB_DIFFERS(differs, CAP_IAB_AMB) ||
	       CAP_IAB_DIFFERS(differs, CAP_IAB_BOUND);
}

/*
 * "<arg>: \"<text>\" [<iab>]"; the quoted text is left out when it is
 * "=" and the IAB part when it is uninteresting, unless a format option
 * asked for detail. A pid without an IAB ends the program, as in libcap.
 */
static void show_iab(const struct opts *o, const char *arg, pid_t pid,
		     const char *text)
{
	int detail = o->format != FORMAT_PLAIN;
	cap_iab_t iab;

	printf("%s:", arg);
	if (detail || strcmp(text, "=") != 0)
		printf(" \"%s\"", text);
	iab = cap_iab_get_pid(pid);
	if (iab == NULL) {
		fprintf(stderr, " no IAB value for %d\n", (int)pid);
		exit(EXIT_FAILURE);
	}
	if (detail || iab_is_interesting(iab)) {
		char *iab_text = cap_iab_to_text(iab);

		printf(" [%s]", iab_text != NULL ? iab_text : "");
		cap_free(iab_text);
	}
	printf("\n");
	cap_free(iab);
}

/*
 * {"schema":1,"arg":..,"pid":..,"text":..,"effective":{..},"permitted":{..},
 *  "inheritable":{..},"ambient":{..},"bounding":{..},"iab":".."}
 * ambient, bounding and iab are null when /proc does not show them.
 */
static void show_json(const char *arg, pid_t pid, cap_t caps, const char *text)
{
	cap_iab_t iab = cap_iab_get_pid(pid);

	json_object_open(stdout, NULL);
	json_path(stdout, "arg", arg);
	printf(",\"pid\":%d,\"text\":", (int)pid);
	json_string(stdout, text);
	putchar(',');
	json_capset(stdout, caps);
	if (iab != NULL) {
		char *iab_text = cap_iab_to_text(iab);

		putchar(',');
		json_vector(stdout, "ambient", mask_of_iab(iab, CAP_IAB_AMB));
		putchar(',');
		/* The bounding set is the complement of the IAB's "drop". */
		json_vector(stdout, "bounding",
			    mask_below(cap_max_bits()) &
				    ~mask_of_iab(iab, CAP_IAB_BOUND));
		printf(",\"iab\":");
		json_string(stdout, iab_text != NULL ? iab_text : "");
		cap_free(iab_text);
		cap_free(iab);
	} else {
		printf(",\"ambient\":null,\"bounding\":null,\"iab\":null");
	}
	printf("}\n");
}

/* Returns 0 when the pid's capabilities were shown, -1 after a message. */
static int show_pid(const struct opts *o, const char *arg)
{
	pid_t pid = 0;
	cap_t caps;
	char *text;
	int error = parse_pid(arg, &pid);

	if (error != 0) {
		fprintf(stderr, "Cannot parse pid %s: (%s)\n", arg,
			strerror(error));
		return -1;
	}
	caps = cap_get_pid(pid);
	if (caps == NULL) {
		fprintf(stderr, "Failed to get cap's for process %d: (%s)\n",
			(int)pid, strerror(errno));
		return -1;
	}
	text = cap_to_text(caps, NULL);
	if (text == NULL) {
		fprintf(stderr, "Failed to get cap's for process %d: (%s)\n",
			(int)pid, strerror(errno));
		cap_free(caps);
		return -1;
	}
	if (o->format == FORMAT_JSON)
		show_json(arg, pid, caps, text);
	else if (o->iab)
		show_iab(o, arg, pid, text);
	else if (o->format == FORMAT_VERBOSE)
		printf("Capabilities for '%s': %s\n", arg, text);
	else if (o->format == FORMAT_LEGACY)
		fprintf(stderr, "Capabilities for `%s': %s\n", arg, text);
	else
		printf("%s: %s\n", arg, text);
	cap_free(caps);
	cap_free(text);
	return 0;
}

/*
 * Ours: --all or --tree anywhere makes this the process-wide audit
 * (getpcaps_all.c), which reads the same words over the whole command
 * line: --help, -h, --usage and --version act where they stand; --json,
 * --iab and --verbose keep their getpcaps meaning for every process
 * shown; --legacy, --ugly, --license and process ids make no sense for
 * the whole system and are refused (2).
 */
static int audit_main(int argc, char *argv[], struct opts *o)
{
	int i, rc;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const struct opt *row = find_option(arg, AUDIT);

		if (row != NULL) {
			rc = opts_run(&prog, row, o, NULL);
			if (rc != OPTS_NEXT)
				return rc;
		} else if (looks_like_option(arg) &&
			   find_option(arg, PIDS) == NULL) {
			opts_suggest(stderr, "getpcaps", arg, options,
				     N_OPTIONS, AUDIT, 0);
			return 2;
		} else {
			escape_line(
				stderr, "getpcaps: ",
				"--all shows every process: '%s' cannot be combined with it",
				arg);
			return 2;
		}
	}
	return all_main(&o->audit);
}

/*
 * getpcaps parses by hand, not with getopt, because libcap's does: every
 * word is looked at in order, an option applies to the pids after it
 * only, a word that is no option is a pid (so "--jsn" is "Cannot parse
 * pid"), and getopt would permute, bundle and word its errors
 * differently. The words are the option table's.
 */
int main(int argc, char *argv[])
{
	struct opts o = { .format = FORMAT_PLAIN };
	int i, rc, status = EXIT_SUCCESS;

	if (argc < 2)
		usage(EXIT_FAILURE);
	for (i = 1; i < argc; i++)
		if (find_option(argv[i], SELECTS_AUDIT) != NULL)
			return audit_main(argc, argv, &o);
	/* libcap's parser, word for word in its order, its output unchanged. */
	for (i = 1; i < argc; i++) {
		const struct opt *row = find_option(argv[i], PIDS);

		if (row != NULL) {
			rc = opts_run(&prog, row, &o, NULL);
			if (rc != OPTS_NEXT)
				return rc;
		} else if (show_pid(&o, argv[i]) < 0) {
			status = EXIT_FAILURE;
		}
	}
	fflush(stdout); /* the pids' lines first, also into one pipe */
	/*
	 * After everything libcap prints (its "Cannot parse pid --jsn" line
	 * and the other pids' lines), ours, last where a person sees it: a
	 * word that looks like an option is named as an unknown option with
	 * the nearest real one.
	 */
	for (i = 1; status != EXIT_SUCCESS && i < argc; i++) {
		pid_t pid;

		if (looks_like_option(argv[i]) &&
		    find_option(argv[i], PIDS) == NULL &&
		    parse_pid(argv[i], &pid) != 0)
			opts_suggest(stderr, "getpcaps", argv[i], options,
				     N_OPTIONS, 0, 0);
	}
	return status;
}
