/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A strict JSON reader (RFC 8259) that keeps where every value lies in
 * the text, so that a change can be spliced into the text and every
 * other byte left as it was. It takes UTF-8 only, and refuses what a
 * seccomp profile has no business holding and what would make two
 * readers disagree: a byte order mark, a NUL byte, a \u0000 escape
 * (the runtime hands names to a C library, which would cut them
 * there), half a surrogate pair, nesting deeper than JSCAN_MAX_DEPTH.
 * It needs libc and libcommon.a's UTF-8 check (json.h).
 */
#ifndef PERFDOCTOR_JSCAN_H
#define PERFDOCTOR_JSCAN_H

#include <stddef.h>

/* Deeper than any seccomp profile (5 levels); bounds the recursion. */
#define JSCAN_MAX_DEPTH 32

enum jkind {
	JSCAN_OBJECT,
	JSCAN_ARRAY,
	JSCAN_STRING,
	JSCAN_NUMBER,
	JSCAN_TRUE,
	JSCAN_FALSE,
	JSCAN_NULL,
};

/*
 * One value. Its children (an array's elements, an object's members'
 * values) are the nodes first_child, then each one's next, in the order
 * of the text; -1 ends the list, and a child's prev is the one before it
 * (-1 for the first). A member's key is its value node's.
 */
struct jnode {
	enum jkind kind;
	int prev; /* here, beside kind: no padding, the node stays 80 bytes */
	size_t start, end; /* the value's bytes: text[start, end) */
	/* An object member's key, quotes included: text[key_start, key_end) */
	size_t key_start, key_end;
	const char *key; /* that key, decoded (NUL-terminated); else NULL */
	const char *str; /* a string's value, decoded; else NULL */
	size_t str_len;
	int parent, first_child, next, nchildren;
};

struct jdoc {
	const char *text;
	size_t len;
	struct jnode *n; /* n[0] is the top-level value */
	int count, cap;
	char *strings; /* every decoded key and string, each NUL-ended */
	size_t used;
	/* After a failure: why, and the offset in text it concerns. */
	char err[200];
	size_t err_at;
};

/*
 * Reads text[0, len) into d (which it fills from scratch); text[len] must
 * be a NUL byte, which ends the UTF-8 check of a sequence cut short at
 * the end (a NUL inside is refused). Returns 0, or
 * -1 with d->err and d->err_at saying what is wrong where (no memory:
 * errno ENOMEM and "no memory"). jscan_free() in both cases.
 */
int jscan(struct jdoc *d, const char *text, size_t len);
void jscan_free(struct jdoc *d);

/* A member of object node obj whose key matches, by match(); or -1. */
int jscan_member(const struct jdoc *d, int obj, const char *name);

/*
 * Whether key names field (ASCII letters only) as Go's encoding/json,
 * which every container runtime reads profiles with, matches a key to a
 * field: ASCII letters in either case, and U+017F and U+212A (Kelvin
 * sign), which fold to 's' and 'k'. So "Names" and "name\u017f" set the
 * field names.
 */
int jscan_key_is(const char *key, const char *field);

/* Line and column (1-based, the column in characters) of offset at. */
void jscan_position(const char *text, size_t len, size_t at,
		    unsigned long *line, unsigned long *column);

/* "an object", "a string", ... for messages. */
const char *jscan_kind_name(enum jkind k);

#endif
