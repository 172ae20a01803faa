/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: why the command could not start. */
#ifndef CAPAUDIT_WHY_START_H
#define CAPAUDIT_WHY_START_H

#include <stddef.h>

struct launch;

/*
 * Why l's command could not start: as l's user, the first directory on
 * l->path it may not search, or the file it may not run. The errno (and
 * that path, in path), 0 when nothing was found, or -1 when the look did
 * not end within a few seconds (a file system that does not answer) or
 * capaudit was told to stop.
 */
int why_not_started(const struct launch *l, char *path, size_t size);

#endif
