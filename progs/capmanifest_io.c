/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capmanifest: the manifest text format, with escaped paths, in and out. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capmanifest.h"

/*
 * Format: a first line "# capmanifest 1", then one line per file:
 *   <path> <capability text>[ [rootid=<n>]]
 * Paths are relative to the recorded tree ("./bin/ping") with space,
 * control bytes, DEL and backslash written as \ooo octal, so the first
 * space always ends the path and names with newlines survive.
 */
void print_escaped(FILE *out, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (*p <= ' ' || *p == 0x7f || *p == '\\')
			fprintf(out, "\\%03o", *p);
		else
			fputc(*p, out);
	}
}

static int unescape(char *s)
{
	char *in = s, *out = s;

	while (*in != '\0') {
		if (*in != '\\') {
			*out++ = *in++;
			continue;
		}
		if (!(in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
		      in[3] >= '0' && in[3] <= '7'))
			return -1;
		*out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
		in += 4;
	}
	*out = '\0';
	return 0;
}

int manifest_add(struct manifest *m, const char *path, const char *text,
		 uid_t rootid)
{
	struct entry *e;

	if (m->count == m->alloc) {
		size_t n = m->alloc ? m->alloc * 2 : 64;
		struct entry *grown = realloc(m->entries, n * sizeof(*grown));

		if (grown == NULL)
			return -1;
		m->entries = grown;
		m->alloc = n;
	}
	e = &m->entries[m->count];
	e->path = strdup(path);
	e->text = strdup(text);
	e->rootid = rootid;
	if (e->path == NULL || e->text == NULL) {
		free(e->path);
		free(e->text);
		return -1;
	}
	m->count++;
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

void manifest_sort(struct manifest *m)
{
	if (m->count > 1)
		qsort(m->entries, m->count, sizeof(*m->entries), by_path);
}

void manifest_free(struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->count; i++) {
		free(m->entries[i].path);
		free(m->entries[i].text);
	}
	free(m->entries);
	memset(m, 0, sizeof(*m));
}

void manifest_write(const struct manifest *m, FILE *out)
{
	size_t i;

	fprintf(out, "%s\n", MANIFEST_MAGIC);
	for (i = 0; i < m->count; i++) {
		print_escaped(out, m->entries[i].path);
		fprintf(out, " %s", m->entries[i].text);
		if (m->entries[i].rootid != 0)
			fprintf(out, " [rootid=%u]", (unsigned)m->entries[i].rootid);
		fputc('\n', out);
	}
}

/*
 * Paths stay below the tree's root: "./" first, then components that are
 * neither empty nor "..", so restoring can never write outside the tree.
 */
static int is_relative_path(const char *path)
{
	const char *p;

	if (strncmp(path, "./", 2) != 0 || path[2] == '\0')
		return 0;
	for (p = path + 2; *p != '\0';) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 2 && strncmp(p, "..", 2) == 0))
			return 0;
		p += len;
		if (*p == '/')
			p++;
		if (*p == '\0' && p[-1] == '/')
			return 0;
	}
	return 1;
}

/* Parses "[rootid=N]" at the end of text, removing it; 0 when absent. */
static int take_rootid(char *text, uid_t *rootid)
{
	char *tag = strstr(text, " [rootid=");
	char *end;
	unsigned long v;

	*rootid = 0;
	if (tag == NULL)
		return 0;
	errno = 0;
	v = strtoul(tag + 9, &end, 10);
	if (errno != 0 || end == tag + 9 || strcmp(end, "]") != 0 || v == 0 ||
	    v > (uid_t)-2)
		return -1;
	*rootid = (uid_t)v;
	*tag = '\0';
	return 0;
}

/*
 * Reads a manifest; every bad line is reported with its number and the
 * reason, and makes the whole read fail, so a damaged manifest never
 * half-applies. Returns 0 or -1.
 */
int manifest_read(struct manifest *m, FILE *in, const char *name)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int status = 0;

	while ((len = getline(&line, &size, in)) >= 0) {
		char *space, *text;
		cap_t caps;
		char *canonical;
		uid_t rootid;

		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line)) {
			fprintf(stderr, "capmanifest: %s:%lu: NUL byte in line\n", name, lineno);
			status = -1;
			continue;
		}
		if (lineno == 1) {
			if (strcmp(line, MANIFEST_MAGIC) != 0) {
				fprintf(stderr, "capmanifest: %s:1: not a capability manifest (want \"%s\")\n",
					name, MANIFEST_MAGIC);
				status = -1;
				break;
			}
			continue;
		}
		if (line[0] == '\0' || line[0] == '#')
			continue;
		space = strchr(line, ' ');
		if (space == NULL) {
			fprintf(stderr, "capmanifest: %s:%lu: no capability text after the path\n",
				name, lineno);
			status = -1;
			continue;
		}
		*space = '\0';
		text = space + 1;
		if (unescape(line) < 0 || line[0] == '\0') {
			fprintf(stderr, "capmanifest: %s:%lu: bad escape in path\n", name, lineno);
			status = -1;
			continue;
		}
		if (!is_relative_path(line)) {
			fprintf(stderr, "capmanifest: %s:%lu: path must start with \"./\" and have no \"..\" or empty component\n",
				name, lineno);
			status = -1;
			continue;
		}
		if (take_rootid(text, &rootid) < 0) {
			fprintf(stderr, "capmanifest: %s:%lu: bad [rootid=] suffix\n", name, lineno);
			status = -1;
			continue;
		}
		caps = cap_from_text(text);
		canonical = caps ? cap_to_text(caps, NULL) : NULL;
		cap_free(caps);
		if (canonical == NULL) {
			fprintf(stderr, "capmanifest: %s:%lu: invalid capability text \"%s\"\n",
				name, lineno, text);
			status = -1;
			continue;
		}
		if (manifest_add(m, line, canonical, rootid) < 0) {
			cap_free(canonical);
			fprintf(stderr, "capmanifest: %s: %s\n", name, strerror(ENOMEM));
			status = -1;
			break;
		}
		cap_free(canonical);
	}
	if (lineno == 0) {
		fprintf(stderr, "capmanifest: %s: empty file, not a capability manifest\n", name);
		status = -1;
	}
	free(line);
	if (ferror(in)) {
		fprintf(stderr, "capmanifest: %s: %s\n", name, strerror(errno));
		status = -1;
	}
	manifest_sort(m);
	for (size_t i = 1; status == 0 && i < m->count; i++) {
		if (strcmp(m->entries[i - 1].path, m->entries[i].path) == 0) {
			fprintf(stderr, "capmanifest: %s: path listed twice: ", name);
			print_escaped(stderr, m->entries[i].path);
			fputc('\n', stderr);
			status = -1;
		}
	}
	return status;
}
