/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Edits of a JSON text, and new values in its layout (perfdoctor_splice.h).
 * Every edit names the bytes it replaces; nothing else of the text is
 * ever rewritten, so a diff of the old and new text shows the change and
 * only the change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdoctor_splice.h"

void splice_init(struct splice *s)
{
	memset(s, 0, sizeof(*s));
}

void splice_free(struct splice *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->e[i].ins);
	free(s->e);
	memset(s, 0, sizeof(*s));
}

void splice_add(struct splice *s, size_t at, size_t del, const char *ins,
		size_t ins_len)
{
	struct splice_edit *e;

	if (s->oom)
		return;
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 16;
		struct splice_edit *grown =
			realloc(s->e, (size_t)cap * sizeof(*grown));

		if (grown == NULL) {
			s->oom = 1;
			return;
		}
		s->e = grown;
		s->cap = cap;
	}
	e = &s->e[s->n];
	e->ins = malloc(ins_len + 1);
	if (e->ins == NULL) {
		s->oom = 1;
		return;
	}
	if (ins_len > 0)
		memcpy(e->ins, ins, ins_len);
	e->ins[ins_len] = '\0';
	e->at = at;
	e->del = del;
	e->ins_len = ins_len;
	e->seq = s->n++;
}

static int by_place(const void *a, const void *b)
{
	const struct splice_edit *x = *(const struct splice_edit *const *)a;
	const struct splice_edit *y = *(const struct splice_edit *const *)b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

char *splice_apply(const struct splice *s, const char *text, size_t from,
		   size_t to, size_t *len)
{
	const struct splice_edit **order;
	struct sbuf b = { NULL, 0, 0, 0 };
	size_t pos = from;
	int i, n = 0;

	if (s->oom) {
		errno = ENOMEM;
		return NULL;
	}
	order = malloc(((size_t)s->n + 1) * sizeof(*order));
	if (order == NULL)
		return NULL;
	for (i = 0; i < s->n; i++)
		if (s->e[i].at >= from && s->e[i].at + s->e[i].del <= to)
			order[n++] = &s->e[i];
	qsort(order, (size_t)n, sizeof(*order), by_place);
	for (i = 0; i < n; i++) {
		if (order[i]->at < pos) {
			free(order);
			free(b.s);
			errno = EINVAL;
			return NULL;
		}
		sbuf_add(&b, text + pos, order[i]->at - pos);
		sbuf_add(&b, order[i]->ins, order[i]->ins_len);
		pos = order[i]->at + order[i]->del;
	}
	sbuf_add(&b, text + pos, to - pos);
	sbuf_add(&b, "", 0); /* a buffer even for an empty result */
	free(order);
	if (b.oom) {
		free(b.s);
		errno = ENOMEM;
		return NULL;
	}
	*len = b.len;
	return b.s;
}

void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *grown;

		while (cap < b->len + n + 1)
			cap *= 2;
		grown = realloc(b->s, cap);
		if (grown == NULL) {
			b->oom = 1;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sbuf_str(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

void splice_indent(const char *text, size_t at, char *buf, size_t len)
{
	size_t start = at, n = 0;

	while (start > 0 && text[start - 1] != '\n')
		start--;
	while (start + n < at &&
	       (text[start + n] == ' ' || text[start + n] == '\t') &&
	       n + 1 < len)
		n++;
	memcpy(buf, text + start, n);
	buf[n] = '\0';
}

void splice_style_indent(const struct jdoc *d, const struct jstyle *st,
			 size_t at, char *buf, size_t len)
{
	if (st->lines)
		splice_indent(d->text, at, buf, len);
	else
		buf[0] = '\0';
}

/* The text before node x: from its previous sibling's end (or its container's bracket) to x. */
static void before(const struct jdoc *d, int x, size_t *from, size_t *to)
{
	int prev = d->n[x].prev;

	*from = prev >= 0 ? d->n[prev].end : d->n[d->n[x].parent].start + 1;
	*to = d->n[x].key != NULL ? d->n[x].key_start : d->n[x].start;
}

void jstyle_of(const struct jdoc *d, int obj, struct jstyle *st)
{
	const struct jnode *o = &d->n[obj];
	int m = o->first_child;
	char outer[256], inner[256];
	size_t from, to;

	memset(st, 0, sizeof(*st));
	st->lines = memchr(d->text + o->start, '\n', o->end - o->start) != NULL;
	snprintf(st->unit, sizeof(st->unit), "\t");
	snprintf(st->colon, sizeof(st->colon), st->lines ? ": " : ":");
	if (m < 0)
		return;
	if (st->lines) {
		splice_indent(d->text, o->start, outer, sizeof(outer));
		splice_indent(d->text, d->n[m].key_start, inner, sizeof(inner));
		if (strlen(inner) > strlen(outer) &&
		    strncmp(inner, outer, strlen(outer)) == 0 &&
		    strlen(inner) - strlen(outer) < sizeof(st->unit))
			snprintf(st->unit, sizeof(st->unit), "%s",
				 inner + strlen(outer));
	}
	from = d->n[m].key_end;
	to = d->n[m].start;
	if (to - from < sizeof(st->colon) &&
	    !memchr(d->text + from, '\n', to - from))
		snprintf(st->colon, sizeof(st->colon), "%.*s", (int)(to - from),
			 d->text + from);
	/* Between members on one line: what follows the second's comma. */
	if (!st->lines && d->n[m].next >= 0) {
		before(d, d->n[m].next, &from, &to);
		while (from < to && d->text[from] != ',')
			from++;
		if (from < to && to - from - 1 < sizeof(st->unit))
			snprintf(st->unit, sizeof(st->unit), "%.*s",
				 (int)(to - from - 1), d->text + from + 1);
		else
			st->unit[0] = '\0';
	} else if (!st->lines) {
		st->unit[0] = '\0';
	}
}

void gen_string(struct sbuf *b, const char *s)
{
	char esc[8];

	sbuf_add(b, "\"", 1);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			sbuf_add(b, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			sbuf_str(b, esc);
		} else {
			sbuf_add(b, s, 1);
		}
	}
	sbuf_add(b, "\"", 1);
}

/*
 * Before an element or member at indentation ind (one level inside):
 * the comma after the previous one, then its line or the blank that
 * separates it on one line.
 */
static void gen_next(struct sbuf *b, const struct jstyle *st, const char *ind,
		     int first)
{
	if (!first)
		sbuf_str(b, ",");
	if (st->lines) {
		sbuf_str(b, "\n");
		sbuf_str(b, ind);
		sbuf_str(b, st->unit);
	} else if (!first) {
		sbuf_str(b, st->unit);
	}
}

static void gen_close(struct sbuf *b, const struct jstyle *st, const char *ind,
		      const char *bracket)
{
	if (st->lines) {
		sbuf_str(b, "\n");
		sbuf_str(b, ind);
	}
	sbuf_str(b, bracket);
}

void gen_strings(struct sbuf *b, const struct jstyle *st, const char *ind,
		 const char *const *items, int n)
{
	int i;

	sbuf_str(b, "[");
	for (i = 0; i < n; i++) {
		gen_next(b, st, ind, i == 0);
		gen_string(b, items[i]);
	}
	if (n > 0)
		gen_close(b, st, ind, "]");
	else
		sbuf_str(b, "]");
}

void gen_member_strings(struct sbuf *b, const struct jstyle *st,
			const char *ind, const char *key,
			const char *const *items, int n)
{
	char inner[256];

	snprintf(inner, sizeof(inner), "%s%s", ind, st->unit);
	sbuf_str(b, "{");
	gen_next(b, st, ind, 1);
	gen_string(b, key);
	sbuf_str(b, st->colon);
	gen_strings(b, st, st->lines ? inner : "", items, n);
	gen_close(b, st, ind, "}");
}

void splice_after(struct splice *s, const struct jdoc *d, int x, const char *v)
{
	struct sbuf b = { NULL, 0, 0, 0 };
	size_t from, to, ws;

	before(d, x, &from, &to);
	/* The blanks after the comma, or all of them for the first. */
	for (ws = to; ws > from && d->text[ws - 1] != ','; ws--)
		;
	sbuf_str(&b, ",");
	sbuf_add(&b, d->text + ws, to - ws);
	sbuf_str(&b, v);
	if (b.oom)
		s->oom = 1;
	else
		splice_add(s, d->n[x].end, 0, b.s, b.len);
	free(b.s);
}

void splice_replace(struct splice *s, const struct jdoc *d, int x,
		    const char *v)
{
	splice_add(s, d->n[x].start, d->n[x].end - d->n[x].start, v, strlen(v));
}

void splice_keep(struct splice *s, const struct jdoc *d, int arr,
		 int (*keep)(const struct jdoc *d, int el, void *arg),
		 void *arg)
{
	int c, prev = -1, kept_before = 0;

	for (c = d->n[arr].first_child; c >= 0; prev = c, c = d->n[c].next) {
		if (keep(d, c, arg)) {
			kept_before = 1;
			continue;
		}
		/*
		 * After a kept one: from the end of the one before to this
		 * one's end (its comma and blanks go with it). Before any:
		 * from its start to the next one's, whose blanks then follow
		 * the bracket's as this one's did.
		 */
		if (kept_before)
			splice_add(s, d->n[prev].end,
				   d->n[c].end - d->n[prev].end, "", 0);
		else if (d->n[c].next >= 0)
			splice_add(s, d->n[c].start,
				   d->n[d->n[c].next].start - d->n[c].start, "",
				   0);
	}
}
