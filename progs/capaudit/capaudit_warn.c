/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * What a suggested grant would hand out besides what the command asked
 * for, said next to it as setcap --perf says it: a file every user may
 * run gives every user the capabilities; an interpreter gives them to
 * every script and every -c; a script cannot hold them at all; and a
 * root-equivalent capability is named as such.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capaudit_identity.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_trust.h"
#include "capaudit_warn.h"
#include "exec_target.h"
#include "mask.h"
#include "names.h"
#include "risk.h"
#include "say.h"

/*
 * Programs that run code they are given (a script, -c, -m, stdin): a
 * capability on them is a capability for any code. The name alone, or
 * the name and a version ("python3.11", "perl5.36.0", "lua5.4").
 */
static const char *const interpreters[] = {
	"sh",	   "bash",    "dash",	 "ash",	   "zsh",	"ksh",
	"ksh93",   "mksh",    "pdksh",	 "yash",   "fish",	"csh",
	"tcsh",	   "busybox", "python",	 "pypy",   "perl",	"ruby",
	"irb",	   "node",    "nodejs",	 "deno",   "bun",	"php",
	"php-cgi", "lua",     "luajit",	 "tclsh",  "wish",	"expect",
	"java",	   "jshell",  "awk",	 "gawk",   "mawk",	"nawk",
	"Rscript", "R",	      "guile",	 "gjs",	   "osascript", "pwsh",
	"elixir",  "erl",     "escript", "racket", "sbcl",	"ocaml",
	"gdb",	   "vim",     "nvim",	 "emacs",
};

int is_interpreter(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base != NULL ? base + 1 : path;
	for (i = 0; i < sizeof(interpreters) / sizeof(interpreters[0]); i++) {
		n = strlen(interpreters[i]);
		if (strncmp(base, interpreters[i], n) != 0)
			continue;
		if (base[n] == '\0' ||
		    strspn(base + n, "0123456789.") == strlen(base + n))
			return 1;
	}
	return 0;
}

/* The grant's root-equivalent capabilities, named as such. */
static void warn_root(const char *path, uint64_t caps, FILE *out)
{
	char name[64];
	int c;

	for (MASK_EACH(c, caps)) {
		if (risk_tier_of(c) != RISK_ROOT)
			continue;
		names_cap(c, name, sizeof(name));
		say(out, "# WARNING: ",
		    "%s is root-equivalent (%s): whoever runs %s with it can take over the machine",
		    name,
		    risk_reason(c) ? risk_reason(c) : "see capabilities(7)",
		    path);
	}
}

/* Who may run the file: every user, a group, its owner. */
static void warn_who(const char *path, const struct stat *st, const char *list,
		     int root_tier, FILE *out)
{
	char who[64];

	if (st->st_mode & S_IXOTH) {
		say(out, "# WARNING: ",
		    "%s is executable by every user (mode %04o): each of them gets %s with it%s",
		    path, (unsigned)(st->st_mode & 07777), list,
		    root_tier ? ", which makes every user root" : "");
		say(out, "#   ",
		    "restrict who may run it first (a group, mode 0750, as setcap --perf-group does for perf), or grant a copy only that group may run");
	} else if ((st->st_mode & S_IXGRP) && st->st_gid != 0) {
		/* Names from the databases are shown escaped, as paths are. */
		say(out, "# note: ",
		    "%s is executable by group %s: each member gets %s with it",
		    path, names_group(st->st_gid, who, sizeof(who)), list);
	}
	if (st->st_uid != 0) {
		say(out, "# WARNING: ",
		    "%s is owned by %s, not root, who can change who runs it with %s",
		    path, names_user(st->st_uid, who, sizeof(who)), list);
	}
	if ((st->st_mode & S_ISUID) && st->st_uid == 0) {
		say(out, "# note: ",
		    "%s is set-user-ID root: it runs with every capability now; the grant can replace that (chmod u-s)",
		    path);
	}
}

void warn_grant(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		uint64_t caps, FILE *out)
{
	struct exec_target et;
	enum trust_verdict own;
	const char *problem;
	char list[1024], why[512], clause[400];
	struct stat st;
	int fd, root_tier = 0, c;

	for (MASK_EACH(c, caps))
		root_tier |= risk_tier_of(c) == RISK_ROOT;
	mask_names(list, sizeof(list), caps, 0);
	warn_root(path, caps, out);
	if (!identity_names(path, maj, min, ino, why, sizeof(why))) {
		say(out, "# WARNING: ",
		    "%s: not the file the command ran any more (%s): check it before granting",
		    path, why);
		return;
	}
	fd = identity_open(path, &st);
	if (fd < 0)
		return; /* gone between the two looks: nothing to tell of it */
	if (exec_target_inspect(fd, &et) == 0 &&
	    (problem = exec_target_problem(&et, why, sizeof(why))) != NULL) {
		/* a script's "#!" line is its author's: escaped */
		say(out, "# WARNING: ", "%s %s; this grant would do nothing",
		    path, problem);
	}
	/*
	 * Root's file that others may write anyway (its mode, an ACL
	 * entry), or whose owner and mode the kernel does not keep: they
	 * decide what runs with the grant. (Another owner: warn_who().)
	 */
	own = st.st_uid == 0 ? trust_file(fd, &st, clause, sizeof(clause))
			     : TRUST_OTHERS;
	close(fd);
	if (st.st_uid == 0 && own != TRUST_ROOTS) {
		say(out, "# WARNING: ",
		    "%s %s: whoever may change it decides what runs with %s",
		    path, clause, list);
	}
	/*
	 * A root's file where another may rename, remove or replace what a
	 * directory holds: that one decides which file the name is when the
	 * line is pasted (a file made there may even get the freed inode's
	 * number, so nothing here could tell it from the one that ran).
	 */
	if (own == TRUST_ROOTS && trust_way(path, &st, TRUST_PASTED, clause,
					    sizeof(clause)) != TRUST_ROOTS) {
		say(out, "# WARNING: ",
		    "%s %s: whoever may change it decides which file that name is when this line is pasted",
		    path, clause);
	}
	warn_who(path, &st, list, root_tier, out);
	if (is_interpreter(path)) {
		say(out, "# WARNING: ",
		    "%s is an interpreter: every program it runs (any script, any code given with -c or -m, any user's) gets %s; prefer an ambient capability for this one service (systemd, below) or a small program of its own",
		    path, list);
	}
}

void warn_libraries(const struct need_file *f, uint64_t caps, FILE *out)
{
	char list[1024], clause[400];
	size_t i;

	if (caps == 0)
		return;
	mask_names(list, sizeof(list), caps, 0);
	for (i = 0; i < f->nlibs; i++) {
		if (trust_path(f->libs[i].path, -1, TRUST_PASTED, clause,
			       sizeof(clause)) == TRUST_ROOTS)
			continue;
		say(out, "# WARNING: ",
		    "%s loads %s, which %s: whoever may change it runs code with %s",
		    f->path, f->libs[i].path, clause, list);
	}
}

void warn_script(const char *command, FILE *out)
{
	struct exec_target et;
	char why[200];
	int fd = open(command, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return;
	if (exec_target_inspect(fd, &et) == 0 &&
	    et.kind == EXEC_TARGET_SCRIPT) {
		/* The "#!" line is the script author's text: escaped. */
		say(out, "# WARNING: ",
		    "%s %s: the files below are what the kernel ran", command,
		    exec_target_problem(&et, why, sizeof(why)));
	}
	close(fd);
}
