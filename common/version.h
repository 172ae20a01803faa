/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --version for every program we build, so a bug report or a script can
 * tell our programs and their version from libcap's. libcap's programs
 * have no such option; ours add it, in one format everywhere.
 */
#ifndef COMMON_VERSION_H
#define COMMON_VERSION_H

/*
 * Prints "<prog> (libcap-perfmon) <version>" on stdout, the version being
 * the one the build gives the library (Make.Rules). Returns the exit
 * status for main(): 0, or 1 when stdout could not be written (say
 * "--version >/dev/full"), after a message on stderr naming the reason.
 */
int version_print(const char *prog);

#endif
