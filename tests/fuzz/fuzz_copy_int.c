/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for cap_copy_int() and cap_copy_int_check(). Property:
 * a blob that decodes re-encodes through cap_copy_ext() to a blob that
 * decodes to an equal set, and both decoders agree where both accept.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "fuzz.h"

#define EXT_HEADER 5
#define EXT_VECTOR 8 /* bytes per flag this library reads */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so reading past size is caught by ASan. */
	uint8_t *blob = fuzz_bytes(data, size);
	unsigned char ext[64];
	cap_t checked, unchecked = NULL, again;
	ssize_t n;

	errno = 0;
	checked = cap_copy_int_check(blob, (ssize_t)size);
	if (checked == NULL)
		FUZZ_ASSERT(errno == EINVAL || errno == ENOMEM);
	/*
	 * The unchecked decoder trusts the length byte but reads at most
	 * EXT_VECTOR bytes per flag: call it only on blobs that hold them.
	 */
	if (size >= EXT_HEADER &&
	    size >= EXT_HEADER + 3 * (size_t)(blob[4] < EXT_VECTOR
						      ? blob[4]
						      : EXT_VECTOR)) {
		errno = 0;
		unchecked = cap_copy_int(blob);
		if (unchecked == NULL)
			FUZZ_ASSERT(errno == EINVAL || errno == ENOMEM);
		FUZZ_ASSERT(checked == NULL || unchecked != NULL);
		if (checked != NULL)
			FUZZ_ASSERT(cap_compare(checked, unchecked) == 0);
	}
	if (unchecked != NULL) {
		n = cap_copy_ext(ext, unchecked, (ssize_t)sizeof(ext));
		FUZZ_ASSERT(n == cap_size(unchecked));
		again = cap_copy_int_check(ext, n);
		FUZZ_ASSERT(again != NULL);
		FUZZ_ASSERT(cap_compare(unchecked, again) == 0);
		cap_free(again);
	}
	cap_free(unchecked);
	cap_free(checked);
	free(blob);
	return 0;
}
