/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* cap_max_bits(): how many capabilities the running kernel knows, asked once. */
#include <errno.h>
#include <sys/prctl.h>

#include "lcap.h"

/*
 * 0 means "not asked yet". Computed on first use rather than by a load-time
 * constructor, so programs that never need it pay no system calls. Threads
 * racing here compute the same value, so a relaxed atomic store suffices.
 */
static int kernel_bits;

static int probe_kernel_bits(void)
{
	/* PR_CAPBSET_READ(low) works, PR_CAPBSET_READ(high) fails */
	int low = 0, high = LCAP_BITS;

	if (lcap_sys_prctl(PR_CAPBSET_READ, 0, 0, 0, 0) < 0)
		return LCAP_NAMED; /* prctl unavailable (seccomp?): our names */
	while (high - low > 1) {
		int mid = low + (high - low) / 2;

		if (lcap_sys_prctl(PR_CAPBSET_READ, mid, 0, 0, 0) < 0)
			high = mid;
		else
			low = mid;
	}
	return high;
}

int lcap_kernel_bits(void)
{
	int bits = __atomic_load_n(&kernel_bits, __ATOMIC_RELAXED);

	if (bits == 0) {
		int saved = errno; /* probing must not disturb the caller */

		bits = probe_kernel_bits();
		errno = saved;
		__atomic_store_n(&kernel_bits, bits, __ATOMIC_RELAXED);
	}
	return bits;
}

void lcap_kernel_bits_forget(void)
{
	__atomic_store_n(&kernel_bits, 0, __ATOMIC_RELAXED);
}

cap_value_t cap_max_bits(void)
{
	return lcap_kernel_bits();
}
