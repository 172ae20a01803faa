/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The only file that issues raw system calls; everything else calls lcap_sys_*(). */
#include <errno.h>
#include <sys/prctl.h>

#include "lcap.h"

/*
 * A prctl that only reads state. Reads are per-thread facts and never go
 * through the cap_set_syscall() routing, which exists for changes.
 */
long lcap_sys_prctl_read(long option, long arg2, long arg3)
{
	return prctl((int)option, arg2, arg3, 0L, 0L);
}
