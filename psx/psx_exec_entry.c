/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* libpsx.so.2 run as a program: says what it is and which version. */
#include "exec_entry.h"

/*
 * The first line has the shape of libcap's libpsx ("... is the shared
 * library version: libpsx-<version>."), the rest is our own. Like libcap's,
 * it takes no options: any arguments are ignored and the status is 0.
 */
EXEC_INTERP_SECTION;

void lpsx_exec_entry(void) EXEC_ENTRY_ATTRS;

void lpsx_exec_entry(void)
{
	struct exec_args args;
	struct exec_out out = { 0 };

	exec_read_args(&args, "This library");
	exec_put(&out, args.argv[0]);
	exec_put(
		&out,
		" is the shared library version: libpsx-" EXEC_VERSION ".\n"
		"It is libcap-perfmon's from-scratch drop-in for libpsx (BSD-3-Clause OR GPL-2.0-only):\n"
		"system calls made by every thread of a process; see psx_syscall(3).\n");
	exec_exit(&out, 0);
}
