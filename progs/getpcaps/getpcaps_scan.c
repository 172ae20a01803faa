/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Reads every process's credentials from /proc for getpcaps --all.
 *
 * Each /proc/<pid> is opened once as a directory (O_DIRECTORY|O_NOFOLLOW)
 * and everything else is read relative to that descriptor, never by a
 * path again. The kernel ties such a descriptor to the process it was
 * opened for, not to the number: once that process is gone its files
 * answer ENOENT or ESRCH, even if the pid has been handed to a new one.
 * We still compare the start time in stat before and after the other
 * reads, so two processes' data can never be mixed into one record.
 */
#define _GNU_SOURCE		/* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "acl.h"
#include "getpcaps.h"
#include "groups.h"
#include "mask.h"
#include "procstatus.h"

#define PF_KTHREAD 0x00200000u	/* include/linux/sched.h: a kernel thread */

/*
 * Reads all of fd from its start into b, NUL-terminated. Returns the
 * length, or -1 with errno. /proc's files are generated whole on a read
 * from offset 0, so reading in pieces still gives one consistent text, and
 * reading from 0 again generates it anew. stat and status are one record
 * each (single_open seq files): a read that left room in the buffer has
 * returned all of it (one system call, not two, per file); whole says so.
 */
static ssize_t read_fd(int fd, struct buf *b, int whole, size_t most)
{
	size_t len = 0;

	for (;;) {
		ssize_t r;

		if (len + 1 >= b->size) {
			size_t size = b->size ? b->size * 2 : 4096;
			char *data = realloc(b->data, size);

			if (data == NULL) {
				errno = ENOMEM;
				return -1;
			}
			b->data = data;
			b->size = size;
		}
		r = pread(fd, b->data + len, b->size - len - 1, (off_t)len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (whole && len + 1 < b->size)
			break;
		if (most > 0 && len >= most) {
			len = most;
			break;
		}
	}
	b->data[len] = '\0';
	return (ssize_t)len;
}

ssize_t read_at(int dfd, const char *name, struct buf *b, int whole,
		size_t most)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read_fd(fd, b, whole, most);
	if (len < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	close(fd);
	return len;
}

/* The fields of /proc/<pid>/stat we use. */
struct stat_fields {
	char state;
	pid_t ppid;
	int tty_nr;
	unsigned flags;
	unsigned long long start;
};

/*
 * "pid (comm) state ppid pgrp session tty_nr tpgid flags ... starttime":
 * comm may hold spaces and parentheses, so it ends at the last ')'.
 * Returns 0, or -1 when the text is not what the kernel writes.
 */
static int parse_stat(const char *text, char *comm, size_t comm_size,
		      struct stat_fields *f)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	size_t len;
	int ppid;

	if (open == NULL || close == NULL || close < open)
		return -1;
	len = (size_t)(close - open - 1);
	if (comm != NULL) {
		if (len >= comm_size)
			len = comm_size - 1;
		memcpy(comm, open + 1, len);
		comm[len] = '\0';
	}
	/* fields 3..22 of proc(5); %*s skips the ones we do not use */
	if (sscanf(close + 1, " %c %d %*s %*s %d %*s %u"
		   " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
		   &f->state, &ppid, &f->tty_nr, &f->flags, &f->start) != 5)
		return -1;
	f->ppid = (pid_t)ppid;
	return 0;
}

/*
 * The status lines we use, read by the shared strict reader: a malformed
 * line fails the record (it is counted as not examined), never a 0 taken
 * for root. A missing CapAmb (before Linux 4.3) or NoNewPrivs (before
 * 4.10) line is unknown, not 0 (procstatus.h).
 */
int creds_parse(const char *status, struct creds *c, unsigned *threads)
{
	const unsigned need = PROC_STATUS_UID | PROC_STATUS_GID |
		PROC_STATUS_GROUPS | PROC_STATUS_CAPINH | PROC_STATUS_CAPPRM |
		PROC_STATUS_CAPEFF | PROC_STATUS_CAPBND;
	struct proc_status ps;
	const char *bad;
	int i;

	memset(c, 0, sizeof(*c));
	if (proc_status_parse(status, &ps, &bad) < 0) {
		int saved = errno == EINVAL ? EPROTO : errno;

		proc_status_release(&ps);
		errno = saved;
		return -1;
	}
	if ((ps.seen & need) != need) {
		proc_status_release(&ps);
		errno = EPROTO;
		return -1;
	}
	for (i = 0; i < 4; i++) {
		c->uid[i] = ps.uid[i];
		c->gid[i] = ps.gid[i];
	}
	c->groups = ps.groups;		/* c owns them now */
	c->ngroups = ps.ngroups;
	c->inh = ps.inheritable;
	c->prm = ps.permitted;
	c->eff = ps.effective;
	c->bnd = ps.bounding;
	c->amb = ps.ambient;
	c->amb_known = proc_status_ambient_known(&ps);
	c->nnp = ps.no_new_privs;
	if (threads != NULL)
		*threads = ps.seen & PROC_STATUS_THREADS ? ps.threads : 0;
	return 0;
}

/* gid is one of the thread's groups: its four ids or a supplementary one. */
static int creds_in_group(gid_t gid, const void *ctx)
{
	const struct creds *c = ctx;

	return groups_have(c->gid, 4, gid) ||
	       groups_have(c->groups, c->ngroups, gid);
}

/*
 * May the user of credentials c write xfd's file, by its mode or by the
 * POSIX ACL beside it, as the kernel would judge? 1 or 0, or -1 with errno
 * when the ACL cannot be read or is not one the kernel writes.
 */
static int exe_writable_by(const struct creds *c, int xfd,
			   const struct stat *st)
{
	struct acl_entry e[32];
	unsigned char raw[4 + 8 * 32];
	char link[64];
	ssize_t len;
	int n;

	if (st->st_uid == c->uid[1])
		return 1;	/* its owner may always chmod it */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", xfd);
	len = getxattr(link, ACL_XATTR_ACCESS, raw, sizeof(raw));
	if (len < 0 && errno != ENODATA && errno != ENOTSUP)
		return -1;
	if (len < 0) {		/* no ACL: the mode's three classes */
		e[0] = (struct acl_entry){ ACL_USER_OBJ, (st->st_mode >> 6) & 7, 0 };
		e[1] = (struct acl_entry){ ACL_GROUP_OBJ, (st->st_mode >> 3) & 7, 0 };
		e[2] = (struct acl_entry){ ACL_OTHER, st->st_mode & 7, 0 };
		n = 3;
	} else if ((n = acl_decode(raw, (size_t)len, e, 32)) < 0) {
		return -1;
	}
	return acl_permits(e, n, st, c->uid[1], creds_in_group, c,
			   ACL_PERM_WRITE);
}

/*
 * Can a user of the process change what it runs? xfd is the executable,
 * opened through the exe link, which the kernel resolves to the very file
 * the process executes (no path lookup a process could redirect), once:
 * the mode, the owner and the ACL are all read from that one descriptor,
 * and the path printed is read from it too. Each thread's user counts
 * (they share one memory: whoever controls the program controls every
 * thread). Returns 0, or the errno that left the file unchecked.
 */
static int check_exe(struct proc *p, int xfd, int open_err)
{
	struct stat st;
	size_t i;
	int w, err = 0;

	if (creds_root_like(&p->c) || (p->c.prm | p->c.eff | p->c.amb) == 0) {
		p->exe_state = EXE_NOT_NEEDED;
		return 0;
	}
	p->exe_state = EXE_UNCHECKED;
	if (xfd < 0)
		return open_err;	/* EACCES: not ours to trace */
	if (fstat(xfd, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		return EINVAL;
	for (i = 0; i < p->nsets; i++) {
		w = exe_writable_by(&p->sets[i].c, xfd, &st);
		if (w > 0) {
			p->exe_state = EXE_WRITABLE;
			return 0;
		}
		if (w < 0 && err == 0)
			err = errno;
	}
	/* Users of threads past THREAD_SETS_MOST were not asked. */
	if (err == 0 && p->threads_untold > 0)
		err = E2BIG;
	if (err == 0)
		p->exe_state = EXE_SAFE;
	return err;
}

/*
 * The path of the executable open on xfd, for printing: the name of the
 * file judged, not a second look-up of the exe link, which could meet
 * another file if the process executed a new program meanwhile. NULL when
 * it cannot be read.
 */
static char *exe_path_of(int xfd)
{
	char link[64], path[4096];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", xfd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return NULL;
	path[len] = '\0';
	return strdup(path);
}

static int vanished(int err)
{
	return err == ENOENT || err == ESRCH;
}

static struct proc *new_proc(struct scan *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct proc *procs = realloc(s->procs, cap * sizeof(*procs));

		if (procs == NULL)
			return NULL;
		s->procs = procs;
		s->cap = cap;
	}
	memset(&s->procs[s->n], 0, sizeof(s->procs[0]));
	return &s->procs[s->n];
}

struct bufs {
	struct buf stat, status, cmdline;
};

static int is_dead(char state)
{
	return state == 'Z' || state == 'X';
}

/* The command line, its first CMDLINE_MOST bytes, into p. */
static int read_cmdline(struct proc *p, int dfd, struct buf *b)
{
	/* one byte past the most kept: is there more? */
	ssize_t len = read_at(dfd, "cmdline", b, 0, CMDLINE_MOST + 1);

	if (len < 0)
		return -1;
	p->cmdline = malloc((size_t)len + 1);
	if (p->cmdline == NULL) {
		errno = ENOMEM;
		return -1;
	}
	p->cmdline_cut = len > CMDLINE_MOST;
	if (p->cmdline_cut)
		len = CMDLINE_MOST;
	memcpy(p->cmdline, b->data, (size_t)len);
	p->cmdline[len] = '\0';
	p->cmdline_len = (size_t)len;
	return 0;
}

/*
 * Reads one process into a new record. Returns 0 (read, left out or
 * counted as vanished or unreadable) or -1 with errno ENOMEM.
 *
 * A main thread that has exited (pthread_exit()) leaves a zombie main
 * thread in a process whose other threads still run with whatever they
 * hold: such a process is no zombie. It is read from its live threads,
 * exe and cmdline included, since the main thread no longer has them.
 */
static int scan_one(struct scan *s, int procfd, const char *name, pid_t pid,
		    struct bufs *b, const struct scan_opts *o)
{
	struct scan_counts *c = &s->counts;
	struct stat_fields f, again;
	struct creds main_creds;
	struct proc *p = NULL;
	unsigned nthreads = 0;
	int dfd, sfd = -1, xfd = -1, live = -1, err, exe_err = 0, dead;
	int ret = 0;

	memset(&main_creds, 0, sizeof(main_creds));
	c->listed++;
	dfd = openat(procfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	if (dfd < 0)
		goto failed;
	p = new_proc(s);
	if (p == NULL)
		goto nomem;
	p->pid = pid;
	sfd = openat(dfd, "stat", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0 || read_fd(sfd, &b->stat, 1, 0) < 0)
		goto failed;
	if (parse_stat(b->stat.data, p->comm, sizeof(p->comm), &f) < 0) {
		errno = EPROTO;
		goto failed;
	}
	if (f.flags & PF_KTHREAD) {
		c->kernel_threads++;
		goto drop;
	}
	p->ppid = f.ppid;
	p->tty = f.tty_nr != 0;
	p->start = f.start;
	if (read_at(dfd, "status", &b->status, 1, 0) < 0 ||
	    creds_parse(b->status.data, &main_creds, &nthreads) < 0)
		goto failed;
	dead = is_dead(f.state);
	if (dead && nthreads == 1) {
		c->zombies++;
		goto drop;
	}
	/* A dead main thread's credentials are no longer anyone's. */
	if (dead)
		creds_release(&main_creds);
	if (threads_read(p, dfd, dead ? NULL : &main_creds, nthreads,
			 &b->status, dead ? &live : NULL) < 0) {
		if (dead && errno == ESRCH) {
			c->zombies++;	/* its last thread went too */
			goto drop;
		}
		goto failed;
	}
	xfd = openat(live >= 0 ? live : dfd, "exe", O_PATH | O_CLOEXEC);
	if (xfd < 0)
		exe_err = errno;
	exe_err = check_exe(p, xfd, exe_err);
	threads_forget_groups(p);
	if (vanished(exe_err)) {
		errno = exe_err;	/* exiting: its memory, exe link included, is gone */
		goto failed;
	}
	if (o->cmdline) {
		if (read_cmdline(p, live >= 0 ? live : dfd, &b->cmdline) < 0)
			goto failed;
		p->exe = xfd >= 0 ? exe_path_of(xfd) : NULL;
	}
	/*
	 * Still the same process, and did it not exit meanwhile? (A main
	 * thread that exits now, with others running, leaves it running.)
	 */
	if (read_fd(sfd, &b->stat, 1, 0) < 0)
		goto failed;
	if (parse_stat(b->stat.data, NULL, 0, &again) < 0 ||
	    again.start != f.start ||
	    (is_dead(again.state) && !dead && p->threads <= 1)) {
		c->exited++;
		goto drop;
	}
	if (p->exe_state == EXE_UNCHECKED) {
		c->exe_unchecked++;
		if (c->exe_errno == 0)
			c->exe_errno = exe_err;
	}
	c->examined++;
	s->n++;			/* keep the record */
	p = NULL;
	goto close;
failed:
	err = errno;
	if (err == ENOMEM)
		goto nomem;
	if (vanished(err)) {
		c->exited++;
	} else {
		c->not_examined++;
		if (c->not_examined_errno == 0)
			c->not_examined_errno = err;
	}
	goto drop;
nomem:
	ret = -1;
drop:
	if (p != NULL) {	/* the record is not kept */
		free(p->cmdline);
		free(p->exe);
		p->cmdline = p->exe = NULL;
		threads_free(p);
	}
close:
	creds_release(&main_creds);
	if (xfd >= 0)
		close(xfd);
	if (live >= 0)
		close(live);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	if (ret < 0)
		errno = ENOMEM;
	return ret;
}

static int pid_name(const char *name, pid_t *pid)
{
	unsigned long v = 0;
	const char *q;

	if (*name < '1' || *name > '9')
		return -1;
	for (q = name; *q != '\0'; q++) {
		if (*q < '0' || *q > '9' || v > 0x7fffffffUL / 10)
			return -1;
		v = v * 10 + (unsigned long)(*q - '0');
	}
	if (v > 0x7fffffffUL)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;

	return (x > y) - (x < y);
}

int scan_run(struct scan *s, const char *proc_root, const struct scan_opts *o)
{
	struct bufs b = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	struct dirent *d;
	cap_value_t bits = cap_max_bits();
	int procfd, status = 0;
	DIR *dir;

	memset(s, 0, sizeof(*s));
	s->full = mask_below(bits);
	procfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
	if (procfd < 0)
		return -1;
	/* Asked before the listing: what it leaves out is not counted. */
	s->counts.hidden = proc_hides_processes(procfd, s->counts.hidden_why,
						sizeof(s->counts.hidden_why));
	dir = fdopendir(procfd);
	if (dir == NULL) {
		int saved = errno;

		close(procfd);
		errno = saved;
		return -1;
	}
	for (;;) {
		pid_t pid;

		errno = 0;
		d = readdir(dir);
		if (d == NULL) {
			if (errno != 0)
				status = -1;
			break;
		}
		if (pid_name(d->d_name, &pid) < 0)
			continue;
		if (scan_one(s, dirfd(dir), d->d_name, pid, &b, o) < 0) {
			status = -1;
			break;
		}
	}
	if (status < 0) {
		int saved = errno;

		closedir(dir);
		free(b.stat.data);
		free(b.status.data);
		free(b.cmdline.data);
		errno = saved;
		return -1;
	}
	closedir(dir);
	free(b.stat.data);
	free(b.status.data);
	free(b.cmdline.data);
	qsort(s->procs, s->n, sizeof(s->procs[0]), by_pid);
	return 0;
}

void scan_free(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->procs[i].cmdline);
		free(s->procs[i].exe);
		threads_free(&s->procs[i]);
	}
	free(s->procs);
	memset(s, 0, sizeof(*s));
}

struct proc *scan_find(const struct scan *s, pid_t pid)
{
	struct proc key;

	key.pid = pid;
	return s->n ? bsearch(&key, s->procs, s->n, sizeof(key), by_pid) : NULL;
}

struct proc *scan_parent(const struct scan *s, const struct proc *p)
{
	struct proc *parent = p->ppid != p->pid ? scan_find(s, p->ppid) : NULL;

	return parent != NULL && parent->start <= p->start ? parent : NULL;
}
