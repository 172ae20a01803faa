/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Declarations shared by capsh's modules: the option state and each handler. */
#ifndef CAPSH_H
#define CAPSH_H

#include <sys/types.h>
#include <sys/capability.h>

/*
 * Everything an option may change that a later option reads. Built in
 * main() and handed to every handler; handlers print their own messages
 * and return 0 to carry on or 1 (capsh's exit status) to stop.
 */
struct opts {
	const char *argv0; /* as invoked: usage, --license, == and =+ */
	const char *shell; /* --shell=, run by -- and -+ */
	int strict;	   /* --strict toggles: no CAP_SETPCAP fix-ups */
	int quiet;	   /* --quiet seen: passed on by == and =+ */
	int noenv;	   /* --noenv: --user leaves HOME and USER alone */
	pid_t child;	   /* --forkfor child awaiting --killit, or 0 */
	int usage_status;  /* 0 only when argv[1] asked for help */
	int json; /* --json (ours): later --print/--decode print JSON */
};

/* capsh.c */
void capsh_usage(const struct opts *o, int status) __attribute__((noreturn));

/* capsh_util.c */
int capsh_parse_uint(const char *text, const char *what, unsigned *value);
int capsh_cap_value(const char *text, cap_value_t *cap);
void capsh_bad_value(const char *what, const char *reason, const char *text);
void capsh_perror(const char *msg);

/* capsh_print.c */
int capsh_print(void);
int capsh_current(void);
int capsh_decode(const char *hex);
int capsh_parse_hex(const char *hex, unsigned long long *bits);
int capsh_show_mode(void);
int capsh_show_modes(void);

/* capsh_json.c */
int capsh_print_json(void);
int capsh_decode_json(const char *hex);

/* capsh_explain.c */
int capsh_explain(const char *what);
int capsh_suggest(const char *phrase);

/* capsh_explain_text.c: one description per capability of private/caps.def. */
extern const char *const capsh_cap_text[];
extern const int capsh_cap_text_count;

/* capsh_check.c: the --has-*, --is-*, --supports, --dropped, --inmode tests. */
int capsh_has_flag(const char *name, cap_flag_t flag);
int capsh_has_ambient_bit(const char *name);
int capsh_has_bound(const char *name);
int capsh_dropped(const char *name);
int capsh_supports(const char *name);
int capsh_has_ambient(void);
int capsh_has_no_new_privs(void);
int capsh_is_id(const char *text, int gid);
int capsh_inmode(const char *name);

/* capsh_caps.c: changes to P, E, I, the bounding and ambient vectors. */
int capsh_caps(const struct opts *o, const char *arg, const char *text);
int capsh_inh(const struct opts *o, const char *list);
int capsh_drop(const struct opts *o, const char *list);
int capsh_ambient(const char *list, cap_flag_value_t value);
int capsh_noamb(void);
int capsh_iab(const char *text);

/* capsh_state.c: modes, securebits, prctl flags, chroot, the forked child. */
int capsh_set_mode(const char *name);
int capsh_secbits(const char *text);
int capsh_keep(const char *text);
int capsh_no_new_privs(void);
int capsh_chroot(const char *path);
int capsh_forkfor(struct opts *o, const char *text);
int capsh_killit(struct opts *o, const char *text);

/* capsh_ids.c: uid, gid and supplementary groups. */
int capsh_uid(const char *text);
int capsh_gid(const char *text);
int capsh_cap_uid(const char *text);
int capsh_groups(const char *list);
int capsh_user(const struct opts *o, const char *name);

/* capsh_launch.c: -- and -+ (the shell), == and =+ (capsh again). */
int capsh_exec_shell(const struct opts *o, char **args);
int capsh_launch_shell(const struct opts *o, char **args);
int capsh_exec_self(const struct opts *o, char **args);
int capsh_launch_self(const struct opts *o, char **args);

#endif
