/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The ambient run. podman gives a container's user other than root what
 * --cap-add adds as ambient capabilities, which every program it starts
 * keeps across execve(2); proving that way means running the command so,
 * on the host, as the trials' user. The file-capability trials give the
 * grant to the copies of the files that asked for it, each checked to be
 * root's; here every program would hold it, and whoever decides which
 * programs run (the user, through a file of theirs the command reads)
 * would get the grant for a program of their own. So this run is made
 * only when:
 *
 *   - every program the runs so far executed is a file of the grant,
 *     which the trials gave it already, still that file, only root's to
 *     change, its way too, and loads only root's libraries. A program
 *     outside the grant would hold it in this run alone: the setcap
 *     lines never give it one, and what it loads or runs (a plugin, a
 *     script, a library its environment names, none of them held back
 *     by the secure mode file capabilities bring) may be its user's;
 *
 *   - Landlock lets the command execute only those programs (the copies
 *     of the grant's files) and their loaders: one it did not run
 *     before fails to start, and the run fails;
 *
 *   - each loader is a copy holding an empty file capability: started
 *     as a program (ld.so PROGRAM), a loader runs whatever file it is
 *     given without the kernel's exec check; a file capability, even an
 *     empty one, makes the kernel clear the ambient set (and give none)
 *     at that execve, while the loader an ELF file names is mapped by
 *     the kernel for that file, whose own capabilities alone count.
 *
 *   - in the run's mount namespace every mount is noexec but the
 *     copies' and one over each library the programs loaded in the
 *     runs so far (and a script command): ambient capabilities bring
 *     no secure mode, so a library reading its user's configuration
 *     there may try to map a library of that user's, and Landlock does
 *     not cover mmap(2); the noexec flag makes that mapping fail
 *     (capaudit_noexec.c). A library no earlier run loaded cannot be
 *     loaded in this one.
 *
 * What a program of the grant does with the grant stays the command's
 * own business, as in the trials and in the container.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capaudit_ambient.h"
#include "capaudit_noexec.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_trial.h"
#include "capaudit_warn.h"
#include "escape.h"
#include "exec_target.h"
#include "why.h"

void ambient_guard_free(struct ambient_guard *g)
{
	size_t i;

	for (i = 0; i < g->nloaders; i++)
		if (g->loaders[i].src_fd >= 0)
			close(g->loaders[i].src_fd);
	free(g->loaders);
	free(g->paths);
	free(g->keep);
	memset(g, 0, sizeof(*g));
}

/* "PATH: reason" into why, PATH escaped; returns 0. */
static int refuse(char *why, size_t len, const char *path, const char *reason)
{
	char *shown = escape_dup(path);

	snprintf(why, len, "%s: %s", shown != NULL ? shown : "a file", reason);
	free(shown);
	return 0;
}

static int add_path(struct ambient_guard *g, const char *path)
{
	char(*q)[4096];
	size_t i;

	for (i = 0; i < g->npaths; i++)
		if (strcmp(g->paths[i], path) == 0)
			return 0;
	if (strlen(path) >= sizeof(g->paths[0])) {
		errno = ENAMETOOLONG;
		return -1;
	}
	q = reallocarray(g->paths, g->npaths + 1, sizeof(*q));
	if (q == NULL)
		return -1;
	g->paths = q;
	snprintf(g->paths[g->npaths++], sizeof(g->paths[0]), "%s", path);
	return 0;
}

/*
 * path, a file the run may map executable, added to g once with
 * stat(2)'s numbers (the child checks the path against them): 0, or -1
 * with errno.
 */
static int add_keep(struct ambient_guard *g, const char *path)
{
	struct exec_keep *q;
	struct stat st;
	size_t i;

	for (i = 0; i < g->nkeep; i++)
		if (strcmp(g->keep[i].path, path) == 0)
			return 0;
	if (strlen(path) >= sizeof(g->keep[0].path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (lstat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	q = reallocarray(g->keep, g->nkeep + 1, sizeof(*q));
	if (q == NULL)
		return -1;
	g->keep = q;
	q = &g->keep[g->nkeep++];
	memset(q, 0, sizeof(*q));
	snprintf(q->path, sizeof(q->path), "%s", path);
	q->dev = st.st_dev;
	q->ino = st.st_ino;
	return 0;
}

/*
 * Each library p loaded in the runs, but the files of the grant (their
 * copies are bound from a mount that is not noexec; the loaders' are
 * dropped once all are known: drop_loaders_kept()): 1, or 0 with why.
 */
static int keep_libraries(const struct suggestion *sg,
			  const struct need_file *p, struct ambient_guard *g,
			  char *why, size_t len)
{
	char reason[400];
	size_t i, j;

	for (i = 0; i < p->nlibs; i++) {
		const char *lib = p->libs[i].path;
		int copied = 0;

		for (j = 0; j < sg->nfiles && !copied; j++)
			copied = sg->files[j].path != NULL &&
				 strcmp(sg->files[j].path, lib) == 0;
		if (copied || add_keep(g, lib) == 0)
			continue;
		why_say(reason, sizeof(reason),
			"it is a library that cannot be kept executable in "
			"that run (%s)",
			strerror(errno));
		return refuse(why, len, lib, reason);
	}
	return 1;
}

/*
 * The loader program p (open on fd) names, checked and added to g once:
 * 1, or 0 with why.
 */
static int add_loader(struct ambient_guard *g, const struct need_file *p,
		      int fd, char *why, size_t len)
{
	char interp[PATH_MAX], real[PATH_MAX], reason[400];
	const struct mapped_file *m = NULL;
	struct grant_file *q;
	struct stat st;
	size_t i;
	int rc, lfd;

	rc = exec_target_elf_interp(fd, interp, sizeof(interp));
	if (rc < 0) {
		why_say(reason, sizeof(reason),
			"it cannot be read for its loader (%s)",
			strerror(errno));
		return refuse(why, len, p->path, reason);
	}
	if (rc == 0)
		return 1; /* static: no loader */
	if (realpath(interp, real) == NULL) {
		why_say(reason, sizeof(reason),
			"it names a loader, %s, that is not there (%s)", interp,
			strerror(errno));
		return refuse(why, len, p->path, reason);
	}
	for (i = 0; i < g->nloaders; i++)
		if (strcmp(g->loaders[i].target, real) == 0)
			return 1;
	/* The loader it mapped in the runs: the file checked must be that one. */
	for (i = 0; i < p->nlibs && m == NULL; i++)
		if (strcmp(p->libs[i].path, real) == 0)
			m = &p->libs[i];
	if (m == NULL)
		return refuse(why, len, real,
			      "it is a loader that was not seen mapped in the "
			      "runs");
	lfd = trial_open_file(m->path, m->maj, m->min, m->ino, reason,
			      sizeof(reason));
	if (lfd < 0)
		return refuse(why, len, m->path, reason);
	q = reallocarray(g->loaders, g->nloaders + 1, sizeof(*q));
	if (q == NULL || fstat(lfd, &st) < 0) {
		int err = errno;

		close(lfd);
		if (q != NULL)
			g->loaders = q;
		snprintf(why, len, "%s", strerror(err));
		return 0;
	}
	g->loaders = q;
	q = &g->loaders[g->nloaders++];
	memset(q, 0, sizeof(*q));
	q->src_fd = lfd;
	snprintf(q->target, sizeof(q->target), "%s", m->path);
	q->dev = st.st_dev;
	q->ino = st.st_ino;
	q->xattr_len = filecap_encode_none(q->xattr);
	return 1;
}

/*
 * The file of the grant program p is, or NULL: a file the suggestion
 * lists with nothing to grant is not one (the run would give it the
 * grant that no setcap line gives it).
 */
static const struct need_file *granted(const struct suggestion *sg,
				       const struct need_file *p)
{
	size_t i;

	for (i = 0; i < sg->nfiles; i++)
		if (sg->files[i].path != NULL && sg->files[i].grant != 0 &&
		    strcmp(sg->files[i].path, p->path) == 0)
			return &sg->files[i];
	return NULL;
}

/* One program checked, its loader and (run in place) its path added. */
static int check_program(const struct suggestion *sg, const struct need_file *p,
			 struct ambient_guard *g, char *why, size_t len)
{
	const struct need_file *f;
	char reason[400];
	int fd, ok = 0;

	if (p->path == NULL)
		return refuse(why, len, p->comm,
			      "the file this process ran is not known (its "
			      "record was lost)");
	f = granted(sg, p);
	if (f == NULL && is_interpreter(p->path))
		return refuse(why, len, p->path,
			      "it is an interpreter that is not a file of the "
			      "grant: the scripts it runs would hold it");
	if (f == NULL)
		return refuse(why, len, p->path,
			      "it is not a file of the grant: it would hold "
			      "the grant in that run alone, and what it loads "
			      "or runs may be its user's");
	fd = f->fd >= 0 ? f->fd
			: trial_open_file(p->path, p->maj, p->min, p->ino,
					  reason, sizeof(reason));
	if (fd < 0)
		return refuse(why, len, p->path, reason);
	if (!trial_libraries_allowed(p, reason, sizeof(reason)))
		refuse(why, len, p->path, reason);
	else if (add_loader(g, p, fd, why, len) &&
		 keep_libraries(sg, p, g, why, len))
		ok = 1;
	else if (why[0] == '\0')
		snprintf(why, len, "%s", strerror(errno));
	if (f->fd < 0)
		close(fd);
	return ok;
}

/*
 * A loader is a copy's target (its path opens the copy in the run, not
 * the file kept): out of keep, whichever program loaded it.
 */
static void drop_loaders_kept(struct ambient_guard *g)
{
	size_t i, j, n = 0;

	for (i = 0; i < g->nkeep; i++) {
		int loader = 0;

		for (j = 0; j < g->nloaders && !loader; j++)
			loader = strcmp(g->loaders[j].target,
					g->keep[i].path) == 0;
		if (!loader)
			g->keep[n++] = g->keep[i];
	}
	g->nkeep = n;
}

int ambient_guard_make(const struct suggestion *sg, const char *command,
		       struct ambient_guard *g, char *why, size_t len)
{
	struct exec_target et;
	char real[PATH_MAX];
	size_t i;
	int fd;

	memset(g, 0, sizeof(*g));
	why[0] = '\0';
	if (syscall(SYS_landlock_create_ruleset, NULL, 0,
		    LANDLOCK_CREATE_RULESET_VERSION) < 1) {
		snprintf(
			why, len,
			"Landlock, which keeps that run to the programs seen, is not there (%s)",
			strerror(errno));
		return 0;
	}
	if (!noexec_possible()) {
		snprintf(
			why, len,
			"the kernel cannot make its mounts noexec, which keeps it from mapping other files (mount_setattr: %s)",
			strerror(errno));
		return 0;
	}
	for (i = 0; i < sg->nprograms; i++)
		if (!check_program(sg, &sg->programs[i], g, why, len))
			goto refused;
	drop_loaders_kept(g);
	/*
	 * A script command is executed by its path (the kernel then maps
	 * its interpreter, a program above): its way was checked to be
	 * root's alone by the trials (trial_command_allowed()).
	 */
	fd = open(command, O_PATH | O_CLOEXEC);
	if (fd >= 0 && exec_target_inspect(fd, &et) == 0 &&
	    et.kind == EXEC_TARGET_SCRIPT &&
	    (add_path(g, command) < 0 || realpath(command, real) == NULL ||
	     add_keep(g, real) < 0)) {
		snprintf(why, len, "%s", strerror(errno));
		close(fd);
		goto refused;
	}
	if (fd >= 0)
		close(fd);
	return 1;
refused:
	ambient_guard_free(g);
	return 0;
}

/* One Landlock rule: the file at path, execute. -1 with errno. */
static int allow_exec(int ruleset, const char *path)
{
	struct landlock_path_beneath_attr pb = {
		.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE,
	};
	int rc, saved;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return -1;
	rc = (int)syscall(SYS_landlock_add_rule, ruleset,
			  LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	saved = errno;
	close(pb.parent_fd);
	errno = saved;
	return rc;
}

#define FAIL(what)              \
	do {                    \
		*step = (what); \
		return -1;      \
	} while (0)

int ambient_confine(const struct grant_plan *p, const char **step)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE,
	};
	int ruleset;
	size_t i;

	if (!p->confine)
		return 0;
	/*
	 * After the binds (a file's path opens its copy) and after the
	 * namespace's /proc is mounted: a process Landlock confines may
	 * mount nothing more.
	 */
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
			       0);
	if (ruleset < 0)
		FAIL("making the Landlock rules of the ambient run");
	for (i = 0; i < p->n; i++)
		if (allow_exec(ruleset, p->files[i].target) < 0)
			FAIL("letting the ambient run execute a file of its plan");
	for (i = 0; i < p->npaths; i++)
		if (allow_exec(ruleset, p->paths[i]) < 0)
			FAIL("letting the ambient run execute a program it ran");
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		FAIL("confining the ambient run with Landlock");
	close(ruleset);
	return 0;
}
