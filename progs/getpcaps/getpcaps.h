/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all and --tree (ours, not in libcap): a process-wide audit of
 * who holds capabilities, read from /proc without following anything a
 * process can swap. getpcaps.c reads the command line and calls
 * all_main(); the rest is private to progs/getpcaps/.
 */
#ifndef GETPCAPS_H
#define GETPCAPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/capability.h>
#include <sys/types.h>

struct print_opts;

/*
 * Runs the audit getpcaps.c's parser asked for (--all or --tree anywhere
 * on its command line) and prints it as po says. Returns the exit status:
 * 0 complete, 1 incomplete or failed.
 */
int all_main(const struct print_opts *po);

/* What an audit flags (struct proc.flags). */
enum {
	FLAG_AMBIENT_SHELL = 1 << 0, /* ambient caps in an interactive shell */
	FLAG_WRITABLE_EXE = 1 << 1, /* non-root, capable, may rewrite its exe */
	FLAG_NO_NNP_DAEMON = 1 << 2,  /* capable daemon without no_new_privs */
	FLAG_THREADS_DIFFER = 1 << 3, /* threads hold different credentials */
	FLAG_ROOT_REGAINS = 1
			    << 4, /* a uid 0 with less than its bounding set */
};

/* The executable check (only for capable processes of a non-root user). */
enum exe_state {
	EXE_NOT_NEEDED, /* root, or nothing to lose */
	EXE_SAFE,	/* not writable by the process's users */
	EXE_WRITABLE,
	EXE_UNCHECKED, /* /proc/<pid>/exe could not be examined */
};

/*
 * How much of a command line is kept: a process chooses its own (a user
 * can give a thousand processes one 2 MiB argv), and the audit must not
 * run out of memory on it.
 */
#define CMDLINE_MOST 4096

/*
 * Credentials belong to threads, not processes: a thread that calls
 * setresuid(2) or capset(2) itself (not through glibc, which makes every
 * thread follow, or libpsx) holds its own. One thread's, or all of a
 * process's threads' together ("widest"): each set the union of the
 * threads' sets, each id 0 if any thread's is 0 (else the main thread's),
 * no_new_privs off if any thread lacks it.
 */
struct creds {
	uid_t uid[4]; /* real, effective, saved, filesystem */
	gid_t gid[4];
	gid_t *groups; /* supplementary; freed after check_exe */
	int ngroups;
	uint64_t inh, prm, eff, bnd, amb;
	int amb_known; /* 0: no CapAmb line and P&I not empty */
	int nnp;       /* NoNewPrivs: 1, 0, or -1 unknown */
};

/* The first thread ids a thread set keeps; it counts the rest. */
#define THREAD_TIDS_MOST 8
/*
 * The most distinct credential sets kept per process: a process whose
 * threads each take another user's ids (a file server acting for its
 * clients) could otherwise make the audit keep one per thread.
 */
#define THREAD_SETS_MOST 64

/* The threads of one process that hold the same credentials. */
struct thread_set {
	struct creds c;
	pid_t tids[THREAD_TIDS_MOST]; /* in the order read; main first */
	size_t count;
};

/* One process as one consistent read of /proc/<pid> saw it. */
struct proc {
	pid_t pid, ppid;
	struct creds c; /* all its threads together (widest) */
	/* from stat, read only when needed (getpcaps_scan.c) */
	int stat_read;
	unsigned long long start; /* start time (clock ticks after boot) */
	int tty;		  /* has a controlling terminal */
	char comm[64];		  /* raw bytes, as the kernel has them */
	char *cmdline;		  /* NUL-separated; only when printed */
	size_t cmdline_len;
	int cmdline_cut; /* longer than CMDLINE_MOST: the rest left out */
	char *exe;	 /* exe's path; only when printed */
	enum exe_state exe_state;
	/* its threads, grouped by credentials; at least one set */
	struct thread_set *sets;
	size_t nsets;
	size_t threads;	       /* threads read */
	size_t threads_untold; /* in sets past THREAD_SETS_MOST */
	int main_exited;       /* main thread gone, others running */
	unsigned flags;
	int shown; /* holds or lacks something worth showing */
	/* --tree: the parent, and the children as a list in pid order */
	struct proc *up, *child, *sibling;
	int mark;   /* tree building's scratch */
	int needed; /* printed in the tree */
};

/* Counts for the closing line; nothing is left out without being counted. */
struct scan_counts {
	size_t listed;	       /* pid directories seen in /proc */
	size_t examined;       /* processes read completely */
	size_t kernel_threads; /* left out: they run no program */
	size_t zombies;	       /* left out: exited, not yet reaped */
	size_t exited;	       /* vanished or recycled during the scan */
	size_t not_examined;   /* could not be read (errno below) */
	int not_examined_errno;
	size_t exe_unchecked; /* capable non-root with unreadable exe */
	int exe_errno;
	/* /proc may leave processes out of its listing: none counted */
	int hidden;
	char hidden_why[200];
};

struct scan {
	struct proc *procs; /* sorted by pid */
	size_t n, cap;
	uint64_t full; /* every capability the kernel knows */
	struct scan_counts counts;
};

/* What to read beyond the credentials (they cost a read per process). */
struct scan_opts {
	int cmdline; /* read cmdline and the exe's path */
	int stat;    /* read every process's stat (terminal, start time) */
};

/*
 * Reads every process under proc_root ("/proc"). Returns 0, or -1 with
 * errno when /proc itself could not be read (a process that cannot be
 * read is counted, not an error). Free with scan_free().
 */
int scan_run(struct scan *s, const char *proc_root, const struct scan_opts *o);
void scan_free(struct scan *s);

/*
 * 1 when the /proc open on procfd may leave processes out of its
 * listing for us (hidepid=invisible or ptraceable, and we may not trace
 * them all: neither CAP_SYS_PTRACE nor, for invisible, its gid= group),
 * or when its mount options cannot be read, with the reason in why; else
 * 0. (getpcaps_hidepid.c)
 */
int proc_hides_processes(int procfd, char *why, size_t len);

/* The process with that pid, or NULL. */
struct proc *scan_find(const struct scan *s, pid_t pid);

/*
 * p's parent, or NULL: the record with p's ppid, unless that pid was
 * recycled after the parent exited (a process started after p cannot be
 * its parent; its name, which it chose, must not make p look like a
 * service's child).
 */
struct proc *scan_parent(const struct scan *s, const struct proc *p);

/* Sets flags and shown on every process (after the whole scan). */
void judge_all(struct scan *s);

/*
 * 1 when judge_all() needs p's controlling terminal or start time, known
 * only from its stat: p may be a capable daemon without no_new_privs, or
 * a shell with ambient capabilities, or the service manager of one. For
 * the scan, which reads stat only when it must. (getpcaps_all.c)
 */
int judge_needs_stat(const struct scan *s, const struct proc *p);

/* A growing read buffer, reused for every process. */
struct buf {
	char *data;
	size_t size;
};

/*
 * Reads name, relative to the directory dfd, into b (NUL-terminated):
 * whole when it is one record the kernel writes in one go (stat,
 * status), at most most bytes when most > 0. Returns the length, or -1
 * with errno. (getpcaps_scan.c)
 */
ssize_t read_at(int dfd, const char *name, struct buf *b, int whole,
		size_t most);

/* What a main thread's status says beyond its credentials. */
struct status_facts {
	char state; /* R, S, D, Z, X, ... */
	pid_t ppid;
	int kthread;	  /* 1, 0; -1 when there is no Kthread line */
	unsigned threads; /* the process's threads; 0 unknown */
	char comm[64];	  /* raw bytes, the kernel's escapes undone */
	int comm_known;	  /* 0: an escape not known, comm left to stat */
};

/*
 * One thread's status text into c (c->groups: free with creds_release()),
 * and when f is not NULL, the main thread's facts into f. Returns 0, or
 * -1 with errno EPROTO (a line missing or malformed) or ENOMEM.
 * (getpcaps_status.c)
 */
int creds_parse(const char *status, struct creds *c, struct status_facts *f);
void creds_release(struct creds *c);

/* The fields of /proc/<pid>/stat we use. */
struct stat_fields {
	char state;
	pid_t ppid;
	int tty_nr;
	unsigned flags;
	unsigned long long start;
};

/*
 * A stat text into f, and its command name into comm unless comm is
 * NULL. Returns 0, or -1 when the text is not what the kernel writes.
 * (getpcaps_status.c)
 */
int stat_parse(const char *text, char *comm, size_t comm_size,
	       struct stat_fields *f);

/*
 * Reads the threads of the process whose /proc directory is dfd into p
 * (p->c, p->sets, p->threads), given its main thread's credentials in
 * *main_creds (taken over; NULL when the main thread has exited, and then
 * left out) and the thread count its status gave (0: unknown). A thread
 * that exits meanwhile is left out: it holds nothing any more. When
 * *live_dfd is not NULL, it receives an open directory of a thread read
 * (the caller closes it), for what the main thread no longer has (exe,
 * cmdline). Returns 0, or -1 with errno: ENOMEM, ESRCH when no thread is
 * left, or the error of a thread that could not be read.
 * (getpcaps_threads.c)
 */
int threads_read(struct proc *p, int dfd, struct creds *main_creds,
		 unsigned nthreads, struct buf *b, int *live_dfd);
void threads_free(struct proc *p);
/*
 * Frees what nothing reads once the executable is judged, so that the
 * audit keeps little more than struct proc for each process to the end:
 * the sets' supplementary groups (a user may give each of 64 threads its
 * own 65536 groups, through a user namespace and its subordinate gids,
 * 16 MiB a process), and a lone set, which is p->c itself and is printed
 * only when there are several (FLAG_THREADS_DIFFER).
 */
void threads_trim(struct proc *p);

/*
 * 1 when check_exe() needs p's executable: p is capable and none of its
 * real, effective or saved uids is 0. (getpcaps_exe.c)
 */
int exe_needed(const struct proc *p);

/*
 * Judges the executable open on xfd (-1 when it could not be opened, with
 * open_err the reason) for p: sets p->exe_state. Returns 0, or the errno
 * that left it unchecked. (getpcaps_exe.c)
 */
int check_exe(struct proc *p, int xfd, int open_err);

/* The path of the file open on xfd, for printing; NULL when unreadable. */
char *exe_path_of(int xfd);

/* Real, effective or saved uid 0: it can be root again whenever it likes. */
int creds_root_like(const struct creds *c);

/*
 * Any of the four uids 0, the filesystem one included: whatever its
 * capability sets say, it is root to the files root owns (it may chmod
 * /etc/shadow), and with a real, effective or saved uid 0 an execve(2)
 * gives it its bounding set back, unless securebits forbid it, which
 * /proc does not show. Such a process is never "nothing to show".
 */
int creds_uid0(const struct creds *c);

/* Printing (getpcaps_print.c). */
struct print_opts {
	int json, tree, iab, verbose;
};
/* Returns 0, or -1 (ENOMEM) when the tree could not be built. */
int print_all(struct scan *s, const struct print_opts *o);

/*
 * uid -> name, looked up once per uid (NSS can be slow); and the last
 * capability and IAB texts, since most processes share their parent's.
 */
struct user_cache {
	struct user {
		uid_t uid;
		char *name;
	} * users;
	size_t n;
	uint64_t caps_key[3], iab_key[3];
	char *caps, *iab;
};

/* The user's name, or NULL when it has none; the cache owns it. */
const char *user_name(struct user_cache *uc, uid_t uid);
void user_cache_free(struct user_cache *uc);

/*
 * c's E, P and I as libcap's text ("=ep", "cap_chown+p", ...); its IAB
 * text (^ marks an ambient capability, ! a dropped bounding one). The
 * cache owns them. NULL: ENOMEM.
 */
const char *caps_text(struct user_cache *uc, const struct creds *c);
const char *iab_text(struct user_cache *uc, const struct scan *s,
		     const struct creds *c);

/*
 * The highest risk tier among the capabilities c may use (permitted,
 * effective, ambient), and the first capability in it; -1 when it holds
 * none.
 */
int risk_of(const struct creds *c, cap_value_t *worst);

/* The flags' names (JSON) and texts. */
struct flag_text {
	unsigned flag;
	const char *key;
	const char *text;
};
extern const struct flag_text flag_text[];
extern const size_t nflags;

/* One process as one line of JSON (getpcaps_json.c). */
void json_process(struct scan *s, const struct proc *p,
		  const struct print_opts *o, struct user_cache *uc, int depth);

#endif
