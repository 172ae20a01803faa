/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capmanifest: the manifest text format, with escaped paths, in and out. */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capmanifest.h"
#include "escape.h"
#include "say.h"

/*
 * Format: a first line "# capmanifest 4", then one line per file:
 *   <path> owner=<uid> group=<gid> mode=<oooo> acl=<no|entries> sha256=<hex> <capability text>[ [rootid=<n>]]
 * Paths are relative to the recorded tree ("./bin/ping") with space,
 * backslash and whatever a terminal could act on (control bytes, DEL, C1
 * controls, bidi and line separators, bytes that are not UTF-8) written
 * as \ooo octal, so the first space always ends the path, names with
 * newlines survive, and printing a manifest cannot steer a terminal. owner and
 * group are numbers, mode the permission bits in four octal digits, and
 * acl the entries of a POSIX access ACL that grants beyond them, in
 * capmanifest_acl.c's canonical text ("user::rwx,user:1000:r-x,group::r-x,
 * mask::r-x,other::---"), or "no"; sha256 is the digest of the file's
 * content, 64 lower-case hex digits (one spelling).
 * A line "!unread <path>" (version 2 on) names a path record could not read:
 * the manifest says nothing about it or below it. A reader that does not
 * know the line refuses the manifest (its path is not "./..."), which is
 * safer than taking the files there for extra ones and stripping them.
 * Version 3 lines have "acl=yes" where 4 has the entries (which version 3
 * did not record: acl_text NULL); version 2 lines are the same without
 * sha256 (has_digest 0); version 1 ("# capmanifest 1") lines have no owner,
 * group, mode or acl fields either (has_meta 0). All are still read.
 */
void warn_operand(const char *operand, const char *what)
{
	say(stderr, "capmanifest: ", "%s: %s", operand, what);
}

void print_escaped(FILE *out, const char *path)
{
	/*
	 * escape_dup() writes what a terminal could act on (C0 and C1
	 * controls, DEL, bidi and line separators, bytes that are not UTF-8)
	 * and the backslash as \ooo; the space is escaped too, as it ends
	 * the path. Out of memory, every byte outside printable ASCII is.
	 */
	char *text = escape_dup(path);
	const unsigned char *p;

	if (text != NULL) {
		for (p = (const unsigned char *)text; *p != '\0'; p++) {
			if (*p == ' ')
				fputs("\\040", out);
			else
				fputc(*p, out);
		}
		free(text);
		return;
	}
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '\\')
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
		if (!(in[1] >= '0' && in[1] <= '3' && in[2] >= '0' &&
		      in[2] <= '7' && in[3] >= '0' && in[3] <= '7'))
			return -1;
		*out = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 +
			      (in[3] - '0'));
		/* \000 would end the C string: "./a\000/../x" acts on "./a". */
		if (*out++ == '\0')
			return -1;
		in += 4;
	}
	*out = '\0';
	return 0;
}

/* Appends a copy of e (path and text are copied). 0, or -1: ENOMEM. */
int manifest_add(struct manifest *m, const struct entry *e)
{
	struct entry *n;

	if (m->count == m->alloc) {
		size_t size = m->alloc ? m->alloc * 2 : 64;
		struct entry *grown =
			realloc(m->entries, size * sizeof(*grown));

		if (grown == NULL)
			return -1;
		m->entries = grown;
		m->alloc = size;
	}
	n = &m->entries[m->count];
	*n = *e;
	n->path = strdup(e->path);
	n->text = strdup(e->text);
	if (meta_copy(&n->meta, &e->meta) < 0 || n->path == NULL ||
	    n->text == NULL) {
		free(n->path);
		free(n->text);
		meta_free(&n->meta);
		errno = ENOMEM;
		return -1;
	}
	m->count++;
	return 0;
}

/* Appends a copy of path to m's unread paths. 0, or -1: ENOMEM. */
int manifest_add_unread(struct manifest *m, const char *path)
{
	char *copy;

	if (m->nunread == m->aunread) {
		size_t size = m->aunread ? m->aunread * 2 : 8;
		char **grown = realloc(m->unread, size * sizeof(*grown));

		if (grown == NULL)
			return -1;
		m->unread = grown;
		m->aunread = size;
	}
	copy = strdup(path);
	if (copy == NULL)
		return -1;
	m->unread[m->nunread++] = copy;
	return 0;
}

const char *manifest_unread_above(const struct manifest *m, const char *path)
{
	size_t i, len;

	for (i = 0; i < m->nunread; i++) {
		len = strlen(m->unread[i]);
		if (strncmp(path, m->unread[i], len) == 0 &&
		    (path[len] == '\0' || path[len] == '/'))
			return m->unread[i];
	}
	return NULL;
}

/*
 * Moves every entry (and unread path) of from to the end of to; from is
 * left empty either way. 0, or -1 (ENOMEM: from's entries are freed, to
 * may have some of its unread paths).
 */
int manifest_take(struct manifest *to, struct manifest *from)
{
	struct entry *grown;
	size_t i;

	for (i = 0; i < from->nunread; i++) {
		if (manifest_add_unread(to, from->unread[i]) < 0) {
			manifest_free(from);
			return -1;
		}
		free(from->unread[i]);
	}
	free(from->unread);
	from->unread = NULL;
	from->nunread = from->aunread = 0;

	if (from->count == 0) {
		manifest_free(from);
		return 0;
	}
	grown = realloc(to->entries,
			(to->count + from->count) * sizeof(*grown));
	if (grown == NULL) {
		manifest_free(from);
		return -1;
	}
	memcpy(grown + to->count, from->entries, from->count * sizeof(*grown));
	to->entries = grown;
	to->count += from->count;
	to->alloc = to->count;
	free(from->entries);
	memset(from, 0, sizeof(*from));
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void manifest_sort(struct manifest *m)
{
	if (m->count > 1)
		qsort(m->entries, m->count, sizeof(*m->entries), by_path);
	if (m->nunread > 1)
		qsort(m->unread, m->nunread, sizeof(*m->unread), by_string);
}

struct entry *manifest_find(const struct manifest *m, const char *path)
{
	struct entry key = { .path = (char *)(uintptr_t)path };

	if (m->count == 0)
		return NULL;
	return bsearch(&key, m->entries, m->count, sizeof(*m->entries),
		       by_path);
}

void manifest_free(struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->count; i++) {
		free(m->entries[i].path);
		free(m->entries[i].text);
		meta_free(&m->entries[i].meta);
	}
	free(m->entries);
	for (i = 0; i < m->nunread; i++)
		free(m->unread[i]);
	free(m->unread);
	memset(m, 0, sizeof(*m));
}

/*
 * "owner=0 group=998 mode=0750 acl=no" (or "acl=" and the ACL's entries,
 * or, from a manifest before version 4, "acl=yes"); with only, just the
 * fields that differ from it (what verify and restore name as different).
 */
void print_meta(FILE *out, const struct meta *m, const struct meta *only)
{
	const char *sep = "";

	if (only == NULL || m->uid != only->uid) {
		fprintf(out, "owner=%u", (unsigned)m->uid);
		sep = " ";
	}
	if (only == NULL || m->gid != only->gid) {
		fprintf(out, "%sgroup=%u", sep, (unsigned)m->gid);
		sep = " ";
	}
	if (only == NULL || m->mode != only->mode) {
		fprintf(out, "%smode=%04o", sep, (unsigned)m->mode);
		sep = " ";
	}
	if (only == NULL || !acl_matches(m, only))
		fprintf(out, "%sacl=%s", sep,
			m->acl_text != NULL ? m->acl_text
			: m->acl	    ? "yes"
					    : "no");
}

void print_digest(FILE *out, const unsigned char d[SHA256_SIZE])
{
	char hex[SHA256_HEX];

	sha256_to_hex(d, hex);
	fprintf(out, "sha256=%s", hex);
}

int manifest_write(const struct manifest *m, FILE *out)
{
	size_t i;

	for (i = 0; i < m->count; i++) {
		const struct entry *e = &m->entries[i];

		if (!e->has_meta || !e->has_digest ||
		    (e->meta.acl && e->meta.acl_text == NULL)) {
			errno = EINVAL; /* it would not be read back */
			return -1;
		}
	}
	fprintf(out, "%s\n", MANIFEST_MAGIC);
	for (i = 0; i < m->nunread; i++) {
		fputs(UNREAD_TAG " ", out);
		print_escaped(out, m->unread[i]);
		fputc('\n', out);
	}
	for (i = 0; i < m->count; i++) {
		print_escaped(out, m->entries[i].path);
		fputc(' ', out);
		print_meta(out, &m->entries[i].meta, NULL);
		fputc(' ', out);
		print_digest(out, m->entries[i].digest);
		fprintf(out, " %s", m->entries[i].text);
		if (m->entries[i].rootid != 0)
			fprintf(out, " [rootid=%u]",
				(unsigned)m->entries[i].rootid);
		fputc('\n', out);
	}
	errno = 0;
	if (fflush(out) != 0 || ferror(out)) {
		if (errno == 0)
			errno = EIO; /* an earlier write failed */
		return -1;
	}
	return 0;
}

/*
 * Paths stay below the tree's root and have one spelling: "./" first, then
 * components that are neither empty, "." nor "..", so restoring can never
 * write outside the tree and "./sub/./b" cannot name "./sub/b" again.
 */
int manifest_path_ok(const char *path)
{
	const char *p;

	if (strncmp(path, "./", 2) != 0 || path[2] == '\0')
		return 0;
	for (p = path + 2; *p != '\0';) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 1 && p[0] == '.') ||
		    (len == 2 && strncmp(p, "..", 2) == 0))
			return 0;
		p += len;
		if (*p == '/')
			p++;
		if (*p == '\0' && p[-1] == '/')
			return 0;
	}
	return 1;
}

/*
 * Reads "<key><number><end>" at *p in base (8 or 10) with exactly digits
 * digits when digits is not 0; moves *p past it. 0, or -1 when malformed
 * or above max.
 */
static int take_number(char **p, const char *key, int base, int digits,
		       char end, unsigned long max, unsigned long *out)
{
	size_t klen = strlen(key);
	char *q = *p + klen;
	unsigned long v = 0;
	int n = 0;

	if (strncmp(*p, key, klen) != 0)
		return -1;
	for (; *q >= '0' && *q < (base == 8 ? '8' : '9' + 1); q++, n++) {
		if (n >= 10 || (digits != 0 && n >= digits))
			return -1;
		v = v * (unsigned long)base + (unsigned long)(*q - '0');
	}
	if (n == 0 || (digits != 0 && n != digits) || *q != end || v > max)
		return -1;
	*out = v;
	*p = q + 1;
	return 0;
}

/*
 * The ACL's entries in a version 4 line, at p (ended by a space): checked
 * against the mode, and copied into m. 0, or -1 (EINVAL, ENOMEM).
 */
static int take_acl_text(char *p, struct meta *m)
{
	char *end = strchr(p, ' ');
	int rc;

	if (end == NULL) {
		errno = EINVAL;
		return -1;
	}
	*end = '\0';
	rc = acl_text_check(p, m->mode, &m->acl_named);
	if (rc == 0) {
		m->acl_text = strdup(p);
		rc = m->acl_text == NULL ? -1 : 0;
	}
	*end = ' ';
	return rc;
}

/*
 * The fields after the path of a version 2 to 4 line into m (meta_free()
 * it); *text moves to what follows. acl is "yes" or "no" up to version
 * 3, the entries or "no" from 4. 0, or -1 (ENOMEM, or EINVAL: malformed).
 */
static int take_meta(char **text, struct meta *m, int version)
{
	unsigned long uid, gid, mode;
	char *p = *text;

	memset(m, 0, sizeof(*m));
	errno = EINVAL;
	if (take_number(&p, "owner=", 10, 0, ' ', (uid_t)-2, &uid) < 0 ||
	    take_number(&p, "group=", 10, 0, ' ', (gid_t)-2, &gid) < 0 ||
	    take_number(&p, "mode=", 8, 4, ' ', 07777, &mode) < 0)
		return -1;
	m->uid = (uid_t)uid;
	m->gid = (gid_t)gid;
	m->mode = (mode_t)mode;
	if (strncmp(p, "acl=no ", 7) == 0) {
		m->acl = 0;
	} else if (version < 4 && strncmp(p, "acl=yes ", 8) == 0) {
		m->acl = 1;
	} else if (version >= 4 && strncmp(p, "acl=", 4) == 0 &&
		   strncmp(p, "acl=yes ", 8) != 0) {
		if (take_acl_text(p + 4, m) < 0)
			return -1;
		m->acl = 1;
	} else {
		return -1;
	}
	p = strchr(p, ' ') + 1;
	*text = p;
	return 0;
}

/* Version 3's "sha256=<64 hex> " after the metadata; *text moves past it. */
static int take_digest(char **text, unsigned char d[SHA256_SIZE])
{
	char *p = *text;

	if (strncmp(p, "sha256=", 7) != 0 || sha256_from_hex(p + 7, d) < 0 ||
	    p[7 + 2 * SHA256_SIZE] != ' ')
		return -1;
	*text = p + 7 + 2 * SHA256_SIZE + 1;
	return 0;
}

/* Parses "[rootid=N]" at the end of text, removing it; 0 when absent. */
static int take_rootid(char *text, uid_t *rootid)
{
	char *tag = strstr(text, " [rootid="), *p;
	unsigned long v;

	*rootid = 0;
	if (tag == NULL)
		return 0;
	/* Digits only: strtoul() read "-4294967295" as 1 (a wrap). */
	p = tag + 2;
	if (take_number(&p, "rootid=", 10, 0, ']', (uid_t)-2, &v) < 0 ||
	    *p != '\0' || v == 0)
		return -1;
	*rootid = (uid_t)v;
	*tag = '\0';
	return 0;
}

/* What one line of a manifest did to the read. */
enum line_result {
	LINE_OK,
	LINE_BAD,  /* reported; the read fails but goes on */
	LINE_STOP, /* reported; nothing after it can be read */
};

/* Line 1: which version of the format, if it is a manifest at all. */
static enum line_result read_magic(struct manifest *m, const char *line,
				   const char *name)
{
	if (strcmp(line, MANIFEST_MAGIC) == 0) {
		m->version = MANIFEST_VERSION;
	} else if (strcmp(line, MANIFEST_MAGIC_V3) == 0) {
		m->version = 3;
	} else if (strcmp(line, MANIFEST_MAGIC_V2) == 0) {
		m->version = 2;
	} else if (strcmp(line, MANIFEST_MAGIC_V1) == 0) {
		m->version = 1;
	} else {
		warnx("%s:1: not a capability manifest (want \"%s\")", name,
		      MANIFEST_MAGIC);
		return LINE_STOP;
	}
	return LINE_OK;
}

/* "!unread PATH" (version 2 on): a path record could not read. */
static enum line_result read_unread(struct manifest *m, char *path,
				    const char *name, unsigned long lineno)
{
	if (unescape(path) < 0 || !manifest_path_ok(path)) {
		warnx("%s:%lu: bad path after " UNREAD_TAG, name, lineno);
		return LINE_BAD;
	}
	if (manifest_add_unread(m, path) < 0) {
		warnx("%s: %s", name, strerror(ENOMEM));
		return LINE_STOP;
	}
	return LINE_OK;
}

/*
 * "PATH [owner=N group=N mode=NNNN acl=ACL [sha256=HEX]] CAPS
 * [[rootid=N]]", the fields the manifest's version has: the
 * path must be one a walk can produce, the capabilities valid text (kept
 * in cap_to_text()'s canonical form).
 */
static enum line_result read_entry(struct manifest *m, char *line,
				   const char *name, unsigned long lineno)
{
	struct entry e = { 0 };
	char *space = strchr(line, ' '), *text;
	cap_t caps;

	if (space == NULL) {
		warnx("%s:%lu: no capability text after the path", name,
		      lineno);
		return LINE_BAD;
	}
	*space = '\0';
	text = space + 1;
	if (unescape(line) < 0 || line[0] == '\0') {
		warnx("%s:%lu: bad escape in path (\\ooo octal, not \\000)",
		      name, lineno);
		return LINE_BAD;
	}
	if (!manifest_path_ok(line)) {
		warnx("%s:%lu: path must start with \"./\" and have no \".\", \"..\" or empty component",
		      name, lineno);
		return LINE_BAD;
	}
	if (m->version >= 2) {
		if (take_meta(&text, &e.meta, m->version) < 0) {
			if (errno == ENOMEM) {
				warnx("%s: %s", name, strerror(ENOMEM));
				return LINE_STOP;
			}
			if (m->version >= 4)
				warnx("%s:%lu: want \"owner=N group=N mode=NNNN acl=no|ENTRIES\" after the path, the entries an ACL the mode agrees with, in the kernel's order (user::rwx,user:1000:r-x,group::r-x,mask::r-x,other::---)",
				      name, lineno);
			else
				warnx("%s:%lu: want \"owner=N group=N mode=NNNN acl=yes|no\" after the path",
				      name, lineno);
			return LINE_BAD;
		}
		e.has_meta = 1;
	}
	if (m->version >= 3) {
		if (take_digest(&text, e.digest) < 0) {
			warnx("%s:%lu: want \"sha256=\" and 64 lower-case hex digits after acl=",
			      name, lineno);
			meta_free(&e.meta);
			return LINE_BAD;
		}
		e.has_digest = 1;
	}
	if (take_rootid(text, &e.rootid) < 0) {
		warnx("%s:%lu: bad [rootid=] suffix", name, lineno);
		meta_free(&e.meta);
		return LINE_BAD;
	}
	caps = cap_from_text(text);
	e.text = caps ? cap_to_text(caps, NULL) : NULL;
	cap_free(caps);
	if (e.text == NULL) {
		/* The text is the file's: escaped, so it cannot forge lines. */
		fprintf(stderr,
			"capmanifest: %s:%lu: invalid capability text \"", name,
			lineno);
		escape_fputs(text, stderr);
		fputs("\"\n", stderr);
		meta_free(&e.meta);
		return LINE_BAD;
	}
	e.path = line;
	if (manifest_add(m, &e) < 0) {
		cap_free(e.text);
		meta_free(&e.meta);
		warnx("%s: %s", name, strerror(ENOMEM));
		return LINE_STOP;
	}
	cap_free(e.text);
	meta_free(&e.meta);
	return LINE_OK;
}

/* One line, its newline already cut, as the read's first or a later one. */
static enum line_result read_line(struct manifest *m, char *line,
				  const char *name, unsigned long lineno)
{
	if (lineno == 1)
		return read_magic(m, line, name);
	if (line[0] == '\0' || line[0] == '#')
		return LINE_OK;
	if (strncmp(line, UNREAD_TAG " ", sizeof(UNREAD_TAG)) == 0 &&
	    m->version >= 2)
		return read_unread(m, line + sizeof(UNREAD_TAG), name, lineno);
	return read_entry(m, line, name, lineno);
}

/* A path listed twice would be granted twice, perhaps differently: -1. */
static int check_unique(struct manifest *m, const char *name)
{
	size_t i;

	manifest_sort(m);
	for (i = 1; i < m->count; i++) {
		if (strcmp(m->entries[i - 1].path, m->entries[i].path) == 0) {
			fprintf(stderr,
				"capmanifest: %s: path listed twice: ", name);
			print_escaped(stderr, m->entries[i].path);
			fputc('\n', stderr);
			return -1;
		}
	}
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

	m->version = 0;
	while ((len = getline(&line, &size, in)) >= 0) {
		enum line_result r;

		lineno++;
		/*
		 * Every line record and add write ends with a newline. One
		 * without is the end of a manifest cut short (a full disk, a
		 * copy interrupted), and its last field may be cut too: "=ep
		 * cap_sys_admin-ep" cut to "=ep" is every capability, and
		 * "cap_sys_admin=ep [rootid=1000]" cut before its suffix is
		 * no longer confined to a user namespace. Refused whole.
		 */
		if (len == 0 || line[len - 1] != '\n') {
			warnx("%s:%lu: no newline at the end of the line: the manifest is cut short",
			      name, lineno);
			status = -1;
			break;
		}
		line[--len] = '\0';
		if ((size_t)len != strlen(line)) {
			warnx("%s:%lu: NUL byte in line", name, lineno);
			status = -1;
			continue;
		}
		r = read_line(m, line, name, lineno);
		if (r != LINE_OK)
			status = -1;
		if (r == LINE_STOP)
			break;
	}
	if (lineno == 0) {
		warnx("%s: empty file, not a capability manifest", name);
		status = -1;
	}
	free(line);
	if (ferror(in)) {
		warn("%s", name);
		status = -1;
	}
	if (status == 0)
		status = check_unique(m, name);
	else
		manifest_sort(m);
	return status;
}
