/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The strict JSON reader of perfdoctor_jscan.h: the text is checked as
 * UTF-8 first, whole, then read by recursive descent (depth bounded), each
 * value recorded with its offsets. Written from RFC 8259's grammar.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "perfdoctor_jscan.h"

struct reader {
	struct jdoc *d;
	size_t at;
	int depth;
};

static int fail_at(struct jdoc *d, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct jdoc *d, size_t at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	d->err_at = at;
	return -1;
}

/* The whole text: UTF-8, no NUL byte, no byte order mark. */
static int check_bytes(struct jdoc *d)
{
	const unsigned char *s = (const unsigned char *)d->text;
	size_t i = 0, l;

	if (d->len >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		return fail_at(
			d, 0,
			"it starts with a byte order mark (EF BB BF), which JSON does not allow");
	while (i < d->len) {
		if (s[i] == 0)
			return fail_at(d, i, "a NUL byte");
		l = json_utf8_length(d->text + i);
		if (l == 0)
			return fail_at(d, i, "invalid UTF-8 (byte 0x%02x)",
				       (unsigned)s[i]);
		i += l;
	}
	return 0;
}

static int new_node(struct reader *r, enum jkind kind, int parent)
{
	struct jdoc *d = r->d;
	struct jnode *n;

	if (d->count == d->cap) {
		int cap = d->cap ? d->cap * 2 : 64;
		struct jnode *grown =
			realloc(d->n, (size_t)cap * sizeof(*grown));

		if (grown == NULL) {
			errno = ENOMEM;
			return fail_at(d, r->at, "no memory");
		}
		d->n = grown;
		d->cap = cap;
	}
	n = &d->n[d->count];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->start = r->at;
	n->parent = parent;
	n->first_child = n->next = n->prev = -1;
	return d->count++;
}

static void skip_space(struct reader *r)
{
	const char *t = r->d->text;

	while (r->at < r->d->len && (t[r->at] == ' ' || t[r->at] == '\t' ||
				     t[r->at] == '\n' || t[r->at] == '\r'))
		r->at++;
}

static int hex4(const char *s, uint32_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The string at r->at (its opening quote), decoded into d->strings;
 * *value points at it, *vlen its length. Its decoded form is never
 * longer than its text, quotes included, so d->strings (as long as the
 * text, plus one) always has room for it and its NUL.
 */
static int read_string(struct reader *r, const char **value, size_t *vlen)
{
	struct jdoc *d = r->d;
	const char *t = d->text;
	char *out = d->strings + d->used;
	size_t n = 0, open = r->at;

	r->at++;
	for (;;) {
		unsigned char c;

		if (r->at >= d->len)
			return fail_at(d, open, "a string that never ends");
		c = (unsigned char)t[r->at];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail_at(
				d, r->at,
				"a control character (0x%02x) in a string: JSON wants it escaped",
				c);
		if (c != '\\') {
			out[n++] = (char)c;
			r->at++;
			continue;
		}
		if (r->at + 1 >= d->len)
			return fail_at(d, open, "a string that never ends");
		switch (t[r->at + 1]) {
		case '"':
		case '\\':
		case '/':
			out[n++] = t[r->at + 1];
			break;
		case 'b':
			out[n++] = '\b';
			break;
		case 'f':
			out[n++] = '\f';
			break;
		case 'n':
			out[n++] = '\n';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'u': {
			uint32_t cp, lo;

			if (r->at + 6 > d->len || hex4(t + r->at + 2, &cp) < 0)
				return fail_at(
					d, r->at,
					"an escape 'u' without four hex digits");
			if (cp == 0)
				return fail_at(
					d, r->at,
					"an escaped U+0000 (NUL): the runtime's C library would end the string there");
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail_at(
					d, r->at,
					"an escaped second half of a surrogate pair (U+DC00 to U+DFFF) alone");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (r->at + 12 > d->len ||
				    t[r->at + 6] != '\\' ||
				    t[r->at + 7] != 'u' ||
				    hex4(t + r->at + 8, &lo) < 0 ||
				    lo < 0xdc00 || lo > 0xdfff)
					return fail_at(
						d, r->at,
						"an escaped first half of a surrogate pair (U+D800 to U+DBFF) alone");
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				r->at += 6;
			}
			n += put_utf8(out + n, cp);
			r->at += 4;
			break;
		}
		default:
			return fail_at(d, r->at,
				       "an unknown escape in a string");
		}
		r->at += 2;
	}
	r->at++; /* the closing quote */
	out[n] = '\0';
	*value = out;
	*vlen = n;
	d->used += n + 1;
	return 0;
}

static int read_number(struct reader *r)
{
	const char *t = r->d->text;
	size_t len = r->d->len, start = r->at;

#define DIGIT(i) ((i) < len && t[i] >= '0' && t[i] <= '9')
	if (r->at < len && t[r->at] == '-')
		r->at++;
	if (r->at < len && t[r->at] == '0')
		r->at++;
	else if (DIGIT(r->at))
		while (DIGIT(r->at))
			r->at++;
	else
		return fail_at(r->d, start, "a number without digits");
	if (r->at < len && t[r->at] == '.') {
		r->at++;
		if (!DIGIT(r->at))
			return fail_at(r->d, start,
				       "a number without digits after its '.'");
		while (DIGIT(r->at))
			r->at++;
	}
	if (r->at < len && (t[r->at] == 'e' || t[r->at] == 'E')) {
		r->at++;
		if (r->at < len && (t[r->at] == '+' || t[r->at] == '-'))
			r->at++;
		if (!DIGIT(r->at))
			return fail_at(
				r->d, start,
				"a number without digits in its exponent");
		while (DIGIT(r->at))
			r->at++;
	}
#undef DIGIT
	return 0;
}

static int read_value(struct reader *r, int parent, int *made);

/* Appends child to parent's list; last is the previous child or -1. */
static void link_child(struct jdoc *d, int parent, int child, int *last)
{
	if (*last < 0)
		d->n[parent].first_child = child;
	else
		d->n[*last].next = child;
	d->n[child].prev = *last;
	*last = child;
	d->n[parent].nchildren++;
}

static int read_members(struct reader *r, int obj)
{
	struct jdoc *d = r->d;
	int last = -1;

	r->at++; /* '{' */
	skip_space(r);
	if (r->at < d->len && d->text[r->at] == '}') {
		r->at++;
		return 0;
	}
	for (;;) {
		size_t key_start = r->at, key_end, key_len;
		const char *key;
		int child;

		if (r->at < d->len && d->text[r->at] == '}')
			return fail_at(d, r->at, "a ',' before '}'");
		if (r->at >= d->len || d->text[r->at] != '"')
			return fail_at(
				d, r->at,
				"an object member that is not a \"key\"");
		if (read_string(r, &key, &key_len) < 0)
			return -1;
		key_end = r->at;
		skip_space(r);
		if (r->at >= d->len || d->text[r->at] != ':')
			return fail_at(d, r->at, "no ':' after a key");
		r->at++;
		skip_space(r);
		if (read_value(r, obj, &child) < 0)
			return -1;
		d->n[child].key = key;
		d->n[child].key_start = key_start;
		d->n[child].key_end = key_end;
		link_child(d, obj, child, &last);
		skip_space(r);
		if (r->at < d->len && d->text[r->at] == ',') {
			r->at++;
			skip_space(r);
			continue;
		}
		if (r->at < d->len && d->text[r->at] == '}') {
			r->at++;
			return 0;
		}
		return fail_at(d, r->at,
			       "no ',' or '}' after an object member");
	}
}

static int read_elements(struct reader *r, int arr)
{
	struct jdoc *d = r->d;
	int last = -1, child;

	r->at++; /* '[' */
	skip_space(r);
	if (r->at < d->len && d->text[r->at] == ']') {
		r->at++;
		return 0;
	}
	for (;;) {
		if (r->at < d->len && d->text[r->at] == ']' && last >= 0)
			return fail_at(d, r->at, "a ',' before ']'");
		if (read_value(r, arr, &child) < 0)
			return -1;
		link_child(d, arr, child, &last);
		skip_space(r);
		if (r->at < d->len && d->text[r->at] == ',') {
			r->at++;
			skip_space(r);
			continue;
		}
		if (r->at < d->len && d->text[r->at] == ']') {
			r->at++;
			return 0;
		}
		return fail_at(d, r->at,
			       "no ',' or ']' after an array element");
	}
}

static int read_literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if (r->d->len - r->at < n || memcmp(r->d->text + r->at, word, n) != 0)
		return fail_at(r->d, r->at, "not a JSON value");
	r->at += n;
	return 0;
}

static int read_value(struct reader *r, int parent, int *made)
{
	struct jdoc *d = r->d;
	int id, rc;
	char c;

	if (r->at >= d->len)
		return fail_at(d, r->at,
			       "the text ends where a value should be");
	c = d->text[r->at];
	switch (c) {
	case '{':
	case '[':
		if (r->depth == JSCAN_MAX_DEPTH)
			return fail_at(d, r->at, "nested deeper than %d levels",
				       JSCAN_MAX_DEPTH);
		id = new_node(r, c == '{' ? JSCAN_OBJECT : JSCAN_ARRAY, parent);
		if (id < 0)
			return -1;
		r->depth++;
		rc = c == '{' ? read_members(r, id) : read_elements(r, id);
		r->depth--;
		break;
	case '"':
		id = new_node(r, JSCAN_STRING, parent);
		if (id < 0)
			return -1;
		rc = read_string(r, &d->n[id].str, &d->n[id].str_len);
		break;
	case 't':
	case 'f':
	case 'n':
		id = new_node(r,
			      c == 't'	 ? JSCAN_TRUE
			      : c == 'f' ? JSCAN_FALSE
					 : JSCAN_NULL,
			      parent);
		if (id < 0)
			return -1;
		rc = read_literal(r, c == 't'	? "true"
				     : c == 'f' ? "false"
						: "null");
		break;
	default:
		if (c != '-' && !(c >= '0' && c <= '9'))
			return fail_at(d, r->at, "not a JSON value");
		id = new_node(r, JSCAN_NUMBER, parent);
		if (id < 0)
			return -1;
		rc = read_number(r);
	}
	if (rc < 0)
		return -1;
	d->n[id].end = r->at;
	*made = id;
	return 0;
}

int jscan(struct jdoc *d, const char *text, size_t len)
{
	struct reader r = { d, 0, 0 };
	int top;

	memset(d, 0, sizeof(*d));
	d->text = text;
	d->len = len;
	if (check_bytes(d) < 0)
		return -1;
	d->strings = malloc(len + 1);
	if (d->strings == NULL) {
		errno = ENOMEM;
		return fail_at(d, 0, "no memory");
	}
	skip_space(&r);
	if (r.at == len)
		return fail_at(d, 0, "no JSON value: the text is empty");
	if (read_value(&r, -1, &top) < 0)
		return -1;
	skip_space(&r);
	if (r.at != len)
		return fail_at(d, r.at, "more text after the JSON value");
	return 0;
}

void jscan_free(struct jdoc *d)
{
	free(d->n);
	free(d->strings);
	d->n = NULL;
	d->strings = NULL;
	d->count = d->cap = 0;
}

int jscan_key_is(const char *key, const char *field)
{
	const unsigned char *k = (const unsigned char *)key;
	size_t i = 0;

	for (; *field != '\0'; field++) {
		int f = *field | 0x20; /* a letter, lower case */
		int letter = (k[i] >= 'a' && k[i] <= 'z') ||
			     (k[i] >= 'A' && k[i] <= 'Z');

		if (letter && (k[i] | 0x20) == f) {
			i++;
		} else if (f == 's' && k[i] == 0xc5 && k[i + 1] == 0xbf) {
			i += 2; /* U+017F, the long s */
		} else if (f == 'k' && k[i] == 0xe2 && k[i + 1] == 0x84 &&
			   k[i + 2] == 0xaa) {
			i += 3; /* U+212A, the Kelvin sign */
		} else {
			return 0;
		}
	}
	return k[i] == '\0';
}

int jscan_member(const struct jdoc *d, int obj, const char *name)
{
	int c;

	if (obj < 0 || d->n[obj].kind != JSCAN_OBJECT)
		return -1;
	for (c = d->n[obj].first_child; c >= 0; c = d->n[c].next)
		if (jscan_key_is(d->n[c].key, name))
			return c;
	return -1;
}

void jscan_position(const char *text, size_t len, size_t at,
		    unsigned long *line, unsigned long *column)
{
	size_t i;

	*line = 1;
	*column = 1;
	for (i = 0; i < at && i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*column)++;
		}
	}
}

const char *jscan_kind_name(enum jkind k)
{
	switch (k) {
	case JSCAN_OBJECT:
		return "an object";
	case JSCAN_ARRAY:
		return "an array";
	case JSCAN_STRING:
		return "a string";
	case JSCAN_NUMBER:
		return "a number";
	case JSCAN_TRUE:
	case JSCAN_FALSE:
		return "a boolean";
	case JSCAN_NULL:
		return "null";
	}
	return "a value";
}
