/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's verdict for one subject: the kernel's execve() rule for
 * capabilities, then perf_event_open()'s check, each fact that cannot be
 * known making the answer "unknown" rather than "yes". The first thing in
 * the way is the reason; the fix lines say how to remove it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mask.h"
#include "names.h"
#include "perf.h"
#include "perfdoctor.h"

/* Another blocker, for an "also:" line: once, and not the verdict's own. */
static void also(struct verdict *v, enum answer a, const char *text)
{
	int i;

	if (strcmp(v->reason, text) == 0)
		return;
	for (i = 0; i < v->nalso; i++)
		if (strcmp(v->also[i].text, text) == 0)
			return;
	if (v->nalso == MAX_ALSO)
		return;
	v->also[v->nalso].answer = a;
	snprintf(v->also[v->nalso].text, sizeof(v->also[0].text), "%s", text);
	v->nalso++;
}

/*
 * Records a blocker: the first one is the one to fix first, and NO
 * (certain) beats UNKNOWN (may or may not block). Every other blocker
 * is kept too, so that each one is named.
 */
static void block(struct verdict *v, enum answer a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void block(struct verdict *v, enum answer a, const char *fmt, ...)
{
	char text[sizeof(v->reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (v->answer == ANSWER_NO ||
	    (v->answer == ANSWER_UNKNOWN && a != ANSWER_NO)) {
		also(v, a, text);
		return;
	}
	if (v->answer == ANSWER_UNKNOWN)
		also(v, ANSWER_UNKNOWN, v->reason);
	v->answer = a;
	memcpy(v->reason, text, sizeof(text));
}

void add_fix(struct verdict *v, const char *fmt, ...)
{
	struct fix f;
	va_list ap;

	memset(&f, 0, sizeof(f));
	va_start(ap, fmt);
	vsnprintf(f.text, sizeof(f.text), fmt, ap);
	va_end(ap);
	add_fix_once(v, &f);
}

void add_fix_once(struct verdict *v, const struct fix *f)
{
	int i;

	for (i = 0; i < v->nfixes; i++)
		if (strcmp(v->fixes[i].text, f->text) == 0)
			return;
	if (v->nfixes < MAX_FIXES)
		v->fixes[v->nfixes++] = *f;
}

void put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* The file's capabilities decide nothing here: why, and what to do. */
static void target_blocks(struct verdict *v, const struct binary_facts *b)
{
	char buf[200];
	const char *problem = exec_target_problem(&b->target, buf, sizeof(buf));

	block(v, ANSWER_NO, "%s %s", b->path, problem);
	/*
	 * Words, no command: perfdoctor cannot name the copy or the binary
	 * the script runs, and judges that one when asked to.
	 */
	if (b->target.kind == EXEC_TARGET_ELF)
		add_fix(v,
			"copy perf to a filesystem mounted without nosuid and noexec, then run perfdoctor on the copy");
	else
		add_fix(v,
			"find the ELF binary it runs (readlink -f, file: it must say ELF), then run perfdoctor on that one");
}

/* Whether the kernel applies b's file capabilities at exec at all. */
static int caps_honoured(const struct binary_facts *b)
{
	return b->target_known && b->target.kind == EXEC_TARGET_ELF &&
	       !b->target.nosuid && !b->target.noexec;
}

/*
 * Root's exec rule applies: a real or effective uid of 0, and no
 * SECBIT_NOROOT, which the kernel looks at first and which makes uid 0
 * at exec like any other uid. (Unknown securebits are judged both ways,
 * by judge().)
 */
static int root_rule(const struct subject *who)
{
	return who->is_root && who->noroot == ANSWER_NO;
}

/*
 * Namespaced file capabilities (a v3 attribute with a root id) count only
 * in a user namespace whose root is that uid: everywhere else, the initial
 * namespace included, exec ignores them. A session in another namespace
 * gets nothing perf honours anyway (judge_userns), so 0 is the only root
 * id that can help.
 */
uid_t foreign_rootid(const struct binary_facts *b)
{
	uid_t owner;

	if (b->caps == NULL)
		return 0;
	owner = cap_get_nsowner(b->caps);
	return owner == (uid_t)-1 ? 0 : owner;
}

/*
 * fE with a permitted bit the bounding set (or, for fI, the inheritable
 * set) keeps out of P': the kernel refuses the exec itself (EPERM,
 * "insufficient to execute correctly"), for root as for anyone, since it
 * applies the file's sets before root's. The bits missing, or 0.
 */
static uint64_t exec_refused(const struct binary_facts *b,
			     const struct subject *who)
{
	uint64_t fp = mask_of_flag(b->caps, CAP_PERMITTED);
	uint64_t fi = mask_of_flag(b->caps, CAP_INHERITABLE);
	uint64_t fe = mask_of_flag(b->caps, CAP_EFFECTIVE);

	if (b->caps == NULL || !caps_honoured(b) || foreign_rootid(b) || !fe)
		return 0;
	return fp & ~((fp & who->bounding) | (fi & who->inheritable));
}

/*
 * The kernel's exec rule: P' = (fP & bounding) | (fI & pI), E' = fE ?
 * P' : 0, the ambient set cleared; a file whose capabilities do not
 * count keeps only the ambient set (P' = E' = A); root gets P' =
 * bounding | pI whatever the file holds, raised into E' when its
 * effective uid is 0 or the file's fE is set (a real uid of 0 alone
 * raises nothing: E' is the ambient set, which file capabilities clear
 * for root as for anyone). no_new_privs caps P' at the
 * old P. *p_free gets P' before that cap, *e_after E' (0 when the kernel
 * refuses the exec).
 */
static void exec_sets(const struct binary_facts *b, const struct subject *who,
		      uint64_t *p_free, uint64_t *e_after)
{
	uint64_t fp = mask_of_flag(b->caps, CAP_PERMITTED);
	uint64_t fi = mask_of_flag(b->caps, CAP_INHERITABLE);
	uint64_t fe = mask_of_flag(b->caps, CAP_EFFECTIVE);
	int honoured =
		b->caps != NULL && caps_honoured(b) && !foreign_rootid(b);
	uint64_t p_after;

	if (root_rule(who)) {
		*p_free = who->bounding | who->inheritable;
		p_after =
			who->no_new_privs ? *p_free & who->permitted : *p_free;
		if (who->root_euid || (honoured && fe))
			*e_after = p_after;
		else
			*e_after = honoured ? 0 : who->ambient;
	} else if (!honoured) {
		*p_free = p_after = *e_after = who->ambient;
	} else {
		*p_free = (fp & who->bounding) | (fi & who->inheritable);
		p_after =
			who->no_new_privs ? *p_free & who->permitted : *p_free;
		*e_after = fe ? p_after : 0;
	}
	if (exec_refused(b, who))
		*e_after = 0;
}

/* What keeps the session from running the binary at all. */
static void judge_exec(const struct binary_facts *b, const struct subject *who,
		       struct verdict *v)
{
	if (who->may_exec == ANSWER_NO) {
		block(v, ANSWER_NO, "%s may not execute %s", who->name,
		      b->path);
		v->want_exec = 1;
	} else if (who->may_exec == ANSWER_UNKNOWN) {
		block(v, ANSWER_UNKNOWN,
		      "perfdoctor cannot check whether %s may execute %s (run it as root, or as %s)",
		      who->name, b->path, who->name);
	}
	if (who->seccomp == 1)
		block(v, ANSWER_NO,
		      "the session is in seccomp strict mode, which allows no execve()");
}

/* Why exec cleared the ambient set, as a clause of judge_root()'s reason. */
static const char *cleared_clause(const struct subject *who)
{
	switch (who->cleared_by) {
	case CLEARED_BY_SETUID:
		return ", and the change of effective uid clears the ambient set";
	case CLEARED_BY_SETGID:
		return ", and the set-group-ID bit of the binary, changing the effective gid, clears the ambient set";
	case CLEARED_BY_MIXED_IDS:
		return ", and exec on Linux 6.15 and before clears the ambient set of a session whose effective ids differ from its real ones";
	case CLEARED_BY_EGID_OUTSIDE:
		return ", and exec clears the ambient set of a session whose effective gid is neither its filesystem gid nor one of its groups";
	default:
		return "";
	}
}

/*
 * Root gets the bounding set at exec, file capabilities or not: what
 * keeps cap_perfmon from it is the bounding set (a container started
 * without it), no_new_privs holding it to a permitted set without it, or
 * an effective uid other than 0.
 */
static void judge_root(const struct binary_facts *b, const struct subject *who,
		       uint64_t needed, struct verdict *v)
{
	uint64_t refused = exec_refused(b, who);
	char names[512];

	names_or_none(refused ? refused : BIT(CAP_PERFMON), names,
		      sizeof(names));
	if (refused) {
		block(v, ANSWER_NO,
		      "the session's bounding set lacks %s, so the kernel refuses to execute a file that needs it in its effective set",
		      names);
		add_fix(v,
			"allow %s in the bounding set of that service or container",
			names);
	} else if (!((who->bounding | who->inheritable) & needed)) {
		block(v, ANSWER_NO,
		      "the session's bounding set lacks cap_perfmon, and exec gives root nothing outside it");
		add_fix(v,
			"allow %s in the bounding set of that service or container",
			names);
	} else if (who->no_new_privs && !(who->permitted & needed)) {
		block(v, ANSWER_NO,
		      "the session has no_new_privs set and lacks cap_perfmon in its permitted set, so exec may not add it");
		add_fix(v,
			"run perf from a session without NoNewPrivileges= (systemd) or no_new_privs");
	} else if (!who->root_euid && who->suid_to != (uid_t)-1) {
		block(v, ANSWER_NO,
		      "%s is set-user-ID to uid %u, which exec makes the effective uid: exec raises none of root's capabilities into the effective set when the effective uid is not 0%s",
		      b->path, (unsigned)who->suid_to,
		      (who->ambient_cleared & needed) ? cleared_clause(who)
						      : "");
	} else if (!who->root_euid) {
		block(v, ANSWER_NO,
		      "only the session's real uid is 0: exec raises none of root's capabilities into the effective set when the effective uid is another%s",
		      (who->ambient | who->ambient_cleared) & needed
			      ? (who->ambient_cleared & needed
					 ? cleared_clause(who)
					 : ", and the file capabilities of the binary clear the ambient set")
			      : "");
	}
}

/*
 * The seccomp filter answers before any capability is looked at: a call
 * it refuses fails for CAP_PERFMON and CAP_SYS_ADMIN alike.
 */
static void judge_seccomp(const struct subject *who, struct verdict *v)
{
	const struct seccomp_view *sc = who->sc;

	if (who->seccomp != 2 || (sc != NULL && sc->allows == ANSWER_YES))
		return;
	if (sc != NULL && sc->allows == ANSWER_NO) {
		block(v, ANSWER_NO,
		      "the session's seccomp filter refuses perf_event_open() whatever its capabilities: %s",
		      sc->why);
		add_fix(v,
			"run perf under a seccomp profile that lets perf_event_open() through (a container's: one that allows it to CAP_PERFMON, rather than seccomp=unconfined or CAP_SYS_ADMIN)");
		return;
	}
	block(v, ANSWER_UNKNOWN,
	      "the session runs under a seccomp filter, which may refuse perf_event_open() whatever its capabilities%s%s",
	      sc != NULL && sc->why[0] ? ": " : "", sc != NULL ? sc->why : "");
}

/* A user namespace: no capability gained in there counts. */
static void judge_userns(const struct subject *who, struct verdict *v)
{
	if (who->init_userns == ANSWER_NO) {
		block(v, ANSWER_NO,
		      "the session is in a user namespace: perf_event_open() asks for CAP_PERFMON in the initial one, and no capability gained in there counts");
		add_fix(v,
			"run perf from a session outside the container or user namespace");
	} else if (who->init_userns == ANSWER_UNKNOWN) {
		block(v, ANSWER_UNKNOWN,
		      "cannot tell whether the session is in the initial user namespace%s%s%s",
		      who->userns_how != NULL && who->userns_how[0] ? " (" : "",
		      who->userns_how != NULL ? who->userns_how : "",
		      who->userns_how != NULL && who->userns_how[0] ? ")" : "");
	}
}

/*
 * Why exec leaves the needed capabilities out of the effective set: the
 * first reason that applies, from the binary's kind and filesystem to
 * the session's limits and the file's own sets, with its fix.
 */
static void judge_file_caps(const struct kernel_facts *k,
			    const struct binary_facts *b,
			    const struct subject *who,
			    const struct fix_context *fx, uint64_t p_free,
			    uint64_t needed, struct verdict *v)
{
	uint64_t fp = mask_of_flag(b->caps, CAP_PERMITTED);
	uint64_t fi = mask_of_flag(b->caps, CAP_INHERITABLE);
	int knows_perfmon = perf_knows_perfmon(k->max_bits);
	/*
	 * fE with a permitted bit P' lacks (the bounding set took it):
	 * execve() fails with EPERM.
	 */
	uint64_t refused = exec_refused(b, who);

	if (!b->target_known && !root_rule(who) && ((fp | fi) & needed)) {
		block(v, ANSWER_UNKNOWN,
		      "cannot read %s to tell an ELF binary, whose file capabilities count, from a script, whose do not (%s)",
		      b->path, strerror(b->target_err));
	} else if (b->target_known && !caps_honoured(b) && !root_rule(who)) {
		target_blocks(v, b);
	} else if (foreign_rootid(b) && !root_rule(who)) {
		block(v, ANSWER_NO,
		      "the file capabilities of %s are for the user namespace whose root is uid %u (rootid): the kernel ignores them outside it",
		      b->path, (unsigned)foreign_rootid(b));
		v->want_preset = 1;
	} else if (b->xattr_unsupported) {
		block(v, ANSWER_NO,
		      "the filesystem of %s cannot store file capabilities",
		      b->path);
		add_fix(v,
			"copy perf to a filesystem that stores extended attributes, then run perfdoctor on the copy");
	} else if ((p_free & needed) && who->no_new_privs) {
		block(v, ANSWER_NO,
		      "the session has no_new_privs set, so exec grants no file capabilities");
		add_fix(v,
			"run perf from a session without NoNewPrivileges= (systemd) or no_new_privs");
	} else if (((fp | fi) & needed & ~who->bounding) || refused) {
		uint64_t lack = refused ? refused : BIT(CAP_PERFMON);
		char names[512];

		names_or_none(lack, names, sizeof(names));
		block(v, ANSWER_NO, "the session's bounding set lacks %s%s",
		      names,
		      refused ? ", so the kernel refuses to execute a file that needs it in its effective set"
			      : "");
		/*
		 * A new login whose bounding set had them before pam_cap: the
		 * drop is capability.conf's, and its line is the fix.
		 */
		if (fx->login && (fx->base_bounding & lack) == lack)
			fix_pam_grant(v, who, fx,
				      (fi & needed) && !(fp & needed), lack);
		else
			add_fix(v,
				"allow %s in the bounding set of that service or container",
				names);
	} else if ((fi & needed) && !(fp & needed)) {
		block(v, ANSWER_NO,
		      "%s grants cap_perfmon only to callers holding it in their inheritable set, and %s does not",
		      b->path, who->name);
		/*
		 * Only the grant is a fix: the preset would replace the
		 * PAM deployment this file is set up for. No fix when no
		 * edit of capability.conf or the stack would reach.
		 */
		fix_pam_grant(v, who, fx, 1, 0);
	} else if (!knows_perfmon) {
		block(v, ANSWER_NO,
		      "this kernel predates CAP_PERFMON and %s lacks cap_sys_admin",
		      b->path);
		v->want_preset = 1;
	} else if (fp & needed) {
		block(v, ANSWER_NO,
		      "%s holds cap_perfmon in permitted but not effective, and perf does not raise it",
		      b->path);
		v->want_preset = 1;
	} else {
		block(v, ANSWER_NO, "%s carries no cap_perfmon%s%s", b->path,
		      fx->grant_note ? "; " : "",
		      fx->grant_note ? fx->grant_note : "");
		/*
		 * An ambient grant that pam_cap never reaches: moved up, it
		 * works without file capabilities (an inheritable one would
		 * still need the file's).
		 */
		if (fx->shadow != 0 && fx->shadow_ambient && fx->pv != NULL &&
		    fx->pv->amb_reaches == ANSWER_YES)
			fix_shadowed_grant(v, fx);
		v->want_preset = 1;
	}
	/*
	 * no_new_privs blocks whatever else does: exec grants no file
	 * capability under it, so a fix of the rest alone would not do.
	 */
	if (who->no_new_privs && ((fp | fi) & needed) && caps_honoured(b) &&
	    !foreign_rootid(b)) {
		block(v, ANSWER_NO,
		      "the session has no_new_privs set, so exec grants no file capabilities");
		add_fix(v,
			"run perf from a session without NoNewPrivileges= (systemd) or no_new_privs");
	}
}

/*
 * Uid 0 under SECBIT_NOROOT: exec gives it what it gives anyone else, so
 * what the file and the ambient set grant decides, and that is what
 * judge_file_caps() names and fixes, after the reason root gets nothing.
 */
static void judge_noroot(const struct kernel_facts *k,
			 const struct binary_facts *b,
			 const struct subject *who,
			 const struct fix_context *fx, uint64_t p_free,
			 uint64_t needed, struct verdict *v)
{
	block(v, ANSWER_NO,
	      "the session's securebits hold SECBIT_NOROOT, so exec gives uid 0 none of root's capabilities, only what %s and the ambient set grant",
	      b->path);
	judge_file_caps(k, b, who, fx, p_free, needed, v);
}

/* The kernel's in_group_p(): the filesystem gid or a supplementary group. */
static int in_group(const struct subject *who, gid_t gid)
{
	int i;

	if (who->gid == gid)
		return 1;
	for (i = 0; i < who->ngroups; i++)
		if (who->groups[i] == gid)
			return 1;
	return 0;
}

/*
 * The ambient set held what perf needs, and exec cleared it: it took the
 * ids for changed, by the binary's set-user-ID or set-group-ID bit or by
 * the session's own ids (exec_subject() tells which), and the kernel
 * then keeps no ambient capability. The reason and the fix name that
 * cause: taking the bits away does not help a session whose own ids
 * are the cause.
 */
static void judge_id_change(const struct binary_facts *b,
			    const struct subject *who, struct verdict *v)
{
	if (who->cleared_by == CLEARED_BY_MIXED_IDS) {
		block(v, ANSWER_NO,
		      "the session's effective uid or gid differs from its real one, which exec on Linux 6.15 and before takes for a change of ids, and so clears the ambient set that holds cap_perfmon");
		add_fix(v,
			"run perf from a session whose real and effective ids are the same");
		return;
	}
	if (who->cleared_by == CLEARED_BY_EGID_OUTSIDE) {
		block(v, ANSWER_NO,
		      "the session's effective gid %u is neither its filesystem gid (%u) nor one of its groups, which exec takes for a change of ids, and so clears the ambient set that holds cap_perfmon",
		      (unsigned)who->egid, (unsigned)who->gid);
		add_fix(v,
			"run perf from a process whose filesystem gid is its effective gid (one that has not called setfsgid(2) since its exec)");
		return;
	}
	if (who->cleared_by == CLEARED_BY_SETUID)
		block(v, ANSWER_NO,
		      "%s is set-user-ID to uid %u: exec changes the effective uid, which clears the ambient set that holds cap_perfmon",
		      b->path, (unsigned)b->uid);
	else if (!in_group(who, b->gid))
		block(v, ANSWER_NO,
		      "%s is set-group-ID to gid %u, a group %s is not in: exec changes the effective gid, which clears the ambient set that holds cap_perfmon",
		      b->path, (unsigned)b->gid, who->name);
	else
		block(v, ANSWER_NO,
		      "%s is set-group-ID to gid %u, not %s's real gid: exec on Linux 6.15 and before takes that for a change of ids, even to a group of the caller's, and clears the ambient set that holds cap_perfmon",
		      b->path, (unsigned)b->gid, who->name);
	add_fix(v,
		"take the set-user-ID and set-group-ID bits away (chmod ug-s), or give the file capabilities instead of relying on the ambient set");
}

static void judge_once(const struct kernel_facts *k,
		       const struct binary_facts *b, const struct subject *who,
		       const struct fix_context *fx, struct verdict *v)
{
	uint64_t needed, p_free, e_after;

	memset(v, 0, sizeof(*v));
	v->answer = ANSWER_YES;
	needed = perf_enough(k->max_bits);
	if (!b->exists) {
		block(v, ANSWER_NO, "%s does not exist", b->path);
		add_fix(v,
			"install perf (Debian: apt-get install linux-perf) or name the binary");
		return;
	}
	if (!b->is_regular) {
		block(v, ANSWER_NO, "%s is not a regular file", b->path);
		return;
	}
	exec_sets(b, who, &p_free, &e_after);
	/* All of it: setcap --perf grants cap_syslog too, root everything. */
	v->at_exec = e_after;
	judge_exec(b, who, v);
	/* paranoid <= 0: system-wide monitoring is open to everybody. */
	if (k->paranoid == INT32_MIN || k->paranoid > 0) {
		judge_userns(who, v);
		if (!(e_after & needed) && (who->ambient_cleared & needed) &&
		    !root_rule(who))
			judge_id_change(b, who, v);
		if (!(e_after & needed) && root_rule(who))
			judge_root(b, who, needed, v);
		else if (!(e_after & needed) && who->is_root)
			judge_noroot(k, b, who, fx, p_free, needed, v);
		else if (!(e_after & needed))
			judge_file_caps(k, b, who, fx, p_free, needed, v);
	}
	judge_seccomp(who, v);
	/* After the rest: the preset also answers "may not execute". */
	if (v->answer == ANSWER_NO)
		fix_perf(v, b, who, fx);
}

/*
 * File capabilities perfdoctor could not read, on a file whose would
 * count (an ELF binary, or one it could not read to tell): whatever they
 * are decides. Some clear the ambient set, for root too; fE with a
 * permitted bit the bounding set lacks makes the kernel refuse the exec;
 * and an attribute the kernel cannot read or parse either fails the exec.
 * So no answer rests on "none": a yes becomes unknown, a no gets the
 * doubt as an also: line.
 */
static void judge_unread_caps(const struct binary_facts *b, struct verdict *v)
{
	if (b->caps != NULL || b->caps_err == 0 ||
	    (b->target_known && !caps_honoured(b)))
		return;
	block(v, ANSWER_UNKNOWN,
	      "perfdoctor cannot read the file capabilities of %s (security.capability: %s): with some, exec clears the ambient set and applies the file's sets, and may refuse the file, so the capabilities perf would get are unknown",
	      b->path, strerror(b->caps_err));
}

/* Set-user-ID and owned by uid 0 (in the namespace perfdoctor sees it in). */
static int suid_root(const struct binary_facts *b)
{
	return (b->mode & S_ISUID) && b->uid == 0;
}

/*
 * The bits exec looks at: set-user-ID, and set-group-ID with group
 * execute (without it, the set-group-ID bit means mandatory locking).
 */
static int id_bits(const struct binary_facts *b)
{
	return (b->mode & S_ISUID) ||
	       (b->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP);
}

/*
 * Whether exec takes effective ids euid and egid for a change of the
 * caller's, and so clears the ambient set, by the rule of the kernel's
 * release: since 2025 (seen on Linux 6.18) the new effective uid against
 * the old one and the new effective gid against the caller's groups
 * (in_group_p(): the filesystem gid and the supplementary groups);
 * before, both against the real ones, so that a caller whose effective
 * ids differ from its real ones lost its ambient set at any exec.
 */
static int ids_changed(const struct subject *caller, uid_t euid, gid_t egid,
		       int by_effective)
{
	if (by_effective)
		return euid != caller->euid || !in_group(caller, egid);
	return euid != caller->ruid || egid != caller->rgid;
}

int own_ids_changed(const struct kernel_facts *k, const struct subject *who)
{
	return (k->setid_by_effective != ANSWER_NO &&
		ids_changed(who, who->euid, who->egid, 1)) ||
	       (k->setid_by_effective != ANSWER_YES &&
		ids_changed(who, who->euid, who->egid, 0));
}

/*
 * The caller as exec makes it, as far as capabilities go. Unless the
 * kernel ignores the bits (under no_new_privs, on a nosuid mount, and
 * for a script, whose interpreter's bits count instead, which
 * caps_honoured() also tells), a set-user-ID binary makes its owner the
 * effective uid: a root owner turns root's exec rule on, any other turns
 * the raise into the effective set off, even for a caller that was uid
 * 0. Effective ids that exec takes for a change (ids_changed()) clear
 * the ambient set. Then, with an effective uid of 0 and
 * a real uid of another, file capabilities the kernel honours turn
 * root's rule off: exec gives what the file grants, as to anyone (the
 * kernel's "set-user-ID and file capabilities mixed").
 */
static void exec_subject(const struct binary_facts *b,
			 const struct subject *caller, int by_effective,
			 struct subject *out)
{
	int has_fcap =
		b->caps != NULL && caps_honoured(b) && !foreign_rootid(b);
	int bits = caps_honoured(b) && !caller->no_new_privs && id_bits(b);
	int set_uid = bits && (b->mode & S_ISUID);
	int set_gid = bits && (b->mode & S_ISGID);

	uid_t euid = set_uid ? b->uid : caller->euid;
	gid_t egid = set_gid ? b->gid : caller->egid;

	*out = *caller;
	out->ambient_cleared = 0;
	out->suid_to = (uid_t)-1;
	out->cleared_by = CLEARED_BY_NONE;
	if (set_uid) {
		if (b->uid == 0 && !caller->root_euid &&
		    out->noroot == ANSWER_UNKNOWN)
			out->noroot_why =
				"the binary is set-user-ID root, and whether exec then gives root's capabilities depends on the session's securebits (SECBIT_NOROOT takes that away), which perfdoctor cannot read: run it in that session itself to know";
		out->euid = b->uid;
		out->root_euid = b->uid == 0;
		out->is_root = out->real_root || out->root_euid;
		if (b->uid != caller->euid)
			out->suid_to = b->uid;
	}
	if (ids_changed(caller, euid, egid, by_effective)) {
		out->ambient_cleared = out->ambient;
		out->ambient = 0;
		/*
		 * The cause to name, and so the fix: the session's own ids
		 * when exec takes them for a change without any bit (taking
		 * the bits away would not help), else the set-user-ID bit
		 * if it changes them by itself, else the set-group-ID one.
		 */
		if (ids_changed(caller, caller->euid, caller->egid,
				by_effective))
			out->cleared_by = by_effective ? CLEARED_BY_EGID_OUTSIDE
						       : CLEARED_BY_MIXED_IDS;
		else if (set_uid &&
			 ids_changed(caller, euid, caller->egid, by_effective))
			out->cleared_by = CLEARED_BY_SETUID;
		else
			out->cleared_by = CLEARED_BY_SETGID;
	}
	if (has_fcap && out->root_euid && !out->real_root)
		out->is_root = out->root_euid = 0;
}

/*
 * A uid-0 session whose securebits are unknown (another process's): a
 * yes that needs root's exec rule is unknown, since SECBIT_NOROOT would
 * take the rule away; a yes without the rule (the ambient set, or file
 * capabilities that grant cap_perfmon anyway) holds either way, and so
 * does a no, the rule giving root a superset of what the file gives.
 */
static void judge_rules(const struct kernel_facts *k,
			const struct binary_facts *b,
			const struct subject *caller,
			const struct fix_context *fx, struct verdict *v)
{
	struct subject each, execing;
	const struct subject *who = &execing;
	struct verdict without;
	int i;

	exec_subject(b, caller, k->setid_by_effective != ANSWER_NO, &execing);
	each = execing;
	if (!who->is_root || who->noroot != ANSWER_UNKNOWN) {
		judge_once(k, b, who, fx, v);
		return;
	}
	each.noroot = ANSWER_NO;
	judge_once(k, b, &each, fx, v);
	if (v->answer == ANSWER_NO)
		return;
	each.noroot = ANSWER_YES;
	judge_once(k, b, &each, fx, &without);
	if (without.answer == ANSWER_YES)
		return;
	block(v, ANSWER_UNKNOWN, "%s", who->noroot_why);
	/* What makes it yes without the rule makes it yes either way. */
	for (i = 0; i < without.nfixes; i++)
		add_fix_once(v, &without.fixes[i]);
}

/* The verdict for b were it an ELF binary, which perfdoctor could not read. */
static void judge_as_elf(const struct kernel_facts *k,
			 const struct binary_facts *b,
			 const struct subject *who,
			 const struct fix_context *fx, struct verdict *as_elf)
{
	struct binary_facts elf = *b;

	elf.target_known = 1;
	memset(&elf.target, 0, sizeof(elf.target));
	elf.target.kind = EXEC_TARGET_ELF;
	judge_rules(k, &elf, who, fx, as_elf);
}

/*
 * A binary perfdoctor could not read carries file capabilities: as an
 * ELF binary, the kernel applies them (and clears the ambient set, and
 * may refuse the exec); as a script, it ignores them. A yes that holds
 * only the second way is unknown.
 */
static void judge_unread_target(const struct kernel_facts *k,
				const struct binary_facts *b,
				const struct subject *who,
				const struct fix_context *fx, struct verdict *v)
{
	struct verdict as_elf;

	if (v->answer != ANSWER_YES || b->target_known || b->caps == NULL ||
	    !b->is_regular)
		return;
	judge_as_elf(k, b, who, fx, &as_elf);
	if (as_elf.answer == ANSWER_YES)
		return;
	block(v, ANSWER_UNKNOWN,
	      "perfdoctor cannot read %s to tell an ELF binary from a script (%s), and as an ELF binary, whose file capabilities count and clear the ambient set, %s",
	      b->path, strerror(b->target_err), as_elf.reason);
}

/*
 * A set-user-ID or set-group-ID binary perfdoctor could not read: as an
 * ELF binary, exec applies the bits (a root owner makes the caller uid
 * 0; a new effective uid or gid clears the ambient set); as a script,
 * the kernel ignores them. An answer that holds only one way is unknown.
 */
static void judge_unread_ids(const struct kernel_facts *k,
			     const struct binary_facts *b,
			     const struct subject *who,
			     const struct fix_context *fx, struct verdict *v)
{
	struct verdict as_elf;
	char was[sizeof(v->reason)];

	if (v->answer == ANSWER_UNKNOWN || b->target_known || !id_bits(b) ||
	    !b->is_regular)
		return;
	judge_as_elf(k, b, who, fx, &as_elf);
	if (as_elf.answer == v->answer)
		return;
	memcpy(was, v->reason, sizeof(was));
	v->answer = ANSWER_UNKNOWN;
	if (as_elf.answer == ANSWER_NO)
		put(v->reason, sizeof(v->reason),
		    "perfdoctor cannot read %s to tell an ELF binary, whose set-user-ID or set-group-ID bit exec applies, from a script, whose bits the kernel ignores (%s); as an ELF binary: %s",
		    b->path, strerror(b->target_err), as_elf.reason);
	else if (suid_root(b))
		put(v->reason, sizeof(v->reason),
		    "perfdoctor cannot read %s to tell an ELF binary, whose set-user-ID bit makes exec run it as uid 0, from a script, whose bit the kernel ignores (%s); as a script: %s",
		    b->path, strerror(b->target_err), was);
	else
		put(v->reason, sizeof(v->reason),
		    "perfdoctor cannot read %s to tell an ELF binary, whose set-user-ID or set-group-ID bit exec applies, from a script, whose bits the kernel ignores (%s); as a script: %s",
		    b->path, strerror(b->target_err), was);
}

/*
 * A script whose interpreter has set-id bits or file capabilities (or
 * one perfdoctor cannot look into): exec applies the interpreter's, so
 * a no that the most an interpreter can give would turn is unknown; the
 * interpreter is the binary to judge. The most is set-user-ID root
 * (root's rule), or, where that rule does not apply (SECBIT_NOROOT),
 * file capabilities that grant what perf needs.
 */
static void judge_interp(const struct kernel_facts *k,
			 const struct binary_facts *b,
			 const struct subject *who,
			 const struct fix_context *fx, struct verdict *v)
{
	struct binary_facts most = *b;
	struct verdict as_most;
	char was[sizeof(v->reason)];
	cap_t fcaps;
	int i;

	if (v->answer != ANSWER_NO || !b->target_known ||
	    b->target.kind != EXEC_TARGET_SCRIPT || !b->interp_privileged)
		return;
	most.target.kind = EXEC_TARGET_ELF;
	most.target.nosuid = 0;
	most.mode |= S_ISUID;
	most.uid = 0;
	most.caps = NULL;
	most.caps_err = 0;
	judge_rules(k, &most, who, fx, &as_most);
	for (i = 0; as_most.answer == ANSWER_NO && i < 2; i++) {
		/* One at a time: a bit the bounding set lacks fails the exec. */
		cap_value_t one = i == 0 ? CAP_PERFMON : CAP_SYS_ADMIN;

		if ((fcaps = cap_init()) == NULL ||
		    cap_set_flag(fcaps, CAP_PERMITTED, 1, &one, CAP_SET) < 0 ||
		    cap_set_flag(fcaps, CAP_EFFECTIVE, 1, &one, CAP_SET) < 0) {
			/* ENOMEM: untold, so the no may not stand. */
			cap_free(fcaps);
			as_most.answer = ANSWER_UNKNOWN;
			break;
		}
		most.mode &= ~(mode_t)(S_ISUID | S_ISGID);
		most.caps = fcaps;
		judge_rules(k, &most, who, fx, &as_most);
		cap_free(fcaps);
	}
	if (as_most.answer == ANSWER_NO)
		return;
	memcpy(was, v->reason, sizeof(was));
	v->answer = ANSWER_UNKNOWN;
	if (b->interp_path[0] == '/')
		put(v->reason, sizeof(v->reason),
		    "%s is a script whose interpreter %s has set-user-ID or set-group-ID bits or file capabilities, or is a file perfdoctor cannot look into: exec applies the interpreter's, not the script's; run perfdoctor on the interpreter (as for the script itself: %s)",
		    b->path, b->interp_path, was);
	else
		put(v->reason, sizeof(v->reason),
		    "%s is a script whose interpreter perfdoctor cannot look into (a name the caller's working directory resolves, or a #! line cut short), and exec applies the interpreter's set-user-ID and set-group-ID bits and file capabilities: run perfdoctor on the interpreter (as for the script itself: %s)",
		    b->path, was);
}

/*
 * no_new_privs makes exec ignore the set-user-ID and set-group-ID bits:
 * when those bits would have turned the answer, that is the reason,
 * named first, with its fix.
 */
static void judge_nnp_bits(const struct kernel_facts *k,
			   const struct binary_facts *b,
			   const struct subject *who,
			   const struct fix_context *fx, struct verdict *v)
{
	struct subject unbound = *who;
	struct binary_facts plain = *b;
	struct verdict with_bits, without_bits;
	char was[sizeof(v->reason)];

	if (v->answer != ANSWER_NO || !who->no_new_privs || !id_bits(b) ||
	    !caps_honoured(b))
		return;
	unbound.no_new_privs = 0;
	judge_rules(k, b, &unbound, fx, &with_bits);
	plain.mode &= ~(mode_t)(S_ISUID | S_ISGID);
	judge_rules(k, &plain, &unbound, fx, &without_bits);
	if (with_bits.answer == without_bits.answer)
		return;
	memcpy(was, v->reason, sizeof(was));
	put(v->reason, sizeof(v->reason),
	    "the session has no_new_privs set, so exec ignores the set-user-ID and set-group-ID bits of %s",
	    b->path);
	also(v, ANSWER_NO, was);
	add_fix(v,
		"run perf from a session without NoNewPrivileges= (systemd) or no_new_privs");
}

/*
 * A traced session: an exec that changes the effective ids or adds
 * permitted capabilities keeps the change only if the tracer held
 * CAP_SYS_PTRACE when it attached (the kernel's ptracer_capable()),
 * which nothing in /proc tells; else the kernel holds the new permitted
 * set to the old one. A yes that needs a capability from outside the
 * session's permitted set is unknown.
 */
static void judge_traced(const struct kernel_facts *k,
			 const struct subject *who, struct verdict *v)
{
	uint64_t needed = perf_enough(k->max_bits);

	if (v->answer != ANSWER_YES || who->tracer <= 0 ||
	    (k->paranoid != INT32_MIN && k->paranoid <= 0) ||
	    (v->at_exec & who->permitted & needed))
		return;
	block(v, ANSWER_UNKNOWN,
	      "the session is traced by process %d: exec keeps the capabilities it adds, and what a set-user-ID or set-group-ID bit gives, only if the tracer held CAP_SYS_PTRACE when it attached, which perfdoctor cannot tell; else perf gets none outside the session's permitted set",
	      (int)who->tracer);
	add_fix(v, "run perf with no debugger or strace attached");
}

static void judge_all(const struct kernel_facts *k,
		      const struct binary_facts *b, const struct subject *who,
		      const struct fix_context *fx, struct verdict *v)
{
	judge_rules(k, b, who, fx, v);
	judge_unread_caps(b, v);
	judge_unread_target(k, b, who, fx, v);
	judge_unread_ids(k, b, who, fx, v);
	judge_interp(k, b, who, fx, v);
	judge_nnp_bits(k, b, who, fx, v);
	judge_traced(k, who, v);
}

/*
 * A release whose rule for changed ids at exec perfdoctor does not know
 * (exec_subject()): judged both ways, an answer that differs is unknown.
 * The way that says no (or, between yes and unknown, the unknown one)
 * gives the reason, and its fixes and other blockers join the verdict:
 * what holds perf back there is what to fix; a reason of the verdict's
 * own that it replaces stays as an also: line.
 */
void judge(const struct kernel_facts *k, const struct binary_facts *b,
	   const struct subject *who, const struct fix_context *fx,
	   struct verdict *v)
{
	struct kernel_facts one = *k;
	struct verdict other;
	const struct verdict *named;
	enum answer own;
	char own_reason[sizeof(v->reason)], was[sizeof(v->reason)];
	int i;

	if (k->setid_by_effective != ANSWER_UNKNOWN) {
		judge_all(k, b, who, fx, v);
		return;
	}
	one.setid_by_effective = ANSWER_YES;
	judge_all(&one, b, who, fx, v);
	one.setid_by_effective = ANSWER_NO;
	judge_all(&one, b, who, fx, &other);
	if (other.answer == v->answer)
		return;
	named = v->answer == ANSWER_NO	      ? v
		: other.answer == ANSWER_NO   ? &other
		: v->answer == ANSWER_UNKNOWN ? v
					      : &other;
	own = v->answer;
	memcpy(own_reason, v->reason, sizeof(own_reason));
	memcpy(was, named->reason, sizeof(was));
	v->answer = ANSWER_UNKNOWN;
	put(v->reason, sizeof(v->reason),
	    "on Linux %d.%d, perfdoctor does not know whether exec tells a change of ids by the effective ids and the caller's groups (Linux 6.18) or by the real ids (6.15 and before, unless the change was carried back), which decides whether it clears the ambient set; the one way: %s",
	    k->major, k->minor, was);
	if (named == v)
		return;
	if (own == ANSWER_UNKNOWN)
		also(v, ANSWER_UNKNOWN, own_reason);
	for (i = 0; i < other.nalso; i++)
		also(v, other.also[i].answer, other.also[i].text);
	for (i = 0; i < other.nfixes; i++)
		add_fix_once(v, &other.fixes[i]);
}
