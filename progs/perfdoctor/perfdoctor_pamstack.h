/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor: a PAM service's auth stack, flattened the way libpam reads it. */
#ifndef PERFDOCTOR_PAMSTACK_H
#define PERFDOCTOR_PAMSTACK_H

/* libpam's own limit is 16 nested files; deeper is an error for it too. */
#define PAMSTACK_MAX_DEPTH	16
#define PAMSTACK_MAX_ENTRIES	512

/* One auth line of the flattened stack. */
struct pam_entry {
	char where[300];	/* file:line */
	int level;		/* substack depth */
	int frame;		/* the substack this line belongs to */
	int marker;		/* the line that opens a substack */
	int may_end;		/* sufficient, or an action "done" */
	int jump;		/* the largest [value=N] jump, 0 for none */
	int pam_cap;
	int keepcaps, defer;
	char config[4096];
	char fallback[512];	/* default= */
	char module[4096];
};

struct pam_stack {
	const char *dir;	/* relative file names are looked up here */
	struct pam_entry *e;	/* PAMSTACK_MAX_ENTRIES of them */
	int n;
	int frames;
	int parent[PAMSTACK_MAX_ENTRIES + 1];	/* frame -> enclosing frame */
	char error[600];	/* set: the stack could not be read */
};

/*
 * Appends the auth lines of file name (absolute, or relative to s->dir)
 * and of everything it includes to s; a problem sets s->error (the stack
 * is then unknown).
 */
void pam_stack_read(struct pam_stack *s, const char *name);

/* Can line j keep the stack from reaching line k (k > j)? */
int pam_stack_may_skip(const struct pam_stack *s, int j, int k);

#endif
