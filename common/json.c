/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* JSON writers for capability sets and paths (see json.h for the schema). */
#include <string.h>

#include "json.h"
#include "mask.h"

size_t json_utf8_length(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

int json_is_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t len = json_utf8_length((const char *)p);

		if (len == 0)
			return 0;
		p += len;
	}
	return 1;
}

/* The code point of the valid UTF-8 sequence of len bytes at s. */
static uint32_t code_point(const unsigned char *s, size_t len)
{
	static const unsigned char lead_bits[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & lead_bits[len];
	size_t i;

	for (i = 1; i < len; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/*
 * Code points that are valid JSON as they are, yet act on whatever shows
 * the text: C1 controls (U+009B is CSI to many terminals, U+0085 a line
 * break), the line and paragraph separators (line breaks in JavaScript
 * before ES2019 and in most viewers) and the bidirectional marks,
 * embeddings, overrides and isolates, which reorder what a person reads
 * ("Trojan Source", CVE-2021-42574). The same set escape.h escapes.
 */
static int is_hidden_code_point(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

void json_string(FILE *out, const char *s)
{
	/* Bytes that pass unchanged are written in runs, not one by one. */
	const unsigned char *p = (const unsigned char *)s, *run = p;

	fputc('"', out);
	while (*p != '\0') {
		size_t len = json_utf8_length((const char *)p);
		uint32_t cp = len == 0 ? 0 : code_point(p, len);

		if (len != 0 && cp != '"' && cp != '\\' && cp >= 0x20 &&
		    cp != 0x7f && !is_hidden_code_point(cp)) {
			p += len;
			continue;
		}
		fwrite(run, 1, (size_t)(p - run), out);
		if (len == 0) {
			/* Not UTF-8: JSON cannot hold the byte (json.h). */
			fputs("\\ufffd", out);
			len = 1;
		} else if (cp == '"' || cp == '\\') {
			fprintf(out, "\\%c", (int)cp);
		} else if (cp == '\n') {
			fputs("\\n", out);
		} else if (cp == '\t') {
			fputs("\\t", out);
		} else {
			fprintf(out, "\\u%04x", (unsigned)cp);
		}
		p += len;
		run = p;
	}
	fwrite(run, 1, (size_t)(p - run), out);
	fputc('"', out);
}

void json_path(FILE *out, const char *key, const char *path)
{
	const unsigned char *p;

	fprintf(out, "\"%s\":", key);
	json_string(out, path);
	if (json_is_utf8(path))
		return;
	fprintf(out, ",\"%s_hex\":\"", key);
	for (p = (const unsigned char *)path; *p != '\0'; p++)
		fprintf(out, "%02x", *p);
	fputc('"', out);
}

void json_vector(FILE *out, const char *key, uint64_t mask)
{
	cap_value_t cap;
	int first = 1;

	fprintf(out, "\"%s\":{\"hex\":\"0x%016llx\",\"names\":[", key,
		(unsigned long long)mask);
	for (MASK_EACH(cap, mask)) {
		char *name = cap_to_name(cap);

		fprintf(out, "%s", first ? "" : ",");
		json_string(out, name != NULL ? name : "?");
		cap_free(name);
		first = 0;
	}
	fputs("]}", out);
}

void json_object_open(FILE *out, const char *type)
{
	fprintf(out, "{\"schema\":%d,", JSON_SCHEMA);
	if (type != NULL) {
		fputs("\"type\":", out);
		json_string(out, type);
		fputc(',', out);
	}
}

void json_capset(FILE *out, cap_t caps)
{
	json_vector(out, "effective", mask_of_flag(caps, CAP_EFFECTIVE));
	fputc(',', out);
	json_vector(out, "permitted", mask_of_flag(caps, CAP_PERMITTED));
	fputc(',', out);
	json_vector(out, "inheritable", mask_of_flag(caps, CAP_INHERITABLE));
}
