/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest restore, one file at a time. Restore writes capabilities,
 * and with --fix-owner an owner and a mode that may carry set-user-ID
 * bits: root's power, handed to whatever sits at a recorded path. So it
 * writes only to a file it can vouch for, and holds that file still while
 * it writes:
 *
 *  - its owner is root or the recorded owner (anyone else's file was put
 *    there by them);
 *  - with --fix-owner, every directory from the tree's root down is
 *    writable by root alone (elsewhere the file at the path may be one a
 *    user moved or linked there, and one made set-user-ID or capable in
 *    their directory they could keep, even after an upgrade replaced the
 *    recorded program);
 *  - nobody but root and the recorded owner may write the file itself,
 *    as it is and as --fix-owner would leave it (the recorded mode and
 *    ACL);
 *  - its content is the recorded one (SHA-256, from version 3 on), or,
 *    with --accept-new-content, it is where only root could have put it:
 *    root's, written by root alone, and every directory from "/" down to
 *    it root's alone (a package upgrade: new content, but no user's);
 *  - the content is hashed, and everything written, through one inode:
 *    the descriptor opened without following links, reopened for reading
 *    through its magic link, under a read lease that proves no process
 *    had it open for writing and that nobody opened it for writing (or
 *    truncated it with truncate(2)) until the last change was made
 *    (asked again after it); and the size, once they are made, is the
 *    size hashed (an open with
 *    O_RDONLY | O_TRUNC empties a file without breaking a read lease).
 *
 * Anything else is refused with the file and the reason, and the file is
 * left exactly as it was. Taking capabilities away (an extra file) needs
 * none of this: it only ever lowers privilege.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capmanifest.h"
#include "shquote.h"

void print_entry_to(FILE *out, const char *label, const struct entry *e)
{
	fprintf(out, "%s ", label);
	print_escaped(out, e->path);
	fprintf(out, " %s", e->text);
	if (e->rootid != 0)
		fprintf(out, " [rootid=%u]", (unsigned)e->rootid);
	fputc('\n', out);
}

void print_entry(const char *label, const struct entry *e)
{
	print_entry_to(stdout, label, e);
}

/* fail_entry(), on err: restore's messages go where its ctx says. */
static void fail_entry_to(FILE *err, const char *what, const char *path, int e)
{
	fprintf(err, "capmanifest: cannot %s ", what);
	print_escaped(err, path);
	fprintf(err, ": %s\n",
		e == EINVAL ? "not a regular file" : content_strerror(e));
}

void fail_entry(const char *what, const char *path, int err)
{
	fail_entry_to(stderr, what, path, err);
}

/* "capmanifest: <path>: has <fields>, manifest says <fields>: <why>" */
static void refuse_meta(FILE *err, const char *path, const struct meta *have,
			const struct meta *want, const char *why)
{
	fprintf(err, "capmanifest: ");
	print_escaped(err, path);
	fprintf(err, ": has ");
	print_meta(err, have, want);
	fprintf(err, ", manifest says ");
	print_meta(err, want, have);
	fprintf(err, ": %s\n", why);
}

/* "capmanifest: <path>: <reason, printf-style>" on one line. */
__attribute__((format(printf, 3, 4))) static void
refuse(FILE *err, const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(err, "capmanifest: ");
	print_escaped(err, path);
	fprintf(err, ": ");
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
}

/*
 * "capmanifest: <path>: content differs: has sha256=X, manifest says
 * sha256=Y", or, for a manifest without digests, that it records none:
 * the start of every content refusal; the caller ends the line.
 */
static void refuse_content(FILE *err, const char *path,
			   const struct entry *want,
			   const unsigned char have[SHA256_SIZE], int version)
{
	fprintf(err, "capmanifest: ");
	print_escaped(err, path);
	if (want->has_digest) {
		fprintf(err, ": content differs: has ");
		print_digest(err, have);
		fprintf(err, ", manifest says ");
		print_digest(err, want->digest);
	} else {
		fprintf(err,
			": the manifest (version %d) records no content digest",
			version);
	}
}

/*
 * Content that is not the recorded one (or not recorded): taken only
 * with --accept-new-content, and only where nobody but root could have
 * put it. 0 (taken, and said so on ctx->out) or -1 (refused, said why).
 * Without the option the same rule is judged, so that the refusal names
 * the option only where it would take the file (and notes that for the
 * command printed at the end), and otherwise says why it would not.
 */
static int accept_new(struct ctx *ctx, const struct entry *want, int fd,
		      const struct stat *st, const struct way *way,
		      const unsigned char d[SHA256_SIZE])
{
	const struct opts *o = ctx->o;
	const struct way *not = NULL;
	char why[WHY_SIZE];
	int rc = 0;

	why[0] = '\0';
	if (st->st_uid != 0) {
		snprintf(why, sizeof(why), "uid %u owns it",
			 (unsigned)st->st_uid);
	} else if (!way->root_only) {
		not = way;
	} else {
		/* The way to the tree's root, from "/": once a run. */
		if (!ctx->above_checked) {
			if (way_to(ctx->o->root, ctx->rootfd, 0, &ctx->above) <
			    0) {
				fail_entry_to(ctx->err,
					      "check the directories above",
					      want->path, errno);
				return -1;
			}
			ctx->above_checked = 1;
		}
		if (!ctx->above.root_only)
			not = &ctx->above;
		else
			rc = writers_besides(fd, st, 0, why);
		if (rc < 0) {
			fail_entry_to(ctx->err, "check who may write",
				      want->path, errno);
			return -1;
		}
		if (rc == 0)
			why[0] = '\0';
	}
	if (not != NULL || why[0] != '\0') {
		refuse_content(ctx->err, want->path, want, d,
			       ctx->manifest_version);
		fputs(o->accept_new
			      ? ": not accepted: "
			      : ": not restored (nor with --accept-new-content: ",
		      ctx->err);
		if (not != NULL)
			print_way(ctx->err, not );
		else
			fputs(why, ctx->err);
		fputs(o->accept_new ? "\n" : ")\n", ctx->err);
		return -1;
	}
	if (!o->accept_new) {
		refuse_content(ctx->err, want->path, want, d,
			       ctx->manifest_version);
		fputs(": not restored (--accept-new-content takes it: it is root's alone from /)\n",
		      ctx->err);
		ctx->hint_accept = 1;
		return -1;
	}
	ctx->accepted = 1;
	fprintf(ctx->out, "%s ", o->dry_run ? "would accept:" : "accepted:");
	print_escaped(ctx->out, want->path);
	fprintf(ctx->out, " has ");
	print_digest(ctx->out, d);
	if (want->has_digest) {
		fprintf(ctx->out, ", manifest says ");
		print_digest(ctx->out, want->digest);
	} else {
		fprintf(ctx->out, ", manifest records none");
	}
	fprintf(ctx->out, " (root's alone from /)\n");
	return 0;
}

/*
 * Whether restore may write to the file open as fd at all, and the
 * content descriptor that holds it still while it does (a read lease,
 * unless this is a dry run), the size hashed in *size; -1 once refused
 * or failed, each said on stderr. The checks are those at the top of
 * this file, made on the file's state once the lease is held: a process
 * that could still open it for writing must have been allowed to before
 * then.
 */
static int vouch(struct ctx *ctx, const struct entry *want, int fd,
		 int need_fix, const struct way *way, off_t *size)
{
	const struct opts *o = ctx->o;
	uid_t owner = want->has_meta ? want->meta.uid : 0;
	unsigned char d[SHA256_SIZE];
	char why[WHY_SIZE];
	struct stat st;
	int cfd, rc;

	cfd = content_open(fd);
	if (cfd < 0) {
		fail_entry_to(ctx->err, "read", want->path, errno);
		return -1;
	}
	if (!o->dry_run && content_lease(cfd) < 0) {
		if (errno == EAGAIN)
			refuse(ctx->err, want->path,
			       "open for writing by a process, so its content could change after it is checked: not restored");
		else
			refuse(ctx->err, want->path,
			       "cannot take a read lease on it (%s), so nothing would hold its content still: not restored",
			       strerror(errno));
		goto fail;
	}
	if (fstat(fd, &st) < 0) {
		fail_entry_to(ctx->err, "read", want->path, errno);
		goto fail;
	}
	if (st.st_uid != 0 && st.st_uid != owner) {
		refuse(ctx->err, want->path,
		       "owned by uid %u, neither root nor the recorded owner (%u): not restored",
		       (unsigned)st.st_uid, (unsigned)owner);
		goto fail;
	}
	if (need_fix && !way->root_only) {
		fprintf(ctx->err, "capmanifest: ");
		print_escaped(ctx->err, want->path);
		fputs(": ", ctx->err);
		print_way(ctx->err, way);
		fputs(": not restored (--fix-owner changes no file in a directory that others than root may write)\n",
		      ctx->err);
		goto fail;
	}
	rc = writers_besides(fd, &st, owner, why);
	if (rc != 0) {
		if (rc < 0)
			fail_entry_to(ctx->err, "check who may write",
				      want->path, errno);
		else
			refuse(ctx->err, want->path,
			       "%s, so its content could change after it is checked: not restored",
			       why);
		goto fail;
	}
	/*
	 * And as --fix-owner will leave it: a recorded mode (or ACL) that
	 * lets others write would make the file theirs to change once it
	 * is capable, or set-user-ID (a store through a shared mapping
	 * keeps both), as surely as one that lets them now.
	 */
	rc = need_fix ? writers_after_fix(fd, &st, &want->meta, why) : 0;
	if (rc != 0) {
		if (rc < 0)
			fail_entry_to(ctx->err, "check who may write",
				      want->path, errno);
		else
			refuse(ctx->err, want->path,
			       "as the manifest has it, %s, so its content could change once it is restored: not restored",
			       why);
		goto fail;
	}
	if (content_digest(cfd, d, size) < 0) {
		fail_entry_to(ctx->err, "read", want->path, errno);
		goto fail;
	}
	if ((!want->has_digest || memcmp(d, want->digest, SHA256_SIZE) != 0) &&
	    accept_new(ctx, want, fd, &st, way, d) < 0)
		goto fail;
	/* Broken: someone asked to write it while it was checked. */
	if (!o->dry_run && !content_lease_held(cfd)) {
		refuse(ctx->err, want->path,
		       "opened for writing while it was checked: not restored");
		goto fail;
	}
	return cfd;
fail:
	close(cfd);
	return -1;
}

/*
 * A file whose owner, group, mode or ACL differ, in a run
 * without --fix-owner: refused. Would --fix-owner restore it? The checks
 * vouch() makes are run as a dry run with it (and with
 * --accept-new-content, which the command print_repair() prints adds
 * where the content needs it), their messages kept aside: the refusal
 * names --fix-owner only if they pass, and otherwise is followed by the
 * reason they gave. A hint that names an option must work when followed.
 */
static void refuse_unfixed(struct ctx *ctx, const struct entry *want, int fd,
			   const struct meta *now, const struct way *way)
{
	struct opts po = *ctx->o;
	struct ctx pc = *ctx;
	char *why = NULL, *said = NULL;
	size_t whylen = 0, saidlen = 0;
	off_t size;
	int cfd = -1;

	po.dry_run = po.fix_owner = po.accept_new = 1;
	pc.o = &po;
	pc.accepted = 0;
	pc.err = open_memstream(&why, &whylen);
	pc.out = open_memstream(&said, &saidlen);
	if (pc.err != NULL && pc.out != NULL) {
		cfd = vouch(&pc, want, fd, 1, way, &size);
		/* What it learnt of the directories above holds here too. */
		ctx->above = pc.above;
		ctx->above_checked = pc.above_checked;
	}
	if (pc.err != NULL)
		fclose(pc.err);
	if (pc.out != NULL)
		fclose(pc.out);
	if (cfd >= 0) {
		close(cfd);
		refuse_meta(ctx->err, want->path, now, &want->meta,
			    "not restored (--fix-owner re-applies them)");
		ctx->hint_fix = 1;
		if (pc.accepted && !ctx->o->accept_new)
			ctx->hint_accept = 1;
	} else {
		/* No hint where the dry run could not be made (ENOMEM). */
		refuse_meta(ctx->err, want->path, now, &want->meta,
			    "not restored");
		if (why != NULL)
			fputs(why, ctx->err);
	}
	free(why);
	free(said);
}

/* " word", the operand as one shell word (shquote.h); 0, or -1 (EILSEQ). */
static int put_word(FILE *out, const char *operand)
{
	char *word = shquote_path_dup(operand);

	if (word == NULL && errno == EILSEQ)
		return -1;
	if (word == NULL) {
		perror("capmanifest");
		exit(2);
	}
	fprintf(out, " %s", word);
	free(word);
	return 0;
}

void print_repair(const struct ctx *ctx)
{
	const struct opts *o = ctx->o;
	char *line = NULL;
	size_t len = 0;
	FILE *cmd;
	int shown;

	if (!ctx->hint_fix && !ctx->hint_accept && !ctx->hint_v1)
		return;
	cmd = open_memstream(&line, &len);
	if (cmd == NULL) {
		perror("capmanifest");
		exit(2);
	}
	/* The run's own options (-n aside: this is the repair), then the
	 * ones the refusals above named, in the usage's order. */
	fputs("capmanifest restore", cmd);
	fputs(o->one_fs ? " -x" : "", cmd);
	fputs(o->pseudo ? " --include-pseudo" : "", cmd);
	fputs(o->fix_owner || ctx->hint_fix ? " --fix-owner" : "", cmd);
	fputs(o->accept_new || ctx->hint_accept ? " --accept-new-content" : "",
	      cmd);
	fputs(o->allow_v1 || ctx->hint_v1 ? " --allow-v1" : "", cmd);
	fputs(o->listed_only ? " --listed-only" : "", cmd);
	shown = strcmp(o->manifest, "-") != 0 &&
		put_word(cmd, o->manifest) == 0 && put_word(cmd, o->root) == 0;
	if (fclose(cmd) != 0) {
		perror("capmanifest");
		exit(2);
	}
	if (shown)
		fprintf(stderr, "capmanifest: to restore them: %s\n", line);
	else if (strcmp(o->manifest, "-") == 0)
		fprintf(stderr,
			"capmanifest: to restore them: %s - DIR, the manifest on standard input again\n",
			line);
	else
		fputs("capmanifest: to restore them, run restore with the options named above (" SHQUOTE_UNSHOWN
		      ")\n",
		      stderr);
	free(line);
}

/* An extra file: its capabilities go, whatever it is. */
static int remove_caps(const struct ctx *ctx, const struct entry *have, int fd)
{
	if (!ctx->o->dry_run && entry_remove_caps(fd) < 0) {
		fail_entry_to(ctx->err, "remove capabilities of", have->path,
			      errno);
		return 1;
	}
	print_entry_to(ctx->out,
		       ctx->o->dry_run ? "would remove:" : "removed:", have);
	return 0;
}

/*
 * What no option mends, said before anything else so that no hint names
 * one: a manifest that recorded only that the file had an ACL (before
 * version 4), where it now has none (which cannot be re-created) or one
 * with named entries (whom they let run the file was never recorded, so
 * they cannot be taken for the recorded ones). 1 when refused.
 */
static int refuse_unrecorded_acl(const struct ctx *ctx,
				 const struct entry *want,
				 const struct meta *now)
{
	char why[WHY_SIZE];

	if (!(want->meta.acl && want->meta.acl_text == NULL) ||
	    acl_matches(now, &want->meta))
		return 0;
	if (!now->acl)
		snprintf(
			why, sizeof(why),
			"not restored: the ACL's entries were not recorded, so it cannot be re-created");
	else
		snprintf(
			why, sizeof(why),
			"not restored: the manifest (version %d) records that it has an ACL, not its entries, so whom its named entries let run it cannot be checked; record it again",
			ctx->manifest_version);
	refuse_meta(ctx->err, want->path, now, &want->meta, why);
	return 1;
}

int restore_one(enum change c, const struct entry *want,
		const struct entry *have, struct ctx *ctx)
{
	const struct opts *o = ctx->o;
	const struct entry *e = want != NULL ? want : have;
	struct way way;
	struct stat st;
	struct meta now;
	cap_t caps = NULL;
	off_t size;
	int fd, cfd = -1, need_fix, rc = -1;

	/* A manifest registered for a few files (the dpkg trigger's) says
	 * nothing about the rest of the tree: ping keeps its capability. */
	if (c == EXTRA && o->listed_only)
		return 0;

	fd = open_checked_beneath(ctx->rootfd, e->path, &st, &way);
	if (fd < 0 || entry_meta(fd, &st, &now) < 0) {
		fail_entry_to(ctx->err,
			      c == EXTRA ? "remove capabilities of" : "set",
			      e->path, errno);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (c == EXTRA) {
		rc = remove_caps(ctx, have, fd);
		meta_free(&now);
		close(fd);
		return rc;
	}
	need_fix = want->has_meta && !meta_matches(&now, &want->meta);
	if (need_fix && refuse_unrecorded_acl(ctx, want, &now))
		goto out;
	if (need_fix && !o->fix_owner) {
		refuse_unfixed(ctx, want, fd, &now, &way);
		goto out;
	}
	if (c == SAME && !need_fix) {
		rc = 0;
		goto out;
	}
	/* From here on this file is written to: vouch for it first. */
	cfd = vouch(ctx, want, fd, need_fix, &way, &size);
	if (cfd < 0)
		goto out;
	if (need_fix) {
		if (!o->dry_run && entry_fix_meta(fd, &want->meta, &now) < 0) {
			fail_entry_to(ctx->err,
				      "change owner, group, mode or ACL of",
				      e->path, errno);
			goto out;
		}
		fprintf(ctx->out, "%s ", o->dry_run ? "would fix:" : "fixed:");
		print_escaped(ctx->out, e->path);
		fputc(' ', ctx->out);
		print_meta(ctx->out, &want->meta, &now);
		fputc('\n', ctx->out);
	}
	/* Written after the fix, which took them off. */
	caps = cap_from_text(want->text);
	if (caps == NULL || cap_set_nsowner(caps, want->rootid) < 0) {
		fail_entry_to(ctx->err, "set", e->path, errno);
		goto out;
	}
	/*
	 * Through cfd, the lease's descriptor of the same inode: an O_PATH
	 * one is refused by cap_set_fd() in every libcap but ours (EBADF).
	 */
	if (!o->dry_run && cap_set_fd(cfd, caps) < 0) {
		fail_entry_to(ctx->err, "set", e->path, errno);
		goto out;
	}
	/*
	 * The lease kept every writer out but one: open(O_RDONLY | O_TRUNC)
	 * by someone who may write the file (its recorded owner) empties it
	 * without breaking a read lease. Only that, so the size tells: not
	 * the one hashed, and the capabilities written go again.
	 */
	if (!o->dry_run && (fstat(fd, &st) < 0 || st.st_size != size)) {
		if (entry_remove_caps(fd) < 0)
			fail_entry_to(ctx->err, "remove capabilities of",
				      e->path, errno);
		refuse(ctx->err, e->path,
		       "truncated while it was restored: its capabilities are taken off again");
		goto out;
	}
	/*
	 * And no process asked to open it for writing while it changed: the
	 * opener passed its permission check then and waits for the lease,
	 * to get its descriptor once cfd is closed, on a capable file that
	 * a store through a shared mapping would change and leave capable.
	 * Taken off before the lease ends, they are never there for it.
	 */
	if (!o->dry_run && !content_lease_held(cfd)) {
		if (entry_remove_caps(fd) < 0)
			fail_entry_to(ctx->err, "remove capabilities of",
				      e->path, errno);
		refuse(ctx->err, e->path,
		       "opened for writing while it was restored: its capabilities are taken off again");
		goto out;
	}
	print_entry_to(ctx->out, o->dry_run ? "would set:" : "set:", want);
	rc = 0;
out:
	meta_free(&now);
	cap_free(caps);
	if (cfd >= 0)
		close(cfd); /* the lease ends here, after every change */
	close(fd);
	return rc < 0 ? 1 : 0;
}
