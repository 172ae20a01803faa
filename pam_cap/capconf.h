/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capability.conf reading and matching, shared by pam_cap.so and capcheck. */
#ifndef CAPCONF_H
#define CAPCONF_H

#include <stdio.h>
#include <sys/types.h>

#define CAPCONF_DEFAULT_PATH	"/etc/security/capability.conf"

/*
 * libcap reads the file with a 4096-byte fgets() buffer, so a line of 4096
 * bytes or more is split and its tail parsed as a line of its own: a long
 * comment can turn into a grant. We refuse such a line instead (fail closed).
 */
#define CAPCONF_LINE_MAX	4095
/* A line of CAPCONF_LINE_MAX bytes holds at most this many tokens. */
#define CAPCONF_TOKENS_MAX	((CAPCONF_LINE_MAX + 1) / 2)

/* Why a line could not be used at all (it then matches nobody). */
enum capconf_line_error {
	CAPCONF_LINE_OK = 0,
	CAPCONF_LINE_TOO_LONG,		/* longer than CAPCONF_LINE_MAX */
	CAPCONF_LINE_NUL,		/* holds a NUL byte: binary data */
};

/* Results of capconf_open(); negative values mean "read nothing". */
enum capconf_open_status {
	CAPCONF_OPEN_OK = 0,
	CAPCONF_OPEN_FAILED = -1,	/* errno says why */
	CAPCONF_OPEN_WORLD_WRITABLE = -2,	/* S_IWOTH and not /dev/null */
	CAPCONF_OPEN_NOT_REGULAR = -3,	/* FIFO, device other than /dev/null */
};

/* A line with tokens that is no comment; tok[0] is the caps text. */
struct capconf_line {
	unsigned long number;		/* 1-based line number in the file */
	enum capconf_line_error error;
	int ntok;
	char *tok[CAPCONF_TOKENS_MAX];	/* point into buf */
	char buf[CAPCONF_LINE_MAX + 1];
};

struct capconf_reader {
	FILE *fp;
	unsigned long lineno;
	struct capconf_line line;
};

/* A user as the matcher sees it: the name and the names of all groups. */
struct capconf_user {
	char *name;
	char **groups;			/* names from getgrouplist(), by gid */
	int ngroups;
};

enum capconf_why {
	CAPCONF_WHY_USER,		/* the user's name is listed */
	CAPCONF_WHY_GROUP,		/* "@group" names a group of the user */
	CAPCONF_WHY_ANY,		/* "*" */
};

/* The first line that matched: what it grants and why. */
struct capconf_match {
	unsigned long line;
	enum capconf_why why;
	char *who;			/* the token that matched; free() */
	char *caps;			/* the first token, unparsed; free() */
};

/* Results of capconf_find(). */
enum capconf_find_status {
	CAPCONF_FOUND = 1,
	CAPCONF_NOT_FOUND = 0,
	CAPCONF_UNKNOWN_USER = -1,	/* no passwd entry: nothing matches */
	CAPCONF_UNREADABLE = -2,	/* not opened or not trusted */
	CAPCONF_NOMEM = -3,
};

/* Receives every problem met while scanning; prio is a syslog priority. */
typedef void (*capconf_log_fn)(void *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Opens path for reading and checks the file is safe to trust. Returns
 * CAPCONF_OPEN_OK or a negative enum capconf_open_status.
 */
int capconf_open(struct capconf_reader *r, const char *path);

/*
 * Reads the next line that carries tokens (empty lines and comments are
 * skipped). Returns 1 with *line set (valid until the next call), 0 at the
 * end of the file, -1 on a read error (errno set).
 */
int capconf_next(struct capconf_reader *r, struct capconf_line **line);

void capconf_close(struct capconf_reader *r);

/*
 * Fills u from the passwd and group databases. Returns 0, or -1 with errno
 * ENOENT (no such user) or ENOMEM. Release with capconf_user_release().
 */
int capconf_user_lookup(struct capconf_user *u, const char *name);
void capconf_user_release(struct capconf_user *u);

/*
 * Returns the index (>= 1) of the first "who" token of line that selects u,
 * with *why set, or 0 if none does. A line with an error matches nobody.
 */
int capconf_line_matches(const struct capconf_line *line,
			 const struct capconf_user *u, enum capconf_why *why);

/*
 * Finds the first line of the file at path that matches user; returns an
 * enum capconf_find_status. On CAPCONF_FOUND, m is filled and must be
 * released with capconf_match_release(). Problems (unreadable or
 * world-writable file, over-long or binary lines) go to log if not NULL.
 */
int capconf_find(const char *path, const char *user, struct capconf_match *m,
		 capconf_log_fn log, void *ctx);
void capconf_match_release(struct capconf_match *m);

/* "user", "@group" or "*": how a match is described in logs. */
const char *capconf_why_name(enum capconf_why why);

/* Describes a capconf_open() failure, for messages. */
const char *capconf_open_strerror(int status);

#endif
