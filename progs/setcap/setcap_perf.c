/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap --perf: the least a perf binary needs, by kernel version and perf
 * subcommand (the policy is common/perf.h's), so an administrator need not
 * remember the table.
 *
 * --perf refuses a file whose capabilities the kernel would not honour (a
 * script, anything not ELF, a nosuid or noexec mount) and warns when every
 * user may run it; --perf-group makes the file root:GROUP 0750 without any
 * ACL entry first. All of it acts on one inode, opened once.
 */
#define _GNU_SOURCE /* O_PATH, AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "acl.h"
#include "escape.h"
#include "exec_target.h"
#include "names.h"
#include "perf.h"
#include "reopen.h"
#include "say.h"
#include "setcap.h"
#include "shquote.h"

cap_t perf_preset(const char *subcommands)
{
	cap_value_t list[PERF_PRESET_MAX];
	int n, lock = 0;
	const char *p = subcommands;
	cap_t caps;

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");
		enum perf_subcommand kind = perf_subcommand_kind(p, len);

		if (kind == PERF_SUB_BUFFERED)
			lock = 1;
		else if (kind == PERF_SUB_UNKNOWN) {
			say(stderr, "setcap: ",
			    "--perf: unknown perf subcommand '%.*s' (known: " PERF_SUBCOMMANDS
			    ")",
			    (int)len, p);
			return NULL;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	n = perf_preset_caps(lock, list);
	if (list[0] == CAP_SYS_ADMIN)
		say(stderr, "setcap: ",
		    "warning: --perf: this kernel predates CAP_PERFMON (Linux " PERF_PERFMON_LINUX
		    "); granting cap_sys_admin, which is equivalent to root");
	caps = cap_init();
	if (caps == NULL ||
	    cap_set_flag(caps, CAP_PERMITTED, n, list, CAP_SET) < 0 ||
	    cap_set_flag(caps, CAP_EFFECTIVE, n, list, CAP_SET) < 0) {
		say(stderr, "setcap: ", "--perf: %s", strerror(errno));
		cap_free(caps);
		return NULL;
	}
	return caps;
}

static void say_cmd(const char *cmd, const char *tail, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * say_tail() for a line that holds a command to paste: the formatted
 * text escaped, then cmd and tail (our own text) as they are. cmd's operands
 * come from shquote_dup(), which refuses any name a terminal would not
 * show as it is; escaping the backslashes it lets through would change
 * what the pasted command names.
 */
static void say_cmd(const char *cmd, const char *tail, const char *fmt, ...)
{
	va_list ap;
	char *after;

	if (asprintf(&after, "%s%s", cmd, tail) < 0) {
		perror("setcap");
		exit(EXIT_FAILURE);
	}
	va_start(ap, fmt);
	vsay_tail(stderr, "setcap: ", after, fmt, ap);
	va_end(ap);
	free(after);
}

/*
 * A command to paste: head, then file as one shell word that no command
 * takes for an option (shquote_path_dup()). NULL when the name cannot be
 * shown as it is: the caller prints no command, and says why.
 */
static char *file_command(const char *head, const char *file)
{
	char *word = shquote_path_dup(file), *cmd;

	if (word == NULL && errno == EILSEQ)
		return NULL;
	if (word == NULL || asprintf(&cmd, "%s%s", head, word) < 0) {
		perror("setcap");
		exit(EXIT_FAILURE);
	}
	free(word);
	return cmd;
}

/* "no group named X", and the groupadd command that creates it. */
static void say_no_group(const char *name)
{
	char *word = shquote_dup(name), *cmd;

	if (word == NULL && errno != EILSEQ) {
		perror("setcap");
		exit(EXIT_FAILURE);
	}
	if (word == NULL) {
		say(stderr, "setcap: ",
		    "--perf-group: no group named '%s' (create it first with groupadd; " SHQUOTE_UNSHOWN
		    ")",
		    name);
		return;
	}
	/* "--": groupadd would take a name such as "-o" for an option. */
	if (asprintf(&cmd, "groupadd %s%s", name[0] == '-' ? "-- " : "", word) <
	    0) {
		perror("setcap");
		exit(EXIT_FAILURE);
	}
	say_cmd(cmd, ")",
		"--perf-group: no group named '%s' (create it first: ", name);
	free(cmd);
	free(word);
}

/*
 * Walks argv with setcap's own grammar (options, then "caps file" pairs)
 * so a file named "--perf-group=x" is never taken for the option.
 */
int perf_check_group_args(int argc, char **argv, struct perf_group *g)
{
	int i, perf_before = 0, perf_after = 0, seen = 0;
	struct group *gr;

	memset(g, 0, sizeof(*g));
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "-q") == 0 || strcmp(arg, "-v") == 0 ||
		    strcmp(arg, "-f") == 0)
			continue;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--license") == 0)
			break; /* setcap stops there */
		if (strcmp(arg, "-n") == 0) {
			i++; /* its value */
			continue;
		}
		if (strcmp(arg, "--perf-group") == 0) {
			say(stderr, "setcap: ",
			    "--perf-group needs a group: --perf-group=GROUP, before --perf");
			return -1;
		}
		if (strncmp(arg, "--perf-group=", 13) == 0) {
			if (seen++) {
				say(stderr, "setcap: ",
				    "--perf-group given twice ('%s', then '%s'): give it once, before the --perf files",
				    g->name, arg + 13);
				return -1;
			}
			g->name = arg + 13;
			continue;
		}
		if (strcmp(arg, "--perf") == 0 ||
		    strncmp(arg, "--perf=", 7) == 0) {
			perf_after |= seen;
			perf_before |= !seen;
		}
		i++; /* the file of this pair */
	}
	if (!seen)
		return 0;
	if (perf_before) {
		/* It applies to every --perf file: none may come before it. */
		say(stderr, "setcap: ",
		    "--perf-group=%s must come before every --perf it applies to, not after one",
		    g->name);
		return -1;
	}
	if (!perf_after) {
		say(stderr, "setcap: ",
		    "--perf-group=%s applies to the --perf files that follow it, and none does: put it before --perf",
		    g->name);
		return -1;
	}
	if (g->name[0] == '\0') {
		say(stderr, "setcap: ",
		    "--perf-group: no group named '': give --perf-group=GROUP, before --perf");
		return -1;
	}
	errno = 0;
	gr = getgrnam(g->name);
	if (gr == NULL) {
		if (errno != 0 && errno != ENOENT && errno != ESRCH)
			say(stderr, "setcap: ",
			    "--perf-group: cannot look up group '%s': %s",
			    g->name, strerror(errno));
		else
			say_no_group(g->name);
		return -1;
	}
	g->gid = gr->gr_gid;
	return 0;
}

/* The file open on fd, reached by name only through its /proc link. */
struct target {
	const char *file; /* as given, for messages */
	int fd;		  /* O_PATH | O_NOFOLLOW */
	char proc[40];	  /* /proc/thread-self/fd/N */
	struct stat st;
};

/* "1000 (alice)", or "1000" for a uid without a name. */
static const char *user_label(uid_t uid, char *buf, size_t len)
{
	char name[64], number[16];
	int n;

	snprintf(number, sizeof(number), "%u", (unsigned)uid);
	names_user(uid, name, sizeof(name));
	/* A long name is cut to fit: this is a message. */
	if (strcmp(name, number) != 0)
		n = snprintf(buf, len, "%s (%s)", number, name);
	else
		n = snprintf(buf, len, "%s", number);
	if (n < 0)
		buf[0] = '\0';
	return buf;
}

/*
 * Describes the entries of a POSIX ACL that reach beyond owner, group and
 * others ("user:nobody:r-x group:adm:r-x"), into buf. Returns how many
 * there are (the mask counts), 0 for none or a minimal ACL, -1 with errno
 * when the ACL cannot be read (ENOTSUP: the filesystem has none).
 */
static int acl_extended_entries(const struct target *t, char *buf, size_t len)
{
	unsigned char raw[8192];
	struct acl_entry e[ACL_MAX_ENTRIES];
	ssize_t n = getxattr(t->proc, ACL_XATTR_ACCESS, raw, sizeof(raw));
	size_t used = 0;
	int count = 0, i, entries;

	buf[0] = '\0';
	if (n < 0)
		return errno == ENODATA ? 0 : -1;
	entries = acl_decode(raw, (size_t)n, e, ACL_MAX_ENTRIES);
	if (entries < 0)
		return -1; /* not an ACL the kernel would write */
	for (i = 0; i < entries; i++) {
		char who[64], name[64];

		if (e[i].tag != ACL_NAMED_USER && e[i].tag != ACL_NAMED_GROUP &&
		    e[i].tag != ACL_MASK)
			continue;
		count++;
		if (e[i].tag == ACL_MASK)
			continue;
		if (e[i].tag == ACL_NAMED_USER)
			snprintf(who, sizeof(who), "user:%s",
				 names_user(e[i].id, name, sizeof(name)));
		else
			snprintf(who, sizeof(who), "group:%s",
				 names_group(e[i].id, name, sizeof(name)));
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s:%c%c%c", used ? " " : "",
						 who, e[i].perm & 4 ? 'r' : '-',
						 e[i].perm & 2 ? 'w' : '-',
						 e[i].perm & 1 ? 'x' : '-');
	}
	return count;
}

/* Refuses what the kernel would not honour; 0 or -1 after a message. */
static int check_exec_target(const struct target *t)
{
	struct exec_target et;
	const char *problem;
	char why[200];

	if (exec_target_inspect(t->fd, &et) < 0) {
		say(stderr, "setcap: ",
		    "%s: cannot tell how the kernel would execute it: %s",
		    t->file, strerror(errno));
		return -1;
	}
	problem = exec_target_problem(&et, why, sizeof(why));
	if (problem != NULL) {
		say(stderr, "setcap: ", "%s %s; refusing --perf", t->file,
		    problem);
		return -1;
	}
	return 0;
}

/*
 * perf dispatches on the name it was started by: a copy named "perf-test"
 * runs "perf test", "perf-stat stat -a" runs "perf stat" on a program
 * called stat. Granting is still correct, but the administrator meant a
 * perf, so say what the name does.
 */
static void warn_dispatch_name(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base != NULL ? base + 1 : file;
	if (strncmp(base, "perf-", 5) != 0 || base[5] == '\0')
		return;
	say(stderr, "setcap: ",
	    "warning: %s: perf runs a file named '%s' as 'perf %s' (it takes its subcommand from its own name): name the copy without 'perf-', e.g. 'perf_%s'",
	    file, base, base + 5, base + 5);
}

/* -v with --perf-group: is the file root:GROUP 0750 without ACL entries? */
static int check_restricted(const struct target *t, const struct perf_group *g)
{
	char acl[512], owner[64];
	int n;

	if (t->st.st_uid != 0) {
		say(stderr, "setcap: ",
		    "%s: not restricted to group %s: owned by uid %s, not root",
		    t->file, g->name,
		    user_label(t->st.st_uid, owner, sizeof(owner)));
		return -1;
	}
	if (t->st.st_gid != g->gid || (t->st.st_mode & 07777) != 0750) {
		say(stderr, "setcap: ",
		    "%s: not restricted to group %s: group %u mode %04o, want group %u mode 0750",
		    t->file, g->name, (unsigned)t->st.st_gid,
		    (unsigned)(t->st.st_mode & 07777), (unsigned)g->gid);
		return -1;
	}
	n = acl_extended_entries(t, acl, sizeof(acl));
	if (n < 0 && errno != ENOTSUP) {
		say(stderr, "setcap: ", "%s: cannot read its ACL: %s", t->file,
		    strerror(errno));
		return -1;
	}
	if (n > 0) {
		say(stderr, "setcap: ",
		    "%s: not restricted to group %s: its ACL also lets %s run it",
		    t->file, g->name, acl);
		return -1;
	}
	return 0;
}

/*
 * The perf-security procedure on the inode: group, no ACL, mode 0750.
 * Why this order: chown makes the kernel drop the file's capabilities
 * and set-id bits, so it comes before the capability write, and with it
 * every later step runs on a file that grants nothing yet. The ACL goes
 * before the chmod because chmod on a file with an ACL mask changes the
 * mask, not the group entry, and leaves named entries in force.
 */
static int restrict_to_group(struct target *t, const struct perf_group *g)
{
	char acl[512], owner[64];
	int n;

	if (t->st.st_uid != 0) {
		/* Its owner could chmod it back to 0755 and keep the capabilities. */
		char *cmd = file_command("chown root ", t->file);

		user_label(t->st.st_uid, owner, sizeof(owner));
		if (cmd != NULL)
			say_cmd(cmd, " first)",
				"%s: owned by uid %s, not root: its owner could open it to everyone again; refusing --perf-group (",
				t->file, owner);
		else
			say(stderr, "setcap: ",
			    "%s: owned by uid %s, not root: its owner could open it to everyone again; refusing --perf-group (make root its owner first; " SHQUOTE_UNSHOWN
			    ")",
			    t->file, owner);
		free(cmd);
		return -1;
	}
	if (fchownat(t->fd, "", (uid_t)-1, g->gid, AT_EMPTY_PATH) < 0) {
		say(stderr, "setcap: ", "%s: cannot give it to group %s: %s",
		    t->file, g->name, strerror(errno));
		return -1;
	}
	n = acl_extended_entries(t, acl, sizeof(acl));
	if (n < 0 && errno != ENOTSUP) {
		say(stderr, "setcap: ",
		    "%s: cannot read its ACL: %s; refusing --perf-group",
		    t->file, strerror(errno));
		return -1;
	}
	if (n >= 0 && removexattr(t->proc, ACL_XATTR_ACCESS) < 0 &&
	    errno != ENODATA) {
		say(stderr, "setcap: ", "%s: cannot remove its ACL: %s",
		    t->file, strerror(errno));
		return -1;
	}
	if (n > 0)
		say(stderr,
		    "setcap: ", "%s: removed its ACL, which also let %s run it",
		    t->file, acl);
	if (chmod(t->proc, 0750) < 0) {
		say(stderr, "setcap: ", "%s: cannot make it mode 0750: %s",
		    t->file, strerror(errno));
		return -1;
	}
	/* Read back what the inode now says, and check nothing slipped in. */
	if (fstat(t->fd, &t->st) < 0) {
		say(stderr, "setcap: ", "%s: %s", t->file, strerror(errno));
		return -1;
	}
	return check_restricted(t, g);
}

/* Loud warnings for a file restricted by nothing; changes nothing. */
static void warn_unrestricted(const struct target *t)
{
	char owner[64], *cmd;

	if (t->st.st_mode & S_IXOTH) {
		say(stderr, "setcap: ",
		    "WARNING: %s is executable by every user (mode %04o): each of them runs perf with these capabilities and can monitor the whole system",
		    t->file, (unsigned)(t->st.st_mode & 07777));
		cmd = file_command(PERF_SETCAP_FIX(""), t->file);
		if (cmd != NULL)
			say_cmd(cmd, "",
				"WARNING: restrict it to a group instead: ");
		else
			say(stderr, "setcap: ",
			    "WARNING: restrict it to a group instead: run setcap --perf-group=" PERF_GROUP
			    " --perf on it (" SHQUOTE_UNSHOWN ")");
		free(cmd);
	}
	if (t->st.st_uid != 0)
		say(stderr, "setcap: ",
		    "WARNING: %s is owned by uid %s, not root, who can change its mode and so who runs it with these capabilities",
		    t->file, user_label(t->st.st_uid, owner, sizeof(owner)));
}

/* Compares what the inode carries with want; prints OK unless quiet. */
static int verify_caps(const struct target *t, cap_t want, int quiet)
{
	cap_t got = cap_get_file(t->proc);
	int cmp, same_ns;

	if (got == NULL && errno != ENODATA) {
		say(stderr, "setcap: ", "%s: cannot read its capabilities: %s",
		    t->file, strerror(errno));
		return -1;
	}
	if (got == NULL)
		got = cap_init();
	if (got == NULL) {
		say(stderr, "setcap: ", "%s: %s", t->file, strerror(errno));
		return -1;
	}
	cmp = cap_compare(got, want);
	same_ns = cap_get_nsowner(got) == cap_get_nsowner(want);
	cap_free(got);
	if (cmp == 0 && same_ns) {
		if (!quiet) {
			escape_fputs(t->file, stdout);
			fputs(": OK\n", stdout);
		}
		return 0;
	}
	if (!quiet) {
		escape_fputs(t->file, stdout);
		printf(" differs in [%s%s%s%s]\n",
		       CAP_DIFFERS(cmp, CAP_PERMITTED) ? "p" : "",
		       CAP_DIFFERS(cmp, CAP_INHERITABLE) ? "i" : "",
		       CAP_DIFFERS(cmp, CAP_EFFECTIVE) ? "e" : "",
		       same_ns ? "" : " nsowner");
	}
	return -1;
}

/*
 * Writes caps to the inode through an ordinary descriptor of it: every
 * libcap but ours refuses cap_set_fd() on an O_PATH descriptor (EBADF),
 * and this program may run on one (Debian's libcap2 put back beside our
 * libcap2-bin). reopen_regular_rdonly() reaches the same inode without
 * looking the name up again. Where it cannot be opened for reading (its
 * owner holds a write lease, or root lacks CAP_DAC_OVERRIDE), the O_PATH
 * descriptor itself, which our libcap writes through /proc; if that is
 * refused too, the reopen's error is the one that says why.
 */
static int set_caps(const struct target *t, cap_t caps)
{
	int wfd = reopen_regular_rdonly(t->fd), rc, saved;

	if (wfd < 0) {
		saved = errno;
		rc = cap_set_fd(t->fd, caps);
		if (rc < 0 && errno == EBADF)
			errno = saved;
		return rc;
	}
	rc = cap_set_fd(wfd, caps);
	saved = errno;
	close(wfd);
	errno = saved;
	return rc;
}

int perf_apply(const char *file, cap_t caps, const struct perf_group *group,
	       int verify, int quiet)
{
	struct target t = { .file = file };
	int ret = -1;

	/*
	 * Every step after the open names the inode through its /proc
	 * link: without /proc the first would fail after nothing, and a
	 * later one after the group was changed. Refused before either.
	 */
	if (reopen_proc_usable() < 0) {
		say(stderr, "setcap: ",
		    "%s: refusing --perf, nothing changed: %s: %s (--perf reaches the file only through its own descriptor's link there, so that a name swapped meanwhile cannot redirect it; is /proc mounted?)",
		    file, REOPEN_PROC_DIR, strerror(errno));
		return -1;
	}
	/*
	 * The path is resolved once, without following a final symlink;
	 * every later step names the inode through t.fd or its /proc link.
	 */
	t.fd = open(file, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (t.fd < 0) {
		say(stderr, "setcap: ", "%s: %s", file, strerror(errno));
		return -1;
	}
	snprintf(t.proc, sizeof(t.proc), REOPEN_PROC_DIR "/%d", t.fd);
	if (fstat(t.fd, &t.st) < 0) {
		say(stderr, "setcap: ", "%s: %s", file, strerror(errno));
		goto out;
	}
	if (!S_ISREG(t.st.st_mode)) {
		say(stderr, "setcap: ", "%s: not a regular file%s", file,
		    S_ISLNK(t.st.st_mode)
			    ? " but a symbolic link: name the file it points to"
			    : "");
		goto out;
	}
	if (check_exec_target(&t) < 0)
		goto out;
	warn_dispatch_name(file);
	if (group != NULL && group->name != NULL) {
		if (verify ? check_restricted(&t, group) < 0
			   : restrict_to_group(&t, group) < 0)
			goto out;
	} else {
		warn_unrestricted(&t);
	}
	if (!verify && set_caps(&t, caps) < 0) {
		say(stderr, "setcap: ", "%s: cannot set its capabilities: %s",
		    file, strerror(errno));
		goto out;
	}
	/* Setting or not, report what landed on the inode. */
	ret = verify_caps(&t, caps, quiet);
out:
	close(t.fd);
	return ret;
}
