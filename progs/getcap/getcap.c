/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getcap: show file capabilities, as libcap's getcap does, plus a fast -r. */
/*
 * Compatibility with libcap 2.66's getcap, and what we chose to add:
 * - stdout lines, stderr lines and the exit status (0 once options parse)
 *   are libcap's, including nftw's naming under -r (trailing '/' cut,
 *   "dir/name" joins) and its view of entries: directories, symlinks and
 *   names that vanish or cannot be looked up are "(Not a regular file)"
 *   under -v; FIFOs and devices are queried.
 * - -r lists directories in parallel, but prints in nftw's order (readdir
 *   order, each subdirectory's output right after its own entry): each
 *   directory's lines wait until everything before them is out.
 * - Additions on stderr, where libcap's nftw says nothing: "Failed to read
 *   directory '<d>' (<strerror>)" for a directory that cannot be opened or
 *   read, and "Failed to search directory '<d>' (Permission denied)" once
 *   for a directory we may list but not search. Vanished entries stay
 *   silent, as in libcap.
 * - Files deeper than PATH_MAX are read (libcap prints ENAMETOOLONG).
 * - A malformed value (the kernel refuses to store one) is reported with
 *   EINVAL; libcap leaves errno stale there.
 * - New options: -x/--one-file-system, --exclude=PATH (repeatable; PATH is
 *   compared with the printed path, both normalised: repeated '/', "."
 *   components and trailing '/' do not count; one below no operand is
 *   reported on stderr), --json (one
 *   schema-1 object per line, so huge audits stream) and --audit (risk
 *   tier and suggestion lines after each file's line), listed after
 *   libcap's usage text, and --version. An unknown "--word" is still
 *   "invalid option -- '-'", as libcap's plain getopt reports it; after
 *   the usage text, a line of ours names the word and the nearest option.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "escape.h"
#include "getcap.h"
#include "opts.h"
#include "path.h"

static void usage(void);

/* nftw's naming: trailing slashes go, but "/" stays "/". */
static void cut_slashes(char *p)
{
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
}

/*
 * The lexical form of a path: no empty or "." components and no trailing
 * '/', so "/proc/", "//proc" and "/./proc/." are all "/proc", and "" or
 * "./" is ".". ".." stays: what it names depends on symlinks, so it is
 * compared as written. NULL when out of memory.
 */
static char *normalise(const char *p)
{
	int absolute = p[0] == '/';
	char *out = malloc(strlen(p) + 2), *q = out;

	if (out == NULL)
		return NULL;
	if (absolute)
		*q++ = '/';
	while (*p != '\0') {
		size_t len = strcspn(p, "/");

		if (len > 0 && !(len == 1 && p[0] == '.')) {
			if (q > out + absolute)
				*q++ = '/';
			memcpy(q, p, len);
			q += len;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	if (q == out)
		*q++ = '.';
	*q = '\0';
	return out;
}

static int add_exclude(struct opts *o, const char *arg)
{
	char **x = realloc(o->exclude, (o->n_exclude + 1) * sizeof(*x));
	char *copy = normalise(arg);

	if (x == NULL || copy == NULL) {
		free(copy);
		if (x != NULL)
			o->exclude = x;
		return -1;
	}
	x[o->n_exclude++] = copy;
	o->exclude = x;
	return 0;
}

static void free_opts(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->n_exclude; i++)
		free(o->exclude[i]);
	free(o->exclude);
}

/* 1 when the relative path rest has a ".." component: no walk prints one. */
static int has_dotdot(const char *rest)
{
	while (*rest != '\0') {
		size_t len = strcspn(rest, "/");

		if (len == 2 && rest[0] == '.' && rest[1] == '.')
			return 1;
		rest += len;
		if (*rest == '/')
			rest++;
	}
	return 0;
}

/*
 * The normalised exclude x as the walk of operand op (printed, trailing
 * '/' cut; nop normalised) would print it: op itself, or op, '/' and the
 * rest of x below nop. Returns 1 with *out (caller frees), 0 when x is not
 * op or below it, -1 when out of memory.
 */
static int printed_under(const char *op, const char *nop, const char *x,
			 char **out)
{
	size_t nl = strlen(nop);
	const char *rest;

	*out = NULL;
	if (strcmp(x, nop) == 0)
		rest = NULL;
	else if (strcmp(nop, "/") == 0)
		rest = x[0] == '/' ? x + 1 : NULL;
	else if (strcmp(nop, ".") == 0)
		rest = x[0] != '/' ? x : NULL;
	else
		rest = strncmp(x, nop, nl) == 0 && x[nl] == '/' ? x + nl + 1
								: NULL;
	if (rest == NULL && strcmp(x, nop) != 0)
		return 0;
	if (rest != NULL && has_dotdot(rest))
		return 0;
	if (rest == NULL) {
		*out = strdup(op);
		return *out != NULL ? 1 : -1;
	}
	*out = path_join(op, strlen(op), rest);
	return *out != NULL ? 1 : -1;
}

static void free_skip(struct skip *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->paths[i]);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}

/*
 * The excludes that fall under operand op, in its printed spelling; each
 * one found is marked in used. Returns 0, or -1 when out of memory.
 */
static int skip_for(const struct opts *o, const char *op, struct skip *s,
		    unsigned char *used)
{
	char *nop = normalise(op);
	size_t i;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (nop == NULL)
		return -1;
	s->paths = calloc(o->n_exclude + 1, sizeof(*s->paths));
	if (s->paths == NULL)
		rc = -1;
	for (i = 0; rc == 0 && i < o->n_exclude; i++) {
		int under =
			printed_under(op, nop, o->exclude[i], &s->paths[s->n]);

		if (under < 0)
			rc = -1;
		else if (under > 0) {
			s->n++;
			used[i] = 1;
		}
	}
	free(nop);
	return rc;
}

/*
 * getopt's own messages, in libcap's words: an unknown "--word" is reported
 * as getopt without long options reports it, "invalid option -- '-'".
 * arg is the word getopt stopped at.
 */
static void bad_option(const struct opts_getopt *g, const char *argv0,
		       const char *arg)
{
	const struct opt *row = opts_row(g, optopt);

	if (row != NULL && row->name != NULL && arg != NULL &&
	    strncmp(arg, "--", 2) == 0)
		out_err("%s: option '--%s' %s\n", argv0, row->name,
			row->arg == required_argument
				? "requires an argument"
				: "doesn't allow an argument");
	else if (optopt == 0 && arg != NULL && strncmp(arg, "--", 2) == 0)
		out_err("%s: invalid option -- '-'\n", argv0);
	else
		out_err("%s: invalid option -- '%c'\n", argv0, optopt);
}

/* The handlers: each returns OPTS_NEXT, or the exit status. */
static int opt_exclude(void *p, const char *arg)
{
	if (add_exclude(p, arg) < 0) {
		out_err("%s: out of memory\n", ((struct opts *)p)->argv0);
		return 1;
	}
	return OPTS_NEXT;
}

static int opt_license(void *p, const char *arg)
{
	printf("%s see LICENSE file for details.\n"
	       "Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap's getcap)\n",
	       ((struct opts *)p)->argv0);
	(void)arg;
	return 0;
}

/*
 * libcap's options (no help: its usage line names them), then ours, the
 * ones the usage text lists after libcap's lines, each marked "(not in
 * libcap)" like every usage line the programs add.
 */
static const struct opt options[] = {
	{ .letter = 'r', .flag = OPTS_FLAG(struct opts, recursive) },
	{ .letter = 'v', .flag = OPTS_FLAG(struct opts, verbose) },
	{ OPTS_HELP_ROW(NULL, 'h') },
	{ .letter = 'n', .flag = OPTS_FLAG(struct opts, show_rootid) },
	{ .letter = 'l', .handle = opt_license },
	{ .name = "one-file-system",
	  .letter = 'x',
	  .help = "with -r, stay on each operand's filesystem (not in libcap)",
	  .flag = OPTS_FLAG(struct opts, one_fs) },
	{ .name = "exclude",
	  .arg = required_argument,
	  .handle = opt_exclude,
	  .value = "PATH",
	  .help = "with -r, skip PATH (as printed) and below (not in libcap)" },
	{ .name = "json",
	  .help = "one JSON object per line (schema 1) (not in libcap)",
	  .flag = OPTS_FLAG(struct opts, json) },
	{ .name = "audit",
	  .help = "add each file's risk tier and a suggestion (not in libcap)",
	  .flag = OPTS_FLAG(struct opts, audit) },
	/* Ours: libcap's getcap has no long options at all. */
	{ OPTS_VERSION_ROW,
	  .help = "print the version and exit (not in libcap)" },
};
static const size_t n_options = sizeof(options) / sizeof(options[0]);

/*
 * libcap's three lines first and unchanged; the option list after them
 * (ours) comes from the table. One write, as every stderr line here.
 */
static void usage(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);

	if (mem == NULL) {
		out_err("getcap: out of memory\n");
		return;
	}
	fputs("usage: getcap [-h] [-l] [-n] [-r] [-v] <filename> [<filename> ...]\n"
	      "\n"
	      "\tdisplays the capabilities on the queried file(s).\n",
	      mem);
	opts_help(mem, options, n_options, "\t", 23);
	if (fclose(mem) == 0)
		out_err("%s", text);
	free(text);
}

/* -h: the usage text, on stderr as libcap's. */
static int help(void *p)
{
	(void)p;
	usage();
	return 0;
}

static const struct opts_prog prog = { "getcap", help, 1 };

/* Returns only when the options are done; -h, -l, --version and errors exit. */
static void parse_opts(struct opts *o, int argc, char **argv)
{
	struct opts_getopt g;
	const char *word;
	int status = 1;

	opts_build(&g, &prog, options, n_options, 0);
	opterr = 0;
	switch (opts_parse(&g, argc, argv, o, &status)) {
	case 0:
		return;
	case 1:
		exit(status);
	}
	word = g.word < argc ? argv[g.word] : NULL;
	bad_option(&g, argv[0], word);
	usage();
	/* libcap names only the '-': ours names the word and a guess. */
	if (optopt == 0 && word != NULL && strncmp(word, "--", 2) == 0)
		opts_suggest(stderr, "getcap", word, options, n_options, 0,
			     OPTS_SUGGEST_LONG);
	exit(1);
}

/* -r on one operand: nftw(FTW_PHYS) semantics on the slash-cut name. */
static void recurse_operand(const struct opts *o, struct outbuf *ob,
			    const char *arg, const struct stat *st,
			    unsigned char *used)
{
	char *path = strdup(arg);
	struct stat own;
	struct ent e = { .dirfd = AT_FDCWD };
	struct skip skip = { 0 };

	if (path == NULL) {
		out_err("getcap: out of memory\n");
		return;
	}
	cut_slashes(path);
	e.name = path;
	if (skip_for(o, path, &skip, used) < 0) {
		/* Never walk what the caller asked us to leave out. */
		out_err("getcap: out of memory: '%s' skipped\n", path);
		goto out;
	}
	if (is_excluded(&skip, &e))
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
		walk_tree(o, &skip, ob, path);
	} else if (S_ISLNK(st->st_mode)) {
		if (o->verbose)
			out_line(ob, &e, " (Not a regular file)");
	} else {
		query_report(o, ob, &e, 0);
	}
out:
	free_skip(&skip);
	free(path);
}

/* An --exclude below no operand is a mistake worth a word (an addition). */
static void warn_unused(const struct opts *o, const unsigned char *used)
{
	size_t i;

	for (i = 0; i < o->n_exclude; i++) {
		char *shown;

		if (used[i])
			continue;
		shown = escape_dup(o->exclude[i]);
		out_err("getcap: --exclude=%s is not below any operand: nothing excluded\n",
			shown != NULL ? shown : "?");
		free(shown);
	}
}

int main(int argc, char **argv)
{
	struct opts o = { .argv0 = argv[0] };
	struct outbuf ob;
	unsigned char *used;
	int i;

	parse_opts(&o, argc, argv);
	out_set_json(o.json);
	out_set_escape(o.audit);
	if (optind >= argc) {
		usage();
		exit(1);
	}
	used = calloc(o.n_exclude + 1, 1);
	if (used == NULL) {
		out_err("%s: out of memory\n", argv[0]);
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
			recurse_operand(&o, &ob, argv[i], &st, used);
		else if (S_ISREG(st.st_mode))
			query_report(&o, &ob, &e, 0);
		else if (o.verbose)
			out_line(&ob, &e, " (Not a regular file)");
		out_maybe_flush(&ob);
	}
	out_free(&ob);
	if (o.recursive)
		warn_unused(&o, used);
	free(used);
	free_opts(&o);
	/*
	 * Like libcap: failures are reported, but the status stays 0. An
	 * audit (--audit, --json) that could not show a file's capabilities
	 * is incomplete, and says so with 1.
	 */
	return (o.audit || o.json) && query_unknown_count() > 0 ? 1 : 0;
}
