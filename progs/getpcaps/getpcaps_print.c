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

/*
 * uid -> name, looked up once per uid (NSS can be slow); and the last
 * capability and IAB texts, since most processes share their parent's.
 */
struct user_cache {
	struct user { uid_t uid; char *name; } *users;
	size_t n;
	uint64_t caps_key[3], iab_key[3];
	char *caps, *iab;
};

/* The user's name, or NULL when it has none; the cache owns it. */
static const char *user_name(struct user_cache *uc, uid_t uid)
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

static void user_cache_free(struct user_cache *uc)
{
	size_t i;

	for (i = 0; i < uc->n; i++)
		free(uc->users[i].name);
	free(uc->users);
	cap_free(uc->caps);
	cap_free(uc->iab);
}

/*
 * The process's E, P and I as libcap's text ("=ep", "cap_chown+p", ...);
 * the cache owns it. NULL: ENOMEM.
 */
static const char *caps_text(struct user_cache *uc, const struct proc *p)
{
	static const cap_flag_t flags[] = {
		CAP_EFFECTIVE, CAP_PERMITTED, CAP_INHERITABLE
	};
	const uint64_t masks[] = { p->eff, p->prm, p->inh };
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

/*
 * The IAB text: ^ marks an ambient capability, ! a dropped bounding one;
 * the cache owns it. NULL: ENOMEM.
 */
static const char *iab_text(struct user_cache *uc, const struct scan *s,
			    const struct proc *p)
{
	const uint64_t key[3] = { p->inh, p->amb, p->bnd };
	cap_iab_t iab;
	cap_value_t cap;

	if (uc->iab != NULL && memcmp(uc->iab_key, key, sizeof(key)) == 0)
		return uc->iab;
	cap_free(uc->iab);
	uc->iab = NULL;
	iab = cap_iab_init();
	if (iab == NULL)
		return NULL;
	for (MASK_EACH(cap, p->inh))
		cap_iab_set_vector(iab, CAP_IAB_INH, cap, CAP_SET);
	for (MASK_EACH(cap, p->amb))
		cap_iab_set_vector(iab, CAP_IAB_AMB, cap, CAP_SET);
	for (MASK_EACH(cap, s->full & ~p->bnd))
		cap_iab_set_vector(iab, CAP_IAB_BOUND, cap, CAP_SET);
	uc->iab = cap_iab_to_text(iab);
	memcpy(uc->iab_key, key, sizeof(key));
	cap_free(iab);
	return uc->iab;
}

/* Ambient raised or bounding reduced: what getpcaps --iab would show. */
static int iab_interesting(const struct scan *s, const struct proc *p)
{
	return p->amb != 0 || (p->bnd & s->full) != s->full;
}

/*
 * The highest risk tier among the capabilities the process may use
 * (permitted, effective, ambient), and the first capability in it; -1
 * when it holds none.
 */
static int risk_of(const struct proc *p, cap_value_t *worst)
{
	uint64_t held = p->prm | p->eff | p->amb;
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

static const char *risk_name(const struct proc *p)
{
	cap_value_t worst;
	int tier = risk_of(p, &worst);

	return tier < 0 ? "-" : risk_tier_name((enum risk_tier)tier);
}

static const struct {
	unsigned flag;
	const char *key;	/* JSON */
	const char *text;
} flag_text[] = {
	{ FLAG_AMBIENT_SHELL, "ambient-shell",
	  "ambient capabilities in an interactive shell: every program"
	  " started from it gets them" },
	{ FLAG_WRITABLE_EXE, "writable-exe",
	  "capabilities in a process whose user may rewrite its executable" },
	{ FLAG_NO_NNP_DAEMON, "no-new-privs-missing",
	  "capable daemon without no_new_privs: a set-user-ID or"
	  " file-capability program it runs can gain more" },
};

#define NFLAGS (sizeof(flag_text) / sizeof(flag_text[0]))

/* The user column: the effective user's name, else its number. */
static void put_user(struct user_cache *uc, const struct proc *p, int width)
{
	const char *name = user_name(uc, p->uid[1]);
	char num[16];
	char *esc;

	if (name == NULL) {
		snprintf(num, sizeof(num), "%u", (unsigned)p->uid[1]);
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

/* "<text>" [<iab>], as getpcaps --iab prints them. */
static void put_caps(struct user_cache *uc, const struct scan *s,
		     const struct proc *p, int iab)
{
	const char *text = caps_text(uc, p);

	printf("\"%s\"", text != NULL ? text : "?");
	if (iab || iab_interesting(s, p)) {
		text = iab_text(uc, s, p);
		printf(" [%s]", text != NULL ? text : "?");
	}
}

/* The lines under a process: its flags, and with --verbose its command. */
static void put_details(const struct proc *p, const char *indent, int verbose)
{
	size_t i;

	for (i = 0; i < NFLAGS; i++)
		if (p->flags & flag_text[i].flag)
			printf("%s! %s: %s\n", indent, flag_text[i].key,
			       flag_text[i].text);
	if (!verbose)
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
		put_user(uc, p, 12);
		putchar(' ');
		put_escaped(p->comm, 16);
		printf(" %-19s ", risk_name(p));
		put_caps(uc, s, p, o->iab);
		putchar('\n');
		put_details(p, "        ", o->verbose);
	}
}

static void json_process(struct scan *s, const struct proc *p,
			 const struct print_opts *o, struct user_cache *uc,
			 int depth)
{
	const char *name = user_name(uc, p->uid[1]);
	cap_value_t worst;
	int tier = risk_of(p, &worst), first = 1;
	const char *text;
	size_t i;

	printf("{\"schema\":%d,\"type\":\"process\",\"pid\":%d,\"ppid\":%d,"
	       "\"uid\":%u,\"ruid\":%u,\"user\":", JSON_SCHEMA,
	       (int)p->pid, (int)p->ppid, (unsigned)p->uid[1],
	       (unsigned)p->uid[0]);
	if (name != NULL)
		json_string(stdout, name);
	else
		fputs("null", stdout);
	putchar(',');
	json_path(stdout, "comm", p->comm);
	printf(",\"tty\":%s,\"no_new_privs\":%s,\"text\":",
	       p->tty ? "true" : "false", p->nnp ? "true" : "false");
	text = caps_text(uc, p);
	json_string(stdout, text != NULL ? text : "");
	printf(",\"iab\":");
	text = iab_text(uc, s, p);
	json_string(stdout, text != NULL ? text : "");
	putchar(',');
	json_vector(stdout, "effective", p->eff);
	putchar(',');
	json_vector(stdout, "permitted", p->prm);
	putchar(',');
	json_vector(stdout, "inheritable", p->inh);
	putchar(',');
	json_vector(stdout, "ambient", p->amb);
	putchar(',');
	json_vector(stdout, "bounding", p->bnd);
	printf(",\"risk\":");
	if (tier < 0) {
		printf("null,\"risk_cap\":null");
	} else {
		char *cap = cap_to_name(worst);

		json_string(stdout, risk_tier_name((enum risk_tier)tier));
		printf(",\"risk_cap\":");
		json_string(stdout, cap != NULL ? cap : "?");
		cap_free(cap);
	}
	printf(",\"exe_writable\":%s,\"flags\":[",
	       p->exe_state == EXE_WRITABLE ? "true" :
	       p->exe_state == EXE_UNCHECKED ? "null" : "false");
	for (i = 0; i < NFLAGS; i++) {
		if (!(p->flags & flag_text[i].flag))
			continue;
		printf("%s\"%s\"", first ? "" : ",", flag_text[i].key);
		first = 0;
	}
	putchar(']');
	if (o->tree)
		printf(",\"depth\":%d,\"context\":%s", depth,
		       p->shown ? "false" : "true");
	if (o->verbose) {
		printf(",\"cmdline\":[");
		for (i = 0; p->cmdline != NULL && i < p->cmdline_len;
		     i += strlen(p->cmdline + i) + 1) {
			if (i > 0)
				putchar(',');
			json_string(stdout, p->cmdline + i);
		}
		printf("],%s", p->cmdline_cut ? "\"cmdline_cut\":true," : "");
		if (p->exe != NULL)
			json_path(stdout, "exe", p->exe);
		else
			printf("\"exe\":null");
	}
	printf("}\n");
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

static void tree_prefix(const char *last, int depth, int for_details,
			char *out)
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
	put_user(uc, p, 0);
	printf(") %s ", risk_name(p));
	put_caps(uc, s, p, o->iab);
	putchar('\n');
	tree_prefix(last, depth, 1, prefix);
	strcat(prefix, p->child != NULL ? "|     " : "      ");
	put_details(p, prefix, o->verbose);
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
	if (o->json)
		printf("{\"schema\":%d,\"type\":\"summary\",\"listed\":%zu,"
		       "\"examined\":%zu,\"shown\":%zu,\"kernel_threads\":%zu,"
		       "\"zombies\":%zu,\"exited\":%zu,\"not_examined\":%zu,"
		       "\"exe_unchecked\":%zu}\n", JSON_SCHEMA, c->listed,
		       c->examined, shown, c->kernel_threads, c->zombies,
		       c->exited, c->not_examined, c->exe_unchecked);
	else
		printf("summary: %zu processes examined, %zu shown; left out:"
		       " %zu kernel threads, %zu zombies, %zu exited during"
		       " the scan; %zu not examined\n", c->examined, shown,
		       c->kernel_threads, c->zombies, c->exited,
		       c->not_examined);
	user_cache_free(&uc);
	return status;
}
