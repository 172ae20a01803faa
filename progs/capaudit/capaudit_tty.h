/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: --user's command may not type into root's terminal. */
#ifndef CAPAUDIT_TTY_H
#define CAPAUDIT_TTY_H

/*
 * In the launched child, still root: refuses TIOCSTI and TIOCLINUX to
 * the command and all it runs (a seccomp filter), or else gives it a
 * session of its own. 0, or -1 with errno. Only async-signal-safe calls.
 */
int tty_guard(void);

#endif
