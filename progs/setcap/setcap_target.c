/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap's warning for a "#!" script: the kernel runs its interpreter and
 * ignores the script's file capabilities, the commonest way to set them
 * where they do nothing. libcap writes them without a word and exits 0;
 * so do we, then say so. Other files the kernel would not run with their
 * capabilities (data, objects, nosuid mounts) are left to setcap --perf
 * and perfdoctor, which refuse or explain them: test suites and build
 * trees put capabilities on such files on purpose. Kept apart from
 * setcap_explain.c, which the fuzz harness builds without
 * common/exec_target.c.
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "escape.h"
#include "exec_target.h"
#include "mask.h"
#include "setcap.h"

void warn_exec_target(const char *file, cap_t caps)
{
	struct exec_target t;
	char buf[256];
	const char *problem;
	char *name, *why;
	int fd;

	/* E alone is never stored: an empty P | I grants nothing anyway. */
	if (mask_of_flags(caps,
			  (1u << CAP_PERMITTED) | (1u << CAP_INHERITABLE)) == 0)
		return;
	/*
	 * The write is done and final; this only describes the inode the
	 * name leads to now, without following a symlink (cap_set_file()
	 * refused those), so a file swapped in since can only change what
	 * the warning says, never what was written.
	 */
	fd = open(file, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (exec_target_inspect(fd, &t) < 0) {
		close(fd);
		return;
	}
	close(fd);
	if (t.kind != EXEC_TARGET_SCRIPT)
		return;
	problem = exec_target_problem(&t, buf, sizeof(buf));
	if (problem == NULL)
		return;
	/* The "#!" line comes from the file: escaped like the name. */
	name = escape_dup(file);
	why = escape_dup(problem);
	fprintf(stderr, "setcap: warning: %s %s\n",
		name != NULL ? name : "(name not shown: out of memory)",
		why != NULL ? why : "(reason not shown: out of memory)");
	free(name);
	free(why);
}
