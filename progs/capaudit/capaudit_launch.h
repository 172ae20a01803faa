/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: running the command. */
#ifndef CAPAUDIT_LAUNCH_H
#define CAPAUDIT_LAUNCH_H

#include <signal.h>
#include <sys/capability.h>
#include <sys/types.h>

struct grant_plan;
struct run_result;
struct source;
struct tally;

struct launch {
	char **argv;
	const char *path; /* resolved; the launcher runs it */
	const char *user; /* --user's name, or NULL */
	uid_t uid;
	gid_t gid;
	char **envp;		       /* the command's environment */
	cap_iab_t iab;		       /* --iab, or NULL; copied for each run */
	const struct grant_plan *plan; /* a trial, or NULL */
	double limit;		       /* a trial's time limit in seconds */
};

/*
 * The environment for --user: ours, with HOME, USER, LOGNAME, SHELL and
 * PATH for that user; root's own places (XDG_RUNTIME_DIR, MAIL, TMPDIR,
 * the XDG homes, its agents' sockets) and what the C library ignores in
 * a program that gained capabilities (LD_*, glibc's other unsecure
 * variables) gone. Caller frees with env_free(). NULL with errno ENOMEM.
 */
char **env_for_user(const char *const *environ_, const char *name, uid_t uid,
		    const char *home, const char *shell);
void env_free(char **env);
/*
 * Runs the command under the tracer into t and rr. A trial (l->plan) is
 * ended when it runs past l->limit or capaudit is asked to stop (rr->cut
 * says so), and what it leaves behind is ended after it (rr->left,
 * rr->left_running; capaudit must be the subreaper). Returns 0, or the
 * exit status for main() after a message.
 */
int launch_run(const struct launch *l, const struct source *src,
	       struct tally *t, struct run_result *rr);
/* Set by SIGINT, SIGTERM and SIGQUIT: the command gets them too. */
extern volatile sig_atomic_t launch_stop;
/*
 * capaudit waits for its children itself, so it takes SIGCHLD back to
 * its default if its caller left it ignored (the kernel would reap them
 * first); the command and the trials get it ignored again, as they would
 * have without capaudit. Call once, first.
 */
void launch_keep_children(void);

#endif
