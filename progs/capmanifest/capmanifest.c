/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: record which files of a tree carry capabilities (who may
 * run them: owner, group, mode, ACL; and what they are: a SHA-256 of the
 * content), verify a tree against such a record, and restore it. Images,
 * tarballs, rsync and upgrades lose file capabilities silently; this
 * makes the loss visible (verify exits 1, usable in CI) and repairable
 * (restore), without ever granting a capability to a file that more
 * people can run than when it was recorded, or to another program put at
 * a recorded path.
 *
 *   capmanifest record [-x] [--include-pseudo] DIR     manifest on stdout
 *   capmanifest record FILE...                          of these files
 *   capmanifest verify [-x] [--include-pseudo] [--listed-only] MANIFEST DIR
 *   capmanifest restore [-n] [--fix-owner] [--accept-new-content]
 *                       [--allow-v1] [--listed-only] [--include-pseudo]
 *                       MANIFEST DIR
 *   capmanifest add MANIFEST FILE...                    into a manifest file
 * Exit status: 0 success/no difference, 1 differences or failed changes
 * (record: a manifest written, but some paths could not be read), 2
 * usage, unreadable manifest or tree.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capmanifest.h"
#include "opts.h"
#include "reopen.h"
#include "walk.h"
#include "suggest.h"

/* The subcommands, for "did you mean". */
static const char *const commands[] = { "record", "verify", "restore", "add" };

static void usage(FILE *out);
/*
 * The usage text, then the plain answer last, where it is seen: which
 * word was wrong, and what was probably meant.
 */
static int bad_command(const char *word)
{
	usage(stderr);
	suggest_unknown(stderr, "capmanifest", "command", word, commands,
			sizeof(commands) / sizeof(commands[0]));
	return 2;
}

/*
 * The manifest restore acts on: what it says is granted as root, so it
 * is read only where nobody but its owner (root, or the user running
 * restore) could have put a line in it, as add writes it (see
 * capmanifest_target.c). Standard input ("-") is the caller's own
 * choice. 0, or -1 once reported.
 */
static int load_trusted_manifest(struct manifest *m, const char *name)
{
	struct target t = { .dirfd = -1, .lockfd = -1 };
	int rc;

	rc = target_open(&t, name);
	if (rc == 0)
		rc = target_read(&t, m, 1);
	target_free(&t);
	return rc == 0 ? 0 : -1;
}

static int load_manifest(struct manifest *m, const char *name, int trusted)
{
	FILE *in;
	int rc;

	if (trusted && strcmp(name, "-") != 0)
		return load_trusted_manifest(m, name);
	in = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
	if (in == NULL) {
		warn("%s", name);
		return -1;
	}
	rc = manifest_read(m, in, name);
	if (in != stdin)
		fclose(in);
	return rc;
}

/* "differs: <path> has group=0 mode=0755, manifest says group=998 mode=0750" */
static void print_meta_differs(const char *path, const struct meta *have,
			       const struct meta *want)
{
	printf("differs: ");
	print_escaped(stdout, path);
	printf(" has ");
	print_meta(stdout, have, want);
	printf(", manifest says ");
	print_meta(stdout, want, have);
	printf("\n");
}

/* A capable file where the manifest could not look when it was recorded. */
static void not_covered(const char *path, const char *unread)
{
	fprintf(stderr, "capmanifest: not compared: ");
	print_escaped(stderr, path);
	fprintf(stderr, " (the manifest marks ");
	print_escaped(stderr, unread);
	fprintf(stderr, " " UNREAD_TAG ")\n");
}

/*
 * Walks both sorted lists together and calls act() for every path in
 * either: want is the manifest's entry (NULL for an extra), have the
 * tree's (NULL for a missing one). Returns the sum of act()'s results.
 */
static int compare(const struct manifest *want, const struct manifest *have,
		   int (*act)(enum change, const struct entry *,
			      const struct entry *, struct ctx *),
		   struct ctx *ctx)
{
	size_t i = 0, j = 0;
	int failures = 0;

	while (i < want->count || j < have->count) {
		int order = i == want->count   ? 1
			    : j == have->count ? -1
					       : strcmp(want->entries[i].path,
							have->entries[j].path);

		if (order < 0) {
			failures +=
				act(MISSING, &want->entries[i++], NULL, ctx);
		} else if (order > 0) {
			const struct entry *h = &have->entries[j++];
			const char *unread =
				manifest_unread_above(want, h->path);

			/* Not recorded is not "not there": leave it alone. */
			if (unread != NULL)
				not_covered(h->path, unread);
			else
				failures += act(EXTRA, NULL, h, ctx);
		} else {
			const struct entry *w = &want->entries[i++],
					   *h = &have->entries[j++];
			int same = strcmp(w->text, h->text) == 0 &&
				   w->rootid == h->rootid;

			failures += act(same ? SAME : DIFFERS, w, h, ctx);
		}
	}
	return failures;
}

/*
 * The file's owner, group, mode and ACL as they are now, through its own
 * descriptor; the descriptor stays open in *fd for the caller. -1 when
 * it cannot be opened (errno set), *fd then -1.
 */
static int current_meta(const struct ctx *c, const char *path, int *fd,
			struct meta *now)
{
	struct stat st;

	*fd = walk_open_beneath(c->rootfd, path, &st);
	if (*fd < 0)
		return -1;
	if (entry_meta(*fd, &st, now) < 0) {
		int saved = errno;

		close(*fd);
		*fd = -1;
		errno = saved;
		return -1;
	}
	return 0;
}

/* "content: <path> has sha256=<hex>, manifest says sha256=<hex>" */
static void print_content_differs(const char *path,
				  const unsigned char have[SHA256_SIZE],
				  const unsigned char want[SHA256_SIZE])
{
	printf("content: ");
	print_escaped(stdout, path);
	printf(" has ");
	print_digest(stdout, have);
	printf(", manifest says ");
	print_digest(stdout, want);
	printf("\n");
}

static int report(enum change c, const struct entry *want,
		  const struct entry *have, struct ctx *ctx)
{
	unsigned char digest[SHA256_SIZE];
	int found = c != SAME, fd, digest_ok;
	struct meta opened = { 0 };
	const struct meta *now = &opened;

	if (c == MISSING) {
		print_entry("missing:", want);
	} else if (c == EXTRA) {
		print_entry("extra:  ", have);
	} else if (c == DIFFERS) {
		printf("differs: ");
		print_escaped(stdout, want->path);
		printf(" has %s", have->text);
		if (have->rootid)
			printf(" [rootid=%u]", (unsigned)have->rootid);
		printf(", manifest says %s", want->text);
		if (want->rootid)
			printf(" [rootid=%u]", (unsigned)want->rootid);
		printf("\n");
	}
	if (c == EXTRA || !want->has_meta)
		return found;
	if (c != MISSING) {
		/* Recorded through its own descriptor, digest included. */
		now = &have->meta;
		digest_ok = have->has_digest;
		memcpy(digest, have->digest, SHA256_SIZE);
	} else if (current_meta(ctx, want->path, &fd, &opened) < 0) {
		return found; /* no such file: "missing" says it */
	} else {
		/* A file without capabilities: the same descriptor for both. */
		digest_ok = want->has_digest && entry_digest(fd, digest) == 0;
		if (want->has_digest && !digest_ok) {
			fail_entry("read", want->path, errno);
			found = 1;
		}
		close(fd);
	}
	if (!meta_matches(now, &want->meta)) {
		print_meta_differs(want->path, now, &want->meta);
		found = 1;
	}
	meta_free(&opened);
	if (want->has_digest && digest_ok &&
	    memcmp(digest, want->digest, SHA256_SIZE) != 0) {
		print_content_differs(want->path, digest, want->digest);
		found = 1;
	}
	return found;
}

/*
 * Every file is read through /proc/thread-self/fd (the xattr calls refuse
 * O_PATH descriptors): without it nothing could be read safely.
 */
static int check_proc(void)
{
	if (reopen_proc_usable() == 0)
		return 0;
	warnx("%s: %s (capmanifest reads each file through its own descriptor there; is /proc mounted?)",
	      REOPEN_PROC_DIR, strerror(errno));
	return -1;
}

/* record DIR: the walk; what could not be read goes in as "!unread". */
static int record_dir(const struct opts *o)
{
	struct digest_for all = { DIGEST_ALL, NULL };
	struct manifest have = { 0 };
	int status = 2, rc;

	/*
	 * What could not be read is named on stderr and, as "!unread"
	 * lines, in the manifest, so verify and restore never take the
	 * files there for extra ones; the rest is recorded.
	 */
	rc = manifest_record(&have, o->root, o->one_fs, o->pseudo, &all);
	if (rc >= 0) {
		status = rc == 0 ? 0 : 1;
		if (manifest_write(&have, stdout) < 0) {
			warn("standard output");
			status = 2;
		}
	}
	if (rc > 0)
		warnx("%zu path%s could not be read: the manifest marks %s \"" UNREAD_TAG
		      "\" and does not cover %s",
		      have.nunread, have.nunread == 1 ? "" : "s",
		      have.nunread == 1 ? "it" : "them",
		      have.nunread == 1 ? "it" : "them");
	manifest_free(&have);
	return status;
}

/* record FILE...: all of them, or nothing printed. */
static int record_files(const struct opts *o)
{
	struct manifest have = { 0 };
	int status = 1;

	if (manifest_record_files(&have, o->files, o->nfiles) == 0) {
		status = 0;
		if (manifest_write(&have, stdout) < 0) {
			warn("standard output");
			status = 2;
		}
	}
	manifest_free(&have);
	return status;
}

/* Whether an entry of m records an ACL without its entries. */
static int has_unrecorded_acl(const struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->count; i++)
		if (m->entries[i].meta.acl &&
		    m->entries[i].meta.acl_text == NULL)
			return 1;
	return 0;
}

/*
 * The notes on what an old manifest cannot say, before verify or restore
 * (restore of version 1 without --allow-v1 is refused by refuse_v1()).
 */
static void note_version(const struct opts *o, const struct manifest *m)
{
	int verify = strcmp(o->command, "verify") == 0;

	if (m->version < 2 && (verify || o->allow_v1))
		warnx("%s: version 1 manifest: owner, group and mode are not recorded, so not %s",
		      o->manifest, verify ? "verified" : "checked");
	/* restore says so for each file it would write to (vouch()). */
	if (m->version < 3 && verify)
		warnx("%s: version %d manifest: file contents are not recorded, so not verified",
		      o->manifest, m->version);
	/* And each file it refuses (restore_one()). */
	if (verify && has_unrecorded_acl(m))
		warnx("%s: version %d manifest: ACL entries are not recorded, so a file whose ACL has named entries is reported as differing; record it again",
		      o->manifest, m->version);
}

/*
 * restore of a version 1 manifest without --allow-v1: it records neither
 * who may run the files nor what they are, so it is refused whole
 * (status 2, nothing changed). What would work instead is found, not
 * guessed: a dry run with --allow-v1, and --accept-new-content, which
 * takes a file only where nobody but root could have put it. If that
 * would restore every file, the refusal ends with the command (only the
 * options it needed); else with the reasons the dry run gave, and no
 * command: a hint that names an option must work when followed.
 */
static int refuse_v1(const struct manifest *want, const struct manifest *have,
		     struct ctx *ctx)
{
	struct opts po = *ctx->o;
	struct ctx pc = *ctx;
	char *why = NULL, *said = NULL;
	size_t whylen = 0, saidlen = 0;
	int failures = 1, made;

	warnx("%s: a version 1 manifest records no owner, group or mode, and no content digest, so restore cannot check who may run the files it grants to, nor what they are; record the tree again",
	      ctx->o->manifest);
	po.dry_run = po.allow_v1 = po.accept_new = 1;
	pc.o = &po;
	pc.accepted = 0;
	pc.err = open_memstream(&why, &whylen);
	pc.out = open_memstream(&said, &saidlen);
	made = pc.err != NULL && pc.out != NULL;
	if (made)
		failures = compare(want, have, restore_one, &pc);
	if (pc.err != NULL)
		fclose(pc.err);
	if (pc.out != NULL)
		fclose(pc.out);
	if (failures == 0) {
		fprintf(stderr,
			"capmanifest: %s: --allow-v1%s would restore it: %s\n",
			ctx->o->manifest,
			pc.accepted ? " --accept-new-content" : "",
			pc.accepted
				? "every file it grants to is root's alone from /"
				: "it grants to no file, only takes capabilities away");
		ctx->hint_v1 = 1;
		ctx->hint_accept = pc.accepted;
		print_repair(ctx);
	} else if (made) { /* (no hint where it could not be made: ENOMEM) */
		fprintf(stderr,
			"capmanifest: %s: nor would --allow-v1 --accept-new-content restore it:\n",
			ctx->o->manifest);
		fputs(why, stderr);
	}
	free(why);
	free(said);
	return 2;
}

static int run(const struct opts *o)
{
	struct manifest want = { 0 }, have = { 0 };
	struct ctx ctx = { .o = o, .rootfd = -1, .out = stdout, .err = stderr };
	struct digest_for d = { DIGEST_NONE, NULL };
	int status = 2, failures, verify = strcmp(o->command, "verify") == 0;

	if (check_proc() < 0)
		return 2;
	if (strcmp(o->command, "record") == 0)
		return o->files != NULL ? record_files(o) : record_dir(o);
	if (strcmp(o->command, "add") == 0)
		return manifest_add_files(o->manifest, o->files, o->nfiles);
	if (load_manifest(&want, o->manifest, !verify) < 0)
		goto out;
	note_version(o, &want);
	ctx.manifest_version = want.version;
	ctx.rootfd = open(o->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ctx.rootfd < 0) {
		warn("%s", o->root);
		goto out;
	}
	/* verify compares the contents of the files the manifest lists. */
	if (verify) {
		d.want = DIGEST_LISTED;
		d.listed = &want;
	}
	/* Comparing with a tree not read whole would report false differences. */
	if (o->listed_only
		    ? manifest_record_listed(&have, &want, ctx.rootfd, &d) < 0
		    : manifest_record(&have, o->root, o->one_fs, o->pseudo,
				      &d) != 0)
		goto out;
	/*
	 * restore's read leases: a process asking to open a leased file for
	 * writing makes the kernel send the holder SIGIO, whose default
	 * action would end restore between two changes of one file. Only
	 * the lease's state matters here (content_lease_held()).
	 */
	if (!verify)
		signal(SIGIO, SIG_IGN);
	if (!verify && want.version < 2 && !o->allow_v1) {
		status = refuse_v1(&want, &have, &ctx);
		goto out;
	}
	failures = compare(&want, &have, verify ? report : restore_one, &ctx);
	status = failures ? 1 : 0;
	if (!verify)
		print_repair(&ctx);
out:
	if (ctx.rootfd >= 0)
		close(ctx.rootfd);
	manifest_free(&want);
	manifest_free(&have);
	return status;
}

/* Where an option may stand: after the command, or instead of it. */
enum {
	AFTER_COMMAND = 1,
	FOR_COMMAND = 2, /* matched whole as argv[1]: no getopt there */
};

/* --help: the usage text on stdout, asked for, a success. */
static int help(void *p)
{
	(void)p;
	usage(stdout);
	return 0;
}

static const struct opts_prog prog = { "capmanifest", help, 2 };

/* Every option, in the order the usage text lists them. */
static const struct opt options[] = {
	{ .name = "one-file-system",
	  .letter = 'x',
	  .help = "do not cross mount points",
	  .flag = OPTS_FLAG(struct opts, one_fs),
	  .tags = AFTER_COMMAND },
	{ .name = "include-pseudo",
	  .help = "also walk pseudo filesystems (proc, sysfs, cgroup,\n"
		  "debugfs, ...) mounted below <dir>",
	  .flag = OPTS_FLAG(struct opts, pseudo),
	  .tags = AFTER_COMMAND },
	{ .name = "dry-run",
	  .letter = 'n',
	  .help = "say what restore would change, change nothing",
	  .flag = OPTS_FLAG(struct opts, dry_run),
	  .tags = AFTER_COMMAND },
	{ .name = "fix-owner",
	  .help = "restore owner, group and mode too, where they differ",
	  .flag = OPTS_FLAG(struct opts, fix_owner),
	  .tags = AFTER_COMMAND },
	{ .name = "accept-new-content",
	  .help = "restore a file whose content is not the recorded one\n"
		  "if only root could have put it there: owned and\n"
		  "writable by root alone, as is every directory from /",
	  .flag = OPTS_FLAG(struct opts, accept_new),
	  .tags = AFTER_COMMAND },
	{ .name = "allow-v1",
	  .help = "restore a version 1 manifest, which records no owner,\n"
		  "group or mode, without checking them",
	  .flag = OPTS_FLAG(struct opts, allow_v1),
	  .tags = AFTER_COMMAND },
	{ .name = "listed-only",
	  .help = "only the files the manifest lists: verify reports no\n"
		  "extra file, restore leaves every other file's\n"
		  "capabilities alone",
	  .flag = OPTS_FLAG(struct opts, listed_only),
	  .tags = AFTER_COMMAND },
	{ OPTS_HELP_ROW("help", 'h'), .help = "print this text and exit",
	  .tags = AFTER_COMMAND | FOR_COMMAND },
	/* "capmanifest record --version" is a usage error. */
	{ OPTS_VERSION_ROW, .help = "print the version and exit",
	  .tags = FOR_COMMAND },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capmanifest record [-x] [--include-pseudo] <dir>\n"
		"       capmanifest record <file>...\n"
		"       capmanifest verify [-x] [--include-pseudo] [--listed-only] <manifest> <dir>\n"
		"       capmanifest restore [-n] [--fix-owner] [--accept-new-content] [--allow-v1]\n"
		"                           [--listed-only] [--include-pseudo] <manifest> <dir>\n"
		"       capmanifest add <manifest> <file>...\n");
	opts_help(out, options, COUNT(options), "  ", 23);
}

/*
 * argv[1]: an option that stands for the command (1, *status its exit
 * status), a command (0), or neither (1 after the usage text and the
 * "did you mean": an unknown option for a word starting with '-' that no
 * row has, else an unknown command).
 */
static int parse_command(struct opts *o, const char *word, int *status)
{
	const struct opt *r;
	const char *value;
	size_t i;

	r = opts_find(options, COUNT(options), word, &value);
	if (r != NULL && (r->tags & FOR_COMMAND)) {
		*status = opts_run(&prog, r, o, value);
		return 1;
	}
	if (r == NULL && word[0] == '-' && word[1] != '\0') {
		/* A mistyped --version or --help: the guess names the option. */
		usage(stderr);
		opts_suggest(stderr, "capmanifest", word, options,
			     COUNT(options), FOR_COMMAND, 0);
		*status = 2;
		return 1;
	}
	o->command = word;
	for (i = 0; i < COUNT(commands); i++)
		if (strcmp(word, commands[i]) == 0)
			return 0;
	*status = bad_command(word);
	return 1;
}

/*
 * record's operands: one that is not a regular file is the directory to
 * walk (whose errors manifest_record() reports, as before files were
 * taken), anything else a list of files. 0, or 2 once reported.
 */
static int take_record_operands(struct opts *o, int n, char **argv)
{
	struct stat st;
	int found = n == 1 && lstat(argv[0], &st) == 0;

	if (found && S_ISLNK(st.st_mode)) {
		warnx("%s: a symbolic link: name the directory or file it points to",
		      argv[0]);
		return 2;
	}
	if (n == 1 && (!found || !S_ISREG(st.st_mode))) {
		o->root = argv[0];
		return 0;
	}
	o->files = argv;
	o->nfiles = n;
	return 0;
}

/* The operands a command takes; 0, or 2 after the usage text. */
static int take_operands(struct opts *o, int argc, char **argv)
{
	int operands = argc - optind;
	int record = strcmp(o->command, "record") == 0;
	int add = strcmp(o->command, "add") == 0;

	if (record && operands >= 1) {
		if (take_record_operands(o, operands, argv + optind) != 0)
			return 2;
	} else if (add && operands >= 2) {
		o->manifest = argv[optind];
		o->files = argv + optind + 1;
		o->nfiles = operands - 1;
	} else if (!record && !add && operands == 2) {
		o->manifest = argv[optind];
		o->root = argv[optind + 1];
	} else {
		warnx("%s takes %s, got %d", o->command,
		      record ? "1 operand (<dir>), or files (<file>...)"
		      : add  ? "a manifest and files (<manifest> <file>...)"
			     : "2 operands (<manifest> <dir>)",
		      operands);
		usage(stderr);
		return 2;
	}
	if ((o->dry_run || o->fix_owner || o->allow_v1 || o->accept_new) &&
	    strcmp(o->command, "restore") != 0) {
		warnx("--dry-run, --fix-owner, --accept-new-content and --allow-v1 only apply to restore");
		return 2;
	}
	if (o->listed_only && (record || add)) {
		warnx("--listed-only only applies to verify and restore");
		return 2;
	}
	if ((o->one_fs || o->pseudo) && o->files != NULL) {
		warnx("--one-file-system and --include-pseudo only apply to walking a directory");
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts_getopt g;
	struct opts o = { 0 };
	int status;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (parse_command(&o, argv[1], &status))
		return status;
	opts_build(&g, &prog, options, COUNT(options), AFTER_COMMAND);
	optind = 2;
	switch (opts_parse(&g, argc, argv, &o, &status)) {
	case 1:
		return status;
	case -1:
		usage(stderr);
		opts_suggest_getopt(stderr, &g, argv[optind - 1]);
		return 2;
	}
	status = take_operands(&o, argc, argv);
	return status != 0 ? status : run(&o);
}
