/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --suggest: the ambient run's mount namespace, where nothing
 * but the files it allows can be executed or mapped executable.
 */
#ifndef CAPAUDIT_NOEXEC_H
#define CAPAUDIT_NOEXEC_H

#include <stdint.h>

/* A file the ambient run may execute or map executable. */
struct exec_keep {
	char path[4096];   /* no link in its last part */
	uint64_t dev, ino; /* what path must still be (stat(2)'s numbers) */
};

/*
 * Whether this kernel has the calls noexec_all() and noexec_keep() make
 * (mount_setattr(2), open_tree(2), move_mount(2)): 1, or 0 with errno.
 */
int noexec_possible(void);
/*
 * In a private mount namespace: every mount in it, those hidden under
 * others included, made noexec, each keeping its other flags. Only
 * async-signal-safe calls. 0, or -1 with the failed step in *step and
 * errno set.
 */
int noexec_all(const char **step);
/*
 * Then each file of keep, if its path is still that file, bound onto
 * itself by a mount that is not noexec. Only async-signal-safe calls. 0,
 * or -1 with the failed step in *step and errno set (ESTALE: a path is
 * another file now).
 */
int noexec_keep(const struct exec_keep *keep, size_t n, const char **step);

#endif
