/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor's verdict for one subject: the kernel's execve() rule for
 * capabilities, then perf_event_open()'s check, each fact that cannot be
 * known making the answer "unknown" rather than "yes". The first thing in
 * the way is the reason; the fix lines say how to remove it.
 */
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mask.h"
#include "names.h"
#include "perf.h"
#include "perfdoctor.h"

/*
 * Records a blocker: the first one is the one to fix first, and NO
 * (certain) beats UNKNOWN (may or may not block).
 */
static void block(struct verdict *v, enum answer a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void block(struct verdict *v, enum answer a, const char *fmt, ...)
{
	va_list ap;

	if (v->answer == ANSWER_NO || (v->answer == ANSWER_UNKNOWN && a != ANSWER_NO))
		return;
	v->answer = a;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

void add_fix(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nfixes >= MAX_FIXES)
		return;
	va_start(ap, fmt);
	vsnprintf(v->fixes[v->nfixes++], sizeof(v->fixes[0]), fmt, ap);
	va_end(ap);
}

void put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/*
 * The group-restricted preset, never a bare "setcap ...=ep" that would
 * give perf to every user: the binary's own group when it already keeps
 * others out, else perf_users (created and joined first if need be).
 */
static void fix_with_preset(struct verdict *v, const struct binary_facts *b,
			    const struct subject *who,
			    const struct fix_context *fx)
{
	char gbuf[64];
	const char *grp = PERF_GROUP;

	if (b->gid != 0 && !(b->mode & 0001) && fx->in_file_group) {
		grp = names_group(b->gid, gbuf, sizeof(gbuf));
	} else if (!fx->perf_users_exists) {
		add_fix(v, "groupadd --system " PERF_GROUP "; usermod -aG " PERF_GROUP " %s"
			"   # %s then logs in again", who->name, who->name);
	} else if (!fx->in_perf_users && !who->is_root) {
		add_fix(v, "usermod -aG " PERF_GROUP " %s   # %s then logs in again",
			who->name, who->name);
	}
	add_fix(v, PERF_SETCAP_GROUP_FIX, grp, b->path);
}

/* The user may not execute the binary: join its group, or give it one. */
static void fix_exec(struct verdict *v, const struct binary_facts *b,
		     const struct subject *who, const struct fix_context *fx)
{
	char gbuf[64];

	if (b->gid != 0 && !fx->in_file_group) {
		add_fix(v, "usermod -aG %s %s   # then log in again",
			names_group(b->gid, gbuf, sizeof(gbuf)), who->name);
	} else if (b->gid == 0) {
		/* Never suggest joining root's group. */
		fix_with_preset(v, b, who, fx);
	}
}

void fix_shadowed_grant(struct verdict *v, const struct fix_context *fx)
{
	add_fix(v, "move line %lu of %s ('%s') above line %lu: the '*' on "
		"line %lu matches everybody first, and the first matching "
		"line wins", fx->shadow, fx->config, fx->shadow_text,
		fx->star, fx->star);
}

/* The file's capabilities decide nothing here: why, and what to do. */
static void target_blocks(struct verdict *v, const struct binary_facts *b)
{
	char buf[200];
	const char *problem = exec_target_problem(&b->target, buf, sizeof(buf));

	block(v, ANSWER_NO, "%s %s", b->path, problem);
	if (b->target.kind == EXEC_TARGET_ELF)
		add_fix(v, "run perf from a filesystem mounted without nosuid "
			"and noexec, or grant ^cap_perfmon (ambient) at login "
			"with pam_cap");
	else
		add_fix(v, "find the ELF binary it runs (readlink -f, file: it "
			"must say ELF) and give that one the capabilities: "
			PERF_SETCAP_FIX("/path/to/it"));
}

/* Whether the kernel applies b's file capabilities at exec at all. */
static int caps_honoured(const struct binary_facts *b)
{
	return b->target_known && b->target.kind == EXEC_TARGET_ELF &&
	       !b->target.nosuid && !b->target.noexec;
}

/*
 * The kernel's exec rule: P' = (fP & bounding) | (fI & pI), E' = fE ?
 * P' : 0, the ambient set cleared; a file whose capabilities do not
 * count keeps only the ambient set (P' = E' = A); root keeps the
 * bounding set. no_new_privs caps P' at the old P. *p_free gets P'
 * before that cap, *e_after E'.
 */
static void exec_sets(const struct binary_facts *b, const struct subject *who,
		      uint64_t *p_free, uint64_t *e_after)
{
	uint64_t fp = mask_of_flag(b->caps, CAP_PERMITTED);
	uint64_t fi = mask_of_flag(b->caps, CAP_INHERITABLE);
	uint64_t fe = mask_of_flag(b->caps, CAP_EFFECTIVE);
	uint64_t p_after;

	if (who->is_root) {
		*p_free = who->bounding;
		*e_after = p_after = who->no_new_privs ? *p_free & who->permitted
						       : *p_free;
	} else if (b->caps == NULL || !caps_honoured(b)) {
		*p_free = p_after = *e_after = who->ambient;
	} else {
		*p_free = (fp & who->bounding) | (fi & who->inheritable);
		p_after = who->no_new_privs ? *p_free & who->permitted : *p_free;
		*e_after = fe ? p_after : 0;
	}
}

/* What keeps the session from running the binary at all. */
static void judge_exec(const struct binary_facts *b, const struct subject *who,
		       const struct fix_context *fx, struct verdict *v)
{
	if (who->may_exec == ANSWER_NO) {
		block(v, ANSWER_NO, "%s may not execute %s", who->name, b->path);
		fix_exec(v, b, who, fx);
	} else if (who->may_exec == ANSWER_UNKNOWN) {
		block(v, ANSWER_UNKNOWN, "perfdoctor cannot check whether %s may execute %s "
			"(run it as root, or as %s)", who->name, b->path,
			who->name);
	}
	if (who->seccomp == 1)
		block(v, ANSWER_NO, "the session is in seccomp strict mode, which allows no execve()");
}

/* A user namespace: no capability gained in there counts. */
static void judge_userns(const struct subject *who, struct verdict *v)
{
	if (who->init_userns == ANSWER_NO) {
		block(v, ANSWER_NO, "the session is in a user namespace: perf_event_open() "
		   "asks for CAP_PERFMON in the initial one, and no capability "
		   "gained in there counts");
		add_fix(v, "run perf from a session outside the container or "
			"user namespace");
	} else if (who->init_userns == ANSWER_UNKNOWN) {
		block(v, ANSWER_UNKNOWN, "cannot tell whether the session is in the initial "
			"user namespace");
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
	uint64_t fe = mask_of_flag(b->caps, CAP_EFFECTIVE);
	int knows_perfmon = k->max_bits > CAP_PERFMON;

	if (!b->target_known && !who->is_root && ((fp | fi) & needed)) {
		block(v, ANSWER_UNKNOWN, "cannot read %s to tell an ELF binary, whose file "
			"capabilities count, from a script, whose do not (%s)",
			b->path, strerror(b->target_err));
	} else if (b->target_known && !caps_honoured(b) && !who->is_root) {
		target_blocks(v, b);
	} else if (b->xattr_unsupported) {
		block(v, ANSWER_NO, "the filesystem of %s cannot store file capabilities", b->path);
		add_fix(v, "move perf to a filesystem with extended attributes, or grant ^cap_perfmon (ambient) at login with pam_cap");
	} else if ((p_free & needed) && who->no_new_privs) {
		block(v, ANSWER_NO, "the session has no_new_privs set, so exec grants no file capabilities");
		add_fix(v, "run perf from a session without NoNewPrivileges= (systemd) or no_new_privs");
	} else if ((fp | fi) & needed & ~who->bounding) {
		/* fE with fP beyond the bounding set: execve() fails, EPERM. */
		block(v, ANSWER_NO, "the session's bounding set lacks cap_perfmon%s",
		   fe && (fp & ~who->bounding) ? ", so the kernel refuses to "
		   "execute a file that needs it in its effective set" : "");
		add_fix(v, "allow cap_perfmon in the bounding set of that service or container");
	} else if ((fi & needed) && !(fp & needed)) {
		block(v, ANSWER_NO, "%s grants cap_perfmon only to callers holding it in their "
		   "inheritable set, and %s does not", b->path, who->name);
		if (fx->shadow != 0)
			fix_shadowed_grant(v, fx);
		else if (fx->star != 0)
			add_fix(v, "grant it at login: add 'cap_perfmon %s' to "
				"%s above line %lu (its '*' matches everybody "
				"first, and the first matching line wins), "
				"with 'auth optional pam_cap.so' in the PAM "
				"stack of the login service", who->name,
				fx->config, fx->star);
		else
			add_fix(v, "grant it at login: add 'cap_perfmon %s' to %s, with "
				"'auth optional pam_cap.so' in the PAM stack of the login "
				"service", who->name, fx->config);
	} else if (!knows_perfmon) {
		block(v, ANSWER_NO, "this kernel predates CAP_PERFMON and %s lacks cap_sys_admin", b->path);
		fix_with_preset(v, b, who, fx);
	} else if (fp & needed) {
		block(v, ANSWER_NO, "%s holds cap_perfmon in permitted but not effective, and "
		   "perf does not raise it", b->path);
		fix_with_preset(v, b, who, fx);
	} else {
		block(v, ANSWER_NO, "%s carries no cap_perfmon%s%s", b->path,
		   fx->grant_note ? "; " : "", fx->grant_note ? fx->grant_note : "");
		/*
		 * An ambient grant that pam_cap never reaches: moved up, it
		 * works without file capabilities (an inheritable one would
		 * still need the file's).
		 */
		if (fx->shadow != 0 && fx->shadow_ambient)
			fix_shadowed_grant(v, fx);
		fix_with_preset(v, b, who, fx);
	}
}

void judge(const struct kernel_facts *k, const struct binary_facts *b,
	   const struct subject *who, const struct fix_context *fx,
	   struct verdict *v)
{
	uint64_t needed, p_free, e_after;

	memset(v, 0, sizeof(*v));
	v->answer = ANSWER_YES;
	needed = perf_enough(k->max_bits);
	if (!b->exists) {
		block(v, ANSWER_NO, "%s does not exist", b->path);
		add_fix(v, "install perf (Debian: apt-get install linux-perf) or name the binary");
		return;
	}
	if (!b->is_regular) {
		block(v, ANSWER_NO, "%s is not a regular file", b->path);
		return;
	}
	exec_sets(b, who, &p_free, &e_after);
	v->at_exec = e_after & needed;
	judge_exec(b, who, fx, v);
	/* paranoid <= 0: system-wide monitoring is open to everybody. */
	if (k->paranoid == INT32_MIN || k->paranoid > 0) {
		judge_userns(who, v);
		if (!(e_after & needed))
			judge_file_caps(k, b, who, fx, p_free, needed, v);
	}
	if (who->seccomp == 2)
		block(v, ANSWER_UNKNOWN, "the session runs under a seccomp filter, which may "
			"refuse perf_event_open() whatever its capabilities");
}
