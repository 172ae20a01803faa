/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* One mount's facts, from mountinfo's text, and what they say (mounts.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mounts.h"

/* The kernel writes space, tab, newline and backslash in a path as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* The next space-separated field of *p (an empty one too), or NULL. */
static char *next_field(char **p)
{
	char *field = *p, *space;

	if (field == NULL)
		return NULL;
	space = strchr(field, ' ');
	if (space != NULL)
		*space++ = '\0';
	*p = space;
	return field;
}

/* Whether the comma-separated options hold word as a whole option. */
static int has_option(const char *options, const char *word)
{
	size_t len = strlen(word);
	const char *p = options;

	while (*p != '\0') {
		size_t n = strcspn(p, ",");

		if (n == len && strncmp(p, word, len) == 0)
			return 1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int parse_number(const char *text, int base, unsigned long long *out)
{
	char *end;

	if (text == NULL || text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	*out = strtoull(text, &end, base);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

int mountinfo_parse_line(char *line, struct mount_entry *e)
{
	char *p = line, *id, *parent, *dev, *colon, *root, *point, *opts, *f;
	char *fstype, *super_opts;
	unsigned long long n, major, minor;

	memset(e, 0, sizeof(*e));
	id = next_field(&p);
	parent = next_field(&p);
	dev = next_field(&p);
	root = next_field(&p);
	point = next_field(&p);
	opts = next_field(&p);
	/* optional fields ("shared:1", "master:2"), up to a lone "-" */
	do
		f = next_field(&p);
	while (f != NULL && strcmp(f, "-") != 0);
	if (f == NULL || (fstype = next_field(&p)) == NULL ||
	    next_field(&p) == NULL)
		goto bad; /* no separator, type or source */
	super_opts = next_field(&p);
	if (super_opts == NULL || p != NULL || opts == NULL || dev == NULL)
		goto bad;
	colon = strchr(dev, ':');
	if (colon == NULL)
		goto bad;
	*colon = '\0';
	if (parse_number(id, 10, &e->id) < 0 ||
	    parse_number(parent, 10, &n) < 0 ||
	    parse_number(dev, 10, &major) < 0 ||
	    parse_number(colon + 1, 10, &minor) < 0 || major > 0xffffffffULL ||
	    minor > 0xffffffffULL || root[0] != '/' || point[0] != '/')
		goto bad;
	e->old_id = e->id;
	e->major = (unsigned int)major;
	e->minor = (unsigned int)minor;
	e->read_only = has_option(opts, "ro") || has_option(super_opts, "ro");
	e->idmapped = has_option(opts, "idmapped");
	unescape(root);
	unescape(point);
	e->root = root;
	e->point = point;
	e->fstype = fstype;
	e->super_opts = super_opts;
	return 0;
bad:
	memset(e, 0, sizeof(*e));
	errno = EINVAL;
	return -1;
}

/* Whether path is at or below dir (both canonical, dir "/" above all). */
static const char *below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path;
	if (strncmp(path, dir, len) != 0 ||
	    (path[len] != '\0' && path[len] != '/'))
		return NULL;
	return path + len; /* "" or "/rest" */
}

int mount_fs_path(const struct mount_entry *m, const char *dir, char *out,
		  size_t len)
{
	const char *rest = m->point != NULL ? below(dir, m->point) : NULL;
	int n;

	if (rest == NULL || m->root == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(m->root, "/") == 0)
		n = snprintf(out, len, "%s", rest[0] != '\0' ? rest : "/");
	else
		n = snprintf(out, len, "%s%s", m->root, rest);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int mount_reaches(const struct mount_entry *m, unsigned int major,
		  unsigned int minor, const char *fs_path)
{
	return !m->read_only && m->major == major && m->minor == minor &&
	       m->root != NULL && below(fs_path, m->root) != NULL;
}
