/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* security.capability values, decoded for the programs (see filecap.h). */
#include <errno.h>
#include <string.h>

#include "filecap.h"
#include "mask.h"

/*
 * Every word is a little-endian u32: the magic (revision in the top byte,
 * the effective flag in bit 0), then permitted and inheritable of the low
 * 32 capabilities, from revision 2 those of the high 32, and in revision 3
 * the namespace root uid.
 */
#define MAGIC_REVISION(m)	((m) >> 24)
#define MAGIC_EFFECTIVE		UINT32_C(1)

static uint32_t word_at(const unsigned char *raw, size_t index)
{
	const unsigned char *p = raw + 4 * index;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int filecap_decode(struct filecap *out, const void *raw, size_t len)
{
	/* Bytes of revisions 1, 2 and 3; index 0 is no revision. */
	static const size_t size_of[] = { 0, 12, 20, 24 };
	uint32_t magic;
	int revision;

	if (out == NULL || raw == NULL || len < 4) {
		errno = EINVAL;
		return -1;
	}
	magic = word_at(raw, 0);
	revision = (int)MAGIC_REVISION(magic);
	if (revision < 1 || revision > 3 || len != size_of[revision] ||
	    (magic & UINT32_C(0x00ffffff) & ~MAGIC_EFFECTIVE) != 0) {
		errno = EINVAL;
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->revision = revision;
	out->effective = (magic & MAGIC_EFFECTIVE) != 0;
	out->permitted = word_at(raw, 1);
	out->inheritable = word_at(raw, 2);
	if (revision >= 2) {
		out->permitted |= (uint64_t)word_at(raw, 3) << 32;
		out->inheritable |= (uint64_t)word_at(raw, 4) << 32;
	}
	if (revision == 3)
		out->rootid = word_at(raw, 5);
	return 0;
}

/*
 * cap_set_flag() takes fewer than 64 values per call (as libcap's does),
 * so a value with every bit set, which the kernel honours, is raised one
 * 32-bit half at a time: refusing it would hide a fully privileged file.
 */
static int set_bits(cap_t caps, cap_flag_t flag, uint64_t bits)
{
	cap_value_t list[32], cap;
	int half, n;

	for (half = 0; half < 2; half++) {
		uint64_t part = bits & (UINT64_C(0xffffffff) << (32 * half));

		n = 0;
		for (MASK_EACH(cap, part))
			list[n++] = cap;
		if (n > 0 && cap_set_flag(caps, flag, n, list, CAP_SET) < 0)
			return -1;
	}
	return 0;
}

cap_t filecap_to_caps(const struct filecap *fc)
{
	cap_t caps = cap_init();
	int saved;

	if (caps == NULL)
		return NULL;
	if (set_bits(caps, CAP_PERMITTED, fc->permitted) < 0 ||
	    set_bits(caps, CAP_INHERITABLE, fc->inheritable) < 0 ||
	    (fc->effective &&
	     set_bits(caps, CAP_EFFECTIVE, fc->permitted | fc->inheritable) < 0)) {
		saved = errno;
		cap_free(caps);
		errno = saved;
		return NULL;
	}
	return caps;
}
