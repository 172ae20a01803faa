/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's fixes for the perf binary: join its group, or the preset
 * restricted to a group (setcap --perf-group), with what must come first
 * (chown root, groupadd, usermod). Each is printed only when the next run
 * will answer yes: the group exists or is created first, the user joins
 * it, and the directories on the way let the user through.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groups.h"
#include "perf.h"
#include "perfdoctor.h"
#include "shquote.h"

/*
 * The name of group gid, whole, into buf; NULL when it has none or does
 * not fit: a name cut short in a command would name another group.
 */
static const char *group_name(gid_t gid, char *buf, size_t len)
{
	struct group *gr = getgrgid(gid);

	if (gr == NULL || strlen(gr->gr_name) >= len)
		return NULL;
	memcpy(buf, gr->gr_name, strlen(gr->gr_name) + 1);
	return buf;
}

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
	a = may_execute(b, &(struct exec_creds){ fx->uid, fx->gid, groups, n,
						 fx->effective });
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
		return ANSWER_UNKNOWN; /* relative to perfdoctor's cwd */
	slash[slash == dir] = '\0';    /* "/perf": the root directory */
	groups = malloc(((size_t)n + 1) * sizeof(*groups));
	if (groups == NULL)
		return ANSWER_UNKNOWN;
	if (n > 0)
		memcpy(groups, fx->groups, (size_t)n * sizeof(*groups));
	if (gid != (gid_t)-1 && !groups_have(groups, n, gid))
		groups[n++] = gid;
	a = may_access(dir, X_OK,
		       &(struct exec_creds){ fx->uid, fx->gid, groups, n,
					     fx->effective });
	free(groups);
	return a;
}

/*
 * Would joining perf_users change what capability.conf grants the user
 * beyond cap_perfmon ("^cap_sys_admin @perf_users" above the user's
 * line)? Then no command joins it: 1, with words saying what would
 * change; else 0.
 */
static int join_grants_more(struct verdict *v, const struct subject *who,
			    const struct fix_context *fx)
{
	const struct conf_facts *cf;

	if (fx->pv == NULL)
		return 0;
	cf = &fx->pv->conf;
	if (!cf->judged || !cf->joined_judged ||
	    grant_only_perf_differs(cf->grant, cf->joined_grant))
		return 0;
	add_fix(v,
		"joining %s changes what %s grants %s: '%s' instead of '%s'; no command printed: give %s's grant a line of its own first, or change that group's",
		PERF_GROUP, fx->pv->config, who->name,
		cf->joined_grant[0] != '\0' ? cf->joined_grant : "nothing",
		cf->grant[0] != '\0' ? cf->grant : "nothing", who->name);
	return 1;
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
	char gbuf[1024], note[256];
	const char *grp = PERF_GROUP;
	gid_t ggid = (gid_t)-1;
	struct group *gr;
	int create = 0, join = 0;
	struct cmd c;

	if (b->fix_path[0] == '\0') {
		add_fix(v,
			"no command printed: where the symbolic link %s leads cannot be resolved",
			b->path);
		return;
	}
	if (b->gid != 0 && !(b->mode & 0001) && fx->in_file_group &&
	    group_name(b->gid, gbuf, sizeof(gbuf)) != NULL) {
		grp = gbuf;
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
	/* Nor to one whose capability.conf lines grant more than perf. */
	if (join && join_grants_more(v, who, fx))
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

/*
 * The user may run b as a member of its group, grp (its whole name). A
 * command only for perf_users, the group that is there for perf, and only
 * when joining it changes nothing else capability.conf grants: any other
 * group (wheel, docker, a project's) gives the user whatever else it may
 * do as well, which is more than perf; that is said in words for a person
 * to weigh, no command. The names in the words are quoted for the shell
 * (or the group given by number), so that pasting the line runs nothing
 * it names: with '"'"' for a quote (shquote_words_dup()), since words are
 * printed escaped and the backslash of '\'' would come out as \134.
 */
static void join_file_group(struct verdict *v, const struct binary_facts *b,
			    const struct subject *who,
			    const struct fix_context *fx, const char *grp)
{
	char gnum[32];
	char *qg, *qu;
	struct cmd c;

	if (strcmp(grp, PERF_GROUP) == 0) {
		if (join_grants_more(v, who, fx))
			return;
		cmd_init(&c);
		cmd_lit(&c, "usermod -aG " PERF_GROUP " ");
		cmd_name(&c, "user name", who->name);
		cmd_add(v, &c, "then log in again");
		return;
	}
	put(gnum, sizeof(gnum), "%lu", (unsigned long)b->gid);
	qg = shquote_words_dup(grp);
	qu = shquote_words_dup(who->name);
	add_fix(v,
		"only members of group %s%s may run it, and joining it gives %s all else that group may do: no command printed",
		qg != NULL ? qg : "id ", qg != NULL ? "" : gnum,
		qu != NULL ? qu : "the user");
	free(qg);
	free(qu);
}

void fix_perf(struct verdict *v, const struct binary_facts *b,
	      const struct subject *who, const struct fix_context *fx)
{
	char gbuf[1024];
	const char *grp;

	if (!v->want_preset && !v->want_exec)
		return;
	if (!v->want_preset && fx->user_known) {
		/* A new login may execute it already: logging in again does. */
		if (exec_with(b, fx, (gid_t)-1) == ANSWER_YES)
			return;
		/* Joining the binary's group does, if that group may run it. */
		grp = b->gid != 0 && !fx->in_file_group
			      ? group_name(b->gid, gbuf, sizeof(gbuf))
			      : NULL;
		if (grp != NULL && exec_with(b, fx, b->gid) == ANSWER_YES &&
		    dirs_let_through(b->path, fx, b->gid) != ANSWER_NO) {
			join_file_group(v, b, who, fx, grp);
			return;
		}
	}
	if (!v->want_preset && !fx->user_known)
		return;
	/* Never joining root's group: the preset gives the file a group. */
	fix_preset(v, b, who, fx);
}

int fix_preset_line(char *buf, size_t len, char *note, size_t note_len,
		    const struct binary_facts *b, const struct subject *who,
		    const struct fix_context *fx)
{
	struct verdict *t = calloc(1, sizeof(*t));
	size_t used = 0, nused = 0;
	int i, rc = 0;

	buf[0] = note[0] = '\0';
	if (t == NULL)
		return -1;
	preset_steps(t, b, who, fx);
	if (t->nfixes == 0) {
		rc = -1; /* no preset would keep the user's access */
		goto out;
	}
	if (!fixes_all_commands(t)) {
		for (i = 0; t->fixes[i].is_command; i++)
			;
		put(buf, len, "%s", t->fixes[i].text);
		rc = -1;
		goto out;
	}
	for (i = 0; i < t->nfixes && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? "; " : "", t->fixes[i].text);
	for (i = 0; i < t->nfixes && nused < note_len; i++)
		if (t->fixes[i].note[0] != '\0')
			nused += (size_t)snprintf(
				note + nused, note_len - nused, "%s%s",
				nused ? "; " : "", t->fixes[i].note);
	if (used >= len) {
		/* Never a command cut short. */
		put(buf, len,
		    "no command printed: it would be longer than %zu bytes",
		    len - 1);
		note[0] = '\0';
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
		put(c.why, sizeof(c.why),
		    "no command printed: where the symbolic link %s leads cannot be resolved",
		    b->path);
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
