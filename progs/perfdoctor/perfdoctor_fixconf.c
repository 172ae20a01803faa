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
		return "it holds characters a terminal would not show as they are";
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
		iab = cap_iab_init(); /* unusable text grants nothing */
	if (iab == NULL)
		return -1;
	if (add_inh &&
	    cap_iab_set_vector(iab, CAP_IAB_INH, CAP_PERFMON, CAP_SET) < 0)
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
 * caps text as an IAB with cap_perfmon taken out of I and A; "none" and
 * "" are empty. NULL for "all" (no IAB: inherited sets left alone) or
 * text that does not parse.
 */
static cap_iab_t iab_but_perfmon(const char *caps)
{
	cap_iab_t iab;

	if (strcmp(caps, "all") == 0)
		return NULL;
	if (caps[0] == '\0' || strcmp(caps, "none") == 0)
		iab = cap_iab_init();
	else
		iab = cap_iab_from_text(caps);
	if (iab != NULL &&
	    (cap_iab_set_vector(iab, CAP_IAB_INH, CAP_PERFMON, CAP_CLEAR) < 0 ||
	     cap_iab_set_vector(iab, CAP_IAB_AMB, CAP_PERFMON, CAP_CLEAR) <
		     0)) {
		cap_free(iab);
		iab = NULL;
	}
	return iab;
}

int grant_only_perf_differs(const char *now, const char *then)
{
	cap_iab_t a, b;
	int same;

	if (strcmp(now, then) == 0)
		return 1;
	a = iab_but_perfmon(now);
	b = iab_but_perfmon(then);
	same = a != NULL && b != NULL && cap_iab_compare(a, b) == 0;
	cap_free(a);
	cap_free(b);
	return same;
}

/*
 * "chmod 0644": pam_cap reads no capability.conf anyone but root may
 * write. The mode takes write from the group and from everybody, and
 * from every ACL entry (chmod sets the mask); chown root from the owner.
 */
static void fix_conf_mode(struct verdict *v, const struct pam_view *pv)
{
	char note[CAPCONF_TRUST_WHY + 160];
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
	/*
	 * The command makes pam_cap trust every line in the file, some of
	 * which another user may have written: the note says to read them.
	 */
	if (pv->conf.world_writable)
		put(note, sizeof(note),
		    "pam_cap reads nothing from a world-writable file; read every line first: anyone could have written it");
	else
		put(note, sizeof(note),
		    "pam_cap reads nothing from a file others may write (%s); read every line first: they could have written it",
		    pv->conf.untrusted);
	cmd_add(v, &c, note);
}

/*
 * The user's own line, above the line that decides for the user now
 * (the first matching line wins), or at the end when none does. A name
 * capability.conf cannot hold gets no line.
 */
static void fix_grant_line(struct verdict *v, const struct subject *who,
			   const struct fix_context *fx, int add_inh,
			   uint64_t undrop)
{
	const struct pam_view *pv = fx->pv;
	const struct conf_facts *cf = &pv->conf;
	char caps[512], line[1200], esc[2500], script[2600], note[256];
	const char *problem = conf_name_problem(who->name);
	unsigned long decided = cf->decided;
	struct cmd c;

	/* A line names a user by name: only one the database knows so. */
	if (!fx->user_known)
		return;
	if (problem != NULL) {
		/*
		 * Not through a group either: an "@perf_users" line, above
		 * the one deciding for the user as a member, is the first
		 * match of every other member whose own line comes later,
		 * who would get this user's grant instead of theirs.
		 */
		add_fix(v,
			"capability.conf cannot name %s (%s), and a line for a group would change the grant of its other members: no line can give %s alone cap_perfmon; a name without blanks, '@' or '*' can have one",
			who->name, problem, who->name);
		return;
	}
	if (new_grant(caps, sizeof(caps), cf->grant, add_inh, undrop) < 0)
		return;
	/* Never a name cut short: the line would name another user. */
	if (strlen(caps) + 1 + strlen(who->name) + 1 > sizeof(line) ||
	    strlen(caps) + 1 + strlen(who->name) > CAPCONF_LINE_MAX) {
		add_fix(v,
			"no line printed: a capability.conf line for this user would be longer than %zu bytes",
			sizeof(line) - 1);
		return;
	}
	put(line, sizeof(line), "%s %s", caps, who->name);
	cmd_init(&c);
	if (decided == 0) {
		cmd_append(&c, line, pv->config, cf->has_lines);
		cmd_add(v, &c,
			cf->from_default
				? "default= applies only where no line matches"
				: NULL);
		return;
	}
	if (sed_text(esc, sizeof(esc), line) < 0)
		return;
	put(script, sizeof(script), "%lui %s", decided, esc);
	cmd_lit(&c, "sed -i ");
	cmd_word(&c, "line", script);
	cmd_lit(&c, " ");
	cmd_path(&c, "file name", pv->config);
	if (cf->decided_star)
		put(note, sizeof(note),
		    "above line %lu: its '*' matches everybody first, and the first matching line wins",
		    decided);
	else
		put(note, sizeof(note),
		    "above line %lu, which decides for %s now: the first matching line wins",
		    decided, who->name);
	cmd_add(v, &c, note);
}

/*
 * May the shadowed line be moved above the '*' line? Only when it grants
 * what the '*' line grants now but for cap_perfmon. Put at the '*' line's
 * place, it becomes the first match of everyone it names who has no line
 * of their own above: for each of them the move then changes cap_perfmon
 * alone, which is what the line says they should have. One granting more
 * ("^cap_perfmon,^cap_sys_admin alice bob") would give the user, and
 * everyone else it names, more than perf; one without the '*' line's
 * bounding drops would take them away.
 */
static int shadow_move_is_perf_only(const struct pam_view *pv)
{
	const struct conf_facts *cf = &pv->conf;
	char line[sizeof(pv->shadow_line)], *caps, *save = NULL;

	if (!cf->judged || !cf->decided_star || cf->decided != pv->star)
		return 0;
	snprintf(line, sizeof(line), "%s", pv->shadow_line);
	caps = strtok_r(line, " ", &save);
	return caps != NULL && grant_only_perf_differs(cf->grant, caps);
}

int fix_shadowed_grant(struct verdict *v, const struct fix_context *fx)
{
	const struct pam_view *pv = fx->pv;
	char esc[2100], script[2200], del[32], note[256];
	struct cmd c;

	if (pv == NULL || pv->shadow_line[0] == '\0' ||
	    !shadow_move_is_perf_only(pv) ||
	    sed_text(esc, sizeof(esc), pv->shadow_line) < 0)
		return 0;
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
	put(note, sizeof(note),
	    "moves line %lu ('%s') above line %lu: the '*' on line %lu matches everybody first, and the first matching line wins",
	    fx->shadow, fx->shadow_text, fx->star, fx->star);
	cmd_add(v, &c, note);
	return 1;
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

		/* The line below the '*' moved up, else one of the user's. */
		if (!(add_inh && !undrop && pv->shadow != 0 && !cf->refused &&
		      fix_shadowed_grant(t, fx)))
			fix_grant_line(t, who, fx, add_inh, undrop);
		if (t->nfixes == before)
			goto out; /* without it the rest is no fix */
	}
	if (pv->no_pam_cap)
		fix_add_pam_cap(t, pv);
	commit_fixes(v, t);
	done = 1;
out:
	free(t);
	return done;
}
