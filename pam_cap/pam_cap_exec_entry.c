/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* pam_cap.so run as a program: what the module is, and with --help its arguments. */
#include "exec_entry.h"

/*
 * libcap's module behaves the same way: no argument, a description and
 * status 0; --help, the description and the module arguments, status 0;
 * anything else, the description and a pointer to --help, status 1. The
 * version appears as "(version libcap-<version>)", as in libcap's first
 * line; the words are our own.
 */
EXEC_INTERP_SECTION;

void pam_cap_exec_entry(void) EXEC_ENTRY_ATTRS;

/* The arguments parse_opts() in pam_cap.c accepts; pam_cap(8) has more. */
static const char module_args[] =
	"debug         - log which line matched the user and what was applied\n"
	"config=<file> - read <file>, not /etc/security/capability.conf\n"
	"keepcaps      - then set keep-capabilities, for applications that setuid\n"
	"autoauth      - authentication succeeds for every user\n"
	"default=<iab> - the tuple for users no line names\n"
	"defer         - apply the tuple at pam_end(), not in pam_setcred()\n";

void pam_cap_exec_entry(void)
{
	struct exec_args args;
	struct exec_out out = { 0 };
	int status = 0;

	exec_read_args(&args, "This module");
	exec_put(&out, args.argv[0]);
	exec_put(
		&out,
		" (version libcap-" EXEC_VERSION
		") is the PAM module of libcap-perfmon that gives\n"
		"a user the inheritable (IAB) capabilities capability.conf(5) grants them;\n"
		"see pam_cap(8). BSD-3-Clause OR GPL-2.0-only.\n");
	if (args.argc > 1) {
		if (args.argc == 2 && strcmp(args.argv[1], "--help") == 0) {
			exec_put(
				&out,
				"\nModule arguments (in the PAM configuration, after pam_cap.so):\n\n");
			exec_put(&out, module_args);
		} else {
			exec_put(&out, "\n");
			exec_put(&out, args.argv[0]);
			exec_put(&out, ": the only option is --help\n");
			status = 1;
		}
	}
	exec_exit(&out, status);
}
