/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The trials --suggest makes, for real (struct trial_ops, whose user is
 * capaudit_verdict.c): whether this capaudit can make them (root, not
 * file capabilities), whether the command may be run by them, a plan
 * whose copies carry each trial's grant, capaudit as the subreaper of
 * what a trial leaves, and each trial launched under the tracer.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capaudit_ambient.h"
#include "capaudit_container.h"
#include "capaudit_launch.h"
#include "capaudit_prove.h"
#include "capaudit_reap.h"
#include "capaudit_runner.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_trial.h"
#include "capaudit_verdict.h"
#include "escape.h"
#include "why.h"

/*
 * One run launched as l says: every file of sg, a copy with grant[i],
 * bound over it, and each of extra[0..nextra) as it says.
 */
static int run_launch(struct trials *tr, struct launch *l,
		      struct suggestion *sg, const uint64_t *grant,
		      const struct grant_file *extra, size_t nextra,
		      struct run_result *rr, struct tally *t)
{
	struct grant_file *files;
	char why[512];
	size_t i;
	int rc;

	if (launch_stop) {
		snprintf(sg->unproven, sizeof(sg->unproven), "interrupted");
		return -1;
	}
	if (plan_dir_make(&tr->plan, why, sizeof(why)) < 0) {
		why_say(sg->unproven, sizeof(sg->unproven),
			"a directory for the trial's copies: %s", why);
		return -1;
	}
	files = reallocarray(tr->plan.files, sg->nfiles + nextra + 1,
			     sizeof(*files));
	if (files == NULL) {
		snprintf(sg->unproven, sizeof(sg->unproven), "%s",
			 strerror(ENOMEM));
		return -1;
	}
	tr->plan.files = files;
	tr->plan.n = sg->nfiles + nextra;
	for (i = 0; i < nextra; i++) {
		files[sg->nfiles + i] = extra[i];
		snprintf(files[sg->nfiles + i].copy,
			 sizeof(files[sg->nfiles + i].copy), "%s/%zu",
			 tr->plan.dir, sg->nfiles + i);
	}
	for (i = 0; i < sg->nfiles; i++) {
		struct need_file *f = &sg->files[i];
		struct stat st;

		if (f->fd < 0 && f->path != NULL)
			f->fd = trial_open_file(f->path, f->maj, f->min, f->ino,
						why, sizeof(why));
		/* Before every trial: a later run may have loaded more. */
		if (f->fd >= 0 &&
		    !trial_libraries_allowed(f, why, sizeof(why))) {
			close(f->fd);
			f->fd = -1;
		}
		if (f->fd < 0) {
			char *shown =
				escape_dup(f->path != NULL ? f->path : f->comm);

			why_say(sg->unproven, sizeof(sg->unproven),
				"no trial can grant %s: %s",
				shown != NULL ? shown : "a file",
				f->path != NULL ? why : f->why);
			free(shown);
			return -1;
		}
		/*
		 * The child checks the path against stat(2)'s numbers, not
		 * the record's: on overlayfs and btrfs the two differ.
		 */
		if (fstat(f->fd, &st) < 0) {
			snprintf(sg->unproven, sizeof(sg->unproven), "%s",
				 strerror(errno));
			return -1;
		}
		memset(&files[i], 0, sizeof(files[i]));
		files[i].src_fd = f->fd;
		snprintf(files[i].target, sizeof(files[i].target), "%s",
			 f->path);
		files[i].dev = st.st_dev;
		files[i].ino = st.st_ino;
		snprintf(files[i].copy, sizeof(files[i].copy), "%s/%zu",
			 tr->plan.dir, i);
		files[i].xattr_len = filecap_encode(grant[i], files[i].xattr);
	}
	l->plan = &tr->plan;
	rc = launch_run(l, tr->src, t, rr);
	plan_dir_drop(&tr->plan);
	if (rc != 0) {
		snprintf(sg->unproven, sizeof(sg->unproven),
			 "a trial run failed (capaudit said why above)");
		return -1;
	}
	return trial_judge(sg, rr, t, l->limit);
}

/* One trial run: every file of sg, a copy with grant[i], bound over it. */
static int run_trial(void *ctx, struct suggestion *sg, const uint64_t *grant,
		     struct run_result *rr, struct tally *t)
{
	struct trials *tr = ctx;
	struct launch l = tr->launch;

	return run_launch(tr, &l, sg, grant, NULL, 0, rr, t);
}

/*
 * A run in a container's sets: the copies carry grant (the files' own
 * grant, or nothing), and the launcher, after --user's ids, makes cs's
 * bounding, inheritable and ambient sets (in place of --iab: the
 * container decides them), with no_new_privs as cs says. uid 0 runs as
 * root does in a container, without SECBIT_NOROOT: its execve gives it
 * the bounding set, as it gives a container's root. Ambient
 * capabilities for another user reach every program the command runs:
 * that run is kept to the programs the runs before it ran, each of them
 * root's, and its loaders made harmless (capaudit_ambient.c), or it is
 * not made.
 */
/* Whether path is one of the loaders the run put in place (g). */
static int is_guard_loader(const struct ambient_guard *g, const char *path)
{
	size_t k;

	for (k = 0; path != NULL && k < g->nloaders; k++)
		if (strcmp(path, g->loaders[k].target) == 0)
			return 1;
	return 0;
}

/*
 * Whether every library each process of run t loaded, but the loaders
 * the run put in place itself (nor what a loader run as a program
 * maps: its empty file capability left it nothing), is still root's
 * alone, as the trials
 * require of a file they grant: 1, or 0 with why. A container's run
 * differs from the trials in what it may load: a program holding
 * ambient capabilities runs without the secure mode (AT_SECURE) a file
 * capability gives, so a library that reads its user's configuration
 * only outside that mode (a PKCS#11 module list, say) may load its
 * user's code there first. That code ran in this run, as a library
 * loaded late runs in the trial that first loads it; a proof made of
 * it would vouch for code its user decides.
 */
static int run_libraries_allowed(const struct tally *t,
				 const struct ambient_guard *g, char *why,
				 size_t len)
{
	char reason[400], *shown;
	struct need_file f;
	size_t i, j;
	int ok = 1;

	for (i = 0; i < t->nimages && ok; i++) {
		const struct exec_image *im = &t->images[i];

		if (is_guard_loader(g, im->file))
			continue;
		memset(&f, 0, sizeof(f));
		f.fd = -1;
		f.libs = calloc(im->nlibs ? im->nlibs : 1, sizeof(*f.libs));
		if (f.libs == NULL) {
			snprintf(why, len, "%s", strerror(errno));
			return 0;
		}
		for (j = 0; j < im->nlibs; j++) {
			const struct mapped_file *m = &t->maps[im->libs[j]];

			if (!is_guard_loader(g, m->path))
				f.libs[f.nlibs++] = *m;
		}
		if (!trial_libraries_allowed(&f, reason, sizeof(reason))) {
			shown = escape_dup(im->file != NULL ? im->file
							    : im->comm);
			why_say(why, len, "%s: %s",
				shown != NULL ? shown : "a program", reason);
			free(shown);
			ok = 0;
		}
		free(f.libs);
	}
	return ok;
}

static int run_contained(void *ctx, struct suggestion *sg,
			 const uint64_t *grant, const struct container_sets *cs,
			 struct run_result *rr, struct tally *t)
{
	struct trials *tr = ctx;
	struct launch l = tr->launch;
	struct ambient_guard guard = { 0 };
	int noroot = tr->plan.noroot, rc;
	char why[400];

	if (cs->ambient != 0 &&
	    !ambient_guard_make(sg, l.path, &guard, why, sizeof(why))) {
		why_say(sg->unproven, sizeof(sg->unproven),
			"run %d, which would give every program the command "
			"starts the grant, was not made: %s",
			sg->runs, why);
		return -1;
	}
	l.iab = container_iab(cs);
	if (l.iab == NULL) {
		snprintf(sg->unproven, sizeof(sg->unproven),
			 "the container's sets as an IAB: %s", strerror(errno));
		ambient_guard_free(&guard);
		return -1;
	}
	tr->plan.noroot = 0;
	tr->plan.no_new_privs = cs->no_new_privs;
	tr->plan.confine = cs->ambient != 0;
	tr->plan.paths = guard.paths;
	tr->plan.npaths = guard.npaths;
	tr->plan.keep = guard.keep;
	tr->plan.nkeep = guard.nkeep;
	rc = run_launch(tr, &l, sg, grant, guard.loaders, guard.nloaders, rr,
			t);
	if (rc == 0 && !run_libraries_allowed(t, &guard, why, sizeof(why))) {
		why_say(sg->unproven, sizeof(sg->unproven),
			"run %d, in these sets, ran what its user may change: %s",
			sg->runs, why);
		tally_free(t);
		rc = -1;
	}
	tr->plan.noroot = noroot;
	tr->plan.no_new_privs = tr->plan.confine = 0;
	tr->plan.paths = NULL;
	tr->plan.npaths = 0;
	tr->plan.keep = NULL;
	tr->plan.nkeep = 0;
	cap_free(l.iab);
	ambient_guard_free(&guard);
	return rc;
}

static int possible(void *ctx, char *why, size_t len)
{
	(void)ctx;
	return trials_possible(why, len);
}

static int command_allowed(void *ctx, const char *path, char *why, size_t len)
{
	(void)ctx;
	return trial_command_allowed(path, why, len);
}

static int begin(void *ctx, double limit, int noroot, char *why, size_t len)
{
	struct trials *tr = ctx;

	if (plan_init(&tr->plan) < 0) {
		snprintf(why, len, "/dev/null for the trials: %s",
			 strerror(errno));
		return -1;
	}
	tr->plan.quiet = 1;
	tr->plan.noroot = noroot;
	tr->launch.limit = limit;
	/* What a trial leaves running is handed to capaudit, which ends it. */
	if (trial_reaper(1) < 0) {
		snprintf(
			why, len,
			"capaudit cannot end what a trial leaves running (PR_SET_CHILD_SUBREAPER: %s)",
			strerror(errno));
		plan_release(&tr->plan);
		return -1;
	}
	if (isatty(STDERR_FILENO))
		warnx("proving the grant: running the command again, at most %d times",
		      TRIALS_MAX);
	return 0;
}

static void end(void *ctx)
{
	struct trials *tr = ctx;

	trial_reaper(0);
	plan_release(&tr->plan);
}

void trials_ops_init(struct trial_ops *ops, struct trials *tr,
		     const struct launch *l, const struct source *src)
{
	memset(tr, 0, sizeof(*tr));
	tr->launch = *l;
	tr->src = src;
	ops->possible = possible;
	ops->command_allowed = command_allowed;
	ops->begin = begin;
	ops->run = run_trial;
	ops->end = end;
	ops->run_contained = run_contained;
	ops->ctx = tr;
}
