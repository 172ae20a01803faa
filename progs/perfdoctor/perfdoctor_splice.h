/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Changes to a JSON text read by perfdoctor_jscan.c, made as edits of its
 * bytes (replace text[at, at + del) by new bytes), so that everything
 * the change does not touch stays as it was, layout included; and new
 * values written in the layout of their neighbours (indentation, one
 * member a line or all on one, the blank after ':'). Needs only libc.
 */
#ifndef PERFDOCTOR_SPLICE_H
#define PERFDOCTOR_SPLICE_H

#include <stddef.h>

#include "perfdoctor_jscan.h"

struct splice_edit {
	size_t at, del;
	char *ins; /* malloc'd */
	size_t ins_len;
	int seq; /* the order it was added in: edits at one offset keep it */
};

/* A list of edits; a failed addition (no memory) is remembered. */
struct splice {
	struct splice_edit *e;
	int n, cap;
	int oom;
};

void splice_init(struct splice *s);
void splice_free(struct splice *s);
/* Replace text[at, at + del) by ins (ins_len bytes). */
void splice_add(struct splice *s, size_t at, size_t del, const char *ins,
		size_t ins_len);
/*
 * text[from, to) with the edits that lie in it applied (every other edit
 * ignored), malloc'd and NUL-terminated, its length in *len. NULL with
 * errno ENOMEM (an addition or this failed for memory) or EINVAL (two
 * edits overlap: a bug of the caller's).
 */
char *splice_apply(const struct splice *s, const char *text, size_t from,
		   size_t to, size_t *len);

/* How new values are laid out, taken from the text around them. */
struct jstyle {
	int lines;	/* one member or element a line, indented */
	char unit[32];	/* one level of indentation */
	char colon[16]; /* between a key and its value */
};

/* The style of object node obj's members. */
void jstyle_of(const struct jdoc *d, int obj, struct jstyle *st);

/* The blanks that start the line holding offset at (into buf, len > 0). */
void splice_indent(const char *text, size_t at, char *buf, size_t len);

/*
 * The same, for a value laid out as st says: "" on one line, where no
 * indentation is written. Looking for the start of a long line once for
 * each value would take time quadratic in the line's length (a profile
 * on one line, its thousands of rules each changed).
 */
void splice_style_indent(const struct jdoc *d, const struct jstyle *st,
			 size_t at, char *buf, size_t len);

/*
 * A growing string for new values; a failed growth is remembered (oom)
 * and every later addition does nothing.
 */
struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};
void sbuf_add(struct sbuf *b, const char *s, size_t n);
void sbuf_str(struct sbuf *b, const char *s);

/*
 * New values, laid out as st says for a value that starts on a line
 * indented by ind: a JSON string (its text quoted and escaped as JSON
 * needs), an array of strings, an object {"key": [strings]}.
 */
void gen_string(struct sbuf *b, const char *s);
void gen_strings(struct sbuf *b, const struct jstyle *st, const char *ind,
		 const char *const *items, int n);
void gen_member_strings(struct sbuf *b, const struct jstyle *st,
			const char *ind, const char *key,
			const char *const *items, int n);

/*
 * The value v (text) after element or member x of its container, with
 * a comma and the same blanks as come before x; for a member v holds its
 * key too.
 */
void splice_after(struct splice *s, const struct jdoc *d, int x, const char *v);

/* Node x's value replaced by v. */
void splice_replace(struct splice *s, const struct jdoc *d, int x,
		    const char *v);

/*
 * The elements of array arr for which keep() is 0 removed, with their
 * separators, so that what stays reads as the array did; keep() must
 * keep one at least.
 */
void splice_keep(struct splice *s, const struct jdoc *d, int arr,
		 int (*keep)(const struct jdoc *d, int el, void *arg),
		 void *arg);

#endif
