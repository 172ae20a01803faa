/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap: set, remove or verify the file capabilities of regular files,
 * acting on (caps, file) pairs strictly left to right like libcap's setcap.
 *
 * Output is byte-identical to libcap 2.76's setcap (-f, the rejection of
 * whitespace-only capability text, the effective-set check before writing,
 * its usage text and the "argument: <text>" line on stdout before a parse
 * error). The deliberate differences are rows of docs/differences.md
 * (messages name the file, not argv[0]; -n refuses values past uid_t; our
 * --license copyright line), which tests/cli/progs_upstream_diff.sh holds
 * us to. Anything we add is an extra line after libcap's, prefixed
 * "setcap:" (see setcap_explain.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "mask.h"
#include "number.h"
#include "opts.h"
#include "setcap.h"
#include "suggest.h"

/* libcap reads at most this much capability text from stdin. */
#define STDIN_MAX 2048

/*
 * Set when "-" filled the buffer and more text is known to be waiting:
 * the text was cut, which explains a lot. Said once, after libcap's lines
 * for the pair (note_stdin_cut()).
 */
static int stdin_cut;

struct opts {
	const char *argv0; /* as invoked, for --license */
	int quiet;	   /* -q: no stdin prompt, no -v output */
	int verify;	   /* -v: compare instead of writing */
	int force; /* -f (2.76): E mismatch and -r on nothing are not fatal */
	uid_t rootid; /* -n: namespace owner written as revision 3 */
	/* --perf-group=, checked before any change */
	struct perf_group perf_group;
	cap_t mycaps; /* our own process capabilities, for CAP_SETFCAP */
	int raised;   /* CAP_SETFCAP already in our effective set */
};

static uid_t parse_rootid(const char *arg);
static void usage(int status) __attribute__((noreturn));

/* The handlers: each returns OPTS_NEXT or ends the run. */
static int opt_license(void *p, const char *arg)
{
	/* 2.76 names the program here; 2.66 printed the option itself. */
	printf("%s see LICENSE file for details.\n"
	       "Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap's setcap)\n",
	       ((struct opts *)p)->argv0);
	(void)arg;
	exit(EXIT_SUCCESS);
}

static int opt_rootid(void *p, const char *arg)
{
	((struct opts *)p)->rootid = parse_rootid(arg);
	return OPTS_NEXT;
}

static int opt_perf_group(void *p, const char *arg)
{
	/* Resolved, and every misuse refused, by perf_check_group_args(). */
	(void)p;
	(void)arg;
	return OPTS_NEXT;
}

/* -h: the usage text, on stderr as libcap's, and success. */
static int help(void *p)
{
	(void)p;
	usage(EXIT_SUCCESS);
}

static const struct opts_prog prog = { "setcap", help, EXIT_FAILURE };

/* The first words of a pair that the table knows (take_caps() acts). */
enum { PAIR_REMOVE = 1, PAIR_PERF = 2 };

/*
 * Every word setcap knows, in the order of the usage text: libcap 2.76's
 * lines, which opts_help() formats to the byte (a space, the label padded
 * to 12 columns), with its prose kept as it is; then ours.
 */
static const struct opt options[] = {
	{ .letter = 'r',
	  .help = "remove capability from file",
	  .tags = PAIR_REMOVE },
	{ .line = " -           read capability text from stdin\n"
		  " <capsN>     cap_from_text(3) formatted file capability\n"
		  " [ Note: capsh --suggest=\"something...\" might help you pick. ]" },
	{ .name = "license",
	  .handle = opt_license,
	  .help = "display the license info" },
	{ .letter = 'f',
	  .flag = OPTS_FLAG(struct opts, force),
	  .help = "force setting even when the capability is invalid" },
	{ OPTS_HELP_ROW(NULL, 'h'), .help = "this message and exit status 0" },
	{ .letter = 'n',
	  .arg = required_argument,
	  .handle = opt_rootid,
	  .value = "<rootid>",
	  .help = "write a user namespace (!= 0) limited capability" },
	{ .letter = 'q',
	  .flag = OPTS_FLAG(struct opts, quiet),
	  .help = "quietly" },
	{ .letter = 'v',
	  .flag = OPTS_FLAG(struct opts, verify),
	  .help = "validate supplied capability matches file" },
	{ .name = "perf",
	  .arg = optional_argument,
	  .tags = PAIR_PERF,
	  .line = " --perf[=<subcommands>] <filename>  the least perf needs on this kernel, then verify (not in libcap)" },
	{ .name = "perf-group",
	  .arg = required_argument,
	  .handle = opt_perf_group,
	  .value = "<group>",
	  .help = "before --perf: make the file root:<group> 0750 without ACL entries first (not in libcap)" },
	/* Ours: libcap's setcap took it for capability text. */
	{ OPTS_VERSION_ROW,
	  .help = "print the version and exit (not in libcap)" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static void print_usage(void)
{
	/* libcap 2.76's usage text, to the byte, then our lines. */
	fputs("usage: setcap [--license] [-f] [-h] [-n <rootid>] [-q] [-v] (-r|-|<caps>) <filename> [ ... (-r|-|<capsN>) <filenameN> ]\n"
	      "\n"
	      " Note <filename> must be a regular (non-symlink) file.\n",
	      stderr);
	opts_help(stderr, options, N_OPTIONS, " ", 12);
}

static void usage(int status)
{
	print_usage();
	exit(status);
}

/*
 * -n takes a strictly positive number (base 0, as libcap). libcap narrows
 * it to uid_t without a check, so "-n 4294967296" became rootid 0 and
 * wrote a v2 capability that applies in every namespace; a value past
 * uid_t, a '-' or anything after the digits is refused here. 4294967295,
 * (uid_t)-1, is passed on as libcap does.
 */
static uid_t parse_rootid(const char *arg)
{
	unsigned long long v;
	int rc = number_parse(arg, 0, (uid_t)-1, &v);

	if (rc == ERANGE) {
		/* Ours, not libcap's: the value is escaped. */
		fputs("bad ns rootid: out of range (1 to 4294967295), got \"",
		      stderr);
		escape_fputs(arg, stderr);
		fputs("\"\n", stderr);
		exit(EXIT_FAILURE);
	}
	if (rc != 0 || v == 0) {
		fprintf(stderr,
			"bad ns rootid: want positive integer, got \"%s\"\n",
			arg);
		exit(EXIT_FAILURE);
	}
	return (uid_t)v;
}

/*
 * Is more text waiting on standard input, now that STDIN_MAX bytes have
 * been read? Answered without reading any of it (what setcap leaves
 * there is the caller's): a file's offset against its size, or the bytes
 * a pipe, terminal or socket holds. Anything else, or a writer that has
 * not written the rest yet, is "not known": no note is better than a
 * false one.
 */
static int stdin_has_more(void)
{
	struct stat st;
	int waiting = 0;

	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);

		return at >= 0 && at < st.st_size;
	}
	return ioctl(STDIN_FILENO, FIONREAD, &waiting) == 0 && waiting > 0;
}

/*
 * "-": up to STDIN_MAX bytes, ending at EOF or at a read that starts with
 * a newline (an empty line typed at a terminal). Embedded newlines are
 * whitespace to cap_from_text, so piped multi-line text works. A read
 * that fails ends the run as libcap's does ("[Error - aborting]", after
 * an empty line); ours names the error after it.
 */
static char *read_stdin_caps(const struct opts *o, char *buf)
{
	size_t len = 0;

	if (!o->quiet)
		fputs("Please enter caps for file [empty line to end]:\n",
		      stderr);
	while (len < STDIN_MAX) {
		ssize_t n = read(STDIN_FILENO, buf + len, STDIN_MAX - len);

		if (n < 0) {
			int err = errno;

			fputs("\n[Error - aborting]\n", stderr);
			explain_stdin_error(err);
			exit(EXIT_FAILURE);
		}
		if (n == 0 || buf[len] == '\n')
			break;
		len += (size_t)n;
	}
	if (len == 0)
		usage(EXIT_FAILURE);
	stdin_cut = len == STDIN_MAX && stdin_has_more();
	buf[len] = '\0';
	return buf;
}

/*
 * Ours, after libcap's lines for the pair that read standard input: after
 * its write (apply_pair()), or at exit when the pair failed.
 */
static void note_stdin_cut(void)
{
	if (!stdin_cut)
		return;
	stdin_cut = 0;
	fprintf(stderr,
		"setcap: capability text on stdin was cut at %d bytes, as libcap's setcap reads no more; the rest was ignored\n",
		STDIN_MAX);
}

/*
 * Parses capability text or exits the way libcap's setcap does: libcap's
 * lines, then ours. An argument (not stdin text) that starts with '-' and
 * does not parse was meant as an option ("--help", "-x"): no capability
 * text can start with '-', so ours names the option, not a clause.
 */
static cap_t parse_caps(const char *text, int is_arg)
{
	cap_t caps;

	if (text[strspn(text, " \t\n\r\f\v")] == '\0') {
		/* 2.76: 2.66 silently wrote an empty set here. */
		fputs("empty space is an invalid capability, did you mean -r?\n",
		      stderr);
		exit(EXIT_FAILURE);
	}
	caps = cap_from_text(text);
	if (caps == NULL) {
		/*
		 * 2.76's line, on stdout and unescaped as libcap prints it: the
		 * text is the caller's own argument or standard input.
		 */
		printf("argument: %s\n", text);
		fflush(stdout);
		perror("fatal error");
		print_usage();
		if (is_arg && text[0] == '-') {
			/* Ours: the option meant, from the table. */
			opts_suggest(stderr, "setcap", text, options, N_OPTIONS,
				     0, 0);
			exit(EXIT_FAILURE);
		}
		explain_text(text);
		/* A near name for a mistyped one ("did you mean"). */
		suggest_cap_text(stderr, "setcap", text);
		exit(EXIT_FAILURE); /* note_stdin_cut() runs at exit */
	}
	return caps;
}

/*
 * File capabilities have one effective flag, so E must be empty or equal
 * P | I. libcap 2.76 checks this before writing: it walks the bits in
 * order, stops at the first one whose E differs from P | I, and refuses if
 * an E bit came up to and including it. That bit itself counts, so
 * "cap_net_raw+e" (E with nothing to raise) is refused; a set whose first
 * mismatch is a P | I bit without E ("cap_chown=p cap_kill=ep") passes and
 * is left to cap_set_file (EINVAL, "Invalid file"). Same walk, same cases.
 */
static int effective_refused(cap_t caps)
{
	uint64_t e = mask_of_flag(caps, CAP_EFFECTIVE);
	uint64_t pi = mask_of_flags(caps, (1u << CAP_PERMITTED) |
						  (1u << CAP_INHERITABLE));
	cap_value_t first = mask_next(e ^ pi, 0);

	/* An E bit at or below the first mismatch refuses. */
	return first >= 0 && (e & mask_below(first + 1)) != 0;
}

/*
 * setcap may run with CAP_SETFCAP permitted but not effective (a capable
 * wrapper, or a file capability of =p), so raise it before the first write.
 */
static void raise_setfcap(struct opts *o)
{
	cap_value_t setfcap = CAP_SETFCAP;

	if (o->raised || o->mycaps == NULL)
		return;
	if (cap_set_flag(o->mycaps, CAP_EFFECTIVE, 1, &setfcap, CAP_SET) < 0) {
		perror("unable to manipulate CAP_SETFCAP - try a newer libcap?");
		exit(EXIT_FAILURE);
	}
	if (cap_set_proc(o->mycaps) < 0) {
		perror("unable to set CAP_SETFCAP effective capability");
		explain_no_setfcap();
		exit(EXIT_FAILURE);
	}
	o->raised = 1;
}

/* -v: a missing or unreadable xattr counts as the empty set. 0 = match. */
static int verify_file(const struct opts *o, cap_t want, const char *file)
{
	cap_t got = cap_get_file(file);
	uid_t got_ns, want_ns = o->rootid;
	int cmp;

	if (got == NULL)
		got = cap_init();
	if (got == NULL || want == NULL) {
		perror("unable to obtain empty capability");
		exit(EXIT_FAILURE);
	}
	got_ns = cap_get_nsowner(got);
	cmp = cap_compare(got, want);
	cap_free(got);
	if (cmp == 0 && got_ns == want_ns) {
		if (!o->quiet)
			printf("%s: OK\n", file);
		return 0;
	}
	if (!o->quiet) {
		if (got_ns != want_ns)
			printf("nsowner[got=%d, want=%d],", (int)got_ns,
			       (int)want_ns);
		printf("%s differs in [%s%s%s]\n", file,
		       CAP_DIFFERS(cmp, CAP_PERMITTED) ? "p" : "",
		       CAP_DIFFERS(cmp, CAP_INHERITABLE) ? "i" : "",
		       CAP_DIFFERS(cmp, CAP_EFFECTIVE) ? "e" : "");
	}
	return -1;
}

/* Writes caps (NULL: removes them); returns only on success or with -f. */
static void set_file(struct opts *o, cap_t caps, const char *file)
{
	int err;

	/* 2.76 raises CAP_SETFCAP first: without it, that is the error. */
	raise_setfcap(o);
	if (caps != NULL && effective_refused(caps)) {
		/* 2.76's lines, printed with -f too, where they are a warning. */
		fputs("Error: under Linux, effective file capabilities must either be empty, or\n"
		      "       exactly match the union of selected permitted and inheritable bits.\n",
		      stderr);
		if (!o->force) {
			explain_effective(file, caps, 0);
			exit(EXIT_FAILURE);
		}
		if (!o->quiet)
			explain_effective(file, caps, 1);
	}
	if (cap_set_file(file, caps) == 0) {
		if (caps != NULL && !o->quiet) {
			warn_above_kernel(file, caps);
			warn_exec_target(file, caps);
		}
		return;
	}
	err = errno;
	if (err == EINVAL) {
		fprintf(stderr, "Invalid file '%s' for capability operation\n",
			file);
	} else if (err == ENODATA && caps == NULL) {
		/* The misspelling is libcap's, kept for byte-identical output. */
		fprintf(stderr, "File '%s' has no capablity to remove\n", file);
	} else {
		fprintf(stderr, "Failed to set capabilities on file '%s': %s\n",
			file, strerror(err));
	}
	explain_set_error(file, err, caps);
	if (err == ENODATA && caps == NULL && o->force)
		return;
	exit(EXIT_FAILURE);
}

/*
 * setcap's own parser, by hand and not getopt, because libcap's is:
 * options and (caps, file) pairs mix left to right, an option applies to
 * the pairs after it, "-" is capability text from stdin, and any other
 * word is capability text, so getopt's permutation, bundling ("-qv") and
 * messages would all change what setcap does. The words are the table's.
 *
 * When argv[*i] is an option, acts on it (-n consumes its value, moving
 * *i) and returns 1; -h, --license, --version and a bad -n exit. Returns 0
 * for the first word of a pair.
 */
static int take_option(struct opts *o, int argc, char **argv, int *i)
{
	const char *value;
	const struct opt *row = opts_find(options, N_OPTIONS, argv[*i], &value);
	int rc;

	if (row == NULL || (row->tags & (PAIR_REMOVE | PAIR_PERF)))
		return 0;
	if (row->arg == required_argument && value == NULL) {
		/* -n's value is the next word, as in libcap. */
		if (++*i == argc) {
			fputs("usage: .. -n <rootid> .. - rootid!=0 file caps",
			      stderr);
			exit(EXIT_FAILURE);
		}
		value = argv[*i];
	}
	rc = opts_run(&prog, row, o, value);
	if (rc != OPTS_NEXT)
		exit(rc);
	return 1;
}

/* What the first word of a pair asks for. */
struct pair {
	cap_t caps; /* NULL for -r */
	int remove; /* -r */
	int perf;   /* --perf[=...] */
};

/* The first word of a pair: -r, -, --perf[=...] or capability text. */
static void take_caps(const struct opts *o, const char *arg, char *stdin_buf,
		      struct pair *p)
{
	const char *value;
	const struct opt *row = opts_find(options, N_OPTIONS, arg, &value);
	unsigned tags = row != NULL ? row->tags : 0;

	memset(p, 0, sizeof(*p));
	if (tags & PAIR_PERF) {
		p->caps = perf_preset(value);
		if (p->caps == NULL)
			exit(EXIT_FAILURE);
		p->perf = 1;
	} else if (tags & PAIR_REMOVE) {
		p->remove = 1;
	} else if (strcmp(arg, "-") == 0) {
		p->caps = parse_caps(read_stdin_caps(o, stdin_buf), 0);
	} else {
		p->caps = parse_caps(arg, 1);
	}
}

/*
 * The pair's file: --perf, -v or a plain write. The first failure ends
 * the run, as in libcap (set_file() decides for itself when -f lets it
 * go on).
 */
static void apply_pair(struct opts *o, const struct pair *p, const char *file)
{
	if (p->caps != NULL && cap_set_nsowner(p->caps, o->rootid) < 0) {
		perror("unable to set nsowner");
		exit(EXIT_FAILURE);
	}
	if (p->perf) {
		/* One inode: checks, group, write and read-back. */
		if (!o->verify)
			raise_setfcap(o);
		if (perf_apply(file, p->caps, &o->perf_group, o->verify,
			       o->quiet) < 0) {
			cap_free(p->caps);
			cap_free(o->mycaps);
			exit(EXIT_FAILURE);
		}
	} else if (o->verify) {
		cap_t want = p->remove ? cap_init() : p->caps;
		int differs = verify_file(o, want, file);

		if (p->remove)
			cap_free(want);
		if (differs) {
			cap_free(p->caps);
			cap_free(o->mycaps);
			exit(EXIT_FAILURE);
		}
	} else {
		set_file(o, p->caps, file);
	}
}

int main(int argc, char **argv)
{
	static char stdin_buf[STDIN_MAX + 1];
	struct opts o = { .argv0 = argv[0] };
	int i;

	if (argc < 2)
		usage(EXIT_FAILURE);
	/* A pair that read cut text and then failed says so last. */
	atexit(note_stdin_cut);
	/* Every --perf-group misuse ends the run before any file changes. */
	if (perf_check_group_args(argc, argv, &o.perf_group) < 0)
		exit(EXIT_FAILURE);
	o.mycaps = cap_get_proc();
	if (o.mycaps == NULL)
		fputs("warning - unable to get process capabilities (old libcap?)\n",
		      stderr);
	for (i = 1; i < argc; i++) {
		struct pair p;

		if (take_option(&o, argc, argv, &i))
			continue;
		take_caps(&o, argv[i], stdin_buf, &p);
		if (++i == argc)
			usage(EXIT_FAILURE);
		apply_pair(&o, &p, argv[i]);
		/* What was read parsed and was written: the rest is lost. */
		note_stdin_cut();
		cap_free(p.caps);
	}
	cap_free(o.mycaps);
	return EXIT_SUCCESS;
}
