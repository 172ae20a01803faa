/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all --json: one object per process (see getpcaps(8) for the
 * fields). Names and command lines belong to whoever runs the process:
 * common/json.h quotes them, and keeps bytes that are not UTF-8 in hex.
 */
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

#include "getpcaps.h"
#include "json.h"
#include "names.h"
#include "risk.h"

static void put_bool_or_null(const char *key, int value)
{
	printf(",\"%s\":%s", key,
	       value < 0 ? "null"
	       : value	 ? "true"
			 : "false");
}

/* "user":"alice" (and "user_hex" when not UTF-8), or "user":null. */
static void put_user(struct user_cache *uc, uid_t uid)
{
	const char *name = user_name(uc, uid);

	if (name != NULL)
		json_path(stdout, "user", name);
	else
		fputs("\"user\":null", stdout);
}

/*
 * The sets of c, the ambient set and the IAB text null when the ambient
 * set is unknown.
 */
static void put_sets(struct user_cache *uc, const struct scan *s,
		     const struct creds *c)
{
	const char *text = caps_text(uc, c);

	printf(",\"text\":");
	json_string(stdout, text != NULL ? text : "");
	printf(",\"iab\":");
	if (c->amb_known) {
		text = iab_text(uc, s, c);
		json_string(stdout, text != NULL ? text : "");
	} else {
		fputs("null", stdout);
	}
	putchar(',');
	json_vector(stdout, "effective", c->eff);
	putchar(',');
	json_vector(stdout, "permitted", c->prm);
	putchar(',');
	json_vector(stdout, "inheritable", c->inh);
	putchar(',');
	if (c->amb_known)
		json_vector(stdout, "ambient", c->amb);
	else
		fputs("\"ambient\":null", stdout);
	putchar(',');
	json_vector(stdout, "bounding", c->bnd);
}

/* "thread_sets":[{"tids":[..],"threads":n,"uid":..,...},...] */
static void put_thread_sets(struct user_cache *uc, const struct scan *s,
			    const struct proc *p)
{
	size_t i, t;

	printf(",\"thread_sets\":[");
	for (i = 0; i < p->nsets; i++) {
		const struct thread_set *set = &p->sets[i];
		const uid_t *u = set->c.uid;

		printf("%s{\"tids\":[", i ? "," : "");
		for (t = 0; t < set->count && t < THREAD_TIDS_MOST; t++)
			printf("%s%d", t ? "," : "", (int)set->tids[t]);
		printf("],\"threads\":%zu,\"main\":%s,\"uid\":%u,\"ruid\":%u,\"suid\":%u,\"fsuid\":%u,",
		       set->count, !p->main_exited && i == 0 ? "true" : "false",
		       (unsigned)u[1], (unsigned)u[0], (unsigned)u[2],
		       (unsigned)u[3]);
		put_user(uc, u[1]);
		put_bool_or_null("no_new_privs", set->c.nnp);
		put_sets(uc, s, &set->c);
		putchar('}');
	}
	printf("],\"threads_untold\":%zu", p->threads_untold);
}

/* "cmdline":[...] (and "cmdline_hex":[...] when some word is not UTF-8) */
static void put_cmdline(const struct proc *p)
{
	int all_utf8 = 1;
	size_t i;

	printf(",\"cmdline\":[");
	for (i = 0; p->cmdline != NULL && i < p->cmdline_len;
	     i += strlen(p->cmdline + i) + 1) {
		if (i > 0)
			putchar(',');
		json_string(stdout, p->cmdline + i);
		all_utf8 = all_utf8 && json_is_utf8(p->cmdline + i);
	}
	putchar(']');
	if (all_utf8)
		return;
	printf(",\"cmdline_hex\":[");
	for (i = 0; i < p->cmdline_len; i += strlen(p->cmdline + i) + 1) {
		const unsigned char *b = (const unsigned char *)p->cmdline + i;

		printf("%s\"", i > 0 ? "," : "");
		for (; *b != '\0'; b++)
			printf("%02x", *b);
		putchar('"');
	}
	putchar(']');
}

void json_process(struct scan *s, const struct proc *p,
		  const struct print_opts *o, struct user_cache *uc, int depth)
{
	cap_value_t worst;
	int tier = risk_of(&p->c, &worst), first = 1;
	size_t i;

	json_object_open(stdout, "process");
	printf("\"pid\":%d,\"ppid\":%d,\"uid\":%u,\"ruid\":%u,", (int)p->pid,
	       (int)p->ppid, (unsigned)p->c.uid[1], (unsigned)p->c.uid[0]);
	put_user(uc, p->c.uid[1]);
	putchar(',');
	json_path(stdout, "comm", p->comm);
	put_bool_or_null("tty", p->tty);
	put_bool_or_null("no_new_privs", p->c.nnp);
	put_sets(uc, s, &p->c);
	printf(",\"risk\":");
	if (tier < 0) {
		printf("null,\"risk_cap\":null");
	} else {
		char cap[64];

		json_string(stdout, risk_tier_name((enum risk_tier)tier));
		printf(",\"risk_cap\":");
		json_string(stdout, names_cap(worst, cap, sizeof(cap)));
	}
	printf(",\"exe_writable\":%s,\"flags\":[",
	       p->exe_state == EXE_WRITABLE    ? "true"
	       : p->exe_state == EXE_UNCHECKED ? "null"
					       : "false");
	for (i = 0; i < nflags; i++) {
		if (!(p->flags & flag_text[i].flag))
			continue;
		printf("%s\"%s\"", first ? "" : ",", flag_text[i].key);
		first = 0;
	}
	printf("],\"threads\":%zu", p->threads);
	put_bool_or_null("main_thread_exited", p->main_exited);
	if (p->flags & FLAG_THREADS_DIFFER)
		put_thread_sets(uc, s, p);
	if (o->tree)
		printf(",\"depth\":%d,\"context\":%s", depth,
		       p->shown ? "false" : "true");
	if (o->verbose) {
		put_cmdline(p);
		printf(",%s", p->cmdline_cut ? "\"cmdline_cut\":true," : "");
		if (p->exe != NULL)
			json_path(stdout, "exe", p->exe);
		else
			printf("\"exe\":null");
	}
	printf("}\n");
}
