/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all's output: a table, a process tree (--tree) or one JSON
 * object per line (--json), then a closing count of what was left out.
 * Command names, command lines and user names belong to whoever runs the
 * process, so text output escapes them (escape.h) and JSON quotes them.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "json.h"
#include "risk.h"
#include "escape.h"
#include "getpcaps.h"
#include "mask.h"

const char *user_name(struct user_cache *uc, uid_t uid)
{
	struct user *more;
	struct passwd *pw;
	size_t i;

	for (i = 0; i < uc->n; i++)
		if (uc->users[i].uid == uid)
			return uc->users[i].name;
	more = realloc(uc->users, (uc->n + 1) * sizeof(*more));
	if (more == NULL)
		return NULL;
	uc->users = more;
	pw = getpwuid(uid);
	more[uc->n].uid = uid;
	more[uc->n].name = pw != NULL ? strdup(pw->pw_name) : NULL;
	return more[uc->n++].name;
}

void user_cache_free(struct user_cache *uc)
{
	size_t i;

	for (i = 0; i < uc->n; i++)
		free(uc->users[i].name);
	free(uc->users);
	cap_free(uc->caps);
	cap_free(uc->iab);
}

const char *caps_text(struct user_cache *uc, const struct creds *c)
{
	static const cap_flag_t flags[] = { CAP_EFFECTIVE, CAP_PERMITTED,
					    CAP_INHERITABLE };
	const uint64_t masks[] = { c->eff, c->prm, c->inh };
	cap_t caps;
	cap_value_t cap;
	size_t f;

	if (uc->caps != NULL && memcmp(uc->caps_key, masks, sizeof(masks)) == 0)
		return uc->caps;
	cap_free(uc->caps);
	uc->caps = NULL;
	caps = cap_init();
	if (caps == NULL)
		return NULL;
	for (f = 0; f < 3; f++)
		for (MASK_EACH(cap, masks[f]))
			cap_set_flag(caps, flags[f], 1, &cap, CAP_SET);
	uc->caps = cap_to_text(caps, NULL);
	memcpy(uc->caps_key, masks, sizeof(masks));
	cap_free(caps);
	return uc->caps;
}

const char *iab_text(struct user_cache *uc, const struct scan *s,
		     const struct creds *c)
{
	const uint64_t key[3] = { c->inh, c->amb, c->bnd };
	cap_iab_t iab;
	cap_value_t cap;

	if (uc->iab != NULL && memcmp(uc->iab_key, key, sizeof(key)) == 0)
		return uc->iab;
	cap_free(uc->iab);
	uc->iab = NULL;
	iab = cap_iab_init();
	if (iab == NULL)
		return NULL;
	for (MASK_EACH(cap, c->inh))
		cap_iab_set_vector(iab, CAP_IAB_INH, cap, CAP_SET);
	for (MASK_EACH(cap, c->amb))
		cap_iab_set_vector(iab, CAP_IAB_AMB, cap, CAP_SET);
	for (MASK_EACH(cap, s->full & ~c->bnd))
		cap_iab_set_vector(iab, CAP_IAB_BOUND, cap, CAP_SET);
	uc->iab = cap_iab_to_text(iab);
	memcpy(uc->iab_key, key, sizeof(key));
	cap_free(iab);
	return uc->iab;
}

/*
 * Ambient raised (or unknown) or bounding reduced: what getpcaps --iab
 * would show.
 */
static int iab_interesting(const struct scan *s, const struct creds *c)
{
	return c->amb != 0 || !c->amb_known || (c->bnd & s->full) != s->full;
}

int risk_of(const struct creds *c, cap_value_t *worst)
{
	/* A uid 0 may take its bounding set back (creds_uid0()). */
	uint64_t held = c->prm | c->eff | c->amb | (creds_uid0(c) ? c->bnd : 0);
	int highest = -1;
	cap_value_t cap;

	*worst = -1;
	for (MASK_EACH(cap, held)) {
		int tier = (int)risk_tier_of(cap);

		if (tier > highest) {
			highest = tier;
			*worst = cap;
		}
	}
	return highest;
}

static const char *risk_name(const struct creds *c)
{
	cap_value_t worst;
	int tier = risk_of(c, &worst);

	return tier < 0 ? "-" : risk_tier_name((enum risk_tier)tier);
}

const struct flag_text flag_text[] = {
	{ FLAG_AMBIENT_SHELL, "ambient-shell",
	  "ambient capabilities in an interactive shell: every program started from it gets them" },
	{ FLAG_WRITABLE_EXE, "writable-exe",
	  "capabilities in a process whose user may rewrite its executable" },
	{ FLAG_NO_NNP_DAEMON, "no-new-privs-missing",
	  "capable daemon without no_new_privs: a set-user-ID or file-capability program it runs can gain more" },
	{ FLAG_THREADS_DIFFER, "threads-differ",
	  "its threads hold different credentials: the line above is all of them together, each set of threads follows" },
	{ FLAG_ROOT_REGAINS, "root-regains",
	  "a user id is 0 while the permitted set lacks part of the bounding set: root's files are its own, and with a real, effective or saved uid 0 an execve(2) gives the rest back (unless securebits, which /proc does not show, forbid it)" },
};

const size_t nflags = sizeof(flag_text) / sizeof(flag_text[0]);

/* The user column: the effective user's name, else its number. */
static void put_user(struct user_cache *uc, uid_t uid, int width)
{
	const char *name = user_name(uc, uid);
	char num[16];
	char *esc;

	if (name == NULL) {
		snprintf(num, sizeof(num), "%u", (unsigned)uid);
		name = num;
	}
	esc = escape_dup(name);
	printf("%-*s", width, esc != NULL ? esc : "?");
	free(esc);
}

static void put_escaped(const char *s, int width)
{
	char *esc = escape_dup(s);

	printf("%-*s", width, esc != NULL ? esc : "?");
	free(esc);
}

/*
 * "<text>" [<iab>], as getpcaps --iab prints them; an ambient set that is
 * unknown adds " ambient=?" (its known part, the inheritable and bounding
 * vectors, stays in the brackets).
 */
static void put_caps(struct user_cache *uc, const struct scan *s,
		     const struct creds *c, int iab)
{
	const char *text = caps_text(uc, c);

	printf("\"%s\"", text != NULL ? text : "?");
	if (iab || iab_interesting(s, c)) {
		text = iab_text(uc, s, c);
		printf(" [%s]", text != NULL ? text : "?");
	}
	if (!c->amb_known)
		printf(" ambient=?");
}

/* "1234", "1234,1240" or "1234,...,1240 and 9 more" */
static void put_tids(const struct thread_set *set)
{
	size_t i, listed = set->count < THREAD_TIDS_MOST ? set->count
							 : THREAD_TIDS_MOST;

	for (i = 0; i < listed; i++)
		printf("%s%d", i ? "," : "", (int)set->tids[i]);
	if (set->count > listed)
		printf(" and %zu more", set->count - listed);
}

/*
 * One line per set of threads with the same credentials, when they
 * differ: "thread 1234 (main): nobody uids 65534,65534,65534,65534 "=""
 */
static void put_thread_sets(struct user_cache *uc, const struct scan *s,
			    const struct proc *p, const char *indent, int iab)
{
	size_t i;

	if (!(p->flags & FLAG_THREADS_DIFFER))
		return;
	for (i = 0; i < p->nsets; i++) {
		const struct thread_set *set = &p->sets[i];
		const uid_t *u = set->c.uid;

		printf("%s%s ", indent, set->count > 1 ? "threads" : "thread");
		put_tids(set);
		if (!p->main_exited && i == 0)
			printf(" (main)");
		printf(": ");
		put_user(uc, u[1], 0);
		printf(" uids %u,%u,%u,%u ", (unsigned)u[0], (unsigned)u[1],
		       (unsigned)u[2], (unsigned)u[3]);
		put_caps(uc, s, &set->c, iab);
		putchar('\n');
	}
	if (p->threads_untold > 0)
		printf("%s%zu threads more, in credential sets past the first %d: not listed, counted above\n",
		       indent, p->threads_untold, THREAD_SETS_MOST);
}

/*
 * The lines under a process: its flags, what is unknown, its threads when
 * they differ, and with --verbose its command.
 */
static void put_details(struct user_cache *uc, const struct scan *s,
			const struct proc *p, const char *indent,
			const struct print_opts *o)
{
	size_t i;

	for (i = 0; i < nflags; i++)
		if (p->flags & flag_text[i].flag)
			printf("%s! %s: %s\n", indent, flag_text[i].key,
			       flag_text[i].text);
	if (!p->c.amb_known)
		printf("%s? ambient: unknown: its status has no CapAmb line (a kernel before 4.3?)\n",
		       indent);
	if (p->c.nnp < 0)
		printf("%s? no_new_privs: unknown: its status has no NoNewPrivs line (a kernel before 4.10?)\n",
		       indent);
	if (p->main_exited)
		printf("%s? main thread: exited; the process is its other threads\n",
		       indent);
	put_thread_sets(uc, s, p, indent, o->iab);
	if (!o->verbose)
		return;
	printf("%scommand: ", indent);
	for (i = 0; p->cmdline != NULL && i < p->cmdline_len;
	     i += strlen(p->cmdline + i) + 1) {
		if (i > 0)
			putchar(' ');
		escape_fputs(p->cmdline + i, stdout);
	}
	if (p->cmdline_cut)
		printf(" [cut at %d bytes]", CMDLINE_MOST);
	printf("\n%sexe: ", indent);
	escape_fputs(p->exe != NULL ? p->exe : "?", stdout);
	putchar('\n');
}

static void print_table(struct scan *s, const struct print_opts *o,
			struct user_cache *uc)
{
	size_t i;

	printf("%7s %7s %-12s %-16s %-19s %s\n", "PID", "PPID", "USER",
	       "COMMAND", "RISK", "CAPABILITIES");
	for (i = 0; i < s->n; i++) {
		const struct proc *p = &s->procs[i];

		if (!p->shown)
			continue;
		printf("%7d %7d ", (int)p->pid, (int)p->ppid);
		put_user(uc, p->c.uid[1], 12);
		putchar(' ');
		put_escaped(p->comm, 16);
		printf(" %-19s ", risk_name(&p->c));
		put_caps(uc, s, &p->c, o->iab);
		putchar('\n');
		put_details(uc, s, p, "        ", o);
	}
}

/*
 * Links every shown process to its ancestors (printed for context) and
 * breaks any loop in the parent links: pids recycled during the scan can
 * make two records each other's parent.
 */
static void build_tree(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct proc *p = &s->procs[i];

		p->up = scan_parent(s, p);
		p->child = p->sibling = NULL;
		p->mark = 0;
		p->needed = 0;
	}
	/* mark: 0 unseen, 1 on the current walk up, 2 done */
	for (i = 0; i < s->n; i++) {
		struct proc *p = &s->procs[i], *q, *cut;

		for (q = p; q != NULL && q->mark == 0; q = q->up)
			q->mark = 1;
		/* q on this walk: its ancestors led back to it */
		cut = q != NULL && q->mark == 1 ? q : NULL;
		/* every record of this walk done first, then the one cut */
		for (q = p; q != NULL && q->mark == 1; q = q->up)
			q->mark = 2;
		if (cut != NULL)
			cut->up = NULL;
	}
	for (i = 0; i < s->n; i++) {
		struct proc *q;

		if (!s->procs[i].shown)
			continue;
		for (q = &s->procs[i]; q != NULL && !q->needed; q = q->up)
			q->needed = 1;
	}
	/* backwards, so each list ends up in pid order */
	for (i = s->n; i-- > 0;) {
		struct proc *p = &s->procs[i];

		if (p->needed && p->up != NULL) {
			p->sibling = p->up->child;
			p->up->child = p;
		}
	}
}

static void tree_prefix(const char *last, int depth, int for_details, char *out)
{
	int d;

	out[0] = '\0';
	for (d = 1; d <= depth; d++) {
		if (d < depth || for_details)
			strcat(out, last[d] ? "   " : "|  ");
		else
			strcat(out, last[d] ? "`- " : "|- ");
	}
}

static void print_tree_node(struct scan *s, const struct proc *p,
			    const struct print_opts *o, struct user_cache *uc,
			    const char *last, int depth, char *prefix)
{
	if (o->json) {
		json_process(s, p, o, uc, depth);
		return;
	}
	tree_prefix(last, depth, 0, prefix);
	printf("%s%d ", prefix, (int)p->pid);
	escape_fputs(p->comm, stdout);
	printf(" (");
	put_user(uc, p->c.uid[1], 0);
	printf(") %s ", risk_name(&p->c));
	put_caps(uc, s, &p->c, o->iab);
	putchar('\n');
	tree_prefix(last, depth, 1, prefix);
	strcat(prefix, p->child != NULL ? "|     " : "      ");
	put_details(uc, s, p, prefix, o);
}

/* Depth-first without recursion: trees can be thousands of levels deep. */
static int print_tree(struct scan *s, const struct print_opts *o,
		      struct user_cache *uc)
{
	char *last = calloc(s->n + 2, 1);
	char *prefix = malloc(3 * (s->n + 2) + 8);
	size_t i;

	if (last == NULL || prefix == NULL) {
		free(last);
		free(prefix);
		return -1;
	}
	build_tree(s);
	for (i = 0; i < s->n; i++) {
		struct proc *p = &s->procs[i];
		int depth = 0;

		if (!p->needed || p->up != NULL)
			continue;
		for (;;) {
			print_tree_node(s, p, o, uc, last, depth, prefix);
			if (p->child != NULL) {
				p = p->child;
				depth++;
				last[depth] = p->sibling == NULL;
				continue;
			}
			while (depth > 0 && p->sibling == NULL) {
				p = p->up;
				depth--;
			}
			if (depth == 0)
				break;
			p = p->sibling;
			last[depth] = p->sibling == NULL;
		}
	}
	free(last);
	free(prefix);
	return 0;
}

int print_all(struct scan *s, const struct print_opts *o)
{
	struct user_cache uc;
	const struct scan_counts *c = &s->counts;
	size_t i, shown = 0;
	int status = 0;

	memset(&uc, 0, sizeof(uc));
	for (i = 0; i < s->n; i++)
		shown += s->procs[i].shown != 0;
	if (o->tree) {
		status = print_tree(s, o, &uc);
	} else if (o->json) {
		for (i = 0; i < s->n; i++)
			if (s->procs[i].shown)
				json_process(s, &s->procs[i], o, &uc, 0);
	} else {
		print_table(s, o, &uc);
	}
	if (o->json) {
		json_object_open(stdout, "summary");
		printf("\"listed\":%zu,\"examined\":%zu,\"shown\":%zu,\"kernel_threads\":%zu,\"zombies\":%zu,\"exited\":%zu,\"not_examined\":%zu,\"exe_unchecked\":%zu}\n",
		       c->listed, c->examined, shown, c->kernel_threads,
		       c->zombies, c->exited, c->not_examined,
		       c->exe_unchecked);
	} else {
		printf("summary: %zu processes examined, %zu shown; left out: %zu kernel threads, %zu zombies, %zu exited during the scan; %zu not examined\n",
		       c->examined, shown, c->kernel_threads, c->zombies,
		       c->exited, c->not_examined);
	}
	user_cache_free(&uc);
	return status;
}
