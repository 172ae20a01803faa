/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: what a grant hands out besides. */
#ifndef CAPAUDIT_WARN_H
#define CAPAUDIT_WARN_H

#include <stdint.h>
#include <stdio.h>

struct need_file;

/* 1 when path names a program that runs code it is given (python3.11, sh). */
int is_interpreter(const char *path);
/*
 * "# WARNING:" lines for caps granted on path (the file the command ran,
 * device and inode as the kernel said): root-equivalent capabilities,
 * a file every user may run, an interpreter, a file the kernel would not
 * honour file capabilities on.
 */
void warn_grant(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		uint64_t caps, FILE *out);
/*
 * "# WARNING:" lines for each library f loaded (its loader, what it
 * dlopen()s) that someone other than root may change: their code runs
 * with caps too.
 */
void warn_libraries(const struct need_file *f, uint64_t caps, FILE *out);
/* The command itself is a script: its grant goes on its interpreter. */
void warn_script(const char *command, FILE *out);

#endif
