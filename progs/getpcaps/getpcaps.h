/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all and --tree (ours, not in libcap): a process-wide audit of
 * who holds capabilities, read from /proc without following anything a
 * process can swap. getpcaps.c hands the command line over through
 * all_requested()/all_main(); the rest is private to progs/getpcaps/.
 */
#ifndef GETPCAPS_H
#define GETPCAPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* 1 when argv asks for the audit (--all or --tree anywhere). */
int all_requested(int argc, char *argv[]);

/*
 * Runs the audit with its own parser over the whole command line;
 * usage() is getpcaps' own (libcap's text plus ours). Returns the exit
 * status: 0 complete, 1 incomplete or failed, 2 a usage mistake.
 */
int all_main(int argc, char *argv[], void (*usage)(int status));

/* What an audit flags (struct proc.flags). */
enum {
	FLAG_AMBIENT_SHELL = 1 << 0,	/* ambient caps in an interactive shell */
	FLAG_WRITABLE_EXE = 1 << 1,	/* non-root, capable, may rewrite its exe */
	FLAG_NO_NNP_DAEMON = 1 << 2,	/* capable daemon without no_new_privs */
};

/* The executable check (only for capable processes of a non-root user). */
enum exe_state {
	EXE_NOT_NEEDED,		/* root, or nothing to lose */
	EXE_SAFE,		/* not writable by the process's user */
	EXE_WRITABLE,
	EXE_UNCHECKED,		/* /proc/<pid>/exe could not be examined */
};

/*
 * How much of a command line is kept: a process chooses its own (a user
 * can give a thousand processes one 2 MiB argv), and the audit must not
 * run out of memory on it.
 */
#define CMDLINE_MOST	4096

/* One process as one consistent read of /proc/<pid> saw it. */
struct proc {
	pid_t pid, ppid;
	uid_t uid[4];			/* real, effective, saved, filesystem */
	gid_t gid[4];
	unsigned long long start;	/* start time (clock ticks after boot) */
	int tty;			/* has a controlling terminal */
	int nnp;			/* NoNewPrivs */
	uint64_t inh, prm, eff, bnd, amb;
	char comm[64];			/* raw bytes, as the kernel has them */
	char *cmdline;			/* NUL-separated; only when printed */
	size_t cmdline_len;
	int cmdline_cut;		/* longer than CMDLINE_MOST: the rest left out */
	char *exe;			/* exe's path; only when printed */
	enum exe_state exe_state;
	unsigned flags;
	int shown;			/* holds or lacks something worth showing */
	/* --tree: the parent, and the children as a list in pid order */
	struct proc *up, *child, *sibling;
	int mark;			/* tree building's scratch */
	int needed;			/* printed in the tree */
};

/* Counts for the closing line; nothing is left out without being counted. */
struct scan_counts {
	size_t listed;			/* pid directories seen in /proc */
	size_t examined;		/* processes read completely */
	size_t kernel_threads;		/* left out: they run no program */
	size_t zombies;			/* left out: exited, not yet reaped */
	size_t exited;			/* vanished or recycled during the scan */
	size_t not_examined;		/* could not be read (errno below) */
	int not_examined_errno;
	size_t exe_unchecked;		/* capable non-root with unreadable exe */
	int exe_errno;
};

struct scan {
	struct proc *procs;		/* sorted by pid */
	size_t n, cap;
	uint64_t full;			/* every capability the kernel knows */
	struct scan_counts counts;
};

/* What to read beyond the credentials (they cost a read per process). */
struct scan_opts {
	int cmdline;			/* read cmdline and the exe's path */
};

/*
 * Reads every process under proc_root ("/proc"). Returns 0, or -1 with
 * errno when /proc itself could not be read (a process that cannot be
 * read is counted, not an error). Free with scan_free().
 */
int scan_run(struct scan *s, const char *proc_root,
	     const struct scan_opts *o);
void scan_free(struct scan *s);

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

/* Printing (getpcaps_print.c). */
struct print_opts {
	int json, tree, iab, verbose;
};
/* Returns 0, or -1 (ENOMEM) when the tree could not be built. */
int print_all(struct scan *s, const struct print_opts *o);

#endif
