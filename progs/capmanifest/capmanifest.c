/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: record which files of a tree carry capabilities (and who
 * may run them: owner, group, mode, ACL), verify a tree against such a
 * record, and restore it. Images, tarballs, rsync and upgrades lose file
 * capabilities silently; this makes the loss visible (verify exits 1,
 * usable in CI) and repairable (restore), without ever granting a
 * capability to a file that more people can run than when it was recorded.
 *
 *   capmanifest record [-x] [--include-pseudo] DIR            manifest on stdout
 *   capmanifest verify [-x] [--include-pseudo] MANIFEST DIR   differences; exit 1 if any
 *   capmanifest restore [-n] [--fix-owner] [--allow-v1] [--include-pseudo] MANIFEST DIR
 * Exit status: 0 success/no difference, 1 differences or failed changes
 * (record: a manifest written, but some paths could not be read), 2
 * usage, unreadable manifest or tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capmanifest.h"
#include "suggest.h"
#include "version.h"

enum { OPT_FIX_OWNER = 256, OPT_ALLOW_V1, OPT_PSEUDO,
       OPT_LISTED_ONLY };

/* The subcommands, for "did you mean". */
static const char *const commands[] = { "record", "verify", "restore" };

struct opts {
	int one_fs;
	int pseudo;		/* walk pseudo filesystems (proc, sysfs, ...) too */
	int dry_run;
	int fix_owner;		/* restore: re-apply owner, group and mode */
	int allow_v1;		/* restore: accept a manifest without them */
	int listed_only;	/* restore: leave files the manifest omits alone */
	const char *command;
	const char *manifest;
	const char *root;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capmanifest record [-x] [--include-pseudo] <dir>\n"
		"       capmanifest verify [-x] [--include-pseudo] <manifest> <dir>\n"
		"       capmanifest restore [-n] [--fix-owner] [--allow-v1] [--listed-only]\n"
		"                           [--include-pseudo] <manifest> <dir>\n"
		"  -x, --one-file-system  do not cross mount points\n"
		"  --include-pseudo       also walk pseudo filesystems (proc, sysfs, cgroup,\n"
		"                         debugfs, ...) mounted below <dir>\n"
		"  -n, --dry-run          say what restore would change, change nothing\n"
		"  --fix-owner            restore owner, group and mode too, where they differ\n"
		"  --allow-v1             restore a version 1 manifest, which records no owner,\n"
		"                         group or mode, without checking them\n"
		"  --listed-only          restore only the files the manifest lists; leave the\n"
		"                         capabilities of every other file alone\n"
		"  --version              print the version and exit\n");
}

/*
 * The plain answer before the usage text: which word was wrong, and what
 * was probably meant. capmanifest is ours, so no libcap line goes first.
 */
static int bad_command(const char *word)
{
	suggest_unknown(stderr, "capmanifest", "command", word, commands,
			sizeof(commands) / sizeof(commands[0]));
	usage(stderr);
	return 2;
}

static int load_manifest(struct manifest *m, const char *name)
{
	FILE *in = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
	int rc;

	if (in == NULL) {
		fprintf(stderr, "capmanifest: %s: %s\n", name, strerror(errno));
		return -1;
	}
	rc = manifest_read(m, in, name);
	if (in != stdin)
		fclose(in);
	return rc;
}

static void print_entry(const char *label, const struct entry *e)
{
	printf("%s ", label);
	print_escaped(stdout, e->path);
	printf(" %s", e->text);
	if (e->rootid != 0)
		printf(" [rootid=%u]", (unsigned)e->rootid);
	printf("\n");
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

/* The same on stderr, for a file restore leaves alone. */
static void refuse_meta(const char *path, const struct meta *have,
			const struct meta *want, const char *why)
{
	fprintf(stderr, "capmanifest: ");
	print_escaped(stderr, path);
	fprintf(stderr, ": has ");
	print_meta(stderr, have, want);
	fprintf(stderr, ", manifest says ");
	print_meta(stderr, want, have);
	fprintf(stderr, ": %s\n", why);
}

static void fail_entry(const char *what, const char *path, int err)
{
	fprintf(stderr, "capmanifest: cannot %s ", what);
	print_escaped(stderr, path);
	fprintf(stderr, ": %s\n", err == EINVAL ? "not a regular file" :
		strerror(err));
}

enum change { SAME, MISSING, EXTRA, DIFFERS };

struct ctx {
	const struct opts *o;
	int rootfd;		/* O_PATH, the tree's root */
};

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
		   int (*act)(enum change, const struct entry *, const struct entry *, const struct ctx *),
		   const struct ctx *ctx)
{
	size_t i = 0, j = 0;
	int failures = 0;

	while (i < want->count || j < have->count) {
		int order = i == want->count ? 1 : j == have->count ? -1 :
			    strcmp(want->entries[i].path, have->entries[j].path);

		if (order < 0) {
			failures += act(MISSING, &want->entries[i++], NULL, ctx);
		} else if (order > 0) {
			const struct entry *h = &have->entries[j++];
			const char *unread = manifest_unread_above(want, h->path);

			/* Not recorded is not "not there": leave it alone. */
			if (unread != NULL)
				not_covered(h->path, unread);
			else
				failures += act(EXTRA, NULL, h, ctx);
		} else {
			const struct entry *w = &want->entries[i++], *h = &have->entries[j++];
			int same = strcmp(w->text, h->text) == 0 && w->rootid == h->rootid;

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

	*fd = entry_open_beneath(c->rootfd, path, &st);
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

static int report(enum change c, const struct entry *want,
		  const struct entry *have, const struct ctx *ctx)
{
	struct meta now;
	int found = c != SAME, fd;

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
		now = have->meta;	/* recorded through its own descriptor */
	} else if (current_meta(ctx, want->path, &fd, &now) < 0) {
		return found;		/* no such file: "missing" says it */
	} else {
		close(fd);
	}
	if (!meta_equal(&now, &want->meta)) {
		print_meta_differs(want->path, &now, &want->meta);
		found = 1;
	}
	return found;
}

/*
 * Makes one file match the manifest. Capabilities are only ever written
 * to a file whose owner, group, mode and ACL presence are those recorded
 * (checked through the descriptor they are written through), or made so
 * first with --fix-owner; otherwise nothing is written for it.
 */
static int restore_one(enum change c, const struct entry *want,
		       const struct entry *have, const struct ctx *ctx)
{
	const struct opts *o = ctx->o;
	const struct entry *e = want != NULL ? want : have;
	struct meta now;
	cap_t caps = NULL;
	int fd, fixed = 0, rc = -1;

	/* A manifest registered for a few files (the dpkg trigger's) says
	 * nothing about the rest of the tree: ping keeps its capability. */
	if (c == EXTRA && o->listed_only)
		return 0;

	if (current_meta(ctx, e->path, &fd, &now) < 0) {
		fail_entry(c == EXTRA ? "remove capabilities of" : "set", e->path, errno);
		return 1;
	}
	if (c != EXTRA && want->has_meta && !meta_equal(&now, &want->meta)) {
		if (!o->fix_owner) {
			refuse_meta(e->path, &now, &want->meta,
				    "not restored (--fix-owner re-applies them)");
			goto out;
		}
		if (want->meta.acl && !now.acl) {
			refuse_meta(e->path, &now, &want->meta,
				    "not restored: the ACL's entries were not recorded, so it cannot be re-created");
			goto out;
		}
		if (!o->dry_run && entry_fix_meta(fd, &want->meta, &now) < 0) {
			fail_entry("change owner, group or mode of", e->path, errno);
			goto out;
		}
		printf("%s ", o->dry_run ? "would fix:" : "fixed:");
		print_escaped(stdout, e->path);
		printf(" ");
		print_meta(stdout, &want->meta, &now);
		printf("\n");
		fixed = 1;	/* chown cleared the capabilities */
	}
	if (c == SAME && !fixed) {
		rc = 0;
		goto out;
	}
	if (c != EXTRA) {
		caps = cap_from_text(want->text);
		if (caps == NULL || cap_set_nsowner(caps, want->rootid) < 0) {
			fail_entry("set", e->path, errno);
			goto out;
		}
	}
	if (!o->dry_run && cap_set_fd(fd, caps) < 0) {
		fail_entry(c == EXTRA ? "remove capabilities of" : "set", e->path, errno);
		goto out;
	}
	if (c == EXTRA)
		print_entry(o->dry_run ? "would remove:" : "removed:", have);
	else
		print_entry(o->dry_run ? "would set:" : "set:", want);
	rc = 0;
out:
	cap_free(caps);
	close(fd);
	return rc < 0 ? 1 : 0;
}

/*
 * Every file is read through /proc/thread-self/fd (the xattr calls refuse
 * O_PATH descriptors): without it nothing could be read safely.
 */
static int check_proc(void)
{
	if (access("/proc/thread-self/fd", X_OK) == 0)
		return 0;
	fprintf(stderr, "capmanifest: /proc/thread-self/fd: %s (capmanifest reads each file through its own descriptor there; is /proc mounted?)\n",
		strerror(errno));
	return -1;
}

static int run(const struct opts *o)
{
	struct manifest want = { 0 }, have = { 0 };
	struct ctx ctx = { .o = o, .rootfd = -1 };
	int status = 2, failures, rc;

	if (check_proc() < 0)
		return 2;
	if (strcmp(o->command, "record") == 0) {
		/*
		 * What could not be read is named on stderr and, as "!unread"
		 * lines, in the manifest, so verify and restore never take
		 * the files there for extra ones; the rest is recorded.
		 */
		rc = manifest_record(&have, o->root, o->one_fs, o->pseudo);
		if (rc >= 0) {
			manifest_write(&have, stdout);
			status = rc == 0 ? 0 : 1;
		}
		if (rc > 0)
			fprintf(stderr, "capmanifest: %zu path%s could not be read: the manifest marks %s \"" UNREAD_TAG "\" and does not cover %s\n",
				have.nunread, have.nunread == 1 ? "" : "s",
				have.nunread == 1 ? "it" : "them",
				have.nunread == 1 ? "it" : "them");
		manifest_free(&have);
		return status;
	}
	if (load_manifest(&want, o->manifest) < 0)
		goto out;
	if (want.version < 2 && strcmp(o->command, "restore") == 0 &&
	    !o->allow_v1) {
		fprintf(stderr, "capmanifest: %s: a version 1 manifest records no owner, group or mode, so restore cannot check who may run the files it grants to; record the tree again, or pass --allow-v1 to restore without that check\n",
			o->manifest);
		goto out;
	}
	if (want.version < 2)
		fprintf(stderr, "capmanifest: %s: version 1 manifest: owner, group and mode are not recorded, so not %s\n",
			o->manifest, strcmp(o->command, "verify") == 0 ? "verified" : "checked");
	ctx.rootfd = open(o->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ctx.rootfd < 0) {
		fprintf(stderr, "capmanifest: %s: %s\n", o->root, strerror(errno));
		goto out;
	}
	/* Comparing with a tree not read whole would report false differences. */
	if (o->listed_only ? manifest_record_listed(&have, &want, ctx.rootfd) < 0
			   : manifest_record(&have, o->root, o->one_fs, o->pseudo) != 0)
		goto out;
	failures = compare(&want, &have, strcmp(o->command, "verify") == 0 ?
			   report : restore_one, &ctx);
	status = failures ? 1 : 0;
out:
	if (ctx.rootfd >= 0)
		close(ctx.rootfd);
	manifest_free(&want);
	manifest_free(&have);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "one-file-system", no_argument, NULL, 'x' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "fix-owner", no_argument, NULL, OPT_FIX_OWNER },
		{ "allow-v1", no_argument, NULL, OPT_ALLOW_V1 },
		{ "include-pseudo", no_argument, NULL, OPT_PSEUDO },
		{ "listed-only", no_argument, NULL, OPT_LISTED_ONLY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	int c, operands;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	o.command = argv[1];
	if (strcmp(o.command, "-h") == 0 || strcmp(o.command, "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(o.command, "--version") == 0)
		return version_print("capmanifest") == 0 ? 0 : 2;
	if (strcmp(o.command, "record") != 0 &&
	    strcmp(o.command, "verify") != 0 &&
	    strcmp(o.command, "restore") != 0)
		return bad_command(o.command);
	optind = 2;
	while ((c = getopt_long(argc, argv, "xnh", longopts, NULL)) != -1) {
		switch (c) {
		case 'x':
			o.one_fs = 1;
			break;
		case 'n':
			o.dry_run = 1;
			break;
		case OPT_FIX_OWNER:
			o.fix_owner = 1;
			break;
		case OPT_ALLOW_V1:
			o.allow_v1 = 1;
			break;
		case OPT_PSEUDO:
			o.pseudo = 1;
			break;
		case OPT_LISTED_ONLY:
			o.listed_only = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			suggest_getopt(stderr, "capmanifest", argv[optind - 1],
				       longopts);
			usage(stderr);
			return 2;
		}
	}
	operands = argc - optind;
	if (strcmp(o.command, "record") == 0 && operands == 1) {
		o.root = argv[optind];
	} else if ((strcmp(o.command, "verify") == 0 ||
		    strcmp(o.command, "restore") == 0) && operands == 2) {
		o.manifest = argv[optind];
		o.root = argv[optind + 1];
	} else {
		fprintf(stderr, "capmanifest: %s takes %s, got %d\n",
			o.command, strcmp(o.command, "record") == 0 ?
			"1 operand (<dir>)" : "2 operands (<manifest> <dir>)",
			operands);
		usage(stderr);
		return 2;
	}
	if ((o.dry_run || o.fix_owner || o.allow_v1 || o.listed_only) &&
	    strcmp(o.command, "restore") != 0) {
		fprintf(stderr, "capmanifest: --dry-run, --fix-owner, --allow-v1 and --listed-only only apply to restore\n");
		return 2;
	}
	return run(&o);
}
