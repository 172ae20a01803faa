/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * One thread's capability sets, read with capget(2) by thread id (0: the
 * caller), never from /proc: for the libpsx tools (psxnoproc, which runs
 * where /proc is gone, and psxiouring).
 */
#ifndef CAPGET_TID_H
#define CAPGET_TID_H

#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

struct sets {
	unsigned long long eff, prm, inh;
};

/* 0, or -1 with errno (ESRCH: no such thread). */
static inline int read_sets(pid_t tid, struct sets *s)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3,
						 tid };
	struct __user_cap_data_struct data[2];

	/* valgrind takes capget(2) to fill the first element alone */
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &head, data) < 0)
		return -1;
	s->eff =
		(unsigned long long)data[1].effective << 32 | data[0].effective;
	s->prm =
		(unsigned long long)data[1].permitted << 32 | data[0].permitted;
	s->inh = (unsigned long long)data[1].inheritable << 32 |
		 data[0].inheritable;
	return 0;
}

#endif
