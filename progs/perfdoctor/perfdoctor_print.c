/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's report: every line goes through say() (say.h), so file,
 * user, group and service names and configuration text are printed with
 * control characters escaped and cannot forge or hide a line.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "risk.h"
#include "escape.h"
#include "mask.h"
#include "names.h"
#include "perf.h"
#include "perfdoctor.h"
#include "say.h"

const char *answer_name(enum answer a)
{
	return a == ANSWER_YES ? "yes" : a == ANSWER_NO ? "no" : "unknown";
}

/* "cap_perfmon,cap_syslog" or "none", into buf. */
const char *names_or_none(uint64_t bits, char *buf, size_t len)
{
	if (mask_names(buf, len, bits, 0) == 0)
		snprintf(buf, len, "none");
	return buf;
}

/* "4001 (alice), 4100 (perf_users)", into buf. */
const char *group_list(const gid_t *groups, int n, char *buf, size_t len)
{
	size_t used = 0;
	char name[64];
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(
			buf + used, len - used, "%s%u (%s)", i ? ", " : "",
			(unsigned)groups[i],
			names_group(groups[i], name, sizeof(name)));
	if (n == 0)
		snprintf(buf, len, "none");
	return buf;
}

void print_header(const struct kernel_facts *k, const struct binary_facts *b,
		  const char *user)
{
	char gbuf[64], pbuf[64], problem[200];

	say(stdout, "", "perfdoctor: can %s monitor the whole system with %s?",
	    user, b->path);
	say(stdout, "", "%s", "");
	say(stdout, "",
	    "%-10s Linux %s knows %d capabilities: CAP_PERFMON is %s",
	    "kernel:", k->release, k->max_bits,
	    perf_knows_perfmon(k->max_bits) ? "supported (5.8+)"
					    : "NOT supported (needs 5.8+)");
	if (k->paranoid == INT32_MIN)
		say(stdout, "", "%-10s kernel.perf_event_paranoid: %s",
		    "paranoid:", paranoid_meaning(k->paranoid));
	else
		say(stdout, "", "%-10s kernel.perf_event_paranoid = %d: %s",
		    "paranoid:", k->paranoid, paranoid_meaning(k->paranoid));
	if (b->rootfd >= 0)
		say(stdout, "",
		    "%-10s %s is looked up in the root of process %d, which it can execute, not in perfdoctor's",
		    "root:", b->path, (int)b->root_of);
	if (!b->exists) {
		say(stdout, "", "%-10s %s: %s", "binary:", b->path,
		    strerror(b->err));
		return;
	}
	names_user(b->uid, pbuf, sizeof(pbuf));
	say(stdout, "", "%-10s %s: owner %s group %s mode %04o%s",
	    "binary:", b->path, pbuf, names_group(b->gid, gbuf, sizeof(gbuf)),
	    (unsigned)(b->mode & 07777),
	    b->xattr_unsupported
		    ? ", on a filesystem without extended attributes"
		    : "");
	if (b->is_regular && !b->target_known) {
		say(stdout, "",
		    "%-10s cannot read it to tell an ELF binary from a script: %s",
		    "target:", strerror(b->target_err));
	} else if (b->is_regular) {
		const char *why = exec_target_problem(&b->target, problem,
						      sizeof(problem));

		say(stdout, "", "%-10s %s", "target:",
		    why != NULL
			    ? why
			    : "an ELF executable, on a filesystem that honours file capabilities");
	}
	{
		/*
		 * perf takes its subcommand from its name: "perf-test" is "perf
		 * test".
		 */
		const char *base = strrchr(b->path, '/');

		base = base != NULL ? base + 1 : b->path;
		if (strncmp(base, "perf-", 5) == 0 && base[5] != '\0')
			say(stdout, "",
			    "%-10s perf runs a file named '%s' as 'perf %s' (it takes its subcommand from its own name): name the copy without 'perf-', e.g. 'perf_%s'",
			    "name:", base, base + 5, base + 5);
	}
	if (b->caps != NULL) {
		char *text = cap_to_text(b->caps, NULL);

		if (foreign_rootid(b))
			say(stdout, "", "%-10s %s [rootid=%u]",
			    "file caps:", text ? text : "?",
			    (unsigned)foreign_rootid(b));
		else
			say(stdout, "", "%-10s %s",
			    "file caps:", text ? text : "?");
		cap_free(text);
	} else if (b->caps_err != 0) {
		say(stdout, "",
		    "%-10s unknown: cannot read its security.capability: %s",
		    "file caps:", strerror(b->caps_err));
	} else {
		say(stdout, "", "%-10s none", "file caps:");
	}
}

void print_session(const struct subject *who, const char *label)
{
	char groups[1024], bits[256];

	say(stdout, "", "%-10s %s: uid %u gid %u, groups %s", "session:", label,
	    (unsigned)who->uid, (unsigned)who->gid,
	    group_list(who->groups, who->ngroups, groups, sizeof(groups)));
	say(stdout, "",
	    "%-10s bounding set %s cap_perfmon; inheritable %s; ambient %s; no_new_privs=%d; seccomp=%d; user namespace: %s",
	    "", (who->bounding & BIT(CAP_PERFMON)) ? "includes" : "LACKS",
	    names_or_none(who->inheritable, bits, sizeof(bits)),
	    names_or_none(who->ambient, groups, sizeof(groups)),
	    who->no_new_privs, who->seccomp,
	    who->init_userns == ANSWER_YES  ? "the initial one"
	    : who->init_userns == ANSWER_NO ? "ANOTHER"
					    : "unknown");
	/* Uid 0 only: for anyone else, exec's rule is the same either way. */
	if (who->is_root)
		say(stdout, "", "%-10s securebits: SECBIT_NOROOT %s", "",
		    who->noroot == ANSWER_YES  ? "set, root's exec rule is off"
		    : who->noroot == ANSWER_NO ? "clear"
					       : "unknown");
	say(stdout, "", "%-10s may execute the binary: %s", "",
	    answer_name(who->may_exec));
}

void print_surroundings(const struct session_facts *s,
			const struct kernel_facts *k)
{
	if (s->userns_how[0] != '\0')
		say(stdout, "", "%-10s %s", "userns:", s->userns_how);
	if (s->seccomp == 2)
		say(stdout, "", "%-10s %s", "seccomp:", s->sc.line);
	if (s->container[0] != '\0')
		say(stdout, "", "%-10s %s", "container:", s->container);
	/* The one setting a container cannot make its own. */
	if (s->in_container && k->paranoid != INT32_MIN && k->paranoid > 0)
		say(stdout, "",
		    "%-10s kernel.perf_event_paranoid = %d is the host's, one value for every container on this kernel: it is why a CPU-wide event needs CAP_PERFMON here",
		    "note:", k->paranoid);
}

/*
 * A line ending in a command: lead and cmd as they are (every operand of
 * cmd went through shquote, which takes only what a terminal shows as it
 * is; escaping its backslashes would change what a person pastes), the
 * note after "   # " escaped.
 */
static void say_command(const char *lead, const char *cmd, const char *note)
{
	if (!escape_is_shown_as_is(lead) || !escape_is_shown_as_is(cmd)) {
		say(stdout, "", "%s%s%s%s", lead, cmd,
		    note[0] != '\0' ? "   # " : "", note);
		return;
	}
	fputs(lead, stdout);
	fputs(cmd, stdout);
	say(stdout, note[0] != '\0' ? "   # " : "", "%s", note);
	if (ferror(stdout)) {
		perror("perfdoctor");
		exit(2);
	}
}

void print_verdict(const struct verdict *v, const char *user, const char *path,
		   const char *how)
{
	int i;

	say(stdout, "", "%s", "");
	if (v->answer == ANSWER_YES)
		say(stdout, "",
		    "verdict:   YES: %s can monitor the whole system with %s%s",
		    user, path, how);
	else if (v->answer == ANSWER_NO)
		say(stdout, "", "verdict:   NO: %s", v->reason);
	else
		say(stdout, "", "verdict:   UNKNOWN: %s", v->reason);
	for (i = 0; v->answer != ANSWER_YES && i < v->nalso; i++)
		say(stdout, "", "also:      %s: %s",
		    v->also[i].answer == ANSWER_NO ? "NO" : "UNKNOWN",
		    v->also[i].text);
	for (i = 0; i < v->nfixes; i++) {
		if (v->fixes[i].is_command) {
			char lead[128];

			put(lead, sizeof(lead), "fix:       %s",
			    v->fixes[i].lead);
			say_command(lead, v->fixes[i].text, v->fixes[i].note);
		} else {
			say(stdout, "", "fix:       %s", v->fixes[i].text);
		}
	}
}

void print_narrower(const char *why, const struct fix *f, int n)
{
	int i;

	say(stdout, "", "note:      %s", why);
	for (i = 0; i < n; i++) {
		if (f[i].is_command)
			say_command("narrower:  ", f[i].text, f[i].note);
		else
			say(stdout, "", "narrower:  %s", f[i].text);
	}
}

/* "suggest:   LEAD" and the preset for b that keeps who's access. */
static void suggest_preset(const char *lead, const struct binary_facts *b,
			   const struct subject *who,
			   const struct fix_context *fx)
{
	char line[2048], note[512], full[512];

	put(full, sizeof(full), "suggest:   %s", lead);
	if (fix_preset_line(line, sizeof(line), note, sizeof(note), b, who,
			    fx) == 0)
		say_command(full, line, note);
	else
		say(stdout, "", "%s%s", full,
		    line[0] != '\0'
			    ? line
			    : "setcap --perf-group=GROUP --perf FILE (no command here: perfdoctor sees none that keeps this user's access)");
}

void print_risk(const struct binary_facts *b, const struct subject *who,
		const struct fix_context *fx)
{
	const char *suggestion, *tail = PERF_SETCAP_FIX("<file>");
	enum risk_tier tier;
	cap_value_t worst;
	char line[2048];
	size_t sl, tl = strlen(tail);

	/*
	 * Set-user-ID root, where the kernel honours the bit: whoever may
	 * run it runs it as uid 0, with every capability root has, or, with
	 * file capabilities beside the bit, those (root's callers aside).
	 * Only the host's root: in another user namespace, uid 0 is
	 * whichever uid that namespace maps it to.
	 */
	if ((b->mode & S_ISUID) && b->uid == 0 && b->seen_from_host &&
	    b->target_known && b->target.kind == EXEC_TARGET_ELF &&
	    !b->target.nosuid && !b->target.noexec) {
		say(stdout, "",
		    "risk:      %s (set-user-ID root: whoever may execute it runs it as uid 0, %s; perf needs cap_perfmon and cap_syslog)",
		    risk_tier_name(RISK_ROOT),
		    b->caps != NULL && !foreign_rootid(b)
			    ? "the owner of root's files, with the file's capabilities (and every capability of root for callers whose real uid is 0)"
			    : "with every capability of root");
		say(stdout, "",
		    "suggest:   take the set-user-ID bit away (chmod u-s), then give the file only what perf needs: setcap --perf-group=GROUP --perf FILE");
	}
	/* Namespaced capabilities grant nothing here: no risk to tell of. */
	if (b->caps == NULL || foreign_rootid(b))
		return;
	tier = risk_highest(b->caps, ~0u, &worst);
	suggestion = risk_suggestion(b->caps, b->path);
	if (tier >= RISK_KERNEL_READ) {
		char name[64];

		say(stdout, "", "risk:      %s (%s: %s)", risk_tier_name(tier),
		    names_cap(worst, name, sizeof(name)), risk_reason(worst));
	}
	/*
	 * A binary in another root (a container's): a command pasted here
	 * would act on this host's file of that name, with this host's
	 * groups.
	 */
	if (b->rootfd >= 0) {
		if (suggestion != NULL || (b->mode & 0001) || b->uid != 0)
			say(stdout, "",
			    "suggest:   run perfdoctor in the root of process %d for commands: its files and groups are not this host's",
			    (int)b->root_of);
		return;
	}
	sl = suggestion != NULL ? strlen(suggestion) : 0;
	if (sl > tl && strcmp(suggestion + sl - tl, tail) == 0) {
		/* Its "<file>" is a redirection when pasted: the command. */
		char lead[512];

		put(lead, sizeof(lead), "%.*s", (int)(sl - tl), suggestion);
		suggest_preset(lead, b, who, fx);
	} else if (suggestion != NULL) {
		say(stdout, "", "suggest:   %s", suggestion);
	}
	/*
	 * Only the file's permitted set goes to every user: its inheritable
	 * bits go to those who bring them (a PAM deployment, which the
	 * preset would replace).
	 */
	if ((b->mode & 0001) && risk_highest(b->caps, 1u << CAP_PERMITTED,
					     NULL) >= RISK_KERNEL_READ)
		suggest_preset(
			"every user may run it with these capabilities; restrict it to a group: ",
			b, who, fx);
	if (b->uid != 0) {
		char lead[128];

		put(lead, sizeof(lead),
		    "suggest:   its owner (uid %u), not root, can change who runs it: ",
		    (unsigned)b->uid);
		if (fix_owner_line(line, sizeof(line), b) == 0)
			say_command(lead, line, "");
		else
			say(stdout, "", "%s%s", lead, line);
	}
}

void print_pam(const struct pam_view *pv, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		say(stdout, "", "%-10s %s: %s", "pam:", pv[i].service,
		    pv[i].stack);
		say(stdout, "",
		    "%-10s inheritable and bounding: %s (%s); ambient: %s (%s)",
		    "", answer_name(pv[i].iab_reaches), pv[i].iab_why,
		    answer_name(pv[i].amb_reaches), pv[i].amb_why);
		if (pv[i].warning[0] != '\0')
			say(stdout, "", "%-10s %s", "warning:", pv[i].warning);
		if (i == 0 || strcmp(pv[i].grant, pv[i - 1].grant) != 0)
			say(stdout, "", "%-10s %s", "pam_cap:", pv[i].grant);
	}
}
