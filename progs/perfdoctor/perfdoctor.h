/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* perfdoctor: the facts it gathers, one struct per subject, and who fills them. */
#ifndef PERFDOCTOR_H
#define PERFDOCTOR_H

#include <stdint.h>
#include <sys/capability.h>
#include <sys/types.h>

#include "capconf.h"
#include "exec_target.h"

#define BIT(cap) (UINT64_C(1) << (cap))

/* Every answer is one of these; so is each fact that decides one. */
enum answer {
	ANSWER_NO = 0,
	ANSWER_YES = 1,
	ANSWER_UNKNOWN = 2,
};

/*
 * The system call perf makes to open an event, as a seccomp filter sees
 * it: the audit architecture of its calling convention and the number
 * of perf_event_open() there (perfdoctor_arch.c).
 */
struct perf_arch {
	uint32_t audit_arch;
	uint32_t nr;
	const char *name; /* "x86_64", "i386", "x32", ...; NULL: unknown */
};

struct kernel_facts {
	char release[128];
	int major, minor;
	int max_bits; /* cap_max_bits() */
	int paranoid; /* kernel.perf_event_paranoid, or INT32_MIN if unreadable */
	/*
	 * How exec tells that it changed the ids (and so clears the ambient
	 * set): ANSWER_YES, the new effective uid against the old effective
	 * one and the new effective gid against the caller's groups (seen
	 * on Linux 6.18); ANSWER_NO, against the real uid and gid (Linux
	 * 6.15 and before); ANSWER_UNKNOWN, judged both ways: every
	 * release before 6.18 (gather_kernel() says why).
	 */
	enum answer setid_by_effective;
};

struct binary_facts {
	const char *path;
	int exists;
	int err; /* errno of the first failure while looking at it */
	uid_t uid;
	gid_t gid;
	mode_t mode;
	int is_regular;
	int target_known; /* target below is valid */
	int target_err;	  /* why not (errno), e.g. EACCES: cannot read it */
	struct exec_target target;
	int xattr_unsupported;
	cap_t caps; /* NULL when it carries none, or caps_err */
	/*
	 * errno of reading its security.capability, when that failed other
	 * than ENODATA or ENOTSUP (none there): whether it carries file
	 * capabilities is then unknown. 0 when read.
	 */
	int caps_err;
	/*
	 * The path the commands name: path itself, or where its symbolic
	 * link leads (setcap --perf refuses a link); "" when that cannot
	 * be resolved.
	 */
	char fix_path[4096];
	/*
	 * A script's interpreter (the first word of its "#!" line), whose
	 * set-user-ID and set-group-ID bits and file capabilities exec
	 * applies in the script's place: interp_privileged is 1 when it has
	 * any that count, or when perfdoctor cannot tell (a relative name,
	 * which the caller's working directory resolves; another script or
	 * a file it cannot read; a line cut short), else 0.
	 */
	char interp_path[80];
	int interp_privileged;
	/*
	 * perfdoctor itself runs in the initial user namespace, so uid 0
	 * above is the host's root (not a container's, mapped elsewhere).
	 */
	int seen_from_host;
	/* Its calling convention; name NULL: no ELF binary this kernel runs. */
	struct perf_arch arch;
	/*
	 * The root the path was looked up in: -1 for perfdoctor's own, else
	 * a descriptor of that of process root_of (another mount namespace
	 * or chroot: a container's), which release_binary() closes.
	 */
	int rootfd;
	pid_t root_of;
};

/*
 * What the seccomp filters of a session make of perf_event_open():
 * allows is ANSWER_YES when the call reaches the kernel (or there is no
 * filter), ANSWER_NO when a filter answers in the kernel's place, and
 * ANSWER_UNKNOWN when that cannot be told from here.
 */
struct seccomp_view {
	enum answer allows;
	/* how it was found and what was found, for "seccomp:" */
	char line[800];
	char why[600]; /* the refusal or the doubt, for the verdict */
};

/* Credentials and capability state of a session, from /proc/<pid>/status. */
struct session_facts {
	pid_t pid; /* 0: this process */
	uid_t ruid, euid, fsuid;
	gid_t rgid, egid, fsgid;
	gid_t *groups; /* supplementary groups; free() */
	int ngroups;
	uint64_t inheritable, permitted, bounding, ambient;
	uint64_t effective; /* what its own exec's permission check uses */
	int no_new_privs;
	int seccomp;		 /* 0 none, 1 strict, 2 filter */
	enum answer init_userns; /* in the initial user namespace? */
	char userns_how[200];	 /* how that was told, when not by its inode */
	int dfd;	  /* its /proc directory; release_session() closes it */
	unsigned threads; /* the thread group's size */
	pid_t tracer;	  /* the process tracing it (TracerPid), or 0 */
	struct seccomp_view sc; /* filled by gather_seccomp() */
	char container[600];	/* what runs it in a container, or "" */
	int in_container; /* another pid or user namespace, or a runtime */
	/*
	 * SECBIT_NOROOT in its securebits: ANSWER_YES set (exec treats uid 0
	 * as any other uid), ANSWER_NO clear, ANSWER_UNKNOWN when they cannot
	 * be read (another process's: the kernel shows them to nobody else),
	 * noroot_why then saying so.
	 */
	enum answer noroot;
	char noroot_why[400];
};

/* The user as the passwd and group databases describe a new login. */
struct user_facts {
	char *name; /* free() */
	int known;
	uid_t uid;
	gid_t gid;
	gid_t *groups; /* getgrouplist(): what initgroups() gives; free() */
	int ngroups;
};

/*
 * capability.conf as the fixes need it: what pam_cap would make of it for
 * the user once the file itself is fixed (chown and chmod made it root's
 * alone), so a fix that edits it starts from what pam_cap will then read.
 */
struct conf_facts {
	int refused;	    /* pam_cap reads none: others may write it */
	int world_writable; /* everybody may (S_IWOTH) */
	/* else who besides root may: its owner, group or an ACL entry */
	char untrusted[CAPCONF_TRUST_WHY];
	uid_t uid; /* its owner */
	int exists;
	int has_lines;	       /* not empty: sed can insert into it */
	int judged;	       /* read as pam_cap will (else: no edit) */
	unsigned long decided; /* the line deciding for the user, or 0 */
	int decided_star;      /* it decides by its '*' */
	int from_default;      /* no line decides and default= applies */
	char grant[512];       /* the caps text the user gets now, or "" */
	uint64_t inh, drop;    /* what it grants: I, bounding drops */
	/* The same for the user once in perf_users (for "@perf_users"). */
	int joined_judged;
	unsigned long joined_decided;
	int joined_star;
	char joined_grant[512];
};

/* What pam_cap would add to a new login through one PAM service. */
struct pam_view {
	char service[64];
	char stack[640];   /* where pam_cap sits, or why it does not run */
	char warning[600]; /* a likely typo in the stack, or "" */
	enum answer iab_reaches; /* I and bounding drops reach the session */
	enum answer amb_reaches; /* ambient bits reach it */
	char iab_why[200], amb_why[200];
	char config[4096];	 /* the capability.conf it reads */
	char grant[512];	 /* one line: what that file grants the user */
	uint64_t inh, amb, drop; /* the grant: I, A, and bounding drops */
	/*
	 * A "*" line decided (star, else 0), and a later line that names the
	 * user and would grant cap_perfmon (I or A) is never reached:
	 * shadow is its number, shadow_text its caps and who, shadow_line
	 * the whole line (its tokens, one blank apart).
	 */
	unsigned long star, shadow;
	int shadow_ambient; /* and it grants cap_perfmon ambient too */
	char shadow_text[300];
	char shadow_line[1024];
	struct conf_facts conf;
	/*
	 * perfdoctor, not being root, may not read the file that pam_cap
	 * (root) reads: what it grants is unknown, not nothing.
	 */
	int grant_unknown;
	/*
	 * No pam_cap in the stack: "auth optional pam_cap.so" appended to
	 * add_to (the service's own file) would run and reach the session.
	 */
	int no_pam_cap;
	int can_add;
	char add_to[4200];
	int add_has_lines;   /* add_to is not empty */
	char add_line[4400]; /* "auth optional pam_cap.so[ config=..]" */
};

/* Whoever would run perf: a session, or a new login modelled on one. */
struct subject {
	const char *name; /* the user, for messages */
	int is_root;	  /* real or effective uid 0: exec keeps privileges */
	int root_euid;	  /* the effective uid is 0: exec raises them too */
	int real_root;	  /* the real uid is 0 (file capabilities and a
			     set-user-ID root exec: see exec_subject()) */
	/* The ids exec compares to tell whether it changed them. */
	uid_t euid, ruid;
	gid_t egid, rgid;
	/*
	 * Set by exec_subject() for the process exec makes: the ambient bits
	 * that exec cleared because it took the ids for changed (by a bit
	 * of the binary's, or by the session's own), and the uid the set-user-ID
	 * bit made the effective one when it changed it ((uid_t)-1 when not).
	 */
	uint64_t ambient_cleared;
	uid_t suid_to;
	/*
	 * Why the ambient set was cleared: which bit, or the session's own
	 * ids, which exec takes for a change with no bit at all (taking the
	 * bits away would not help): effective ids that differ from the real
	 * ones (Linux 6.15 and before), or an effective gid that is neither
	 * the filesystem gid nor a supplementary group (Linux 6.18).
	 */
	enum {
		CLEARED_BY_NONE,
		CLEARED_BY_SETUID,
		CLEARED_BY_SETGID,
		CLEARED_BY_MIXED_IDS,
		CLEARED_BY_EGID_OUTSIDE
	} cleared_by;
	uid_t uid; /* credentials that exec's permission check uses */
	gid_t gid;
	const gid_t *groups;
	int ngroups;
	uint64_t inheritable, permitted, bounding, ambient;
	int no_new_privs;
	int seccomp;
	enum answer init_userns;
	const char *userns_how; /* how init_userns was told, or "" */
	enum answer may_exec;	/* may_execute() with the credentials above */
	const struct seccomp_view *sc; /* its filters' answer, or NULL */
	enum answer noroot;	/* SECBIT_NOROOT, as struct session_facts */
	const char *noroot_why; /* why that is unknown, or "" */
	pid_t tracer;		/* the process tracing it, or 0 */
};

/* What the fix lines may suggest. */
struct fix_context {
	const char *config; /* capability.conf, for an inheritable grant */
	int in_file_group; /* the user is in the binary's group in the database */
	int perf_users_exists; /* a group named perf_users exists */
	int in_perf_users;     /* and the user is in it, in the database */
	int user_known;	       /* in passwd: usermod can name them */
	/* The user's credentials in the database, for "would joining help?" */
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	int ngroups;
	/*
	 * A new login is judged: the bounding set before pam_cap's drops
	 * (what the login program starts with), else 0.
	 */
	int login;
	uint64_t base_bounding;
	/* The effective set of a new login of the user (exec's check). */
	uint64_t effective;
	/* a pam_cap grant that does not arrive, or NULL */
	const char *grant_note;
	const struct pam_view *pv; /* the service judged, or NULL */
	/* From the pam view judged (struct pam_view): where a grant must go. */
	unsigned long star, shadow;
	int shadow_ambient;
	const char *shadow_text;
};

#define MAX_FIXES 12
#define FIX_LEN	  1024

/*
 * One fix line: a command line for the shell, every operand quoted
 * (perfdoctor_fix.c), with a note printed after "   # "; or, with
 * is_command 0, words for a person (nothing to paste). A command's lead,
 * when set, is our words before it, saying where it is to be run.
 */
struct fix {
	char text[FIX_LEN];
	char note[256];
	char lead[80];
	int is_command;
};

/* A blocker besides the one the verdict line names. */
#define MAX_ALSO 6

struct verdict {
	enum answer answer;
	char reason[1024];
	/* Every other blocker found, each with its own answer: "also:" lines. */
	struct {
		enum answer answer;
		char text[1024];
	} also[MAX_ALSO];
	int nalso;
	struct fix fixes[MAX_FIXES];
	int nfixes;
	uint64_t at_exec; /* the effective set after exec */
	/* Asked for by the blockers, written once at the end of judge(). */
	int want_exec;	 /* the user may not execute the binary */
	int want_preset; /* the binary needs the preset capabilities */
};

/* perfdoctor_judge.c: the kernel's exec rule and perf's checks, applied. */
/*
 * The root id of b's namespaced file capabilities (v3), 0 for none or
 * for the initial namespace's: any other means exec ignores them here.
 */
uid_t foreign_rootid(const struct binary_facts *b);

void judge(const struct kernel_facts *k, const struct binary_facts *b,
	   const struct subject *who, const struct fix_context *fx,
	   struct verdict *v);
/*
 * Whether exec takes the session's own ids for a change with no bit at
 * all (and so clears its ambient set at any exec), by a rule the
 * kernel's release may follow.
 */
int own_ids_changed(const struct kernel_facts *k, const struct subject *who);
/* A fix in words (no command), for a person to carry out. */
void add_fix(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Adds f unless the verdict has it already (or is full). */
void add_fix_once(struct verdict *v, const struct fix *f);

/* perfdoctor_cmd.c: command lines for pasting, every operand quoted. */
/* A command line being built; why set means "no command, because". */
struct cmd {
	char text[FIX_LEN];
	size_t len;
	char why[FIX_LEN];
};
void cmd_init(struct cmd *c);
/* Our own text, as it is. */
void cmd_lit(struct cmd *c, const char *s);
/* One operand, quoted; what names it ("user name") in the why. */
void cmd_word(struct cmd *c, const char *what, const char *word);
/* An operand after options: "--" first when it starts with '-'. */
void cmd_name(struct cmd *c, const char *what, const char *name);
/* A file operand ("./" first when it starts with '-'). */
void cmd_path(struct cmd *c, const char *what, const char *path);
/* line appended to file: sed's "$a", or printf for an empty file. */
void cmd_append(struct cmd *c, const char *line, const char *file,
		int has_lines);
/* The command (or, failing, its why) as a fix of v, with a note. */
void cmd_add(struct verdict *v, const struct cmd *c, const char *note);
/* Did every fix of v come out as a command? */
int fixes_all_commands(const struct verdict *v);
/* from's fixes into to: all when each is a command, else the whys only. */
void commit_fixes(struct verdict *to, const struct verdict *from);
/* in with its backslashes doubled, for GNU sed's one-line i, a, c. */
int sed_text(char *out, size_t len, const char *in);

/*
 * perfdoctor_fix.c, perfdoctor_fixconf.c: the fixes. Each operand goes through
 * shquote; a name it refuses, or a line that would not fit, gives a fix
 * in words saying why instead of a command. Each writer prints a fix
 * only when its conditions say the next run will answer yes.
 */
/* The binary (v->want_*): join its group, or the preset for a group. */
void fix_perf(struct verdict *v, const struct binary_facts *b,
	      const struct subject *who, const struct fix_context *fx);
/*
 * pam_cap's grant through fx->pv: make capability.conf readable, give
 * the user inheritable cap_perfmon (add_inh) and keep the capabilities
 * of undrop in the bounding set, and add pam_cap to the stack. Returns 1
 * when it printed a fix, 0 when no edit of the file or stack would do.
 */
int fix_pam_grant(struct verdict *v, const struct subject *who,
		  const struct fix_context *fx, int add_inh, uint64_t undrop);
/*
 * The grant below a '*' line, moved above it (fx->shadow), when the move
 * changes nothing but cap_perfmon for anyone. Returns 1 when it printed
 * the fix, else 0.
 */
int fix_shadowed_grant(struct verdict *v, const struct fix_context *fx);
/*
 * 1 when caps text then grants what now grants, cap_perfmon in the
 * inheritable and ambient sets aside ("none" and "" grant nothing, "all"
 * equals only itself); else 0.
 */
int grant_only_perf_differs(const char *now, const char *then);
/*
 * For the suggest: lines: the preset for b that keeps who's access, as
 * one line of commands (into buf) and their notes (into note). Returns
 * 0, or -1 with buf saying why there is none ("" when nothing to say).
 */
int fix_preset_line(char *buf, size_t len, char *note, size_t note_len,
		    const struct binary_facts *b, const struct subject *who,
		    const struct fix_context *fx);
/* "chown root FILE; setcap CAPS FILE": the file's capabilities kept. */
int fix_owner_line(char *buf, size_t len, const struct binary_facts *b);
/* snprintf for messages: a path too long for the buffer is cut, knowingly. */
void put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* perfdoctor_print.c: the report, every line escaped (say.h). */
const char *answer_name(enum answer a);
const char *names_or_none(uint64_t bits, char *buf, size_t len);
const char *group_list(const gid_t *groups, int n, char *buf, size_t len);
void print_header(const struct kernel_facts *k, const struct binary_facts *b,
		  const char *user);
void print_session(const struct subject *who, const char *label);
/* The session's user namespace, seccomp filter and container, as found. */
void print_surroundings(const struct session_facts *s,
			const struct kernel_facts *k);
void print_pam(const struct pam_view *pv, int n);
void print_verdict(const struct verdict *v, const char *user, const char *path,
		   const char *how);
void print_risk(const struct binary_facts *b, const struct subject *who,
		const struct fix_context *fx);
/* "note:" why, then each of the n lines of f as "narrower:". */
void print_narrower(const char *why, const struct fix *f, int n);

/* perfdoctor_arch.c */
/* The convention of an ELF header (len bytes): 0, or -1 for none this kernel runs. */
int perf_arch_of_elf(const unsigned char *hdr, size_t len, struct perf_arch *a);
/* The same for the file open on fd (O_PATH will do): 0, or -1 with errno. */
int perf_arch_of_fd(int fd, struct perf_arch *a);
/* perfdoctor's own. */
int perf_arch_self(struct perf_arch *a);
/* That of the process whose /proc directory is open on dfd (its exe). */
int perf_arch_of_process(int dfd, struct perf_arch *a);

/* perfdoctor_seccomp.c */
/*
 * s->sc for the session s (its seccomp mode read): for perfdoctor's own
 * session, by a probe; for another process, by reading its filters
 * (root) through its /proc directory dfd and running them on the call
 * perf (architecture arch) makes.
 */
void gather_seccomp(struct session_facts *s, int dfd,
		    const struct perf_arch *arch);
/* "EPERM" and the like for the errno values perfdoctor reports; NULL for others. */
const char *errno_name(int e);

/* perfdoctor_runtime.c */
/* The most lines runtime_lines() gives. */
#define MAX_RUNTIME \
	4 /* (a container: profile, flags, securityContext, annotation) */
/*
 * The fixes that belong to what starts session s (subject who, the
 * binary b), judged answer: a container runtime's flags, a Kubernetes
 * securityContext, a systemd service's unit lines, least privilege
 * first. Into out (at most max); returns how many. Fixes, why "", for
 * a session not answered YES when something such lines change is in
 * the way; else, for a container that holds CAP_SYS_ADMIN or runs
 * without a seccomp filter, the narrower way, why (into why) saying
 * that is more than perf needs. 0 and why "" otherwise.
 */
int runtime_lines(const struct session_facts *s, const struct subject *who,
		  const struct binary_facts *b, enum answer answer,
		  struct fix *out, int max, char *why, size_t why_len);

/* perfdoctor_container.c */
/*
 * s->container and s->in_container: what the session's namespaces,
 * cgroup, environment and parents say about a container around it.
 */
void gather_container(struct session_facts *s, int dfd);

/* perfdoctor_profile_cmd.c */
/* The profile of podman and CRI-O (containers-common), as Debian installs it. */
#define SECCOMP_PROFILE_DEFAULT "/usr/share/containers/seccomp.json"
/*
 * --seccomp-profile[=BASE]: BASE (NULL: the default) with perf_event_open()
 * also allowed to CAP_PERFMON, on stdout. Returns the exit status: 0, or
 * 2 after a message (and nothing on stdout).
 */
int print_seccomp_profile(const char *base);

/* perfdoctor_facts.c */
/*
 * fork(), or -1 (errno EPERM) where a seccomp filter answers clone() or
 * getpid() in the kernel's place: never a "child" that is perfdoctor.
 */
pid_t fork_child(void);
void gather_kernel(struct kernel_facts *k);
/*
 * The binary at path, looked up in perfdoctor's root, or (rootfd not -1,
 * which b then owns) in the root of process root_of that rootfd is open
 * on, as that process would find it.
 */
void gather_binary(struct binary_facts *b, const char *path, int rootfd,
		   pid_t root_of);
/*
 * The root of the process whose /proc directory is dfd, opened, when it
 * is not perfdoctor's own; -1 when it is; -2 with errno when it cannot be
 * told (ENOENT: the process has exited, its root gone with it; EACCES:
 * no right to look), and which binary it would run with it.
 */
int foreign_root(int dfd);

/*
 * Is the process whose /proc directory is dfd frozen by a cgroup v1
 * freezer (a paused container), which no ptrace stop gets through?
 * (perfdoctor_frozen.c) 1, or 0 (not, or it cannot be told).
 */
int process_frozen(int dfd);

/* perf as a process in that root finds it: the first in the usual PATH. */
const char *perf_in_root(int rootfd);
void release_binary(struct binary_facts *b);
/* 0, or -1 after a message on stderr (no such process, unreadable, bad format). */
int gather_session(struct session_facts *s, pid_t pid);
/* 0 (u->known says whether the user exists), or -1 after a message (ENOMEM). */
int gather_user(struct user_facts *u, const char *name);
/*
 * The user with that uid, by its name; unknown (known 0, the number as
 * the name) when it has none, or when the name leads to another uid.
 */
int gather_user_uid(struct user_facts *u, uid_t uid);
void release_session(struct session_facts *s);
void release_user(struct user_facts *u);
const char *paranoid_meaning(int level);
/*
 * The credentials exec's permission check uses: filesystem ids, groups
 * and the effective set (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH decide
 * for uid 0 as for anyone).
 */
struct exec_creds {
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	int ngroups;
	uint64_t effective;
};
/*
 * May a process with these credentials execute the binary (and read it,
 * for a script, whose interpreter opens it)? The kernel answers
 * (faccessat2(AT_EACCESS) in a child that takes on the credentials, so
 * ACLs, noexec mounts and every directory on the path count):
 * ANSWER_UNKNOWN when we can neither switch to them (not root, or an
 * effective set beyond perfdoctor's) nor are them.
 */
enum answer may_execute(const struct binary_facts *b,
			const struct exec_creds *c);
/* The same question for any path and access(2) mode. */
enum answer may_access(const char *path, int mode, const struct exec_creds *c);

/* perfdoctor_pam.c */
struct pam_opts {
	const char *dir; /* --pam-dir, default /etc/pam.d */
	/* --service, comma-separated; NULL: the default list */
	const char *services;
	const char *config; /* --config: for pam_cap lines without config= */
};
/*
 * Fills views[0..*n) (at most max) for the services to judge and what
 * pam_cap would grant user through each. Returns 0, or -1 after a
 * message (ENOMEM).
 */
int pam_views(const struct pam_opts *o, const char *user,
	      struct pam_view *views, int max, int *n);

/*
 * perfdoctor_grant.c: what view->config (or default=, fallback) grants
 * user, into view's masks, grant line and conf facts.
 */
void judge_grant(struct pam_view *view, const char *user, const char *fallback);

/* perfdoctor_pamstack.c: a PAM service's auth stack, flattened the way libpam reads it. */

/* libpam's own limit is 16 nested files; deeper is an error for it too. */
#define PAMSTACK_MAX_DEPTH   16
#define PAMSTACK_MAX_ENTRIES 512

/* One auth line of the flattened stack. */
struct pam_entry {
	char where[300]; /* file:line */
	int level;	 /* substack depth */
	int frame;	 /* the substack this line belongs to */
	int marker;	 /* the line that opens a substack */
	int may_end;	 /* sufficient, or an action "done" */
	int jump;	 /* the largest [value=N] jump, 0 for none */
	int pam_cap;
	int keepcaps, defer;
	char unknown[64]; /* the first argument pam_cap ignores, or "" */
	int nunknown;	  /* how many it does not know */
	int config_given; /* config= is there, even empty */
	char config[4096];
	char fallback[512]; /* default= */
	char module[4096];
};

struct pam_stack {
	const char *dir;     /* relative file names are looked up here */
	struct pam_entry *e; /* PAMSTACK_MAX_ENTRIES of them */
	int n;
	int frames;
	int parent[PAMSTACK_MAX_ENTRIES + 1]; /* frame -> enclosing frame */
	char error[600]; /* set: the stack could not be read */
};

/*
 * Appends the auth lines of file name (absolute, or relative to s->dir)
 * and of everything it includes to s; a problem sets s->error (the stack
 * is then unknown).
 */
void pam_stack_read(struct pam_stack *s, const char *name);

/* Can line j keep the stack from reaching line k (k > j)? */
int pam_stack_may_skip(const struct pam_stack *s, int j, int k);

/* Could a line appended to the service's own file be skipped? */
int pam_stack_may_skip_end(struct pam_stack *s);

/* The arguments pam_cap knows, for "did you mean". */
extern const char *const pam_cap_arguments[];
extern const size_t pam_cap_narguments;

#endif
