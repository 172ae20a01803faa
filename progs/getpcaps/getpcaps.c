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
#include "mask.h"
#include "suggest.h"
#include "version.h"

enum format {
	FORMAT_PLAIN,		/* "<arg>: <text>" */
	FORMAT_VERBOSE,		/* "Capabilities for '<arg>': <text>" */
	FORMAT_LEGACY,		/* the same with `...', on stderr */
	FORMAT_JSON,		/* ours: one JSON object per pid (common/json.h) */
};

/* Options apply to the pids after them; the last format option wins. */
struct opts {
	enum format format;
	int iab;
};

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
	      "  Optional arguments:\n"
	      "     --help, -h or --usage display this message.\n"
	      "     --verbose             use a more verbose output format.\n"
	      "     --ugly or --legacy    use the archaic legacy output format.\n"
	      "     --iab                 show IAB of process too.\n"
	      "     --license             display license info\n"
	      "     --json                one JSON object per process (not in libcap)\n"
	      "     --version             print the version and exit (not in libcap)\n"
	      "     --all                 every process holding capabilities (not in libcap)\n"
	      "     --tree                the same as a process tree (not in libcap)\n",
	      stderr);
	exit(status);
}

/* libcap echoes the option as typed, not the program name. */
static void license(const char *arg)
{
	printf("%s see LICENSE file for details.\n"
	       "[Copyright (c) 2026 the libcap-perfmon authors (an independent"
	       " reimplementation of libcap's getpcaps)]\n", arg);
	exit(EXIT_SUCCESS);
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

	printf("{\"schema\":%d,", JSON_SCHEMA);
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
		json_vector(stdout, "bounding", mask_below(cap_max_bits()) &
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

/*
 * After everything libcap prints (its "Cannot parse pid --jsn" line and
 * the other pids' lines), ours, last where a person sees it: a word that
 * looks like an option ("-" and a letter; "-1" is a bad pid) is named as
 * an unknown option with the nearest real one.
 */
static void suggest_option(const char *arg)
{
	static const char *const options[] = {
		"--help", "-h", "--usage", "--license", "--verbose", "--ugly",
		"--legacy", "--iab", "--json", "--version", "--all", "--tree",
	};

	if (arg[0] != '-' || arg[1] == '\0' ||
	    (arg[1] >= '0' && arg[1] <= '9'))
		return;
	suggest_unknown(stderr, "getpcaps", "option", arg, options,
			sizeof(options) / sizeof(options[0]));
}

/* The words main()'s loop takes for options (the rest are pids). */
static int libcap_option(const char *arg)
{
	static const char *const words[] = {
		"--help", "-h", "--usage", "--license", "--verbose", "--ugly",
		"--legacy", "--iab", "--json", "--version",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(arg, words[i]) == 0)
			return 1;
	return 0;
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
 * getpcaps parses by hand, not with getopt or common/opts, because
 * libcap's does: every word is looked at in order, an option applies to
 * the pids after it only, a word that is no option is a pid (so "--jsn"
 * is "Cannot parse pid"), and getopt would permute, bundle and word its
 * errors differently.
 */
int main(int argc, char *argv[])
{
	struct opts o = { FORMAT_PLAIN, 0 };
	int i, status = EXIT_SUCCESS;

	if (argc < 2)
		usage(EXIT_FAILURE);
	/*
	 * Ours: --all or --tree anywhere makes this the process-wide audit
	 * (getpcaps_all.c), with a hand-written parser of its own over the
	 * whole command line. Without them, the loop below is libcap's
	 * parser, word for word in its order, and its output unchanged.
	 */
	if (all_requested(argc, argv))
		return all_main(argc, argv, usage);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h") ||
		    !strcmp(arg, "--usage"))
			usage(EXIT_SUCCESS);
		else if (!strcmp(arg, "--license"))
			license(arg);
		else if (!strcmp(arg, "--verbose"))
			o.format = FORMAT_VERBOSE;
		else if (!strcmp(arg, "--ugly") || !strcmp(arg, "--legacy"))
			o.format = FORMAT_LEGACY;
		else if (!strcmp(arg, "--iab"))
			o.iab = 1;
		else if (!strcmp(arg, "--json"))
			o.format = FORMAT_JSON;
		else if (!strcmp(arg, "--version"))
			return version_print("getpcaps");	/* ours */
		else if (show_pid(&o, arg) < 0)
			status = EXIT_FAILURE;
	}
	fflush(stdout);		/* the pids' lines first, also into one pipe */
	for (i = 1; status != EXIT_SUCCESS && i < argc; i++) {
		pid_t pid;

		if (!libcap_option(argv[i]) && parse_pid(argv[i], &pid) != 0)
			suggest_option(argv[i]);
	}
	return status;
}
