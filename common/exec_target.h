/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Will the kernel honour the file capabilities of this file at execve()?
 * Only when it runs the file itself as an ELF binary from a mount that
 * allows set-id and capabilities. setcap --perf refuses, and perfdoctor
 * answers no, for anything else.
 */
#ifndef COMMON_EXEC_TARGET_H
#define COMMON_EXEC_TARGET_H

#include <stddef.h>

enum exec_target_kind {
	EXEC_TARGET_ELF,       /* ELF executable or shared object: binfmt_elf */
	EXEC_TARGET_SCRIPT,    /* "#!": binfmt_script runs the interpreter */
	EXEC_TARGET_ELF_OTHER, /* ELF, but a relocatable object or core file */
	EXEC_TARGET_OTHER,     /* anything else: binfmt_misc or ENOEXEC */
};

struct exec_target {
	enum exec_target_kind kind;
	char interp[80]; /* the "#!" line, up to its end, for messages */
	int nosuid;	 /* on a mount with ST_NOSUID */
	int noexec;	 /* on a mount with ST_NOEXEC */
};

/*
 * Inspects the regular file open on fd (any descriptor, O_PATH too: it is
 * read through /proc/thread-self/fd/N, which names the very inode, never a
 * path). Returns 0, or -1 with errno (EACCES when it cannot be read, ENOENT
 * without /proc, EINVAL when fd is not a regular file).
 */
int exec_target_inspect(int fd, struct exec_target *t);

/*
 * Why file capabilities on that file do nothing, as a clause that follows
 * the file's name ("is a script (#!/bin/sh): ..."), or NULL when the kernel
 * honours them. Writes into buf (size len) when it needs the details.
 */
const char *exec_target_problem(const struct exec_target *t, char *buf,
				unsigned len);

/*
 * The program interpreter (PT_INTERP: the dynamic loader the kernel maps
 * to start it) of the ELF file open on fd (any descriptor, as above),
 * in the machine's own byte order, into buf (size len). Returns 1, 0
 * when it names none (a static binary, or no ELF file at all), or -1
 * with errno (EINVAL: headers that do not hold together, or another
 * byte order; ENAMETOOLONG: the name does not fit buf; what reading
 * the file gave).
 */
int exec_target_elf_interp(int fd, char *buf, size_t len);

#endif
