/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Declarations shared by setcap's modules: the explanations and --perf. */
#ifndef SETCAP_H
#define SETCAP_H

#include <sys/capability.h>
#include <sys/types.h>

/*
 * setcap_explain.c: setcap's additions, lines printed after libcap's own
 * messages, never instead.
 */

/* Names the clause, and within it the capability name, that cap_from_text refused. */
void explain_text(const char *text);

/* Names the real cause of a failed cap_set_file(file, caps) with errno err. */
void explain_set_error(const char *file, int err, cap_t caps);

/*
 * After libcap 2.76's effective-set error: names the capabilities that
 * break "E empty or E = P | I"; forced says -f lets the write go on.
 */
void explain_effective(const char *file, cap_t caps, int forced);

/* Says why raising CAP_SETFCAP failed. */
void explain_no_setfcap(void);

/* After libcap's "[Error - aborting]": why standard input could not be read. */
void explain_stdin_error(int err);

/* Warns about capabilities in caps that the running kernel does not know. */
void warn_above_kernel(const char *file, cap_t caps);

/*
 * setcap_target.c: after a successful write, a warning when the file is
 * a "#!" script, whose capabilities the kernel ignores at exec.
 */
void warn_exec_target(const char *file, cap_t caps);

/* setcap_perf.c: --perf, the minimal capabilities perf needs on the running kernel. */

/* --perf-group=NAME, resolved before anything is changed. */
struct perf_group {
	const char *name; /* NULL: no --perf-group */
	gid_t gid;
};

/*
 * The preset for the running kernel and, optionally, a comma-separated
 * list of perf subcommands ("record,top"); NULL after a message naming the
 * unknown subcommand. The caller frees the set with cap_free().
 */
cap_t perf_preset(const char *subcommands);

/*
 * Checks --perf-group in setcap's whole command line before any file is
 * touched: given at most once, with "=GROUP", before every --perf and
 * followed by at least one, naming a group that exists. Fills g (g->name NULL when absent). Returns 0, or -1
 * after a message.
 */
int perf_check_group_args(int argc, char **argv, struct perf_group *g);

/*
 * setcap --perf on one file: opens it once (O_PATH, no symlink followed),
 * refuses a file whose capabilities the kernel would ignore (not ELF, a
 * nosuid or noexec mount), then with a group makes it root:GROUP 0750
 * with no ACL (refusing a file not owned by root), or without one warns
 * when every user may execute it; writes caps (unless verify) and checks
 * what the inode carries, printing "file: OK" unless quiet. The caller
 * has raised CAP_SETFCAP. Returns 0, or -1 after a message.
 */
int perf_apply(const char *file, cap_t caps, const struct perf_group *group,
	       int verify, int quiet);

#endif
