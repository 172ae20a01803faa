/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A trial's /proc: the one of its PID namespace, so that /proc/PID, with
 * PID as getpid() says (a shell's /proc/$$), names the command's own
 * process, and ps shows what kill can reach. It is mounted over /proc in
 * the trial's mount namespace (private: the host never sees it) by the
 * namespace's init, before the command exists, and only where /proc is
 * a proc already: a world without one stays without.
 *
 * A new proc shows what a mount over a part of the old one hid: a
 * container runtime masks /proc/kcore or /proc/sysrq-trigger with
 * /dev/null and binds /proc/sys read-only, and a trial's command must
 * not find more there than it would outside. So each mount right below
 * the old /proc is cloned with everything below it (open_tree(2),
 * without setting off an automount) and moved to the same place in the
 * new one, its flags (read-only) kept; the new proc gets the old one's
 * read-only flag and its hidepid=, gid= and subset= options. A mount
 * below a process's own directory has no place there (that process is
 * not in the trial's namespace) and is left. Whatever else cannot be
 * carried over fails the trial's set-up.
 *
 * Only async-signal-safe calls, and no allocation: this runs in the
 * child of a threaded program, before its execve.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capaudit_nsproc.h"

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x4
#endif

/* Mounts on /proc itself (stacked), and right below it, at most. */
#define ON_MAX	  8
#define BELOW_MAX 64
#define POINT_MAX 256
#define OPTS_MAX  256

struct on_proc {
	long id, parent;
	int is_proc, ro;
	char opts[OPTS_MAX]; /* hidepid=, gid=, subset=, comma-separated */
};

struct below_proc {
	long parent;
	char point[POINT_MAX];
	int fd; /* its clone, or -1 */
};

/* Static, not on the stack: the launcher's child runs on a thread's. */
static struct {
	struct on_proc on[ON_MAX];
	struct below_proc below[BELOW_MAX];
	int non, nbelow, overflow;
	char line[16384];
} mt;

/* The next field of a mountinfo line, split at a blank; NULL at the end. */
static char *next_field(char **p)
{
	char *f = *p;

	if (f == NULL || *f == '\0')
		return NULL;
	while (**p != '\0' && **p != ' ')
		(*p)++;
	if (**p == ' ')
		*(*p)++ = '\0';
	return f;
}

static long number(const char *s)
{
	long n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9' && n < 1L << 40)
		n = n * 10 + (*s++ - '0');
	return *s == '\0' ? n : -1;
}

/* mountinfo's octal escapes (\040 for a blank) undone in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Whether the comma-separated list opts holds word. */
static int has_option(const char *opts, const char *word)
{
	size_t n = strlen(word);

	while (*opts != '\0') {
		if (strncmp(opts, word, n) == 0 &&
		    (opts[n] == ',' || opts[n] == '\0'))
			return 1;
		opts += strcspn(opts, ",");
		opts += *opts == ',';
	}
	return 0;
}

/* The proc options a new proc needs to show as much as the old one. */
static void keep_proc_options(char *to, const char *super)
{
	static const char *const kept[] = { "hidepid=", "gid=", "subset=" };
	size_t used = 0, n, i;

	to[0] = '\0';
	while (*super != '\0') {
		n = strcspn(super, ",");
		for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
			if (strncmp(super, kept[i], strlen(kept[i])) != 0 ||
			    used + n + 2 > OPTS_MAX)
				continue;
			if (used > 0)
				to[used++] = ',';
			memcpy(to + used, super, n);
			used += n;
			to[used] = '\0';
		}
		super += n;
		super += *super == ',';
	}
}

/*
 * One line of /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT POINT OPTS
 * [OPTIONAL...] - FSTYPE SOURCE SUPER".
 */
static void take_line(char *line)
{
	char *p = line, *f[6], *fstype, *super, *sep;
	int i;

	for (i = 0; i < 6; i++)
		if ((f[i] = next_field(&p)) == NULL)
			return;
	do
		sep = next_field(&p);
	while (sep != NULL && strcmp(sep, "-") != 0);
	fstype = next_field(&p);
	if (fstype == NULL || next_field(&p) == NULL ||
	    (super = next_field(&p)) == NULL)
		return;
	unescape(f[4]);
	if (strcmp(f[4], "/proc") == 0) {
		struct on_proc *o;

		if (mt.non == ON_MAX) {
			mt.overflow = 1;
			return;
		}
		o = &mt.on[mt.non++];
		o->id = number(f[0]);
		o->parent = number(f[1]);
		o->is_proc = strcmp(fstype, "proc") == 0;
		o->ro = has_option(f[5], "ro");
		keep_proc_options(o->opts, super);
	} else if (strncmp(f[4], "/proc/", 6) == 0) {
		struct below_proc *b;

		if (mt.nbelow == BELOW_MAX || strlen(f[4]) >= POINT_MAX) {
			mt.overflow = 1;
			return;
		}
		b = &mt.below[mt.nbelow++];
		b->parent = number(f[1]);
		memcpy(b->point, f[4], strlen(f[4]) + 1);
		b->fd = -1;
	}
}

/* This process's mount table, the mounts on and below /proc kept. */
static int read_mount_table(void)
{
	size_t have = 0, start;
	ssize_t n;
	char *nl;
	int fd;

	mt.non = mt.nbelow = mt.overflow = 0;
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		do
			n = read(fd, mt.line + have,
				 sizeof(mt.line) - 1 - have);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			break;
		have += (size_t)n;
		mt.line[have] = '\0';
		start = 0;
		while ((nl = memchr(mt.line + start, '\n', have - start)) !=
		       NULL) {
			*nl = '\0';
			take_line(mt.line + start);
			start = (size_t)(nl - mt.line) + 1;
		}
		memmove(mt.line, mt.line + start, have - start);
		have -= start;
		if (n == 0 || have == sizeof(mt.line) - 1)
			break;
	}
	close(fd);
	if (n < 0)
		return -1;
	if (have > 0 || mt.overflow) {
		errno = E2BIG; /* a line too long, or too many mounts */
		return -1;
	}
	return 0;
}

/* The mount on top of /proc: none other is mounted on it. NULL: none. */
static const struct on_proc *top_of_proc(void)
{
	int i, j;

	for (i = 0; i < mt.non; i++) {
		for (j = 0; j < mt.non; j++)
			if (mt.on[j].parent == mt.on[i].id)
				break;
		if (j == mt.non)
			return &mt.on[i];
	}
	return NULL;
}

/* "/proc/1234/..." names a process's own directory. */
static int in_process_dir(const char *point)
{
	const char *p = point + 6;

	if (*p < '0' || *p > '9')
		return 0;
	p += strspn(p, "0123456789");
	return *p == '/' || *p == '\0';
}

static void close_clones(void)
{
	int i;

	for (i = 0; i < mt.nbelow; i++)
		if (mt.below[i].fd >= 0) {
			close(mt.below[i].fd);
			mt.below[i].fd = -1;
		}
}

#define FAIL(what)              \
	do {                    \
		*step = (what); \
		goto fail;      \
	} while (0)

int nsproc_mount(const char **step)
{
	const struct on_proc *top;
	unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
	int i, saved;

	if (read_mount_table() < 0) {
		*step = "reading the mount table for the trial's /proc";
		return -1;
	}
	top = top_of_proc();
	if (top == NULL || !top->is_proc)
		return 0; /* no proc on /proc: none is made */
	for (i = 0; i < mt.nbelow; i++) {
		if (mt.below[i].parent != top->id)
			continue; /* below another mount: it comes with that */
#ifdef SYS_open_tree
		mt.below[i].fd =
			(int)syscall(SYS_open_tree, AT_FDCWD, mt.below[i].point,
				     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
					     AT_RECURSIVE | AT_NO_AUTOMOUNT);
#else
		errno = ENOSYS;
#endif
		if (mt.below[i].fd < 0)
			FAIL("cloning a mount below /proc for the trial's /proc");
	}
	if (top->ro)
		flags |= MS_RDONLY;
	if (mount("proc", "/proc", "proc", flags,
		  top->opts[0] ? top->opts : NULL) < 0)
		FAIL("mounting a /proc of the trial's PID namespace");
	for (i = 0; i < mt.nbelow; i++) {
		if (mt.below[i].fd < 0)
			continue;
#ifdef SYS_move_mount
		if (syscall(SYS_move_mount, mt.below[i].fd, "", AT_FDCWD,
			    mt.below[i].point, MOVE_MOUNT_F_EMPTY_PATH) == 0)
			continue;
#else
		errno = ENOSYS;
#endif
		if (errno == ENOENT && in_process_dir(mt.below[i].point))
			continue;
		FAIL("moving a mount below /proc to the trial's /proc");
	}
	close_clones();
	return 0;
fail:
	saved = errno;
	close_clones();
	errno = saved;
	return -1;
}
