/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: checks per process, file and credential. */
#ifndef CAPAUDIT_TALLY_H
#define CAPAUDIT_TALLY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capaudit_table.h"

struct record;

#define NCAPS 64 /* every value a capability mask can name */

/*
 * What a check tells about the command's needs. Only CLASS_OWN checks can
 * be needs: made with the process's own credential against the user
 * namespace capaudit runs in, the only ones a file capability answers.
 */
enum check_class {
	CLASS_OWN,
	CLASS_USERNS, /* against, or with a credential of, another user namespace */
	CLASS_CRED, /* under a credential not the process's own (access(2), a helper) */
	CLASS_UNKNOWN, /* capaudit could not learn its own namespace */
	NCLASSES,
};

/* One execve(): the file a process ran, as the kernel mapped it. */
struct exec_image {
	pid_t pid;
	char comm[16]; /* the name it was started by */
	char *file;    /* the kernel's path; NULL when not seen */
	uint32_t maj, min;
	uint64_t ino;
	size_t *libs; /* what else it mapped executable: in maps */
	size_t nlibs, libs_size;
};

/*
 * A file a process mapped executable besides the one it runs: its
 * loader, its libraries, what it dlopen()s. Their code runs with the
 * capabilities of the file that loads them.
 */
struct mapped_file {
	char *path; /* the kernel's name for it */
	uint32_t maj, min;
	uint64_t ino;
};

struct proc {
	pid_t pid, ppid;
	char comm[16];
	int image;	  /* in images; -1: not yet exec'd (our launcher) */
	int awaiting_map; /* exec'd; which file is still to come */
	int exited;
};

/* A report row: the checks of one capability in one process and class. */
struct row {
	int cap;
	enum check_class cls;
	pid_t pid, ppid;
	int image;
	char comm[16];
	uint64_t granted, refused;
};

/* The last key found in a table: a busy command repeats one check. */
struct table_cache {
	void *val;
	unsigned generation;
	unsigned char key[32];
};

struct tally {
	struct proc *procs;
	size_t nprocs, procs_size;
	struct table pid_index; /* pid -> index in procs */
	struct exec_image *images;
	size_t nimages, images_size;
	struct mapped_file *maps; /* every one, once */
	size_t nmaps, maps_size;
	struct table map_index; /* (device, inode) -> index in maps, plus one */
	struct table checks;  /* (tid, cred, image, namespace, cap) -> counts */
	struct table spans;   /* (tid, image, cred) -> when it was used */
	struct table pending; /* kprobe entries waiting for their return */
	struct table_cache last_check, last_span;
	pid_t last_pid; /* and its index in procs, plus one */
	size_t last_pid_at;
	pid_t self;	   /* capaudit: its own checks are not counted */
	uint64_t init_ns;  /* capaudit's user namespace, from its calibration */
	int init_ns_state; /* 0 not seen, 1 known, -1 two different answers */
	uint64_t lost;	   /* samples the kernel could not write */
	uint64_t unfollowed; /* threads the kernel's programs did not follow */
	/*
	 * Signals a process outside the command sent to its threads (kill(2),
	 * tgkill(2), sigqueue(3); not the kernel's own, nor capaudit's),
	 * counted in the kernel: 0 where nothing counts them.
	 */
	uint64_t outside_signals;
	uint64_t launcher;     /* checks by our launcher before the exec */
	uint64_t out_of_range; /* cap values beyond NCAPS */
	uint64_t unpaired;     /* kprobe returns without an entry */
	int nomem;
	/* tally_finish(): */
	struct row *rows; /* by capability, then process */
	size_t nrows;
	uint64_t class_checks[NCLASSES];
	/*
	 * The capabilities of checks taken for a lent credential from
	 * samples alone (a guess: a credential's address is reused), not
	 * from what the kernel said of it.
	 */
	uint64_t lent_guessed;
};

/* root_comm NULL: root is our launched child; else the attached process. */
void tally_init(struct tally *t, pid_t root, const char *root_comm);
/* --pid: the file the attached process runs (from /proc/PID/exe). */
void tally_set_file(struct tally *t, pid_t pid, const char *file, uint32_t maj,
		    uint32_t min, uint64_t ino);
void tally_record(const struct record *r, void *tally);
/* Classifies every check and builds the rows. 0, or -1 (ENOMEM). */
int tally_finish(struct tally *t);
void tally_free(struct tally *t);
/* Processes that were followed: the command and its descendants. */
size_t tally_followed(const struct tally *t);
size_t tally_running(const struct tally *t);
/* A class's name for the report and --json. */
const char *class_name(enum check_class c);
const char *class_reason(enum check_class c);

#endif
