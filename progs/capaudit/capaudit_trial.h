/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: a run with file capabilities on copies. */
#ifndef CAPAUDIT_TRIAL_H
#define CAPAUDIT_TRIAL_H

#include <stddef.h>
#include <stdint.h>

struct exec_keep;
struct need_file;

/* One file of a trial: a copy with these capabilities, bound over it. */
struct grant_file {
	int src_fd;		 /* the original, checked by the parent */
	char target[4096];	 /* its path, bound over in the child */
	uint64_t dev, ino;	 /* what target must still be */
	char copy[4200];	 /* the copy's name in the trial's tmpfs */
	unsigned char xattr[20]; /* security.capability, revision 2 */
	size_t xattr_len;	 /* 0: no capabilities */
};

struct grant_plan {
	char dir[4096]; /* where the child mounts its tmpfs */
	struct grant_file *files;
	size_t n;
	int quiet; /* stdin, stdout and stderr to /dev/null */
	int devnull;
	int noroot; /* uid 0 (no --user, or a --user of uid 0):
				 * SECBIT_NOROOT, so only file caps count */
	/* A container run that sets no_new_privs. */
	int no_new_privs;
	/*
	 * The ambient run: the command may execute only the files (their
	 * copies) and these paths (capaudit_ambient.c); every mount is
	 * noexec but those of the copies and of the files in keep
	 * (capaudit_noexec.c).
	 */
	int confine;
	char (*paths)[4096];
	size_t npaths;
	const struct exec_keep *keep;
	size_t nkeep;
};

/* A revision 2 security.capability value granting caps =ep into buf. */
size_t filecap_encode(uint64_t caps, unsigned char buf[20]);
/*
 * One granting nothing, which still makes its file one with file
 * capabilities (the kernel clears the ambient set at its execve).
 */
size_t filecap_encode_none(unsigned char buf[20]);
/*
 * Whether the trials can grant file capabilities here: 1, or 0 with the
 * reason in why (capaudit not root, a file-capability capaudit).
 */
int trials_possible(char *why, size_t len);
/*
 * Opens path for the trials and checks it: the same file the run mapped
 * (device and inode), a regular ELF file the kernel would honour file
 * capabilities on, and only root's to change, the way to it included
 * (capaudit_trust.h). Returns the fd, or -1 with the reason in why.
 */
int trial_open_file(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		    char *why, size_t len);
/*
 * Whether the trials may run the command at path: a script (and a
 * script its "#!" line names) is read afresh by its interpreter in
 * each trial, whose copy runs it with capabilities, so it and its way
 * must be only root's to change (as trial_open_file() asks of a file).
 * 1, or 0 with the reason in why.
 */
int trial_command_allowed(const char *path, char *why, size_t len);
/*
 * Whether the trials may run f with capabilities as far as what it
 * loads goes: each library (and loader, and plugin) it mapped in the
 * runs so far still that file, and only root's to change, as its code
 * runs with f's capabilities. 1, or 0 with the reason in why.
 */
int trial_libraries_allowed(const struct need_file *f, char *why, size_t len);
/* The plan, with /dev/null open: 0, or -1 with errno. */
int plan_init(struct grant_plan *p);
/*
 * A new directory for the next trial's copies, in TMPDIR (or /tmp), the
 * last one removed: 0, or -1 with the reason in why (a TMPDIR others
 * than root may change is refused). The trial's launched child
 * removes it once its tmpfs is gone (plan_apply()); plan_dir_drop()
 * removes it if it is still there.
 */
int plan_dir_make(struct grant_plan *p, char *why, size_t len);
void plan_dir_drop(struct grant_plan *p);
void plan_release(struct grant_plan *p);
/*
 * In the launched child, before its execve: a mount namespace of its own
 * where each file is a copy carrying its capabilities (then
 * trial_contain() makes the PID namespace). Only async-signal-safe
 * calls. Returns 0, or -1 with the failed step in *step and errno set.
 */
int plan_apply(const struct grant_plan *p, const char **step);

#endif
