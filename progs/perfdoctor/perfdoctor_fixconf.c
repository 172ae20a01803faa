/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's fixes for pam_cap's grant: capability.conf made readable to
 * pam_cap (not world-writable), a line for the user above the one that
 * decides now (or the user's grant moved above a '*'), pam_cap added to
 * the stack. capability.conf lines are checked to mean there what they
 * say (one name, no blank in it, no '@' or '*' that would make it a
 * group or everybody). Each is printed only when pam_cap will read the
 * file to the end and its grant reaches the session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capconf.h"
#include "escape.h"
#include "mask.h"
#include "perf.h"
#include "perfdoctor.h"

/*
 * Why capability.conf cannot name user on a line of its own (it splits
 * lines at blanks, "@" starts a group, "*" is everybody), or NULL.
 */
static const char *conf_name_problem(const char *name)
{
	if (name[0] == '\0')
		return "it is empty";
	if (strpbrk(name, " \t") != NULL)
		return "a blank separates names there";
	if (name[0] == '@')
		return "a leading '@' makes it a group there";
	if (strcmp(name, "*") == 0)
		return "'*' means everybody there";
	if (!escape_is_shown_as_is(name))
		return "it holds characters a terminal would not show as "
		       "they are";
	return NULL;
}

/*
 * The caps text for the user's own line: what the user gets now (grant),
 * with inheritable cap_perfmon added and the bounding drops of undrop
 * taken out as asked, in libcap's IAB text. "none" for nothing.
 */
static int new_grant(char *out, size_t len, const char *grant, int add_inh,
		     uint64_t undrop)
{
	cap_iab_t iab = NULL;
	cap_value_t cap;
	char *text;
	int rc = -1;

	/* "all" and "none" leave a new login's empty sets as they are. */
	if (grant[0] != '\0' && strcmp(grant, "all") != 0 &&
	    strcmp(grant, "none") != 0)
		iab = cap_iab_from_text(grant);
	if (iab == NULL)
		iab = cap_iab_init();	/* unusable text grants nothing */
	if (iab == NULL)
		return -1;
	if (add_inh && cap_iab_set_vector(iab, CAP_IAB_INH, CAP_PERFMON,
					  CAP_SET) < 0)
		goto out;
	for (MASK_EACH(cap, undrop))
		if (cap_iab_set_vector(iab, CAP_IAB_BOUND, cap, CAP_CLEAR) < 0)
			goto out;
	text = cap_iab_to_text(iab);
	if (text == NULL)
		goto out;
	if (strlen(text) < len) {
		snprintf(out, len, "%s", text[0] != '\0' ? text : "none");
		rc = 0;
	}
	cap_free(text);
out:
	cap_free(iab);
	return rc;
}

/*
 * "chmod 0644": pam_cap reads no capability.conf anyone but root may
 * write. The mode takes write from the group and from everybody, and
 * from every ACL entry (chmod sets the mask); chown root from the owner.
 */
static void fix_conf_mode(struct verdict *v, const struct pam_view *pv)
{
	char note[256];
	struct cmd c;

	cmd_init(&c);
	if (pv->conf.uid != 0) {
		/* Its owner could make it writable again. */
		cmd_lit(&c, "chown root ");
		cmd_path(&c, "file name", pv->config);
		cmd_lit(&c, "; ");
	}
	cmd_lit(&c, "chmod 0644 ");
	cmd_path(&c, "file name", pv->config);
	if (pv->conf.world_writable)
		put(note, sizeof(note), "pam_cap reads nothing from a "
		    "world-writable file");
	else
		put(note, sizeof(note), "pam_cap reads nothing from a file "
		    "others may write (%s)", pv->conf.untrusted);
	cmd_add(v, &c, note);
}

/*
 * The user's own line, above the line that decides for the user now
 * (the first matching line wins), or at the end when none does. A name
 * capability.conf cannot hold gets the grant through perf_users.
 */
static void fix_grant_line(struct verdict *v, const struct subject *who,
			   const struct fix_context *fx, int add_inh,
			   uint64_t undrop)
{
	const struct pam_view *pv = fx->pv;
	const struct conf_facts *cf = &pv->conf;
	char caps[512], line[1200], esc[2500], script[2600], note[256];
	char token[1100];
	const char *problem = conf_name_problem(who->name);
	const char *grant = cf->grant;
	unsigned long decided = cf->decided;
	int star = cf->decided_star;
	struct cmd c;

	/* A line names a user by name: only one the database knows so. */
	if (!fx->user_known)
		return;
	if (problem != NULL) {
		/*
		 * Through a group: perf_users, created and joined first;
		 * the line goes above the one that decides for the user as
		 * a member (an "@perf_users" line may come before). It
		 * grants every member what the user gets there, plus perf:
		 * only when that line decides the same for all of them
		 * (else "cap_sys_admin @wheel" would pass cap_sys_admin on
		 * to every member of perf_users).
		 */
		if (!cf->joined_judged || !cf->joined_shared)
			return;
		grant = cf->joined_grant;
		decided = cf->joined_decided;
		star = cf->joined_star;
	}
	if (new_grant(caps, sizeof(caps), grant, add_inh, undrop) < 0)
		return;
	if (problem == NULL) {
		put(token, sizeof(token), "%s", who->name);
	} else {
		if (!fx->in_perf_users) {
			cmd_init(&c);
			if (!fx->perf_users_exists)
				cmd_lit(&c, "groupadd --system "
					PERF_GROUP "; ");
			cmd_lit(&c, "usermod -aG " PERF_GROUP " ");
			cmd_name(&c, "user name", who->name);
			put(note, sizeof(note), "capability.conf cannot name "
			    "%s (%s): the grant goes to the group "
			    PERF_GROUP, who->name, problem);
			cmd_add(v, &c, note);
		}
		put(token, sizeof(token), "@" PERF_GROUP);
	}
	if (strlen(caps) + 1 + strlen(token) + 1 > sizeof(line) ||
	    strlen(caps) + 1 + strlen(token) > CAPCONF_LINE_MAX)
		return;
	put(line, sizeof(line), "%s %s", caps, token);
	cmd_init(&c);
	if (decided == 0) {
		cmd_append(&c, line, pv->config, cf->has_lines);
		cmd_add(v, &c, cf->from_default ? "default= applies only "
			"where no line matches" : NULL);
		return;
	}
	if (sed_text(esc, sizeof(esc), line) < 0)
		return;
	put(script, sizeof(script), "%lui %s", decided, esc);
	cmd_lit(&c, "sed -i ");
	cmd_word(&c, "line", script);
	cmd_lit(&c, " ");
	cmd_path(&c, "file name", pv->config);
	if (star)
		put(note, sizeof(note), "above line %lu: its '*' matches "
		    "everybody first, and the first matching line wins",
		    decided);
	else if (problem != NULL)
		put(note, sizeof(note), "above line %lu, the first that "
		    "matches a member of " PERF_GROUP, decided);
	else
		put(note, sizeof(note), "above line %lu, which decides for "
		    "%s now: the first matching line wins", decided,
		    who->name);
	cmd_add(v, &c, note);
}

void fix_shadowed_grant(struct verdict *v, const struct fix_context *fx)
{
	const struct pam_view *pv = fx->pv;
	char esc[2100], script[2200], del[32], note[256];
	struct cmd c;

	/* A line granting more than cap_perfmon stays where it is. */
	if (pv == NULL || pv->shadow_line[0] == '\0' || pv->shadow_more ||
	    sed_text(esc, sizeof(esc), pv->shadow_line) < 0)
		return;
	/* sed numbers the lines as read: insert above one, delete the other. */
	put(script, sizeof(script), "%lui %s", fx->star, esc);
	put(del, sizeof(del), "%lud", fx->shadow);
	cmd_init(&c);
	cmd_lit(&c, "sed -i -e ");
	cmd_word(&c, "line", script);
	cmd_lit(&c, " -e ");
	cmd_lit(&c, del);
	cmd_lit(&c, " ");
	cmd_path(&c, "file name", fx->config);
	put(note, sizeof(note), "moves line %lu ('%s') above line %lu: the "
	    "'*' on line %lu matches everybody first, and the first "
	    "matching line wins", fx->shadow, fx->shadow_text, fx->star,
	    fx->star);
	cmd_add(v, &c, note);
}

/* pam_cap appended to the service's file, where nothing can skip it. */
static void fix_add_pam_cap(struct verdict *v, const struct pam_view *pv)
{
	char note[256];
	struct cmd c;

	cmd_init(&c);
	cmd_append(&c, pv->add_line, pv->add_to, pv->add_has_lines);
	put(note, sizeof(note), "pam_cap is not in the auth stack of %s",
	    pv->service);
	cmd_add(v, &c, note);
}

int fix_pam_grant(struct verdict *v, const struct subject *who,
		  const struct fix_context *fx, int add_inh, uint64_t undrop)
{
	const struct pam_view *pv = fx->pv;
	const struct conf_facts *cf;
	struct verdict *t;
	int need_edit, done = 0;

	if (pv == NULL)
		return 0;
	cf = &pv->conf;
	/* An edit is judged only on a file pam_cap reads to the end. */
	if (!cf->judged)
		return 0;
	/* And only a grant that reaches the session helps. */
	if (pv->iab_reaches != ANSWER_YES && !(pv->no_pam_cap && pv->can_add))
		return 0;
	need_edit = (add_inh && !(cf->inh & BIT(CAP_PERFMON))) ||
		    (cf->drop & undrop);
	if (!need_edit && !cf->refused && !pv->no_pam_cap)
		return 0;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return 0;
	if (cf->refused)
		fix_conf_mode(t, pv);
	if (need_edit) {
		int before = t->nfixes;

		if (add_inh && !undrop && pv->shadow != 0 &&
		    !pv->shadow_more && !cf->refused)
			fix_shadowed_grant(t, fx);
		else
			fix_grant_line(t, who, fx, add_inh, undrop);
		if (t->nfixes == before)
			goto out;	/* without it the rest is no fix */
	}
	if (pv->no_pam_cap)
		fix_add_pam_cap(t, pv);
	commit_fixes(v, t);
	done = 1;
out:
	free(t);
	return done;
}
