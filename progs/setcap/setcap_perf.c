/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap --perf: the least a perf binary needs, by kernel version and perf
 * subcommand, so an administrator need not remember the table:
 *   Linux 5.9+  cap_perfmon (events, tracing), cap_syslog (kernel symbols);
 *   Linux 5.8   the same plus cap_sys_ptrace, which perf's access checks
 *               still asked for before 5.9 moved them to CAP_PERFMON;
 *   older       cap_sys_admin: there is no CAP_PERFMON to grant.
 * Sampling subcommands map ring buffers that can exceed RLIMIT_MEMLOCK,
 * which the kernel allows above the limit only with cap_ipc_lock.
 *
 * --perf refuses a file whose capabilities the kernel would not honour (a
 * script, anything not ELF, a nosuid or noexec mount) and warns when every
 * user may run it; --perf-group makes the file root:GROUP 0750 without any
 * ACL entry first. All of it acts on one inode, opened once.
 */
#define _GNU_SOURCE		/* O_PATH, AT_EMPTY_PATH */
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
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "escape.h"
#include "exec_target.h"
#include "setcap_perf.h"

#define ACL_XATTR	"system.posix_acl_access"
/* Entry tags of the ACL xattr (see acl(5); the on-disk format is the kernel's). */
#define ACL_TAG_USER	0x02
#define ACL_TAG_GROUP	0x08
#define ACL_TAG_MASK	0x10

/* Subcommands whose buffers may need locking beyond RLIMIT_MEMLOCK. */
static const char *const buffered[] = {
	"record", "top", "trace", "sched", "kmem", "mem", "lock", "c2c", "kvm",
};
/* Subcommands that count and need nothing more than the base set. */
static const char *const counting[] = { "stat", "list", "report", "script" };

/*
 * One line on out, "setcap: " and the formatted text, every control
 * character escaped: file and group names are the caller's bytes.
 */
static void say(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (escape_vline(out, "setcap: ", fmt, ap) < 0) {
		perror("setcap");
		exit(EXIT_FAILURE);
	}
	va_end(ap);
}

static int in_list(const char *word, size_t len, const char *const *list,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && strncmp(list[i], word, len) == 0)
			return 1;
	return 0;
}

static void kernel_version(int *major, int *minor)
{
	struct utsname uts;

	*major = *minor = 0;
	if (uname(&uts) == 0 && sscanf(uts.release, "%d.%d", major, minor) != 2)
		*major = *minor = 0;
}

cap_t perf_preset(const char *subcommands)
{
	cap_value_t list[4];
	int n = 0, major, minor, lock = 0;
	const char *p = subcommands;
	cap_t caps;

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");

		if (in_list(p, len, buffered, sizeof(buffered) / sizeof(*buffered)))
			lock = 1;
		else if (!in_list(p, len, counting, sizeof(counting) / sizeof(*counting))) {
			say(stderr, "--perf: unknown perf subcommand '%.*s' "
			    "(known: record top trace sched kmem mem lock c2c "
			    "kvm stat list report script)", (int)len, p);
			return NULL;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	kernel_version(&major, &minor);
	if (cap_max_bits() <= CAP_PERFMON) {
		list[n++] = CAP_SYS_ADMIN;
		say(stderr, "warning: --perf: this kernel predates "
		    "CAP_PERFMON (Linux 5.8); granting cap_sys_admin, which "
		    "is equivalent to root");
	} else {
		list[n++] = CAP_PERFMON;
		if (major < 5 || (major == 5 && minor < 9))
			list[n++] = CAP_SYS_PTRACE;
	}
	list[n++] = CAP_SYSLOG;
	if (lock)
		list[n++] = CAP_IPC_LOCK;
	caps = cap_init();
	if (caps == NULL ||
	    cap_set_flag(caps, CAP_PERMITTED, n, list, CAP_SET) < 0 ||
	    cap_set_flag(caps, CAP_EFFECTIVE, n, list, CAP_SET) < 0) {
		say(stderr, "--perf: %s", strerror(errno));
		cap_free(caps);
		return NULL;
	}
	return caps;
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
			break;		/* setcap stops there */
		if (strcmp(arg, "-n") == 0) {
			i++;		/* its value */
			continue;
		}
		if (strcmp(arg, "--perf-group") == 0) {
			say(stderr, "--perf-group needs a group: "
			    "--perf-group=GROUP, before --perf");
			return -1;
		}
		if (strncmp(arg, "--perf-group=", 13) == 0) {
			if (seen++) {
				say(stderr, "--perf-group given twice ('%s', "
				    "then '%s'): give it once, before the "
				    "--perf files", g->name, arg + 13);
				return -1;
			}
			g->name = arg + 13;
			continue;
		}
		if (strcmp(arg, "--perf") == 0 || strncmp(arg, "--perf=", 7) == 0) {
			perf_after |= seen;
			perf_before |= !seen;
		}
		i++;			/* the file of this pair */
	}
	if (!seen)
		return 0;
	if (perf_before) {
		/* It applies to every --perf file: none may come before it. */
		say(stderr, "--perf-group=%s must come before every --perf it "
		    "applies to, not after one", g->name);
		return -1;
	}
	if (!perf_after) {
		say(stderr, "--perf-group=%s applies to the --perf files that "
		    "follow it, and none does: put it before --perf",
		    g->name);
		return -1;
	}
	errno = 0;
	gr = g->name[0] != '\0' ? getgrnam(g->name) : NULL;
	if (gr == NULL) {
		if (errno != 0 && errno != ENOENT && errno != ESRCH)
			say(stderr, "--perf-group: cannot look up group '%s': "
			    "%s", g->name, strerror(errno));
		else
			say(stderr, "--perf-group: no group named '%s' "
			    "(create it first: groupadd %s)", g->name,
			    g->name);
		return -1;
	}
	g->gid = gr->gr_gid;
	return 0;
}

/* The file open on fd, reached by name only through its /proc link. */
struct target {
	const char *file;	/* as given, for messages */
	int fd;			/* O_PATH | O_NOFOLLOW */
	char proc[40];		/* /proc/thread-self/fd/N */
	struct stat st;
};

static const char *user_label(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw != NULL)
		snprintf(buf, len, "%u (%s)", (unsigned)uid, pw->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)uid);
	return buf;
}

/*
 * Describes the entries of a POSIX ACL that reach beyond owner, group and
 * others ("user:nobody:r-x group:adm:r-x"), into buf. Returns how many
 * there are (the mask counts), 0 for none or a minimal ACL, -1 with errno
 * when the ACL cannot be read (ENOTSUP: the filesystem has none).
 */
static int acl_extended_entries(const struct target *t, char *buf,
				size_t len)
{
	unsigned char raw[8192];
	ssize_t n = getxattr(t->proc, ACL_XATTR, raw, sizeof(raw));
	size_t off, used = 0;
	int count = 0;

	buf[0] = '\0';
	if (n < 0)
		return errno == ENODATA ? 0 : -1;
	if (n < 4 || (n - 4) % 8 != 0) {
		errno = EINVAL;		/* not an ACL the kernel would write */
		return -1;
	}
	for (off = 4; off + 8 <= (size_t)n; off += 8) {
		unsigned tag = raw[off] | raw[off + 1] << 8;
		unsigned perm = raw[off + 2] | raw[off + 3] << 8;
		uint32_t id = (uint32_t)raw[off + 4] | (uint32_t)raw[off + 5] << 8 |
			      (uint32_t)raw[off + 6] << 16 | (uint32_t)raw[off + 7] << 24;
		char who[64];

		if (tag != ACL_TAG_USER && tag != ACL_TAG_GROUP &&
		    tag != ACL_TAG_MASK)
			continue;
		count++;
		if (tag == ACL_TAG_MASK)
			continue;
		if (tag == ACL_TAG_USER) {
			struct passwd *pw = getpwuid(id);

			snprintf(who, sizeof(who), "user:%s", pw ? pw->pw_name : "");
			if (pw == NULL)
				snprintf(who, sizeof(who), "user:%u", (unsigned)id);
		} else {
			struct group *gr = getgrgid(id);

			snprintf(who, sizeof(who), "group:%s", gr ? gr->gr_name : "");
			if (gr == NULL)
				snprintf(who, sizeof(who), "group:%u", (unsigned)id);
		}
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s:%c%c%c", used ? " " : "", who,
						 perm & 4 ? 'r' : '-', perm & 2 ? 'w' : '-',
						 perm & 1 ? 'x' : '-');
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
		say(stderr, "%s: cannot tell how the kernel would execute it: "
		    "%s", t->file, strerror(errno));
		return -1;
	}
	problem = exec_target_problem(&et, why, sizeof(why));
	if (problem != NULL) {
		say(stderr, "%s %s; refusing --perf", t->file, problem);
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
	say(stderr, "warning: %s: perf runs a file named '%s' as 'perf %s' "
	    "(it takes its subcommand from its own name): name the copy "
	    "without 'perf-', e.g. 'perf_%s'", file, base, base + 5, base + 5);
}

/* -v with --perf-group: is the file root:GROUP 0750 without ACL entries? */
static int check_restricted(const struct target *t, const struct perf_group *g)
{
	char acl[512], owner[64];
	int n;

	if (t->st.st_uid != 0) {
		say(stderr, "%s: not restricted to group %s: owned by uid %s, "
		    "not root", t->file, g->name,
		    user_label(t->st.st_uid, owner, sizeof(owner)));
		return -1;
	}
	if (t->st.st_gid != g->gid || (t->st.st_mode & 07777) != 0750) {
		say(stderr, "%s: not restricted to group %s: group %u mode "
		    "%04o, want group %u mode 0750", t->file, g->name,
		    (unsigned)t->st.st_gid, (unsigned)(t->st.st_mode & 07777),
		    (unsigned)g->gid);
		return -1;
	}
	n = acl_extended_entries(t, acl, sizeof(acl));
	if (n < 0 && errno != ENOTSUP) {
		say(stderr, "%s: cannot read its ACL: %s", t->file,
		    strerror(errno));
		return -1;
	}
	if (n > 0) {
		say(stderr, "%s: not restricted to group %s: its ACL also "
		    "lets %s run it", t->file, g->name, acl);
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
		say(stderr, "%s: owned by uid %s, not root: its owner could "
		    "open it to everyone again; refusing --perf-group "
		    "(chown root %s first)", t->file,
		    user_label(t->st.st_uid, owner, sizeof(owner)), t->file);
		return -1;
	}
	if (fchownat(t->fd, "", (uid_t)-1, g->gid, AT_EMPTY_PATH) < 0) {
		say(stderr, "%s: cannot give it to group %s: %s", t->file,
		    g->name, strerror(errno));
		return -1;
	}
	n = acl_extended_entries(t, acl, sizeof(acl));
	if (n < 0 && errno != ENOTSUP) {
		say(stderr, "%s: cannot read its ACL: %s; refusing --perf-group",
		    t->file, strerror(errno));
		return -1;
	}
	if (n >= 0 && removexattr(t->proc, ACL_XATTR) < 0 && errno != ENODATA) {
		say(stderr, "%s: cannot remove its ACL: %s", t->file,
		    strerror(errno));
		return -1;
	}
	if (n > 0)
		say(stderr, "%s: removed its ACL, which also let %s run it",
		    t->file, acl);
	if (chmod(t->proc, 0750) < 0) {
		say(stderr, "%s: cannot make it mode 0750: %s", t->file,
		    strerror(errno));
		return -1;
	}
	/* Read back what the inode now says, and check nothing slipped in. */
	if (fstat(t->fd, &t->st) < 0) {
		say(stderr, "%s: %s", t->file, strerror(errno));
		return -1;
	}
	return check_restricted(t, g);
}

/* Loud warnings for a file restricted by nothing; changes nothing. */
static void warn_unrestricted(const struct target *t)
{
	char owner[64];

	if (t->st.st_mode & S_IXOTH) {
		say(stderr, "WARNING: %s is executable by every user (mode "
		    "%04o): each of them runs perf with these capabilities "
		    "and can monitor the whole system", t->file,
		    (unsigned)(t->st.st_mode & 07777));
		say(stderr, "WARNING: restrict it to a group instead: setcap "
		    "--perf-group=perf_users --perf %s", t->file);
	}
	if (t->st.st_uid != 0)
		say(stderr, "WARNING: %s is owned by uid %s, not root, who can "
		    "change its mode and so who runs it with these "
		    "capabilities", t->file,
		    user_label(t->st.st_uid, owner, sizeof(owner)));
}

/* Compares what the inode carries with want; prints OK unless quiet. */
static int verify_caps(const struct target *t, cap_t want, int quiet)
{
	cap_t got = cap_get_file(t->proc);
	int cmp, same_ns;

	if (got == NULL && errno != ENODATA) {
		say(stderr, "%s: cannot read its capabilities: %s", t->file,
		    strerror(errno));
		return -1;
	}
	if (got == NULL)
		got = cap_init();
	if (got == NULL) {
		say(stderr, "%s: %s", t->file, strerror(errno));
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

int perf_apply(const char *file, cap_t caps, const struct perf_group *group,
	       int verify, int quiet)
{
	struct target t = { .file = file };
	int ret = -1;

	/*
	 * The path is resolved once, without following a final symlink;
	 * every later step names the inode through t.fd or its /proc link.
	 */
	t.fd = open(file, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (t.fd < 0) {
		say(stderr, "%s: %s", file, strerror(errno));
		return -1;
	}
	snprintf(t.proc, sizeof(t.proc), "/proc/thread-self/fd/%d", t.fd);
	if (fstat(t.fd, &t.st) < 0) {
		say(stderr, "%s: %s", file, strerror(errno));
		goto out;
	}
	if (!S_ISREG(t.st.st_mode)) {
		say(stderr, "%s: not a regular file%s", file,
		    S_ISLNK(t.st.st_mode) ? " but a symbolic link: name the "
		    "file it points to" : "");
		goto out;
	}
	if (check_exec_target(&t) < 0)
		goto out;
	warn_dispatch_name(file);
	if (group != NULL && group->name != NULL) {
		if (verify ? check_restricted(&t, group) < 0 :
			     restrict_to_group(&t, group) < 0)
			goto out;
	} else {
		warn_unrestricted(&t);
	}
	if (!verify && cap_set_fd(t.fd, caps) < 0) {
		say(stderr, "%s: cannot set its capabilities: %s", file,
		    strerror(errno));
		goto out;
	}
	/* Setting or not, report what landed on the inode. */
	ret = verify_caps(&t, caps, quiet);
out:
	close(t.fd);
	return ret;
}
