/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Reads every process's credentials from /proc for getpcaps --all.
 *
 * Each /proc/<pid> is opened once as a directory (O_DIRECTORY|O_NOFOLLOW)
 * and everything else is read relative to that descriptor, never by a
 * path again. The kernel ties such a descriptor to the process it was
 * opened for, not to the number: once that process is gone its files
 * answer ENOENT or ESRCH, even if the pid has been handed to a new one,
 * so two processes' data can never be mixed into one record.
 *
 * What is read, and why no more: a proc file costs about as much to open
 * and make as any other, so each one counts. Every process's main thread
 * status (credentials, name, state, parent, thread count, kernel thread
 * or not); every other thread's status when it has more than one; its
 * executable only when a capable non-root user might rewrite it (or
 * --verbose prints it); its stat only when its terminal or start time is
 * needed, or when more than its status was read, to see whether it
 * exited meanwhile (read_last_stat()).
 */
#define _GNU_SOURCE /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "getpcaps.h"
#include "mask.h"

#define PF_KTHREAD 0x00200000u /* include/linux/sched.h: a kernel thread */

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

/* What one read of /proc/<pid> holds open and has learnt, step by step. */
struct reading {
	int dfd;  /* /proc/<pid> */
	int sfd;  /* its stat */
	int xfd;  /* its exe */
	int live; /* a live thread's directory, when the main thread is dead */
	struct status_facts f;	 /* the main thread's status */
	struct creds main_creds; /* the main thread's, until threads_read() */
	int dead;		 /* the main thread has exited */
	int more;    /* read more than the status: may have exited meanwhile */
	int exe_err; /* why the executable could not be examined */
};

/* How a step ended. */
enum step {
	STEP_NEXT,     /* go on with the next step */
	STEP_LEFT_OUT, /* counted as left out: kernel thread, zombie, exited */
	STEP_FAILED,   /* errno says why */
};

/*
 * The process's stat: its terminal and start time, and what its status
 * left unsaid (a kernel thread, on kernels without the Kthread line; a
 * name with an escape we do not know). Read last, after whatever else
 * was read of the process, it also tells whether the process exited
 * meanwhile, and is then counted so; a second read must show the start
 * time the first did (the descriptor is tied to the process, so this is
 * a guard, never seen to fail).
 */
static enum step read_stat(struct scan *s, struct proc *p, struct reading *r,
			   struct bufs *b, int last)
{
	struct stat_fields f;
	char comm[sizeof(p->comm)];

	if (r->sfd < 0)
		r->sfd = openat(r->dfd, "stat",
				O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (r->sfd < 0 || read_fd(r->sfd, &b->stat, 1, 0) < 0)
		return STEP_FAILED;
	if (stat_parse(b->stat.data, comm, sizeof(comm), &f) < 0) {
		errno = EPROTO;
		return STEP_FAILED;
	}
	if (p->stat_read && f.start != p->start) {
		s->counts.exited++;
		return STEP_LEFT_OUT;
	}
	if (r->f.kthread < 0)
		r->f.kthread = (f.flags & PF_KTHREAD) != 0;
	if (!r->f.comm_known) {
		memcpy(p->comm, comm, sizeof(comm));
		r->f.comm_known = 1;
	}
	p->start = f.start;
	p->tty = f.tty_nr != 0;
	p->stat_read = 1;
	/* A main thread that exits now, with others running, leaves it running. */
	if (last && is_dead(f.state) && !r->dead && p->threads <= 1) {
		s->counts.exited++;
		return STEP_LEFT_OUT;
	}
	return STEP_NEXT;
}

/*
 * The main thread's status: its credentials, and whether the process is
 * a kernel thread (left out, nothing else read) or a zombie (left out).
 */
static enum step read_main_thread(struct scan *s, struct proc *p,
				  struct reading *r, struct bufs *b)
{
	enum step step;

	if (read_at(r->dfd, "status", &b->status, 1, 0) < 0 ||
	    creds_parse(b->status.data, &r->main_creds, &r->f) < 0)
		return STEP_FAILED;
	if (r->f.comm_known)
		memcpy(p->comm, r->f.comm, sizeof(p->comm));
	if (r->f.kthread < 0 || !r->f.comm_known) {
		step = read_stat(s, p, r, b, 0);
		if (step != STEP_NEXT)
			return step;
	}
	if (r->f.kthread > 0) {
		s->counts.kernel_threads++;
		return STEP_LEFT_OUT;
	}
	p->ppid = r->f.ppid;
	r->dead = is_dead(r->f.state);
	if (r->dead && r->f.threads == 1) {
		s->counts.zombies++;
		return STEP_LEFT_OUT;
	}
	/* A dead main thread's credentials are no longer anyone's. */
	if (r->dead)
		creds_release(&r->main_creds);
	return STEP_NEXT;
}

/*
 * Every thread's credentials; with the main thread dead, a live one's
 * directory. A process whose status counts one thread has no other to
 * list: its main thread's status is its thread's (a thread started after
 * that read is one no listing made then would have shown either).
 */
static enum step read_all_threads(struct scan *s, struct proc *p,
				  struct reading *r, struct bufs *b)
{
	r->more |= r->dead || r->f.threads != 1;
	if (threads_read(p, r->dfd, r->dead ? NULL : &r->main_creds,
			 r->f.threads, &b->status,
			 r->dead ? &r->live : NULL) == 0)
		return STEP_NEXT;
	if (r->dead && errno == ESRCH) {
		s->counts.zombies++; /* its last thread went too */
		return STEP_LEFT_OUT;
	}
	return STEP_FAILED;
}

/*
 * The executable (who may rewrite it), when it needs judging, and, when
 * printed, its path and the command line.
 */
static enum step read_program(struct proc *p, struct reading *r, struct bufs *b,
			      const struct scan_opts *o)
{
	int from = r->live >= 0 ? r->live : r->dfd, open_err = 0;

	if (o->cmdline || exe_needed(p)) {
		r->more = 1;
		r->xfd = openat(from, "exe", O_PATH | O_CLOEXEC);
		open_err = r->xfd < 0 ? errno : 0;
	}
	r->exe_err = check_exe(p, r->xfd, open_err);
	threads_trim(p);
	if (vanished(r->exe_err)) {
		errno = r->exe_err; /* exiting: its memory, exe link included, is gone */
		return STEP_FAILED;
	}
	if (o->cmdline) {
		if (read_cmdline(p, from, &b->cmdline) < 0)
			return STEP_FAILED;
		p->exe = r->xfd >= 0 ? exe_path_of(r->xfd) : NULL;
	}
	return STEP_NEXT;
}

/*
 * stat, last, when the process's terminal or start time is needed (all
 * of them for --json and --tree; for the table, those judge_all() asks
 * for), or when more than its status was read: did it exit meanwhile?
 * A single-threaded process that needs neither is one read of status.
 */
static enum step read_last_stat(struct scan *s, struct proc *p,
				struct reading *r, struct bufs *b,
				const struct scan_opts *o)
{
	int wanted = o->stat || judge_needs_stat(s, p);

	if ((wanted && !p->stat_read) || r->more)
		return read_stat(s, p, r, b, 1);
	return STEP_NEXT;
}

/* p, read whole, becomes a record of the scan. */
static void keep_proc(struct scan *s, const struct proc *p,
		      const struct reading *r)
{
	struct scan_counts *c = &s->counts;

	if (p->exe_state == EXE_UNCHECKED) {
		c->exe_unchecked++;
		if (c->exe_errno == 0)
			c->exe_errno = r->exe_err;
	}
	c->examined++;
	s->n++;
}

/* A process that could not be read: counted. -1 when it was ENOMEM. */
static int count_failure(struct scan_counts *c, int err)
{
	if (err == ENOMEM)
		return -1;
	if (vanished(err)) {
		c->exited++;
	} else {
		c->not_examined++;
		if (c->not_examined_errno == 0)
			c->not_examined_errno = err;
	}
	return 0;
}

/* The record of a process not kept: what it holds is freed. */
static void drop_proc(struct proc *p)
{
	free(p->cmdline);
	free(p->exe);
	p->cmdline = p->exe = NULL;
	threads_free(p);
}

static void reading_close(struct reading *r)
{
	creds_release(&r->main_creds);
	if (r->xfd >= 0)
		close(r->xfd);
	if (r->live >= 0)
		close(r->live);
	if (r->sfd >= 0)
		close(r->sfd);
	if (r->dfd >= 0)
		close(r->dfd);
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
	struct reading r;
	struct proc *p = NULL;
	enum step step = STEP_FAILED;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	r.dfd = r.sfd = r.xfd = r.live = -1;
	s->counts.listed++;
	r.dfd = openat(procfd, name,
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (r.dfd >= 0)
		p = new_proc(s);
	if (p != NULL) {
		p->pid = pid;
		step = read_main_thread(s, p, &r, b);
	} else if (r.dfd >= 0) {
		errno = ENOMEM;
	}
	if (step == STEP_NEXT)
		step = read_all_threads(s, p, &r, b);
	if (step == STEP_NEXT)
		step = read_program(p, &r, b, o);
	if (step == STEP_NEXT)
		step = read_last_stat(s, p, &r, b, o);
	if (step == STEP_NEXT) {
		keep_proc(s, p, &r);
	} else {
		if (step == STEP_FAILED)
			ret = count_failure(&s->counts, errno);
		if (p != NULL)
			drop_proc(p);
	}
	reading_close(&r);
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
	pid_t x = ((const struct proc *)a)->pid,
	      y = ((const struct proc *)b)->pid;

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
	procfd = open(proc_root,
		      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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

	/* Without both start times it cannot be told from a recycled pid. */
	if (parent == NULL || !parent->stat_read || !p->stat_read)
		return NULL;
	return parent->start <= p->start ? parent : NULL;
}
