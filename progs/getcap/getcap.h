/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Declarations shared by getcap's modules: options, output, query, walk. */
#ifndef GETCAP_H
#define GETCAP_H

#include <stddef.h>
#include <sys/types.h>

struct opts {
	const char *argv0; /* as invoked: messages and -l */
	int recursive;	   /* -r */
	int verbose;	   /* -v */
	int show_rootid;   /* -n */
	int one_fs;	   /* -x, --one-file-system (ours) */
	char **exclude;	   /* --exclude=PATH (ours), normalised */
	size_t n_exclude;
	int json;  /* --json (ours): one object per line, schema 1 */
	int audit; /* --audit (ours): risk tier and suggestion */
};

/*
 * Output: each thread owns a buffer of whole lines, so a line is never
 * split by another thread's write. Stdout is written through one mutex;
 * stderr lines go out at once, one write(2) each, like libcap's
 * unbuffered stderr.
 */
struct outbuf {
	char *data;
	size_t len, cap;
	int failed; /* out of memory: lines were lost */
};

/*
 * An object is named by the directory's printed path (dir, dirlen; NULL for
 * a command-line operand) and its name in it, joined the way nftw joins.
 */
struct ent {
	int dirfd; /* AT_FDCWD for a command-line operand */
	const char *dir;
	size_t dirlen;
	const char *name;
};

void out_init(struct outbuf *ob);
void out_line(struct outbuf *ob, const struct ent *e, const char *rest);
/*
 * JSON output (--json): set once before any output, read-only afterwards.
 * out_line() then writes {"schema":1,"path":..} objects for -v's bare and
 * "(Not a regular file)" lines, and out_json() one whose remaining fields
 * are the given text (",\"text\":..." and so on, starting with a comma).
 */
void out_set_json(int on);
/*
 * --audit (ours): paths in out_line() are written through escape_fputs's
 * rules, so a name cannot forge or hide lines. Set once, before threads.
 */
void out_set_escape(int on);
void out_json(struct outbuf *ob, const struct ent *e, const char *fields);
char *ent_path(const struct ent *e); /* caller frees; NULL: ENOMEM */
void out_flush(struct outbuf *ob);
void out_maybe_flush(struct outbuf *ob); /* when large or on a tty */
void out_free(struct outbuf *ob);
void out_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Reads security.capability of e->name relative to e->dirfd, never
 * following a final symlink: one getxattrat(2), or lgetxattr(2) where the
 * kernel lacks it. Returns the value's length or -1 with errno set.
 */
ssize_t query_read(const struct ent *e, void *buf, size_t size);

/*
 * Reports one object libcap would query (nftw's FTW_F): prints its line,
 * the bare name with -v when it has no capabilities, or the failure on
 * stderr. in_walk makes a vanished or unsearchable entry look as it does
 * to libcap's nftw (a stat failure): "(Not a regular file)" with -v.
 * Returns the errno of a failed read, or 0.
 */
int query_report(const struct opts *o, struct outbuf *ob, const struct ent *e,
		 int in_walk);

/*
 * --audit and --json: reports on stdout something that could not be
 * examined (a file's capabilities, a directory's contents) as a finding
 * of tier "unknown": " (<what>: <strerror(err)>)" and a risk line with
 * why, or a JSON object with "error", "errno" and that risk.
 */
void query_unknown(const struct opts *o, struct outbuf *ob, const struct ent *e,
		   const char *what, int err, const char *why);

/* How many findings query_unknown() made; main() exits 1 if any. */
unsigned long query_unknown_count(void);

/*
 * The --exclude paths below one operand, spelt as the walk prints them
 * (the operand as given, then "/name" per level), so a plain comparison
 * decides each entry.
 */
struct skip {
	char **paths;
	size_t n;
};

/* Walks the directory path (already lstat'ed, trailing '/' cut). */
void walk_tree(const struct opts *o, const struct skip *skip, struct outbuf *ob,
	       const char *path);

/* 1 when the entry's printed path is one of skip's. */
int is_excluded(const struct skip *s, const struct ent *e);

#endif
