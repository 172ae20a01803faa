/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: record which files of a tree carry capabilities, verify a
 * tree against such a record, and restore it. Images, tarballs, rsync and
 * upgrades lose file capabilities silently; this makes the loss visible
 * (verify exits 1, usable in CI) and repairable (restore).
 *
 *   capmanifest record [-x] DIR            manifest on stdout
 *   capmanifest verify [-x] MANIFEST DIR   differences; exit 1 if any
 *   capmanifest restore [-n] MANIFEST DIR  make DIR match; report each change
 * Exit status: 0 success/no difference, 1 differences or failed changes,
 * 2 usage, unreadable manifest or tree.
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

struct opts {
	int one_fs;
	int dry_run;
	const char *command;
	const char *manifest;
	const char *root;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capmanifest record [-x] <dir>\n"
		"       capmanifest verify [-x] <manifest> <dir>\n"
		"       capmanifest restore [-n] <manifest> <dir>\n"
		"  -x, --one-file-system  do not cross mount points\n"
		"  -n, --dry-run          say what restore would change, change nothing\n");
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

enum change { SAME, MISSING, EXTRA, DIFFERS };

/*
 * Walks both sorted lists together and calls act() for each difference:
 * want is the manifest's entry (NULL for an extra), have the tree's.
 */
static int compare(const struct manifest *want, const struct manifest *have,
		   int (*act)(enum change, const struct entry *, const struct entry *, void *),
		   void *ctx)
{
	size_t i = 0, j = 0;
	int failures = 0;

	while (i < want->count || j < have->count) {
		int order = i == want->count ? 1 : j == have->count ? -1 :
			    strcmp(want->entries[i].path, have->entries[j].path);

		if (order < 0) {
			failures += act(MISSING, &want->entries[i++], NULL, ctx);
		} else if (order > 0) {
			failures += act(EXTRA, NULL, &have->entries[j++], ctx);
		} else {
			const struct entry *w = &want->entries[i++], *h = &have->entries[j++];

			if (strcmp(w->text, h->text) != 0 || w->rootid != h->rootid)
				failures += act(DIFFERS, w, h, ctx);
		}
	}
	return failures;
}

static int report(enum change c, const struct entry *want,
		  const struct entry *have, void *ctx)
{
	(void)ctx;
	if (c == MISSING) {
		print_entry("missing:", want);
	} else if (c == EXTRA) {
		print_entry("extra:  ", have);
	} else {
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
	return 1;
}

struct restore_ctx {
	int rootfd;
	int dry_run;
};

static int restore_one(enum change c, const struct entry *want,
		       const struct entry *have, void *arg)
{
	const struct restore_ctx *ctx = arg;
	const struct entry *e = want != NULL ? want : have;
	cap_t caps = NULL;
	int rc = 0;

	if (c != EXTRA) {
		caps = cap_from_text(want->text);
		if (caps == NULL || cap_set_nsowner(caps, want->rootid) < 0)
			rc = -1;
	}
	if (rc == 0 && !ctx->dry_run)
		rc = write_caps_beneath(ctx->rootfd, e->path, caps);
	cap_free(caps);
	if (rc < 0) {
		fprintf(stderr, "capmanifest: cannot %s ", c == EXTRA ? "remove capabilities of" : "set");
		print_escaped(stderr, e->path);
		fprintf(stderr, ": %s\n", strerror(errno));
		return 1;
	}
	if (c == EXTRA)
		print_entry(ctx->dry_run ? "would remove:" : "removed:", have);
	else
		print_entry(ctx->dry_run ? "would set:" : "set:", want);
	return 0;
}

static int run(const struct opts *o)
{
	struct manifest want = { 0 }, have = { 0 };
	int status = 0, failures;

	if (strcmp(o->command, "record") == 0) {
		/* A tree we could not read whole gets no manifest: a partial
		 * one would later call the unread files "extra". */
		if (manifest_record(&have, o->root, o->one_fs) < 0)
			status = 2;
		else
			manifest_write(&have, stdout);
		manifest_free(&have);
		return status;
	}
	if (load_manifest(&want, o->manifest) < 0) {
		manifest_free(&want);
		return 2;
	}
	if (manifest_record(&have, o->root, o->one_fs) < 0) {
		manifest_free(&want);
		manifest_free(&have);
		return 2;
	}
	if (strcmp(o->command, "verify") == 0) {
		failures = compare(&want, &have, report, NULL);
		status = failures ? 1 : 0;
	} else {
		struct restore_ctx ctx = { -1, o->dry_run };

		ctx.rootfd = open(o->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (ctx.rootfd < 0) {
			fprintf(stderr, "capmanifest: %s: %s\n", o->root, strerror(errno));
			status = 2;
		} else {
			failures = compare(&want, &have, restore_one, &ctx);
			status = failures ? 1 : 0;
			close(ctx.rootfd);
		}
	}
	manifest_free(&want);
	manifest_free(&have);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "one-file-system", no_argument, NULL, 'x' },
		{ "dry-run", no_argument, NULL, 'n' },
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
	optind = 2;
	while ((c = getopt_long(argc, argv, "xnh", longopts, NULL)) != -1) {
		switch (c) {
		case 'x':
			o.one_fs = 1;
			break;
		case 'n':
			o.dry_run = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
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
		usage(stderr);
		return 2;
	}
	if (o.dry_run && strcmp(o.command, "restore") != 0) {
		fprintf(stderr, "capmanifest: --dry-run only applies to restore\n");
		return 2;
	}
	return run(&o);
}
