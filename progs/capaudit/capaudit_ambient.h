/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest: the run that gives the grant as ambient
 * capabilities (podman's way for a user other than root), kept to the
 * programs the runs before it were seen to run, each of them root's.
 */
#ifndef CAPAUDIT_AMBIENT_H
#define CAPAUDIT_AMBIENT_H

#include <stddef.h>

struct exec_keep;
struct grant_file;
struct grant_plan;
struct suggestion;

/* What the ambient run adds to a trial's plan. */
struct ambient_guard {
	/*
	 * Each program's dynamic loader, to be replaced by a copy holding
	 * an empty file capability: exec'd as a program, it would run any
	 * file it is given, with the ambient set; a file capability, even
	 * an empty one, makes the kernel clear that set at its execve,
	 * while as the loader of an ELF file it changes nothing.
	 */
	struct grant_file *loaders;
	size_t nloaders;
	/* A script command, run in place: Landlock's rule for it. */
	char (*paths)[4096];
	size_t npaths;
	/*
	 * What the run may execute or map executable besides the copies
	 * (every other mount of its namespace is noexec): each library the
	 * programs loaded in the runs so far, and a script command.
	 */
	struct exec_keep *keep;
	size_t nkeep;
};

/*
 * Whether sg's command, at command, may run with the grant as ambient
 * capabilities, where every program it starts holds them: each program
 * the runs so far executed (sg->programs) a file of the grant, still the
 * file they ran, only root's to change (its way too), loading only
 * root's libraries; each ELF file's loader seen and root's; the kernel
 * able to make the run's mounts noexec. Fills g; 1, or 0
 * with the reason in why (g then empty). ambient_guard_free() frees g.
 */
int ambient_guard_make(const struct suggestion *sg, const char *command,
		       struct ambient_guard *g, char *why, size_t len);
void ambient_guard_free(struct ambient_guard *g);
/*
 * In the command's process of a trial whose plan says confine, before
 * its execve: Landlock lets it, and all it starts, execute only the
 * plan's files (the copies bound over them, loaders included) and
 * paths. Only async-signal-safe calls. 0, or -1 with the failed step in
 * *step and errno set.
 */
int ambient_confine(const struct grant_plan *p, const char **step);

#endif
