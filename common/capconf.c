/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Reading capability.conf safely: open checks, bounded lines, tokens. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capconf.h"
#include "writers.h"

/* The null device by its numbers, so a bind-mounted or renamed one counts. */
static int is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       minor(st->st_rdev) == 3;
}

int capconf_open(struct capconf_reader *r, const char *path)
{
	char why[128];
	struct stat st;
	int fd, rc;

	memset(r, 0, sizeof(*r));
	/*
	 * O_NONBLOCK: opening a FIFO must not hang a login. The checks use
	 * fstat() on the opened descriptor, so the file cannot be swapped
	 * between the check and the read.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return CAPCONF_OPEN_FAILED;
	if (fstat(fd, &st) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return CAPCONF_OPEN_FAILED;
	}
	if (is_null_device(&st)) {
		/* libcap allows config=/dev/null: empty, nothing matches. */
		close(fd);
		return CAPCONF_OPEN_OK;
	}
	if (!S_ISREG(st.st_mode)) {
		/* A device or FIFO could feed endless data to every login. */
		close(fd);
		return CAPCONF_OPEN_NOT_REGULAR;
	}
	if (st.st_mode & S_IWOTH) {
		/* Anyone could grant themselves anything (as libcap 2.69+). */
		close(fd);
		return CAPCONF_OPEN_WORLD_WRITABLE;
	}
	/*
	 * libcap stops there, but a user who owns the file, is in a group
	 * that may write it, or is given write by an ACL entry (which leaves
	 * S_IWOTH clear) can grant themselves anything just the same.
	 */
	rc = writers_besides(fd, &st, geteuid(), getegid(), why, sizeof(why));
	if (rc < 0 && errno == ENOMEM) {
		close(fd);
		errno = ENOMEM;
		return CAPCONF_OPEN_FAILED;
	}
	if (rc != 0) {
		snprintf(r->untrusted, sizeof(r->untrusted),
			 "not root's alone: %s", why);
		close(fd);
		return CAPCONF_OPEN_OTHERS_MAY_WRITE;
	}
	r->fp = fdopen(fd, "r");
	if (r->fp == NULL) {
		int saved = errno;

		close(fd);
		errno = saved;
		return CAPCONF_OPEN_FAILED;
	}
	return CAPCONF_OPEN_OK;
}

const char *capconf_open_strerror(const struct capconf_reader *r, int status)
{
	switch (status) {
	case CAPCONF_OPEN_OK:
		return "ok";
	case CAPCONF_OPEN_WORLD_WRITABLE:
		return "world-writable: anyone could have rewritten it";
	case CAPCONF_OPEN_NOT_REGULAR:
		return "not a regular file";
	case CAPCONF_OPEN_OTHERS_MAY_WRITE:
		return r->untrusted;
	default:
		return strerror(errno);
	}
}

/*
 * Reads one physical line into line->buf without its newline. Returns 1,
 * or 0 at end of file with nothing read, or -1 on a read error.
 */
static int read_line(FILE *fp, struct capconf_line *line)
{
	size_t len = 0;
	int c, any = 0;

	line->error = CAPCONF_LINE_OK;
	while ((c = getc(fp)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (c == '\0' && line->error == CAPCONF_LINE_OK)
			line->error = CAPCONF_LINE_NUL;
		if (len == CAPCONF_LINE_MAX) {
			/* Read on to the newline: the tail is no line. */
			line->error = CAPCONF_LINE_TOO_LONG;
			continue;
		}
		line->buf[len++] = (char)c;
	}
	line->buf[len] = '\0';
	if (ferror(fp))
		return -1;
	return any;
}

/* Splits buf in place at spaces and tabs, as libcap does (no quoting). */
static void split_tokens(struct capconf_line *line)
{
	char *p = line->buf;

	line->ntok = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return;
		line->tok[line->ntok++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p == '\0')
			return;
		*p++ = '\0';
	}
}

int capconf_next(struct capconf_reader *r, struct capconf_line **out)
{
	struct capconf_line *line = &r->line;
	int rc;

	if (r->fp == NULL)
		return 0;			/* /dev/null */
	for (;;) {
		rc = read_line(r->fp, line);
		if (rc <= 0)
			return rc;
		line->number = ++r->lineno;
		if (line->error != CAPCONF_LINE_OK) {
			/* Reported even if it looks like a comment: libcap
			 * would parse the tail of a long comment as a grant. */
			line->ntok = 0;
			*out = line;
			return 1;
		}
		split_tokens(line);
		/* Only a first token starting with '#' makes a comment. */
		if (line->ntok == 0 || line->tok[0][0] == '#')
			continue;
		*out = line;
		return 1;
	}
}

void capconf_close(struct capconf_reader *r)
{
	if (r->fp != NULL)
		fclose(r->fp);
	r->fp = NULL;
}
