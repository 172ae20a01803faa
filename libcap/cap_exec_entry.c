/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* libcap.so.2 run as a program: its version, and what the running kernel supports. */
#include "lcap.h"
#include "exec_entry.h"

/*
 * The output's shape is libcap's (first line, "usage:" line, the two
 * --summary lines), so that whatever reads libcap's reads ours; the prose
 * around them is our own. Arguments are taken in order: --summary may
 * repeat, --help or --usage ends the run with status 0, anything else
 * prints the usage and ends it with 1.
 */
EXEC_INTERP_SECTION;

void lcap_exec_entry(void) EXEC_ENTRY_ATTRS;

static void put_summary(struct exec_out *o)
{
	int kernel = cap_max_bits();

	/*
	 * cap_get_mode() allocates (cap_get_proc): that is safe here, since
	 * the loader ran libc's initialisers before jumping to the entry.
	 */
	exec_put(o, "\nCurrent mode: ");
	exec_put(o, cap_mode_name(cap_get_mode()));
	exec_put(o, "\nNumber of cap values known to: this libcap=");
	exec_put_uint(o, LCAP_NAMED);
	exec_put(o, ", running kernel=");
	exec_put_uint(o, (unsigned)kernel);
	exec_put(o, "\n");
	if (kernel > LCAP_NAMED) {
		exec_put(
			o,
			"=> this kernel has capabilities we have no name for:");
		for (int c = LCAP_NAMED; c < kernel; c++) {
			exec_put(o, " ");
			exec_put_uint(o, (unsigned)c);
		}
		exec_put(o, "\n");
	} else if (kernel < LCAP_NAMED) {
		exec_put(o, "=> named here, unknown to this kernel:");
		for (int c = kernel; c < LCAP_NAMED; c++) {
			exec_put(o, " ");
			exec_put(o, lcap_name_of((unsigned)c));
		}
		exec_put(o, "\n");
	}
	/* Ours only: the names themselves, numbers where we have none. */
	exec_put(o, "Capabilities of the running kernel:");
	for (int c = 0; c < kernel; c++) {
		exec_put(o, " ");
		if (c < LCAP_NAMED)
			exec_put(o, lcap_name_of((unsigned)c));
		else
			exec_put_uint(o, (unsigned)c);
	}
	exec_put(o, "\n\n");
}

void lcap_exec_entry(void)
{
	struct exec_args args;
	struct exec_out out = { 0 };

	exec_read_args(&args, "This library");
	exec_put(&out, args.argv[0]);
	exec_put(
		&out,
		" is the shared library version: libcap-" EXEC_VERSION ".\n"
		"It is libcap-perfmon's from-scratch drop-in for libcap (BSD-3-Clause OR GPL-2.0-only);\n"
		"libcap(3) describes its interface, --summary what this kernel supports.\n");
	for (int i = 1; i < args.argc; i++) {
		if (strcmp(args.argv[i], "--summary") == 0) {
			put_summary(&out);
			continue;
		}
		exec_put(&out,
			 "\nusage: libcap.so [--help|--usage|--summary]\n");
		exec_exit(&out,
			  strcmp(args.argv[i], "--help") == 0 ||
					  strcmp(args.argv[i], "--usage") == 0
				  ? 0
				  : 1);
	}
	exec_exit(&out, 0);
}
