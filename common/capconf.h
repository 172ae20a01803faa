/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capability.conf reading and matching, shared by pam_cap.so and capcheck. */
#ifndef COMMON_CAPCONF_H
#define COMMON_CAPCONF_H

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "groups.h"

#define CAPCONF_DEFAULT_PATH "/etc/security/capability.conf"

/*
 * libcap reads the file with a 4096-byte fgets() buffer, so a line of 4096
 * bytes or more is split and its tail parsed as a line of its own: a long
 * comment can turn into a grant. We refuse such a line instead (fail closed).
 */
#define CAPCONF_LINE_MAX 4095
/* A line of CAPCONF_LINE_MAX bytes holds at most this many tokens. */
#define CAPCONF_TOKENS_MAX ((CAPCONF_LINE_MAX + 1) / 2)

/*
 * Why a line could not be used at all. Such a line ends the scan: no line
 * after it is read, so it never lets a later, broader line decide.
 */
enum capconf_line_error {
	CAPCONF_LINE_OK = 0,
	CAPCONF_LINE_TOO_LONG, /* longer than CAPCONF_LINE_MAX */
	CAPCONF_LINE_NUL,      /* holds a NUL byte: binary data */
	/*
	 * A rule (no comment) holding a control character other than a tab:
	 * libcap splits only at blanks, so "none alice\r" (a file with DOS
	 * line ends) names "alice\r", nobody, and the restriction meant for
	 * alice is silently skipped for a later, broader line.
	 */
	CAPCONF_LINE_CONTROL,
};

/* Results of capconf_open(); negative values mean "read nothing". */
enum capconf_open_status {
	CAPCONF_OPEN_OK = 0,
	CAPCONF_OPEN_FAILED = -1,	  /* errno says why */
	CAPCONF_OPEN_WORLD_WRITABLE = -2, /* S_IWOTH and not /dev/null */
	CAPCONF_OPEN_NOT_REGULAR = -3, /* FIFO, device other than /dev/null */
	/*
	 * Someone besides root may write it: its owner (who may chmod it),
	 * its group, an ACL entry. The reader's untrusted[] says who.
	 */
	CAPCONF_OPEN_UNTRUSTED = -4,
	/*
	 * A directory on its way (or a symbolic link there) may be changed
	 * by someone besides root, who could put another file in its
	 * place; or it, or one of them, is on a FUSE file system, whose
	 * daemon says who owns it. Nothing done to the file itself mends
	 * either. untrusted[] says which and who.
	 */
	CAPCONF_OPEN_UNTRUSTED_DIR = -5,
};

/* Room for what capconf_trust() says about who may write a file. */
#define CAPCONF_TRUST_WHY 512

/* A line with tokens that is no comment; tok[0] is the caps text. */
struct capconf_line {
	unsigned long number; /* 1-based line number in the file */
	enum capconf_line_error error;
	unsigned char control; /* CAPCONF_LINE_CONTROL: the byte */
	int ntok;
	char *tok[CAPCONF_TOKENS_MAX]; /* point into buf */
	char buf[CAPCONF_LINE_MAX + 1];
};

struct capconf_reader {
	FILE *fp;
	unsigned long lineno;
	/* CAPCONF_OPEN_UNTRUSTED(_DIR), or an ACL unread: why */
	char untrusted[CAPCONF_TRUST_WHY];
	struct capconf_line line;
};

/*
 * A user in more than GROUPS_MAX groups (groups.h) has a group list we
 * cannot trust, so it counts as incomplete.
 */
#define CAPCONF_GROUPS_MAX GROUPS_MAX

/* A user as the matcher sees it: the name and the names of all groups. */
struct capconf_user {
	char *name;
	char **groups; /* names from getgrouplist(), by gid */
	int ngroups;
	/*
	 * Empty when groups[] is the whole list. Otherwise why it is not (a
	 * group lookup failed, too many groups): an "@group" token naming no
	 * group of groups[] then cannot be decided, and ends the scan.
	 */
	char groups_error[128];
	/*
	 * When not NULL (capconf_user_lookup() sets it): asks the group
	 * database itself about a group that groups[] does not hold, since
	 * getgrouplist() leaves out without a word the groups of a service
	 * that failed (groups.h). 1 a member, 0 not, -1 cannot tell, with the
	 * reason in *why (whylen bytes). NULL: groups[] alone decides.
	 */
	int (*member)(const struct capconf_user *u, const char *group,
		      char *why, size_t whylen);
	gid_t primary; /* for member() */
	gid_t *gids;   /* groups[]'s gids, for member() */
	int ngids;
	char *undecided_why; /* member()'s last reason (256 bytes) */
};

enum capconf_why {
	CAPCONF_WHY_USER,  /* the user's name is listed */
	CAPCONF_WHY_GROUP, /* "@group" names a group of the user */
	CAPCONF_WHY_ANY,   /* "*" */
};

/*
 * The line that decided: on CAPCONF_FOUND what it grants and why; on
 * CAPCONF_BROKEN the line the scan stopped at (0 when the problem is not
 * a line: the file, or the user's own entry) and the problem.
 */
struct capconf_match {
	unsigned long line;
	enum capconf_why why;
	char *who;	   /* the token that matched; free() */
	char *caps;	   /* the first token, unparsed; free() */
	char problem[512]; /* CAPCONF_BROKEN: what was unusable */
};

/* Results of capconf_find() and capconf_scan(). */
enum capconf_find_status {
	CAPCONF_FOUND = 1,
	CAPCONF_NOT_FOUND = 0,
	CAPCONF_UNKNOWN_USER = -1, /* no passwd entry: nothing matches */
	CAPCONF_UNREADABLE = -2,   /* no such file: it has no lines */
	CAPCONF_NOMEM = -3,
	/*
	 * The decision stopped at something unusable: a line (NUL byte, too
	 * long), a read error, a lookup error that leaves a line undecided,
	 * the user's entry, or a file not trusted (world-writable, not a
	 * regular file) or not readable. Nothing may be granted, and no later
	 * rule may apply instead: no later line, and no default= either.
	 */
	CAPCONF_BROKEN = -4,
};

/* Receives every problem met while scanning; prio is a syslog priority. */
typedef void (*capconf_log_fn)(void *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Opens path for reading and checks the file is safe to trust: a regular
 * file (or /dev/null) that nobody but root could have written
 * (capconf_trust()). Returns CAPCONF_OPEN_OK or a negative enum
 * capconf_open_status; capconf_open_strerror() says why.
 */
int capconf_open(struct capconf_reader *r, const char *path);

/*
 * Could anyone but root have written the regular file of st, at path,
 * open on fd (or -1: judged by path, following a symbolic link)? Root
 * alone is trusted, whatever ids the caller has (a set-user-ID su keeps
 * the user's group), and in a nested user namespace the overflow uid it
 * does not map, which files of owners outside it show; no group is, group
 * root included (processes that are not root hold gid 0). Its owner, its
 * group's or an ACL entry's write permission, or a directory or symbolic
 * link on its way (followed again from "/") that such a user may change,
 * say yes. Returns CAPCONF_OPEN_OK when nobody could;
 * CAPCONF_OPEN_WORLD_WRITABLE; CAPCONF_OPEN_UNTRUSTED (the file itself:
 * "chown root; chmod 0644" mends it) or CAPCONF_OPEN_UNTRUSTED_DIR (a
 * directory or link on its way, or the file, on FUSE: fsowner.h), with
 * why (whylen bytes) naming the writer; or CAPCONF_OPEN_FAILED with errno
 * (ENOMEM among them), and why saying more when an ACL cannot be read or
 * decoded (who may write is unknown then). (capconf_trust.c: pam_cap's
 * policy for path_trust.h, which judges.)
 */
int capconf_trust(const char *path, int fd, const struct stat *st, char *why,
		  size_t whylen);

/*
 * pam_cap's questions to path_trust.h (capconf_trust.c), the reason for
 * each there: root alone; the overflow uid of a nested user namespace
 * that does not map it; sticky directories keep the way on to root's
 * directories in them, never the file or a link (PATH_TRUST_STICKY_ABOVE);
 * read-only mounts no mount lets anyone write seal a directory, sticky or
 * not; pam_cap's words.
 */
struct path_trust_policy;
extern const struct path_trust_policy capconf_trust_policy;

/*
 * The way to path alone, as capconf_trust() judges it: whether a name on
 * it could have been made to lead to the file of st by someone untrusted.
 * For the null device, which everyone may write but nobody can fill: a
 * name of it that a user could have put there would still skip every
 * line for default=. The same returns, without CAPCONF_OPEN_UNTRUSTED.
 */
int capconf_way_trusted(const char *path, const struct stat *st, char *why,
			size_t whylen);

/*
 * Reads the next line that carries tokens (empty lines and comments are
 * skipped). Returns 1 with *line set (valid until the next call), 0 at the
 * end of the file, -1 on a read error (errno set).
 */
int capconf_next(struct capconf_reader *r, struct capconf_line **line);

void capconf_close(struct capconf_reader *r);

/*
 * Fills u from the passwd and group databases. Returns 0, or -1 with errno
 * ENOENT (no such user), ENOMEM, or the error of the passwd lookup (any
 * other value). A failed group lookup is no failure here: it leaves
 * u->groups_error set. Release with capconf_user_release().
 */
int capconf_user_lookup(struct capconf_user *u, const char *name);
void capconf_user_release(struct capconf_user *u);

/*
 * Does line select u? Returns the index (>= 1) of the first "who" token
 * that does, with *why set; 0 when none does; -1 when the line cannot be
 * used and must end the scan: it has an error (*undecided is then 0), or
 * no token selects u and the "@group" token at index *undecided names a
 * group u's incomplete group list (u->groups_error) cannot rule out, or
 * whose membership the group database could not answer (the reason is in
 * u->undecided_why). Tokens that select u for sure (its name, "*", a
 * group of groups[]) are looked for first; the group database is asked
 * only when none does.
 */
int capconf_line_matches(const struct capconf_line *line,
			 const struct capconf_user *u, enum capconf_why *why,
			 int *undecided);

/*
 * Reads r's lines until one selects u (CAPCONF_FOUND, m filled: release it
 * with capconf_match_release()) or cannot be used (CAPCONF_BROKEN, with
 * m->line and m->problem set), or to the end (CAPCONF_NOT_FOUND); also
 * CAPCONF_NOMEM. A read error is CAPCONF_BROKEN. path names the file in
 * messages; problems go to log at LOG_ERR if log is not NULL.
 */
int capconf_scan(struct capconf_reader *r, const char *path,
		 const struct capconf_user *u, struct capconf_match *m,
		 capconf_log_fn log, void *ctx);

/*
 * Finds the first line of the file at path that matches user; returns an
 * enum capconf_find_status. On CAPCONF_FOUND, m is filled and must be
 * released with capconf_match_release(); on CAPCONF_BROKEN, m->line and
 * m->problem say where and why the decision stopped. Problems go to log
 * if not NULL: at LOG_ERR whatever makes the answer CAPCONF_BROKEN.
 */
int capconf_find(const char *path, const char *user, struct capconf_match *m,
		 capconf_log_fn log, void *ctx);
void capconf_match_release(struct capconf_match *m);

/*
 * After a "*" line (number after) decided for user: the first later line
 * that names the user or one of the user's groups. pam_cap never reaches
 * it, since the first matching line wins, yet it is plainly the line meant
 * for this user (Debian's file ends with "none *", and a grant appended
 * below it is dead). Returns CAPCONF_FOUND with later filled (release with
 * capconf_match_release()), CAPCONF_NOT_FOUND (also when an unusable line
 * comes first), or CAPCONF_UNKNOWN_USER, CAPCONF_UNREADABLE, CAPCONF_NOMEM.
 */
int capconf_find_shadowed(const char *path, const char *user,
			  unsigned long after, struct capconf_match *later);

/* "user", "@group" or "*": how a match is described in logs. */
const char *capconf_why_name(enum capconf_why why);

/* Describes r's capconf_open() failure status, for messages. */
const char *capconf_open_strerror(const struct capconf_reader *r, int status);

#endif
