/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for the security.capability codec. Property: a value
 * that decodes re-encodes to the same bytes when it was canonical (rev 2,
 * or rev 3 with a non-zero rootid); otherwise to the rev 2 form of the
 * same words. Anything that does not decode fails with EINVAL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cap_xattr.h"
#include "fuzz.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *raw = fuzz_bytes(data, size);
	unsigned char out[LCAP_XATTR_MAX + 8];
	struct lcap_xattr value, again;
	size_t n;

	errno = 0;
	if (lcap_xattr_decode(&value, raw, size) < 0) {
		FUZZ_ASSERT(errno == EINVAL);
		free(raw);
		return 0;
	}
	FUZZ_ASSERT(value.revision >= 1 && value.revision <= 3);
	FUZZ_ASSERT((size_t)(value.revision == 1   ? 12
			     : value.revision == 2 ? 20
						   : 24) == size);
	n = lcap_xattr_encode(&value, out);
	FUZZ_ASSERT(n == 20 || n == 24);
	if (value.revision == 2 || (value.revision == 3 && value.rootid != 0)) {
		FUZZ_ASSERT(n == size && memcmp(out, raw, n) == 0);
	} else {
		/* Same flag and words, written as revision 2. */
		FUZZ_ASSERT(n == 20);
		FUZZ_ASSERT((le32(out) & 0xFF000000u) == 0x02000000u);
		FUZZ_ASSERT((le32(out) & 1) == (le32(raw) & 1));
		FUZZ_ASSERT(memcmp(out + 4, raw + 4, 8) == 0);
		if (value.revision == 3)
			FUZZ_ASSERT(memcmp(out + 12, raw + 12, 8) == 0);
		else
			FUZZ_ASSERT(le32(out + 12) == 0 && le32(out + 16) == 0);
	}
	FUZZ_ASSERT(lcap_xattr_decode(&again, out, n) == 0);
	FUZZ_ASSERT(memcmp(again.permitted, value.permitted,
			   sizeof(value.permitted)) == 0);
	FUZZ_ASSERT(memcmp(again.inheritable, value.inheritable,
			   sizeof(value.inheritable)) == 0);
	FUZZ_ASSERT(again.effective == value.effective &&
		    again.rootid == value.rootid);
	free(raw);
	return 0;
}
