/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getcap: show file capabilities, as libcap's getcap does, plus a fast -r. */
/*
 * Compatibility with libcap 2.66's getcap, and what we chose to add:
 * - stdout lines, stderr lines and the exit status (0 once options parse)
 *   are libcap's, including nftw's naming under -r (trailing '/' cut,
 *   "dir/name" joins) and its view of entries: directories, symlinks and
 *   names that vanish or cannot be looked up are "(Not a regular file)"
 *   under -v; FIFOs and devices are queried.
 * - -r lists directories in parallel, so lines from different directories
 *   interleave (each line is whole, and a directory's entries keep their
 *   getdents order); sort the output to compare it with libcap's.
 * - Additions on stderr, where libcap's nftw says nothing: "Failed to read
 *   directory '<d>' (<strerror>)" for a directory that cannot be opened or
 *   read, and "Failed to search directory '<d>' (Permission denied)" once
 *   for a directory we may list but not search. Vanished entries stay
 *   silent, as in libcap.
 * - Files deeper than PATH_MAX are read (libcap prints ENAMETOOLONG).
 * - A malformed value (the kernel refuses to store one) is reported with
 *   EINVAL; libcap leaves errno stale there.
 * - New options: -x/--one-file-system, --exclude=PATH (repeatable; PATH is
 *   compared with the printed path, trailing '/' ignored), --json (one
 *   schema-1 object per line, so huge audits stream) and --audit (risk
 *   tier and suggestion lines after each file's line), listed after
 *   libcap's usage text. An unknown "--word" is still "invalid option --
 *   '-'", as libcap's plain getopt reports it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "getcap_int.h"

/* Long-only options get values no short option can have. */
enum { OPT_EXCLUDE = 256, OPT_ONE_FS, OPT_JSON, OPT_AUDIT };

/* libcap's three lines first and unchanged; ours are additions after them. */
static void usage(void)
{
	out_err("usage: getcap [-h] [-l] [-n] [-r] [-v] <filename> [<filename> ...]\n"
		"\n"
		"\tdisplays the capabilities on the queried file(s).\n"
		"\t-x, --one-file-system  with -r, stay on each operand's filesystem\n"
		"\t--exclude=PATH         with -r, skip PATH (as printed) and below\n"
		"\t--json                 one JSON object per line (schema 1)\n"
		"\t--audit                add each file's risk tier and a suggestion\n");
}

/* nftw's naming: trailing slashes go, but "/" stays "/". */
static void cut_slashes(char *p)
{
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
}

static int add_exclude(struct opts *o, const char *arg)
{
	const char **x = realloc(o->exclude, (o->n_exclude + 1) * sizeof(*x));
	char *copy = strdup(arg);

	if (x == NULL || copy == NULL) {
		free(copy);
		if (x != NULL)
			o->exclude = x;
		return -1;
	}
	cut_slashes(copy);
	x[o->n_exclude++] = copy;
	o->exclude = x;
	return 0;
}

static void free_opts(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->n_exclude; i++)
		free((char *)(uintptr_t)o->exclude[i]);
	free(o->exclude);
}

/*
 * getopt's own messages, in libcap's words: an unknown "--word" is reported
 * as getopt without long options reports it, "invalid option -- '-'".
 */
static void bad_option(const char *argv0, const char *arg)
{
	if (optopt == OPT_EXCLUDE)
		out_err("%s: option '--exclude' requires an argument\n", argv0);
	else if (optopt == OPT_ONE_FS || optopt == OPT_JSON ||
		 optopt == OPT_AUDIT)
		out_err("%s: option '--%s' doesn't allow an argument\n", argv0,
			optopt == OPT_ONE_FS ? "one-file-system" :
			optopt == OPT_JSON ? "json" : "audit");
	else if (optopt == 0 && arg != NULL && strncmp(arg, "--", 2) == 0)
		out_err("%s: invalid option -- '-'\n", argv0);
	else
		out_err("%s: invalid option -- '%c'\n", argv0, optopt);
}

static int parse_opts(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "exclude", required_argument, NULL, OPT_EXCLUDE },
		{ "one-file-system", no_argument, NULL, OPT_ONE_FS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "audit", no_argument, NULL, OPT_AUDIT },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	for (;;) {
		int before = optind;

		c = getopt_long(argc, argv, "rvhnlx", longopts, NULL);
		if (c == -1)
			return 0;
		switch (c) {
		case 'r':
			o->recursive = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'n':
			o->show_rootid = 1;
			break;
		case 'x':
		case OPT_ONE_FS:
			o->one_fs = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_AUDIT:
			o->audit = 1;
			break;
		case OPT_EXCLUDE:
			if (add_exclude(o, optarg) < 0) {
				out_err("%s: out of memory\n", argv[0]);
				exit(1);
			}
			break;
		case 'h':
			usage();
			exit(0);
		case 'l':
			printf("%s see LICENSE file for details.\n"
			       "Copyright (c) 2026 the libcap-perfmon authors (an "
			       "independent reimplementation of libcap's getcap)\n",
			       argv[0]);
			exit(0);
		default:
			bad_option(argv[0],
				   before < argc ? argv[before] : NULL);
			usage();
			exit(1);
		}
	}
}

/* -r on one operand: nftw(FTW_PHYS) semantics on the slash-cut name. */
static void recurse_operand(const struct opts *o, struct outbuf *ob,
			    const char *arg, const struct stat *st)
{
	char *path = strdup(arg);
	struct stat own;
	struct ent e = { .dirfd = AT_FDCWD };

	if (path == NULL) {
		out_err("getcap: out of memory\n");
		return;
	}
	cut_slashes(path);
	e.name = path;
	if (is_excluded(o, &e))
		goto out;
	/* "link/" lstat()s the target; nftw then lstat()s "link" itself. */
	if (strcmp(path, arg) != 0) {
		if (lstat(path, &own) < 0)
			goto out;
		st = &own;
	}
	if (S_ISDIR(st->st_mode)) {
		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
		walk_tree(o, ob, path);
	} else if (S_ISLNK(st->st_mode)) {
		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
	} else {
		query_report(o, ob, &e, 0);
	}
out:
	free(path);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct outbuf ob;
	int i;

	parse_opts(&o, argc, argv);
	out_set_json(o.json);
	out_set_escape(o.audit);
	if (optind >= argc) {
		usage();
		exit(1);
	}
	out_init(&ob);
	for (i = optind; i < argc; i++) {
		struct ent e = { .dirfd = AT_FDCWD, .name = argv[i] };
		struct stat st;

		if (lstat(argv[i], &st) < 0) {
			out_err("%s (%s)\n", argv[i], strerror(errno));
			continue;
		}
		if (o.recursive)
			recurse_operand(&o, &ob, argv[i], &st);
		else if (S_ISREG(st.st_mode))
			query_report(&o, &ob, &e, 0);
		else if (o.verbose)
			out_line(&ob, &e, " (Not a regular file)");
		out_maybe_flush(&ob);
	}
	out_free(&ob);
	free_opts(&o);
	/*
	 * Like libcap: failures are reported, but the status stays 0. An
	 * audit (--audit, --json) that could not show a file's capabilities
	 * is incomplete, and says so with 1.
	 */
	return (o.audit || o.json) && query_unknown_count() > 0 ? 1 : 0;
}
