/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --suggest: the least grant, file by file (file capabilities do not
 * cross execve, so each file the command ran gets its own), from the
 * command's own checks; proven by trials (capaudit_prove.c) or said to
 * be unproven, its root-equivalent candidates then held apart. How it
 * is shown is capaudit_advice.c's (as text) and capaudit_json.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mask.h"
#include "risk.h"
#include "capaudit.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "escape.h"

#define BIT(c) MASK_BIT(c)

/*
 * Capabilities the kernel asks about on its own, whatever the program
 * does: cap_sys_admin for the overcommit reserve of every private
 * writable mapping (mm/util.c, __vm_enough_memory()), and as the
 * fallback of cap_perfmon, cap_bpf and cap_checkpoint_restore. A check
 * of one of them shows no need; a program that does need it (mount(2),
 * say) has to be told by hand.
 */
#define INCIDENTAL BIT(CAP_SYS_ADMIN)

/*
 * The entry of the file image ran among files[0..n), or -1. A file is
 * its device and inode; in a trial, a file of the suggestion is a copy
 * bound over its path, so there the path says which it stands for.
 */
static int find_in(const struct need_file *files, size_t n,
		   const struct exec_image *im, int by_path)
{
	const struct need_file *f;
	size_t i;

	for (i = 0; i < n; i++) {
		f = &files[i];
		if (im->file == NULL
			    ? f->path == NULL
			    : f->path != NULL &&
				      ((f->maj == im->maj &&
					f->min == im->min &&
					f->ino == im->ino) ||
				       (by_path &&
					strcmp(f->path, im->file) == 0)))
			return (int)i;
	}
	return -1;
}

static int file_find(const struct suggestion *sg, const struct exec_image *im,
		     int by_path)
{
	return find_in(sg->files, sg->nfiles, im, by_path);
}

/*
 * The entry of the file image ran in *files (*n of them, room for
 * *size), made if new; -1 (ENOMEM).
 */
static int entry_of(struct need_file **files, size_t *n, size_t *size,
		    const struct exec_image *im, int by_path)
{
	struct need_file *f;
	int found = find_in(*files, *n, im, by_path);

	if (found >= 0)
		return found;
	if (*n == *size) {
		size_t more = *size ? *size * 2 : 4;
		struct need_file *q = reallocarray(*files, more, sizeof(*q));

		if (q == NULL)
			return -1;
		*files = q;
		*size = more;
	}
	f = &(*files)[*n];
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->maj = im->maj;
	f->min = im->min;
	f->ino = im->ino;
	snprintf(f->comm, sizeof(f->comm), "%s", im->comm);
	if (im->file != NULL && (f->path = strdup(im->file)) == NULL)
		return -1;
	if (im->file == NULL) {
		/* A process names itself (prctl(PR_SET_NAME)): escaped. */
		char *shown = escape_dup(im->comm[0] ? im->comm : "a process");

		if (shown == NULL)
			return -1;
		snprintf(f->why, sizeof(f->why),
			 "the file %s ran is not known (its record was lost)",
			 shown);
		free(shown);
	}
	return (int)(*n)++;
}

static int file_of(struct suggestion *sg, const struct exec_image *im,
		   int by_path)
{
	return entry_of(&sg->files, &sg->nfiles, &sg->files_size, im, by_path);
}

/* What image loaded besides its file, into f, once each; -1 (ENOMEM). */
static int add_libraries(struct need_file *f, const struct tally *t,
			 const struct exec_image *im)
{
	size_t i, j;

	for (i = 0; i < im->nlibs; i++) {
		const struct mapped_file *m = &t->maps[im->libs[i]];
		struct mapped_file *q;

		for (j = 0; j < f->nlibs; j++)
			if (f->libs[j].maj == m->maj &&
			    f->libs[j].min == m->min &&
			    f->libs[j].ino == m->ino)
				break;
		if (j < f->nlibs)
			continue;
		q = reallocarray(f->libs, f->nlibs + 1, sizeof(*q));
		if (q == NULL)
			return -1;
		f->libs = q;
		q[f->nlibs] = *m;
		q[f->nlibs].path = strdup(m->path);
		if (q[f->nlibs].path == NULL)
			return -1;
		f->nlibs++;
	}
	return 0;
}

/* Every file t's processes executed, and what each loaded; -1 (ENOMEM). */
static int add_programs(struct suggestion *sg, const struct tally *t,
			int by_path)
{
	size_t i;
	int pi;

	for (i = 0; i < t->nimages; i++) {
		pi = entry_of(&sg->programs, &sg->nprograms, &sg->programs_size,
			      &t->images[i], by_path);
		if (pi < 0 ||
		    add_libraries(&sg->programs[pi], t, &t->images[i]) < 0) {
			errno = ENOMEM;
			return -1;
		}
	}
	return 0;
}

/* Own checks of t into the files; returns how many pairs are new, or -1. */
static int add_checks(struct suggestion *sg, const struct tally *t, int by_path)
{
	uint64_t before, after;
	size_t i;
	int added = 0, fi;

	if (add_programs(sg, t, by_path) < 0)
		return -1;

	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		struct need_file *f;

		if (r->cls != CLASS_OWN) {
			sg->not_own |= BIT(r->cap);
			continue;
		}
		if (BIT(r->cap) & INCIDENTAL) {
			sg->incidental |= BIT(r->cap);
			continue;
		}
		if (r->image < 0)
			continue;
		fi = file_of(sg, &t->images[r->image], by_path);
		if (fi < 0) {
			errno = ENOMEM;
			return -1;
		}
		f = &sg->files[fi];
		/* A trial's too: the next trial checks them before it runs. */
		if (add_libraries(f, t, &t->images[r->image]) < 0) {
			errno = ENOMEM;
			return -1;
		}
		before = f->candidates;
		if (r->granted)
			f->granted |= BIT(r->cap);
		if (r->refused)
			f->refused |= BIT(r->cap);
		f->candidates |= f->granted | f->refused;
		after = f->candidates;
		added += __builtin_popcountll(after & ~before);
	}
	return added;
}

int suggest_build(struct suggestion *sg, const struct tally *t,
		  const struct run_result *rr)
{
	size_t i;

	memset(sg, 0, sizeof(*sg));
	sg->first = rr->status;
	sg->failed = !rr->attached &&
		     (WIFSIGNALED(rr->status) || WEXITSTATUS(rr->status) != 0);
	if (add_checks(sg, t, 0) < 0)
		return -1;
	/* Checked only as not its own: those are left out, not candidates. */
	for (i = 0; i < sg->nfiles; i++)
		sg->not_own &= ~sg->files[i].candidates;
	sg->lent_guessed = t->lent_guessed & sg->not_own & ~INCIDENTAL;
	return 0;
}

int suggest_merge(struct suggestion *sg, const struct tally *t)
{
	return add_checks(sg, t, 1);
}

void suggest_asked(const struct suggestion *sg, const struct tally *t,
		   uint64_t *asked, unsigned char *seen)
{
	size_t i;
	int fi;

	memset(asked, 0, sg->nfiles * sizeof(*asked));
	if (seen != NULL) {
		memset(seen, 0, sg->nfiles);
		for (i = 0; i < t->nimages; i++)
			if ((fi = file_find(sg, &t->images[i], 1)) >= 0)
				seen[fi] = 1;
	}
	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];

		if (r->cls != CLASS_OWN || (BIT(r->cap) & INCIDENTAL) ||
		    r->image < 0)
			continue;
		fi = file_find(sg, &t->images[r->image], 1);
		if (fi >= 0)
			asked[fi] |= BIT(r->cap);
	}
}

void suggest_unproven(struct suggestion *sg, const char *why)
{
	size_t i;

	sg->proven = 0;
	if (why != sg->unproven)
		snprintf(sg->unproven, sizeof(sg->unproven), "%s", why);
	/*
	 * A granted check let something happen that would not have
	 * happened without it. A refused one matters only if the run
	 * failed: a run that succeeded did without it.
	 */
	sg->unused = 0;
	for (i = 0; i < sg->nfiles; i++) {
		struct need_file *f = &sg->files[i];
		uint64_t want = f->granted | (sg->failed ? f->refused : 0);

		/*
		 * Unproven, a root-equivalent candidate is no suggestion:
		 * ping asks for cap_setuid only to drop it. It is named
		 * apart, in no line meant to be pasted.
		 */
		f->apart = risk_root_mask(want);
		f->grant = want & ~f->apart;
		sg->unused |= f->refused & ~want;
	}
}

/* Every file's grant together, or (apart) what is held apart. */
uint64_t suggest_every_file(const struct suggestion *sg, int apart)
{
	uint64_t all = 0;
	size_t i;

	for (i = 0; i < sg->nfiles; i++)
		all |= apart ? sg->files[i].apart : sg->files[i].grant;
	return all;
}

/* Frees files[0..n) and what each holds. */
static void free_files(struct need_file *files, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		free(files[i].path);
		if (files[i].fd >= 0)
			close(files[i].fd);
		for (j = 0; j < files[i].nlibs; j++)
			free(files[i].libs[j].path);
		free(files[i].libs);
	}
	free(files);
}

void suggest_free(struct suggestion *sg)
{
	free_files(sg->files, sg->nfiles);
	free_files(sg->programs, sg->nprograms);
	free(sg->log);
	memset(sg, 0, sizeof(sg[0]));
}
