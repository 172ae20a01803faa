/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's fixes as command lines a person pastes into a shell. The
 * names in them come from the file system and the user database, where
 * anyone may have chosen them: every operand goes through shquote, so a
 * name such as "a;touch${IFS}x;#" arrives as one argument and nothing
 * else runs. A name shquote refuses, or a line that would not fit, gives
 * a fix in words that says why, never a command cut short. capability.conf
 * lines are checked to mean there what they say (one name, no blank in
 * it, no '@' or '*' that would make it a group or everybody).
 *
 * Each writer prints a fix only when its conditions say the next run
 * will answer yes: the group named exists or is created first, the user
 * joins it, the directories on the way let the user through, pam_cap is
 * in the stack and reaches the session, and the file it reads is one it
 * accepts.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capconf.h"
#include "escape.h"
#include "groups.h"
#include "mask.h"
#include "names.h"
#include "perf.h"
#include "perfdoctor.h"
#include "shquote.h"

/* A command line being built; why set means "no command, because". */
struct cmd {
	char text[FIX_LEN];
	size_t len;
	char why[FIX_LEN];
};

static void cmd_init(struct cmd *c)
{
	c->text[0] = c->why[0] = '\0';
	c->len = 0;
}

/* Our own text, as it is. */
static void cmd_lit(struct cmd *c, const char *s)
{
	size_t n = strlen(s);

	if (c->why[0] != '\0')
		return;
	if (c->len + n >= sizeof(c->text)) {
		/* Never a command cut short: it would run something else. */
		put(c->why, sizeof(c->why), "no command printed: it would be "
		    "longer than %zu bytes", sizeof(c->text) - 1);
		return;
	}
	memcpy(c->text + c->len, s, n + 1);
	c->len += n;
}

/* One operand, quoted for the shell; what says what it is, for the why. */
static void cmd_word(struct cmd *c, const char *what, const char *word)
{
	char *q;

	if (c->why[0] != '\0')
		return;
	q = shquote_dup(word);
	if (q == NULL) {
		if (errno == EILSEQ)
			put(c->why, sizeof(c->why), "no command printed: the "
			    "%s '%s' holds characters a terminal would not "
			    "show as they are", what, word);
		else
			put(c->why, sizeof(c->why), "no command printed: %s",
			    strerror(errno));
		return;
	}
	cmd_lit(c, q);
	free(q);
}

/* A name after a command's options: "--" first if it looks like one. */
static void cmd_name(struct cmd *c, const char *what, const char *name)
{
	if (name[0] == '-')
		cmd_lit(c, "-- ");
	cmd_word(c, what, name);
}

/* A file operand that no command can take for an option. */
static void cmd_path(struct cmd *c, const char *what, const char *path)
{
	char buf[4200];

	if (path[0] != '-') {
		cmd_word(c, what, path);
		return;
	}
	put(buf, sizeof(buf), "./%s", path);
	cmd_word(c, what, buf);
}

/* The command (or, if it could not be one, its why) as a fix of v. */
static void cmd_add(struct verdict *v, const struct cmd *c, const char *note)
{
	struct fix f;

	memset(&f, 0, sizeof(f));
	if (c->why[0] != '\0') {
		put(f.text, sizeof(f.text), "%s", c->why);
	} else {
		memcpy(f.text, c->text, c->len + 1);
		put(f.note, sizeof(f.note), "%s", note != NULL ? note : "");
		f.is_command = 1;
	}
	add_fix_once(v, &f);
}

/* Did every fix of v come out as a command? */
static int all_commands(const struct verdict *v)
{
	int i;

	for (i = 0; i < v->nfixes; i++)
		if (!v->fixes[i].is_command)
			return 0;
	return 1;
}

/*
 * The steps of one fix, into to: all of them when each is a command;
 * otherwise only the reasons why not, since the other steps alone would
 * not do (a setcap restricting perf to a group the user cannot be
 * added to locks the user out).
 */
static void commit_fixes(struct verdict *to, const struct verdict *from)
{
	int i, whole = all_commands(from);

	for (i = 0; i < from->nfixes; i++)
		if (whole || !from->fixes[i].is_command)
			add_fix_once(to, &from->fixes[i]);
}

/* ---- the perf binary ---- */

/*
 * Whether the user (database credentials of fx), with group extra too
 * (or (gid_t)-1), may execute b. Root asks the kernel; otherwise the
 * mode bits answer, which is enough to choose between two fixes.
 */
static enum answer exec_with(const struct binary_facts *b,
			     const struct fix_context *fx, gid_t extra)
{
	gid_t *groups;
	int n = fx->ngroups, member;
	enum answer a;

	groups = malloc(((size_t)n + 1) * sizeof(*groups));
	if (groups == NULL)
		return ANSWER_UNKNOWN;
	if (n > 0)
		memcpy(groups, fx->groups, (size_t)n * sizeof(*groups));
	if (extra != (gid_t)-1 && !groups_have(groups, n, extra))
		groups[n++] = extra;
	a = may_execute(b, fx->uid, fx->gid, groups, n);
	member = fx->gid == b->gid || groups_have(groups, n, b->gid);
	free(groups);
	if (a != ANSWER_UNKNOWN)
		return a;
	if (fx->uid == b->uid)
		return (b->mode & 0100) ? ANSWER_YES : ANSWER_NO;
	if (member)
		return (b->mode & 0010) ? ANSWER_YES : ANSWER_NO;
	return (b->mode & 0001) ? ANSWER_YES : ANSWER_NO;
}

/*
 * May the user, in group gid as well, pass the directories above path?
 * Without search permission on them no mode of the file itself helps.
 */
static enum answer dirs_let_through(const char *path,
				    const struct fix_context *fx, gid_t gid)
{
	char dir[4096], *slash;
	gid_t *groups;
	int n = fx->ngroups;
	enum answer a;

	put(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return ANSWER_UNKNOWN;	/* relative to where perfdoctor runs */
	slash[slash == dir] = '\0';	/* "/perf": the root directory */
	groups = malloc(((size_t)n + 1) * sizeof(*groups));
	if (groups == NULL)
		return ANSWER_UNKNOWN;
	if (n > 0)
		memcpy(groups, fx->groups, (size_t)n * sizeof(*groups));
	if (gid != (gid_t)-1 && !groups_have(groups, n, gid))
		groups[n++] = gid;
	a = may_access(dir, X_OK, fx->uid, fx->gid, groups, n);
	free(groups);
	return a;
}

/*
 * The group-restricted preset, never a bare "setcap ...=ep" that would
 * give perf to every user: the binary's own group when it already keeps
 * others out and the user is in it, else perf_users (created and joined
 * first if need be). setcap --perf-group refuses a file root does not
 * own (its owner could open it to everyone again), so chown comes first.
 */
static void preset_steps(struct verdict *v, const struct binary_facts *b,
			 const struct subject *who,
			 const struct fix_context *fx)
{
	char gbuf[64], note[256];
	const char *grp = PERF_GROUP;
	gid_t ggid = (gid_t)-1;
	struct group *gr;
	int create = 0, join = 0;
	struct cmd c;

	if (b->fix_path[0] == '\0') {
		add_fix(v, "no command printed: where the symbolic link %s "
			"leads cannot be resolved", b->path);
		return;
	}
	if (b->gid != 0 && !(b->mode & 0001) && fx->in_file_group &&
	    getgrgid(b->gid) != NULL) {
		grp = names_group(b->gid, gbuf, sizeof(gbuf));
		ggid = b->gid;
	} else if (!fx->perf_users_exists) {
		create = join = 1;
	} else {
		gr = getgrnam(PERF_GROUP);
		ggid = gr != NULL ? gr->gr_gid : (gid_t)-1;
		join = !fx->in_perf_users && !who->is_root;
	}
	/* Nobody can be added to a group by a name the database lacks. */
	if (join && !fx->user_known)
		return;
	/* The file's mode cannot open a directory the user cannot pass. */
	if (!who->is_root && fx->user_known &&
	    (dirs_let_through(b->path, fx, ggid) == ANSWER_NO ||
	     dirs_let_through(b->fix_path, fx, ggid) == ANSWER_NO))
		return;
	put(note, sizeof(note), "%s then logs in again", who->name);
	if (join) {
		cmd_init(&c);
		if (create)
			cmd_lit(&c, "groupadd --system " PERF_GROUP "; ");
		cmd_lit(&c, "usermod -aG " PERF_GROUP " ");
		cmd_name(&c, "user name", who->name);
		cmd_add(v, &c, note);
	}
	cmd_init(&c);
	if (b->uid != 0) {
		cmd_lit(&c, "chown root ");
		cmd_path(&c, "file name", b->fix_path);
		cmd_lit(&c, "; ");
	}
	cmd_lit(&c, "setcap --perf-group=");
	cmd_word(&c, "group name", grp);
	cmd_lit(&c, " --perf ");
	cmd_path(&c, "file name", b->fix_path);
	cmd_add(v, &c, NULL);
}

static void fix_preset(struct verdict *v, const struct binary_facts *b,
		       const struct subject *who, const struct fix_context *fx)
{
	struct verdict *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return;
	preset_steps(t, b, who, fx);
	commit_fixes(v, t);
	free(t);
}

void fix_perf(struct verdict *v, const struct binary_facts *b,
	      const struct subject *who, const struct fix_context *fx)
{
	char gbuf[64], note[64];
	struct cmd c;

	if (!v->want_preset && !v->want_exec)
		return;
	if (!v->want_preset && fx->user_known) {
		/* A new login may execute it already: logging in again does. */
		if (exec_with(b, fx, (gid_t)-1) == ANSWER_YES)
			return;
		/* Joining the binary's group does, when that group may run it. */
		if (b->gid != 0 && !fx->in_file_group &&
		    getgrgid(b->gid) != NULL &&
		    exec_with(b, fx, b->gid) == ANSWER_YES &&
		    dirs_let_through(b->path, fx, b->gid) != ANSWER_NO) {
			cmd_init(&c);
			cmd_lit(&c, "usermod -aG ");
			cmd_word(&c, "group name",
				 names_group(b->gid, gbuf, sizeof(gbuf)));
			cmd_lit(&c, " ");
			cmd_name(&c, "user name", who->name);
			put(note, sizeof(note), "then log in again");
			cmd_add(v, &c, note);
			return;
		}
	}
	if (!v->want_preset && !fx->user_known)
		return;
	/* Never joining root's group: the preset gives the file a group. */
	fix_preset(v, b, who, fx);
}

int fix_preset_line(char *buf, size_t len, const struct binary_facts *b,
		    const struct subject *who, const struct fix_context *fx)
{
	struct verdict *t = calloc(1, sizeof(*t));
	size_t used = 0;
	int i, rc = 0;

	buf[0] = '\0';
	if (t == NULL)
		return -1;
	preset_steps(t, b, who, fx);
	if (t->nfixes == 0) {
		rc = -1;	/* no preset would keep the user's access */
		goto out;
	}
	if (!all_commands(t)) {
		for (i = 0; t->fixes[i].is_command; i++)
			;
		put(buf, len, "%s", t->fixes[i].text);
		rc = -1;
		goto out;
	}
	for (i = 0; i < t->nfixes && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? "; " : "", t->fixes[i].text);
	for (i = 0; i < t->nfixes && used < len; i++)
		if (t->fixes[i].note[0] != '\0')
			used += (size_t)snprintf(buf + used, len - used,
						 "   # %s", t->fixes[i].note);
	if (used >= len) {
		put(buf, len, "no command printed: it would be longer than "
		    "%zu bytes", len - 1);
		rc = -1;
	}
out:
	free(t);
	return rc;
}

int fix_owner_line(char *buf, size_t len, const struct binary_facts *b)
{
	char *caps = b->caps != NULL ? cap_to_text(b->caps, NULL) : NULL;
	struct cmd c;

	cmd_init(&c);
	if (b->fix_path[0] == '\0')
		put(c.why, sizeof(c.why), "no command printed: where the "
		    "symbolic link %s leads cannot be resolved", b->path);
	/* chown drops the file's capabilities: set the same ones again. */
	cmd_lit(&c, "chown root ");
	cmd_path(&c, "file name", b->fix_path);
	if (caps != NULL) {
		cmd_lit(&c, "; setcap ");
		cmd_word(&c, "capability text", caps);
		cmd_lit(&c, " ");
		cmd_path(&c, "file name", b->fix_path);
	}
	cap_free(caps);
	put(buf, len, "%s", c.why[0] != '\0' ? c.why : c.text);
	return c.why[0] != '\0' ? -1 : 0;
}

/* ---- capability.conf and the PAM stack ---- */

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
 * The text for GNU sed's one-line "i", "a" and "c": its backslashes
 * doubled, since sed reads escapes there. No newline can be in it (the
 * callers' lines come from tokens or names shquote accepts).
 */
static int sed_text(char *out, size_t len, const char *in)
{
	size_t used = 0;

	for (; *in != '\0'; in++) {
		if (used + 3 > len)
			return -1;
		if (*in == '\\')
			out[used++] = '\\';
		out[used++] = *in;
	}
	out[used] = '\0';
	return 0;
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

/* A line appended to file: sed's "$a" keeps a last line without newline. */
static void cmd_append(struct cmd *c, const char *line, const char *file,
		       int has_lines)
{
	char script[2200], esc[2100];

	if (!has_lines) {
		cmd_lit(c, "printf '%s\\n' ");
		cmd_word(c, "line", line);
		cmd_lit(c, " >> ");
		cmd_path(c, "file name", file);
		return;
	}
	if (sed_text(esc, sizeof(esc), line) < 0) {
		put(c->why, sizeof(c->why), "no command printed: the line "
		    "would be too long");
		return;
	}
	put(script, sizeof(script), "$a %s", esc);
	cmd_lit(c, "sed -i ");
	cmd_word(c, "line", script);
	cmd_lit(c, " ");
	cmd_path(c, "file name", file);
}

/* "chmod 0644": pam_cap reads no world-writable capability.conf. */
static void fix_conf_mode(struct verdict *v, const struct pam_view *pv)
{
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
	cmd_add(v, &c, "pam_cap reads nothing from a world-writable file");
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
	struct cmd c;

	if (new_grant(caps, sizeof(caps), cf->grant, add_inh, undrop) < 0)
		return;
	if (problem == NULL) {
		put(token, sizeof(token), "%s", who->name);
	} else {
		/* Through a group: perf_users, created and joined first. */
		if (!fx->user_known)
			return;
		if (!fx->in_perf_users) {
			cmd_init(&c);
			if (!fx->perf_users_exists)
				cmd_lit(&c, "groupadd --system " PERF_GROUP "; ");
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
	if (cf->decided == 0) {
		cmd_append(&c, line, pv->config, cf->has_lines);
		cmd_add(v, &c, cf->from_default ? "default= applies only "
			"where no line matches" : NULL);
		return;
	}
	if (sed_text(esc, sizeof(esc), line) < 0)
		return;
	put(script, sizeof(script), "%lui %s", cf->decided, esc);
	cmd_lit(&c, "sed -i ");
	cmd_word(&c, "line", script);
	cmd_lit(&c, " ");
	cmd_path(&c, "file name", pv->config);
	if (cf->decided_star)
		put(note, sizeof(note), "above line %lu: its '*' matches "
		    "everybody first, and the first matching line wins",
		    cf->decided);
	else
		put(note, sizeof(note), "above line %lu, which decides for "
		    "%s now: the first matching line wins", cf->decided,
		    who->name);
	cmd_add(v, &c, note);
}

void fix_shadowed_grant(struct verdict *v, const struct fix_context *fx)
{
	const struct pam_view *pv = fx->pv;
	char esc[2100], script[2200], del[32], note[256];
	struct cmd c;

	if (pv == NULL || pv->shadow_line[0] == '\0' ||
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

		if (add_inh && !undrop && pv->shadow != 0 && !cf->refused)
			fix_shadowed_grant(t, fx);
		else
			fix_grant_line(t, who, fx, add_inh, undrop);
		if (t->nfixes == before)
			goto out;	/* without the edit the rest is no fix */
	}
	if (pv->no_pam_cap)
		fix_add_pam_cap(t, pv);
	commit_fixes(v, t);
	done = 1;
out:
	free(t);
	return done;
}
