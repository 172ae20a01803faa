/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Reading capability.conf safely: open checks, bounded lines, tokens. */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capconf.h"

/* Before the writer capconf_trust() names. */
#define UNTRUSTED_PREFIX "not root's alone: "

/* The null device by its numbers, so a bind-mounted or renamed one counts. */
static int is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       minor(st->st_rdev) == 3;
}

/*
 * A descriptor to read the regular file that pathfd (O_PATH, stat st)
 * names: reopened through /proc/self/fd, which opens that very inode, or
 * without /proc by path again, refused (EAGAIN) if that is no longer the
 * same file. -1 with errno.
 */
static int reopen_for_reading(int pathfd, const char *path,
			      const struct stat *st)
{
	const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	char self[64];
	struct stat again;
	int fd;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", pathfd);
	fd = open(self, flags);
	if (fd >= 0 || (errno != ENOENT && errno != ENOTDIR))
		return fd;
	fd = open(path, flags);
	if (fd < 0)
		return -1;
	if (fstat(fd, &again) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	if (again.st_dev != st->st_dev || again.st_ino != st->st_ino) {
		close(fd);
		errno = EAGAIN; /* replaced while we looked */
		return -1;
	}
	return fd;
}

int capconf_open(struct capconf_reader *r, const char *path)
{
	struct stat st;
	char *for_whom;
	size_t plen;
	int fd, pathfd, rc;

	memset(r, 0, sizeof(*r));
	/*
	 * Looked at before it is opened for reading: opening a device or a
	 * FIFO can act (a tape rewinds, a watchdog arms, a blocked writer
	 * goes on), and its name may be someone else's choice until the
	 * trust check refuses it. The checks use fstat() on the descriptor,
	 * so the file cannot be swapped between the check and the read.
	 */
	pathfd = open(path, O_PATH | O_CLOEXEC);
	if (pathfd < 0)
		return CAPCONF_OPEN_FAILED;
	if (fstat(pathfd, &st) < 0) {
		int saved = errno;

		close(pathfd);
		errno = saved;
		return CAPCONF_OPEN_FAILED;
	}
	plen = strlen(UNTRUSTED_PREFIX);
	memcpy(r->untrusted, UNTRUSTED_PREFIX, plen);
	for_whom = r->untrusted + plen;
	if (is_null_device(&st)) {
		/*
		 * libcap allows config=/dev/null: empty, nothing matches, and
		 * default= decides; only if no user could have put it there
		 * in place of the file's lines.
		 */
		close(pathfd);
		rc = capconf_way_trusted(path, &st, for_whom,
					 sizeof(r->untrusted) - plen);
		if (rc != CAPCONF_OPEN_OK && rc != CAPCONF_OPEN_UNTRUSTED_DIR)
			memmove(r->untrusted, for_whom, strlen(for_whom) + 1);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		/* A device or FIFO could feed endless data to every login. */
		close(pathfd);
		return CAPCONF_OPEN_NOT_REGULAR;
	}
	/* O_NONBLOCK: no wait on a mandatory lock or a lease. */
	fd = reopen_for_reading(pathfd, path, &st);
	if (fd < 0) {
		int saved = errno;

		close(pathfd);
		errno = saved;
		return CAPCONF_OPEN_FAILED;
	}
	close(pathfd);
	/*
	 * Whoever could have written it could grant themselves anything:
	 * world-writable (as libcap 2.69+), and beyond libcap a file or a
	 * directory on its way that another user owns or may write
	 * (capconf_trust.c).
	 */
	rc = capconf_trust(path, fd, &st, for_whom,
			   sizeof(r->untrusted) - plen);
	if (rc != CAPCONF_OPEN_OK) {
		int saved = errno;

		/* An ACL it could not judge is said without the prefix. */
		if (rc != CAPCONF_OPEN_UNTRUSTED &&
		    rc != CAPCONF_OPEN_UNTRUSTED_DIR)
			memmove(r->untrusted, for_whom, strlen(for_whom) + 1);
		close(fd);
		errno = saved;
		return rc;
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
	default:
		/* who may write it, or why that is unknown */
		if (r->untrusted[0] != '\0')
			return r->untrusted;
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

/*
 * Is line a rule (its first word not a comment) holding a control
 * character other than a tab? Sets the error and the byte if so. No name,
 * group or IAB text holds one, and what a terminal shows of such a line
 * is not what pam_cap reads: it is unusable, like a NUL byte.
 */
static int control_in_rule(struct capconf_line *line)
{
	const unsigned char *p = (const unsigned char *)line->buf;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		return 0;
	for (; *p != '\0'; p++) {
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
			line->error = CAPCONF_LINE_CONTROL;
			line->control = *p;
			return 1;
		}
	}
	return 0;
}

int capconf_next(struct capconf_reader *r, struct capconf_line **out)
{
	struct capconf_line *line = &r->line;
	int rc;

	if (r->fp == NULL)
		return 0; /* /dev/null */
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
		if (control_in_rule(line)) {
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
