/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor: answers "why can't this user profile the whole system?" for a
 * user and a perf binary, from the running kernel, the binary, the session
 * that would run it and, for a new login, the PAM stack and pam_cap's
 * grant, and prints the fix. Three subjects:
 *   --pid=N        that process's real credentials and capability state;
 *   (default)      perfdoctor's own session, i.e. the caller's;
 *   --user=OTHER   a new login of OTHER: groups from the group database,
 *                  pam_cap's grant where it provably arrives, the rest
 *                  modelled on this process.
 * Exit status: 0 yes, 1 no, 3 unknown, 2 usage or lookup error.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capconf.h"
#include "groups.h"
#include "opts.h"
#include "path.h"
#include "perf.h"
#include "perfdoctor.h"
#include "say.h"

#define MAX_SERVICES 8

struct opts {
	const char *user;   /* --user, or NULL */
	const char *binary; /* the operand, or NULL */
	pid_t pid;	    /* --pid, or 0 */
	struct pam_opts pam;
	int profile; /* --seccomp-profile: print it, judge nothing */
	const char *profile_base; /* its BASE, or NULL for the default */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: perfdoctor [--user=NAME] [--pid=PID] [--config=FILE]\n"
		"                  [--pam-dir=DIR] [--service=NAME[,NAME...]] [PERF_BINARY]\n"
		"  Explains whether a session can monitor the whole system with\n"
		"  PERF_BINARY (default: perf from PATH, else /usr/bin/perf): the\n"
		"  process PID, else your own session, else (--user=NAME, not you)\n"
		"  a new login of NAME through the PAM services NAME (default:\n"
		"  login,sshd,su) in DIR (default /etc/pam.d), with pam_cap reading\n"
		"  FILE (default " CAPCONF_DEFAULT_PATH
		") where its line names none;\n"
		"  and prints the fix.\n"
		"  Exit status: 0 yes, 1 no, 3 unknown, 2 usage or lookup error.\n"
		"  -u, -p and -c are short for --user, --pid and --config;\n"
		"  -h, --help print this text; --version prints the version and exits.\n"
		"usage: perfdoctor --seccomp-profile[=BASE]\n"
		"  Prints BASE, a container runtime's seccomp profile (default\n"
		"  " SECCOMP_PROFILE_DEFAULT
		"), with perf_event_open() also allowed\n"
		"  to a container holding CAP_PERFMON, and nothing else changed.\n"
		"  Exit status: 0 printed, 2 usage error or a BASE it cannot use.\n");
}

static const char *default_binary(void)
{
	static char found[4096];
	char *perf = path_search(getenv("PATH"), "perf", F_OK);

	if (perf != NULL && strlen(perf) < sizeof(found)) {
		strcpy(found, perf);
		free(perf);
		return found;
	}
	free(perf);
	return "/usr/bin/perf";
}

static void session_subject(struct subject *who, const struct session_facts *s,
			    const char *name)
{
	memset(who, 0, sizeof(*who));
	who->name = name;
	who->is_root = s->ruid == 0 || s->euid == 0;
	who->root_euid = s->euid == 0;
	who->real_root = s->ruid == 0;
	who->euid = s->euid;
	who->ruid = s->ruid;
	who->egid = s->egid;
	who->rgid = s->rgid;
	who->suid_to = (uid_t)-1;
	who->uid = s->fsuid;
	who->gid = s->fsgid;
	who->groups = s->groups;
	who->ngroups = s->ngroups;
	who->inheritable = s->inheritable;
	who->permitted = s->permitted;
	who->bounding = s->bounding;
	who->ambient = s->ambient;
	who->no_new_privs = s->no_new_privs;
	who->seccomp = s->seccomp;
	who->init_userns = s->init_userns;
	who->userns_how = s->userns_how;
	who->sc = &s->sc;
	who->noroot = s->noroot;
	who->noroot_why = s->noroot_why;
	who->tracer = s->tracer;
}

/*
 * A new login of u through one PAM service: the group database's groups,
 * empty inheritable and ambient sets (login programs start from root
 * daemons that hold none), pam_cap's grant added where it arrives
 * (optimistic: also where that is unknown), the rest as this process.
 * Securebits too: login, su, sshd and pam_cap leave them as they found
 * them, so a login inherits those of what runs the login program, as it
 * does the bounding set, and both are modelled on this process's.
 */
static void login_subject(struct subject *who, const struct session_facts *self,
			  const struct user_facts *u, const struct pam_view *pv,
			  int optimistic)
{
	/* A file we may not read might grant it: the optimistic side says. */
	uint64_t grant = pv != NULL && pv->grant_unknown && optimistic
				 ? BIT(CAP_PERFMON)
				 : 0;

	session_subject(who, self, u->name);
	who->is_root = who->root_euid = who->real_root = u->uid == 0;
	who->euid = who->ruid = u->uid;
	who->egid = who->rgid = u->gid;
	who->uid = u->uid;
	who->gid = u->gid;
	who->groups = u->groups;
	who->ngroups = u->ngroups;
	who->inheritable = who->ambient = 0;
	who->tracer = 0; /* a new login: nobody traces it yet */
	if (who->is_root)
		who->permitted = who->bounding;
	if (pv == NULL)
		return;
	/* Bounding drops: the pessimistic side assumes they arrive. */
	if (pv->iab_reaches == ANSWER_YES ||
	    (!optimistic && pv->iab_reaches == ANSWER_UNKNOWN))
		who->bounding &= ~pv->drop;
	/*
	 * pam_cap drops first and raises last, and the kernel lets it raise
	 * an inheritable bit only within the bounding set (capset(2)); an
	 * ambient bit must be inheritable too.
	 */
	if (pv->iab_reaches == ANSWER_YES ||
	    (optimistic && pv->iab_reaches == ANSWER_UNKNOWN))
		who->inheritable = (pv->inh | grant) & who->bounding;
	if (pv->amb_reaches == ANSWER_YES ||
	    (optimistic && pv->amb_reaches == ANSWER_UNKNOWN))
		who->ambient = (pv->amb | grant) & who->inheritable;
}

/* Why a grant that would help does not surely arrive, for the reason line. */
static void grant_note(const struct pam_view *pv, char *buf, size_t len)
{
	buf[0] = '\0';
	if (pv == NULL)
		return;
	if (pv->grant_unknown)
		put(buf, len,
		    "perfdoctor may not read %s, which pam_cap reads for a login through %s: run perfdoctor as root",
		    pv->config, pv->service);
	else if ((pv->amb & BIT(CAP_PERFMON)) && pv->amb_reaches != ANSWER_YES)
		snprintf(
			buf, len,
			"pam_cap's ambient grant does not surely reach a login through %s: %s",
			pv->service, pv->amb_why);
	else if ((pv->inh & BIT(CAP_PERFMON)) && pv->iab_reaches != ANSWER_YES)
		snprintf(
			buf, len,
			"pam_cap's grant does not surely reach a login through %s: %s",
			pv->service, pv->iab_why);
}

/* Where a pam_cap grant must go: the file this service's pam_cap reads. */
static void fix_from_view(struct fix_context *fx, const struct pam_view *pv)
{
	if (pv == NULL)
		return;
	fx->pv = pv;
	fx->config = pv->config;
	fx->star = pv->star;
	fx->shadow = pv->shadow;
	fx->shadow_ambient = pv->shadow_ambient;
	fx->shadow_text = pv->shadow_text;
}

/*
 * A new login through one service: yes only if it holds even without
 * the grants we are unsure of, no only if it fails even with them.
 */
static void judge_login(const struct kernel_facts *k,
			const struct binary_facts *b,
			const struct session_facts *self,
			const struct user_facts *u, const struct pam_view *pv,
			const struct fix_context *fx0, enum answer may_exec,
			struct verdict *v)
{
	struct fix_context fx = *fx0;
	struct subject sure, maybe;
	struct verdict vm;
	char note[600];

	grant_note(pv, note, sizeof(note));
	fx.grant_note = note[0] ? note : NULL;
	fix_from_view(&fx, pv);
	login_subject(&sure, self, u, pv, 0);
	sure.may_exec = may_exec;
	judge(k, b, &sure, &fx, v);
	if (v->answer != ANSWER_NO || pv == NULL)
		return;
	login_subject(&maybe, self, u, pv, 1);
	maybe.may_exec = sure.may_exec;
	judge(k, b, &maybe, &fx, &vm);
	if (vm.answer == ANSWER_NO)
		return;
	v->answer = ANSWER_UNKNOWN;
	/*
	 * The fixes stay: they were judged for a login without the grant,
	 * and fix_pam_grant() adds no grant where one may not arrive.
	 */
	snprintf(v->reason, sizeof(v->reason), "%s",
		 note[0] ? note : "pam_cap's grant may or may not arrive");
}

/*
 * The effective set of a new login of uid from where s runs: root's
 * exec rule gives uid 0 the bounding set (none under SECBIT_NOROOT or
 * when that cannot be told: the check then errs towards "may not"),
 * anyone else nothing.
 */
static uint64_t login_effective(uid_t uid, const struct session_facts *s)
{
	return uid == 0 && s->noroot == ANSWER_NO ? s->bounding : 0;
}

static struct exec_creds user_creds(const struct user_facts *u,
				    const struct session_facts *s)
{
	struct exec_creds c = { u->uid, u->gid, u->groups, u->ngroups,
				login_effective(u->uid, s) };

	return c;
}

static void fill_fix_context(struct fix_context *fx,
			     const struct binary_facts *b,
			     const struct user_facts *u,
			     const struct session_facts *s, const char *config,
			     int login, uint64_t bounding)
{
	struct group *gr = getgrnam(PERF_GROUP);

	memset(fx, 0, sizeof(*fx));
	fx->config = config;
	fx->user_known = u->known;
	fx->uid = u->uid;
	fx->gid = u->gid;
	fx->groups = u->groups;
	fx->ngroups = u->ngroups;
	fx->effective = login_effective(u->uid, s);
	fx->login = login;
	fx->base_bounding = bounding;
	fx->in_file_group =
		u->known && (u->gid == b->gid ||
			     groups_have(u->groups, u->ngroups, b->gid));
	fx->perf_users_exists = gr != NULL;
	fx->in_perf_users = gr != NULL && u->known &&
			    (u->gid == gr->gr_gid ||
			     groups_have(u->groups, u->ngroups, gr->gr_gid));
}

/* Every service's answer: all alike, or "unknown: it depends". */
static enum answer combine(const struct verdict *v, const struct pam_view *pv,
			   int n, char *why, size_t len)
{
	size_t used;
	int i, same = 1;

	for (i = 1; i < n; i++)
		same &= v[i].answer == v[0].answer;
	if (same)
		return v[0].answer;
	used = (size_t)snprintf(why, len,
				"it depends on how the user logs in:");
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(why + used, len - used, "%s %s %s",
					 i ? ";" : "", pv[i].service,
					 answer_name(v[i].answer));
	if (used < len)
		snprintf(why + used, len - used, " (name one with --service)");
	return ANSWER_UNKNOWN;
}

static int exit_code(enum answer a)
{
	return a == ANSWER_YES ? 0 : a == ANSWER_NO ? 1 : 3;
}

/*
 * A session keeps the groups and capabilities of its login: when a new
 * login would do better, the answer stays no and the fix is to log in again.
 */
static void login_again(struct verdict *v, const char *user, const char *why)
{
	size_t len = strlen(v->reason);

	snprintf(v->reason + len, sizeof(v->reason) - len,
		 "; a new login of %s %s: log in again", user, why);
	memmove(&v->fixes[1], &v->fixes[0],
		sizeof(v->fixes[0]) * (MAX_FIXES - 1));
	memset(&v->fixes[0], 0, sizeof(v->fixes[0]));
	snprintf(
		v->fixes[0].text, sizeof(v->fixes[0].text),
		"log in again (a new login reads groups and capability.conf afresh)");
	v->nfixes = v->nfixes < MAX_FIXES ? v->nfixes + 1 : MAX_FIXES;
}

/*
 * Whether a new login can differ from this session in what blocks it:
 * groups and pam_cap's grant, yes; no_new_privs, the bounding set, a
 * user namespace or seccomp come from where the session runs, and a new
 * login there is modelled on perfdoctor's own process, which says
 * nothing about them. Nor does a session whose real and effective uids
 * differ (one of them 0) pass for a login of its effective user: exec
 * treats it otherwise (root's rule, set-user-ID and file capabilities
 * mixed), whatever the databases say; nor one whose own ids exec takes
 * for a change (own_ids_changed()), which then loses its ambient set at
 * any exec: a new login has none such, but the reason is those ids, not
 * a change of the databases, and the fix is another session.
 */
static int fresh_helps(const struct kernel_facts *k, const struct subject *who)
{
	return !who->no_new_privs && who->seccomp == 0 &&
	       who->real_root == who->root_euid && !own_ids_changed(k, who) &&
	       who->init_userns == ANSWER_YES &&
	       (who->bounding & BIT(CAP_PERFMON));
}

/*
 * The binary is in another root (a container's): a command printed here
 * would be pasted here, and act on this host's file of that name and
 * with this host's groups. Each command is led by words saying where it
 * is to be run instead, which make the whole line no command. The
 * command itself stays as it is: turned into words, which are printed
 * escaped, the backslash of its quoting ('\'') would come out as \134
 * and let a name's $(...) run when pasted.
 */
static void fixes_in_root(struct verdict *v, const struct binary_facts *b)
{
	int i;

	for (i = 0; b->rootfd >= 0 && i < v->nfixes; i++)
		if (v->fixes[i].is_command)
			put(v->fixes[i].lead, sizeof(v->fixes[i].lead),
			    "in the root of process %d, not on this host: ",
			    (int)b->root_of);
}

/* --pid or the caller's own session: its real credentials decide. */
static int diagnose_session(const struct opts *o, const struct kernel_facts *k,
			    const struct binary_facts *b,
			    struct session_facts *s, struct user_facts *u,
			    const struct pam_view *pv, int npv)
{
	struct fix_context fx;
	struct subject who;
	struct verdict v, fresh;
	struct fix rt[MAX_RUNTIME];
	enum answer fresh_exec = ANSWER_UNKNOWN;
	char label[64], broad[600];
	int i, nrt, fresh_yes = npv > 0;

	struct exec_creds own;

	session_subject(&who, s, u->name);
	own = (struct exec_creds){ who.uid, who.gid, who.groups, who.ngroups,
				   s->effective };
	who.may_exec = may_execute(b, &own);
	if (o->pid > 0)
		snprintf(label, sizeof(label), "process %d", (int)o->pid);
	else
		snprintf(label, sizeof(label), "this process (your session)");
	print_session(&who, label);
	print_surroundings(s, k);
	print_pam(pv, npv);
	fill_fix_context(&fx, b, u, s, o->pam.config, 0, 0);
	if (npv > 0)
		fix_from_view(&fx, &pv[0]);
	judge(k, b, &who, &fx, &v);
	{
		char bits[1024];

		say(stdout, "", "%-10s %s",
		    "at exec:", names_or_none(v.at_exec, bits, sizeof(bits)));
	}
	if (v.answer != ANSWER_YES && u->known) {
		struct exec_creds fresh_creds = user_creds(u, s);

		fresh_exec = may_execute(b, &fresh_creds);
		/*
		 * Not root, so the kernel cannot be asked for a login's groups:
		 * for this hint only, a group the database gives the user and
		 * the session lacks, with the group's execute bit, will do.
		 */
		if (fresh_exec == ANSWER_UNKNOWN && (b->mode & 0010) &&
		    groups_have(u->groups, u->ngroups, b->gid) &&
		    !groups_have(s->groups, s->ngroups, b->gid) &&
		    s->fsgid != b->gid)
			fresh_exec = ANSWER_YES;
	}
	for (i = 0; v.answer != ANSWER_YES && u->known && i < npv; i++) {
		judge_login(k, b, s, u, &pv[i], &fx, fresh_exec, &fresh);
		fresh_yes &= fresh.answer == ANSWER_YES;
	}
	if (v.answer != ANSWER_YES && who.may_exec == ANSWER_NO &&
	    fresh_exec == ANSWER_YES)
		login_again(
			&v, u->name,
			"would be allowed to execute it, with groups from the database that this session lacks");
	else if (v.answer != ANSWER_YES && u->known && npv > 0 && fresh_yes &&
		 fresh_helps(k, &who)) {
		/* Nothing else to change: the rest was for this session. */
		v.nfixes = 0;
		login_again(
			&v, u->name,
			"would pass: the group database or capability.conf changed since this session began");
	}
	fixes_in_root(&v, b);
	/*
	 * After fixes_in_root(): these lines are for the host or the
	 * container's definition, not for the files in its root.
	 */
	nrt = runtime_lines(s, &who, b, v.answer, rt, MAX_RUNTIME, broad,
			    sizeof(broad));
	for (i = 0; broad[0] == '\0' && i < nrt; i++)
		add_fix_once(&v, &rt[i]);
	print_verdict(&v, u->name, b->path, "");
	if (broad[0] != '\0')
		print_narrower(broad, rt, nrt);
	print_risk(b, &who, &fx);
	return exit_code(v.answer);
}

/* A new login of another user, through each PAM service judged. */
static int diagnose_login(const struct opts *o, const struct kernel_facts *k,
			  const struct binary_facts *b,
			  struct session_facts *self, struct user_facts *u,
			  const struct pam_view *pv, int npv)
{
	struct verdict v[MAX_SERVICES], all;
	struct fix_context fx;
	struct subject who;
	char bits[1024], how[128];
	int i, j;

	struct exec_creds creds = user_creds(u, self);

	login_subject(&who, self, u, NULL, 0);
	who.may_exec = may_execute(b, &creds);
	print_session(
		&who,
		"a new login, groups from the group database, the rest modelled on this process");
	print_surroundings(self, k);
	print_pam(pv, npv);
	fill_fix_context(&fx, b, u, self, o->pam.config, 1, self->bounding);
	for (i = 0; i < npv; i++) {
		judge_login(k, b, self, u, &pv[i], &fx, who.may_exec, &v[i]);
		say(stdout, "", "%-10s %s%s%s",
		    "at exec:", names_or_none(v[i].at_exec, bits, sizeof(bits)),
		    npv > 1 ? " via " : "", npv > 1 ? pv[i].service : "");
	}
	all = v[0];
	all.answer = combine(v, pv, npv, all.reason, sizeof(all.reason));
	if (all.answer == ANSWER_UNKNOWN && v[0].answer != ANSWER_UNKNOWN)
		all.nfixes = 0;
	/* The services differ: the first one's other blockers are its own. */
	for (i = 1; i < npv; i++)
		if (v[i].answer != v[0].answer)
			all.nalso = 0;
	/* Every service must pass: each one's fixes (its stack, its file). */
	for (i = 1; all.answer == ANSWER_NO && i < npv; i++)
		for (j = 0; j < v[i].nfixes; j++)
			add_fix_once(&all, &v[i].fixes[j]);
	snprintf(how, sizeof(how), " after a new login%s%s",
		 npv == 1 && pv[0].service[0] != '(' ? " via " : "",
		 npv == 1 && pv[0].service[0] != '(' ? pv[0].service : "");
	print_verdict(&all, u->name, b->path, how);
	if (all.answer == ANSWER_YES)
		say(stdout, "",
		    "note:      sessions %s began before a change of groups or capability.conf keep the old state: judge one with --pid",
		    u->name);
	print_risk(b, &who, &fx);
	return exit_code(all.answer);
}

static int diagnose(const struct opts *o)
{
	struct pam_view pv[MAX_SERVICES];
	struct kernel_facts k;
	struct binary_facts b;
	struct session_facts s;
	struct user_facts u;
	const char *binary;
	int npv = 0, rc = 2, new_login = 0, rootfd;

	memset(&u, 0, sizeof(u));
	if (gather_session(&s, o->pid) < 0)
		return 2;
	if (o->pid > 0 || o->user == NULL) {
		/* The session's own user (effective uid) is the one judged. */
		if (gather_user_uid(&u, s.euid) < 0)
			goto out;
		if (o->user != NULL && strcmp(o->user, u.name) != 0) {
			say(stderr,
			    "perfdoctor: ", "process %d runs as %s, not %s",
			    (int)o->pid, u.name, o->user);
			goto out;
		}
	} else {
		if (gather_user(&u, o->user) < 0)
			goto out;
		if (!u.known) {
			say(stderr, "perfdoctor: ", "user '%s' is not known",
			    o->user);
			goto out;
		}
		/* Yourself by name: your session, not a model of a login. */
		new_login = u.uid != s.ruid;
	}
	gather_kernel(&k);
	/*
	 * A process in another root (a container's) can execute only what
	 * is in there: the binary is looked up in its root.
	 */
	rootfd = o->pid > 0 ? foreign_root(s.dfd) : -1;
	if (rootfd == -2) {
		/*
		 * Not perfdoctor's root for want of knowing: a process of a
		 * container would be judged with this host's binary.
		 */
		say_errno(
			stderr, "perfdoctor: ", errno,
			errno == ENOENT
				? "process %d: its root is gone: it has exited, or its main thread has"
				: "process %d: its root, where it would find the binary, cannot be opened",
			(int)o->pid);
		goto out;
	}
	binary = o->binary != NULL ? o->binary
		 : rootfd >= 0	   ? perf_in_root(rootfd)
				   : default_binary();
	gather_binary(&b, binary, rootfd, o->pid);
	gather_seccomp(&s, s.dfd, &b.arch);
	gather_container(&s, s.dfd);
	print_header(&k, &b, u.name);
	if (pam_views(&o->pam, u.name, pv, MAX_SERVICES, &npv) < 0) {
		release_binary(&b);
		goto out;
	}
	if (new_login)
		rc = diagnose_login(o, &k, &b, &s, &u, pv, npv);
	else
		rc = diagnose_session(o, &k, &b, &s, &u, pv, npv);
	release_binary(&b);
out:
	release_user(&u);
	release_session(&s);
	return rc;
}

/* The handlers: each returns OPTS_NEXT, or the exit status. */
static int opt_user(void *p, const char *arg)
{
	((struct opts *)p)->user = arg;
	return OPTS_NEXT;
}

static int opt_pid(void *p, const char *arg)
{
	long pid;
	char *end;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || pid <= 0 ||
	    pid > INT32_MAX) {
		say(stderr,
		    "perfdoctor: ", "--pid wants a process id, got \"%s\"",
		    arg);
		return 2;
	}
	((struct opts *)p)->pid = (pid_t)pid;
	return OPTS_NEXT;
}

static int opt_config(void *p, const char *arg)
{
	((struct opts *)p)->pam.config = arg;
	return OPTS_NEXT;
}

static int opt_pam_dir(void *p, const char *arg)
{
	((struct opts *)p)->pam.dir = arg;
	return OPTS_NEXT;
}

static int opt_service(void *p, const char *arg)
{
	((struct opts *)p)->pam.services = arg;
	return OPTS_NEXT;
}

static int opt_seccomp_profile(void *p, const char *arg)
{
	((struct opts *)p)->profile = 1;
	((struct opts *)p)->profile_base = arg;
	return OPTS_NEXT;
}

/* --help: the usage text on stdout, asked for, a success. */
static int help(void *p)
{
	(void)p;
	usage(stdout);
	return 0;
}

static const struct opts_prog prog = { "perfdoctor", help, 2 };

/*
 * The options, in the order getopt lists an ambiguous abbreviation's
 * candidates ("--p": --pid, --pam-dir). No help lines: the usage text
 * explains them together, in prose (which names every one of them).
 */
static const struct opt options[] = {
	{ .name = "user",
	  .letter = 'u',
	  .arg = required_argument,
	  .handle = opt_user,
	  .value = "NAME" },
	{ .name = "pid",
	  .letter = 'p',
	  .arg = required_argument,
	  .handle = opt_pid,
	  .value = "PID" },
	{ .name = "config",
	  .letter = 'c',
	  .arg = required_argument,
	  .handle = opt_config,
	  .value = "FILE" },
	{ .name = "pam-dir",
	  .arg = required_argument,
	  .handle = opt_pam_dir,
	  .value = "DIR" },
	{ .name = "service",
	  .arg = required_argument,
	  .handle = opt_service,
	  .value = "NAME[,NAME...]" },
	{ .name = "seccomp-profile",
	  .arg = optional_argument,
	  .handle = opt_seccomp_profile,
	  .value = "BASE" },
	{ OPTS_HELP_ROW("help", 'h') },
	{ OPTS_VERSION_ROW },
};

int main(int argc, char **argv)
{
	struct opts o = {
		.pam = { .dir = "/etc/pam.d", .config = CAPCONF_DEFAULT_PATH },
	};
	struct opts_getopt g;
	int status;

	/* perfdoctor(8): no memory is status 2, as a usage error is */
	say_exit_status(2);
	opts_build(&g, &prog, options, sizeof(options) / sizeof(options[0]), 0);
	switch (opts_parse(&g, argc, argv, &o, &status)) {
	case 1:
		return status;
	case -1:
		usage(stderr); /* then the guess, last */
		opts_suggest_getopt(stderr, &g, argv[optind - 1]);
		return 2;
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (o.profile && (argc > optind || o.user != NULL || o.pid > 0)) {
		/* getopt takes BASE only after '=': a word after it is an operand. */
		say(stderr, "perfdoctor: ",
		    "--seccomp-profile judges no session: it takes no --user, --pid or PERF_BINARY, and its BASE as --seccomp-profile=BASE");
		return 2;
	}
	if (o.profile)
		return print_seccomp_profile(o.profile_base);
	o.binary = optind < argc ? argv[optind] : NULL;
	return diagnose(&o);
}
