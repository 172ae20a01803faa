/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor: answers "why can't this user profile the whole system?" for a
 * user and a perf binary, from the running kernel, the binary's file
 * capabilities and the session's capability state, and prints the fix.
 * Exit status: 0 the user can, 1 the user cannot, 2 usage or lookup error.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cap_risk.h"
#include "capconf.h"
#include "perfdoctor.h"

struct opts {
	const char *user;
	const char *binary;
	const char *config;	/* pam_cap's capability.conf */
	pid_t pid;
};

#define BIT(cap) (UINT64_C(1) << (cap))

static void usage(FILE *out)
{
	fprintf(out,
		"usage: perfdoctor [--user=NAME] [--pid=PID] [--config=FILE] [PERF_BINARY]\n"
		"  Explains whether NAME (default: you) can monitor the whole system\n"
		"  with PERF_BINARY (default: perf from PATH, else /usr/bin/perf),\n"
		"  judging the session of PID (default: this process, plus what pam_cap\n"
		"  would grant at login from FILE, default " CAPCONF_DEFAULT_PATH "),\n"
		"  and prints the fix.\n"
		"  Exit status: 0 yes, 1 no, 2 usage or lookup error.\n");
}

static const char *default_binary(void)
{
	static char found[4096];
	const char *path = getenv("PATH");

	while (path != NULL && *path != '\0') {
		size_t len = strcspn(path, ":");

		if (len > 0 && len < sizeof(found) - 6) {
			snprintf(found, sizeof(found), "%.*s/perf", (int)len, path);
			if (access(found, F_OK) == 0)
				return found;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return "/usr/bin/perf";
}

static uint64_t file_vector(cap_t caps, cap_flag_t flag)
{
	uint64_t bits = 0;
	cap_value_t cap;

	for (cap = 0; caps != NULL && cap < 64; cap++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(caps, cap, flag, &v) == 0 && v == CAP_SET)
			bits |= BIT(cap);
	}
	return bits;
}

static int in_group(const struct user_facts *u, gid_t gid)
{
	int i;

	for (i = 0; i < u->ngroups; i++)
		if (u->groups[i] == gid)
			return 1;
	return u->gid == gid;
}

/* Whether the user may execute the binary, by its mode bits (root always may). */
static const char *exec_permission(const struct user_facts *u,
				   const struct binary_facts *b)
{
	if (u->uid == 0)
		return (b->mode & 0111) ? "yes (root)" : NULL;
	if (u->uid == b->uid)
		return (b->mode & 0100) ? "yes (owner)" : NULL;
	if (in_group(u, b->gid))
		return (b->mode & 0010) ? "yes (group)" : NULL;
	return (b->mode & 0001) ? "yes (others)" : NULL;
}

static void print_caps_line(const char *label, uint64_t bits)
{
	cap_value_t cap;
	int first = 1;

	printf("%-10s ", label);
	for (cap = 0; cap < 64; cap++) {
		char *name;

		if (!(bits & BIT(cap)))
			continue;
		name = cap_to_name(cap);
		printf("%s%s", first ? "" : ",", name ? name : "?");
		cap_free(name);
		first = 0;
	}
	printf("%s\n", first ? "none" : "");
}

static const char *group_name(gid_t gid, char *buf, size_t len)
{
	struct group *gr = getgrgid(gid);

	if (gr != NULL)
		return gr->gr_name;
	snprintf(buf, len, "%u", (unsigned)gid);
	return buf;
}

static const char *user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw != NULL)
		return pw->pw_name;
	snprintf(buf, len, "%u", (unsigned)uid);
	return buf;
}

struct verdict {
	int ok;
	char reason[512];
	char fixes[4][512];
	int nfixes;
};

static void add_fix(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_fix(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nfixes >= 4)
		return;
	va_start(ap, fmt);
	vsnprintf(v->fixes[v->nfixes++], sizeof(v->fixes[0]), fmt, ap);
	va_end(ap);
}

static void set_reason(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_reason(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->reason[0] != '\0')
		return;		/* the first blocker is the one to fix first */
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

/* The capabilities perf needs on this kernel, as setcap text. */
static const char *perf_caps_for(const struct kernel_facts *k)
{
	if (k->cap_bits <= CAP_PERFMON)
		return "cap_sys_admin,cap_syslog=ep";
	if (k->major < 5 || (k->major == 5 && k->minor < 9))
		return "cap_perfmon,cap_sys_ptrace,cap_syslog=ep";
	return "cap_perfmon,cap_syslog=ep";
}

/*
 * What pam_cap.so would put in the user's inheritable and ambient sets at
 * login, read with the module's own parser; prints one line about it.
 */
static void pam_grant(const struct opts *o, const char *user, uint64_t *inh,
		      uint64_t *amb)
{
	struct capconf_match m;
	cap_iab_t iab;
	cap_value_t cap;
	int rc = capconf_find(o->config, user, &m, NULL, NULL);

	*inh = *amb = 0;
	if (rc != CAPCONF_FOUND) {
		printf("%-10s %s: %s\n", "pam_cap:", o->config,
		       rc == CAPCONF_UNREADABLE ? "absent or not trusted: grants nothing" :
		       "no line matches this user: grants nothing");
		return;
	}
	iab = strcmp(m.caps, "all") && strcmp(m.caps, "none") ?
	      cap_iab_from_text(m.caps) : NULL;
	for (cap = 0; iab != NULL && cap < 64 && cap < cap_max_bits(); cap++) {
		if (cap_iab_get_vector(iab, CAP_IAB_INH, cap) == CAP_SET)
			*inh |= BIT(cap);
		if (cap_iab_get_vector(iab, CAP_IAB_AMB, cap) == CAP_SET)
			*amb |= BIT(cap);
	}
	printf("%-10s %s:%lu grants '%s' (%s %s)%s\n", "pam_cap:", o->config,
	       m.line, m.caps, capconf_why_name(m.why), m.who,
	       iab == NULL && strcmp(m.caps, "all") && strcmp(m.caps, "none") ?
	       ": not valid IAB text, so nothing" : "");
	cap_free(iab);
	capconf_match_release(&m);
}

static int diagnose(const struct opts *o)
{
	struct kernel_facts k;
	struct binary_facts b;
	struct user_facts u;
	struct session_facts s;
	struct verdict v = { 0 };
	uint64_t fp = 0, fi = 0, fe = 0, p_after, e_after, needed;
	uint64_t pam_inh = 0, pam_amb = 0;
	const char *can_exec = NULL, *suggestion;
	char gbuf[32], ubuf[32];
	int knows_perfmon;

	gather_kernel(&k);
	gather_user(&u, o->user);
	if (!u.known) {
		fprintf(stderr, "perfdoctor: user '%s' is not known\n", o->user);
		return 2;
	}
	gather_binary(&b, o->binary);
	gather_session(&s, o->pid);
	knows_perfmon = k.cap_bits > CAP_PERFMON;
	needed = knows_perfmon ? BIT(CAP_PERFMON) | BIT(CAP_SYS_ADMIN)
			       : BIT(CAP_SYS_ADMIN);

	printf("perfdoctor: can %s monitor the whole system with %s?\n\n",
	       u.name, b.path);
	printf("%-10s Linux %s knows %d capabilities: CAP_PERFMON is %s\n",
	       "kernel:", k.release, k.cap_bits,
	       knows_perfmon ? "supported (5.8+)" : "NOT supported (needs 5.8+)");
	if (k.paranoid == INT32_MIN)
		printf("%-10s kernel.perf_event_paranoid: %s\n", "paranoid:",
		       paranoid_meaning(k.paranoid));
	else
		printf("%-10s kernel.perf_event_paranoid = %d: %s\n",
		       "paranoid:", k.paranoid, paranoid_meaning(k.paranoid));

	if (!b.exists) {
		printf("%-10s %s: %s\n", "binary:", b.path, strerror(b.err));
		set_reason(&v, "%s does not exist", b.path);
		add_fix(&v, "install perf (Debian: apt-get install linux-perf) or name the binary");
		goto verdict;
	}
	printf("%-10s %s: owner %s group %s mode %04o%s%s\n", "binary:", b.path,
	       user_name(b.uid, ubuf, sizeof(ubuf)),
	       group_name(b.gid, gbuf, sizeof(gbuf)),
	       (unsigned)(b.mode & 07777),
	       b.nosuid ? ", on a nosuid filesystem (file capabilities are ignored)" : "",
	       b.xattr_unsupported ? ", on a filesystem without extended attributes" : "");
	if (b.caps != NULL) {
		char *text = cap_to_text(b.caps, NULL);

		printf("%-10s %s\n", "file caps:", text ? text : "?");
		cap_free(text);
	} else {
		printf("%-10s none\n", "file caps:");
	}
	fp = file_vector(b.caps, CAP_PERMITTED);
	fi = file_vector(b.caps, CAP_INHERITABLE);
	fe = file_vector(b.caps, CAP_EFFECTIVE);

	can_exec = b.is_regular ? exec_permission(&u, &b) : NULL;
	printf("%-10s %s (uid %u, gid %u); may execute it: %s\n", "user:",
	       u.name, (unsigned)u.uid, (unsigned)u.gid, can_exec ? can_exec : "no");
	if (s.readable)
		printf("%-10s %s: bounding set %s cap_perfmon; no_new_privs=%d; seccomp=%d\n",
		       "session:", s.pid > 0 ? "that process" : "this process",
		       (s.bounding & BIT(CAP_PERFMON)) ? "includes" : "LACKS",
		       s.no_new_privs, s.seccomp);

	/*
	 * Judging this process for another user stands in for that user's
	 * login: add what pam_cap would grant there. With --pid the process
	 * already carries whatever its login granted.
	 */
	if (o->pid == 0) {
		pam_grant(o, u.name, &pam_inh, &pam_amb);
		s.inheritable |= pam_inh;
		s.ambient |= pam_amb & s.inheritable;
	}

	/* The kernel's exec rule: P' = (fP & bounding) | (fI & pI), E' = fE ? P' : 0;
	 * a file without capabilities keeps only the ambient set. */
	if (u.uid == 0) {
		p_after = e_after = s.readable ? s.bounding : ~UINT64_C(0);
	} else if (b.caps == NULL || b.nosuid || s.no_new_privs) {
		p_after = e_after = s.ambient;
	} else {
		p_after = (fp & s.bounding) | (fi & s.inheritable);
		e_after = fe ? p_after : 0;
	}
	print_caps_line("at exec:", e_after & needed);

	if (!b.is_regular) {
		set_reason(&v, "%s is not a regular file", b.path);
	} else if (can_exec == NULL) {
		set_reason(&v, "%s may not execute %s", u.name, b.path);
		if (b.gid == 0)	/* never suggest joining root's group */
			add_fix(&v, "groupadd perf_users; chgrp perf_users %s; chmod 0750 %s; usermod -aG perf_users %s",
				b.path, b.path, u.name);
		else
			add_fix(&v, "usermod -aG %s %s   # then log in again",
				group_name(b.gid, gbuf, sizeof(gbuf)), u.name);
	}
	if (k.paranoid != INT32_MIN && k.paranoid <= 0)
		goto verdict;	/* system-wide monitoring is open to everybody */
	if (e_after & needed)
		goto verdict;
	if (b.xattr_unsupported) {
		set_reason(&v, "the filesystem of %s cannot store file capabilities", b.path);
		add_fix(&v, "move perf to a filesystem with extended attributes, or grant ^cap_perfmon (ambient) at login with pam_cap");
	} else if (b.nosuid) {
		set_reason(&v, "%s is on a filesystem mounted nosuid, which ignores file capabilities", b.path);
		add_fix(&v, "move perf to a filesystem mounted without nosuid");
	} else if (s.no_new_privs) {
		set_reason(&v, "the session has no_new_privs set, so exec grants no file capabilities");
		add_fix(&v, "run perf from a session without NoNewPrivileges= (systemd) or no_new_privs");
	} else if ((fp | fi) & needed && !(s.bounding & needed)) {
		set_reason(&v, "the session's bounding set lacks cap_perfmon");
		add_fix(&v, "allow cap_perfmon in the bounding set of that service or container");
	} else if (fi & needed && !(fp & needed)) {
		set_reason(&v, "%s grants cap_perfmon only to callers holding it in their inheritable set, and %s does not",
			   b.path, u.name);
		add_fix(&v, "grant it at login: add 'cap_perfmon %s' to /etc/security/capability.conf with 'auth optional pam_cap.so'",
			u.name);
	} else if (!knows_perfmon) {
		set_reason(&v, "this kernel predates CAP_PERFMON and %s lacks cap_sys_admin", b.path);
		add_fix(&v, "setcap %s %s   # or upgrade to Linux 5.8+ and use cap_perfmon",
			perf_caps_for(&k), b.path);
	} else if (fp & needed) {
		set_reason(&v, "%s holds cap_perfmon in permitted but not effective, and perf does not raise it",
			   b.path);
		add_fix(&v, "setcap %s %s", perf_caps_for(&k), b.path);
	} else {
		set_reason(&v, "%s carries no cap_perfmon", b.path);
		add_fix(&v, "setcap %s %s", perf_caps_for(&k), b.path);
	}
verdict:
	v.ok = v.reason[0] == '\0';
	printf("\n");
	if (v.ok)
		printf("verdict:   YES: %s can monitor the whole system with %s\n",
		       u.name, b.path);
	else
		printf("verdict:   NO: %s\n", v.reason);
	for (int i = 0; i < v.nfixes; i++)
		printf("fix:       %s\n", v.fixes[i]);
	if (b.caps != NULL) {
		cap_value_t worst;
		enum cap_risk_tier tier = cap_risk_highest(b.caps, ~0u, &worst);

		suggestion = cap_risk_suggestion(b.caps, b.path);
		if (tier >= CAP_RISK_KERNEL_READ) {
			char *name = cap_to_name(worst);

			printf("risk:      %s (%s: %s)\n", cap_risk_tier_name(tier),
			       name, cap_risk_reason(worst));
			cap_free(name);
		}
		if (suggestion != NULL)
			printf("suggest:   %s\n", suggestion);
		if ((b.mode & 0001) && (fp & needed))
			printf("suggest:   anyone may run it; restrict it to a group: chgrp perf_users %s && chmod 0750 %s\n",
			       b.path, b.path);
		cap_free(b.caps);
	}
	return v.ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "pid", required_argument, NULL, 'p' },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .config = CAPCONF_DEFAULT_PATH };
	struct passwd *pw;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "u:p:c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.config = optarg;
			break;
		case 'u':
			o.user = optarg;
			break;
		case 'p':
			errno = 0;
			o.pid = (pid_t)strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || o.pid <= 0) {
				fprintf(stderr, "perfdoctor: --pid wants a process id, got \"%s\"\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	o.binary = optind < argc ? argv[optind] : default_binary();
	if (o.user == NULL) {
		pw = getpwuid(getuid());
		if (pw == NULL) {
			fprintf(stderr, "perfdoctor: your uid %u has no name; use --user\n",
				(unsigned)getuid());
			return 2;
		}
		o.user = strdup(pw->pw_name);
		if (o.user == NULL) {
			perror("perfdoctor");
			return 2;
		}
	}
	return diagnose(&o);
}
