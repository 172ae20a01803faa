/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* JSON writers for capability sets and paths (see json.h for the schema). */
#include <string.h>

#include "json.h"

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_length(const unsigned char *s)
{
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

static int is_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t len = utf8_length(p);

		if (len == 0)
			return 0;
		p += len;
	}
	return 1;
}

void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p != '\0') {
		size_t len = utf8_length(p);

		if (len == 0) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fwrite(p, 1, len, out);
		p += len;
	}
	fputc('"', out);
}

void json_path(FILE *out, const char *key, const char *path)
{
	const unsigned char *p;

	fprintf(out, "\"%s\":", key);
	json_string(out, path);
	if (is_utf8(path))
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
	for (cap = 0; cap < 64; cap++) {
		char *name;

		if (!(mask >> cap & 1))
			continue;
		name = cap_to_name(cap);
		fprintf(out, "%s", first ? "" : ",");
		json_string(out, name != NULL ? name : "?");
		cap_free(name);
		first = 0;
	}
	fputs("]}", out);
}

uint64_t json_flag_mask(cap_t caps, cap_flag_t flag)
{
	uint64_t mask = 0;
	cap_value_t cap;

	for (cap = 0; cap < 64; cap++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(caps, cap, flag, &v) == 0 && v == CAP_SET)
			mask |= UINT64_C(1) << cap;
	}
	return mask;
}

void json_capset(FILE *out, cap_t caps)
{
	json_vector(out, "effective", json_flag_mask(caps, CAP_EFFECTIVE));
	fputc(',', out);
	json_vector(out, "permitted", json_flag_mask(caps, CAP_PERMITTED));
	fputc(',', out);
	json_vector(out, "inheritable", json_flag_mask(caps, CAP_INHERITABLE));
}
