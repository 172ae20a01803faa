/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Codec for the security.capability xattr (revisions 1, 2 and 3). */
#include <errno.h>
#include <string.h>

#include "cap_xattr.h"

/* Layout: little-endian u32 words; see the kernel's struct vfs_ns_cap_data. */
#define REVISION_MASK  UINT32_C(0xFF000000)
#define FLAG_EFFECTIVE UINT32_C(0x000001)
#define REVISION_1     UINT32_C(0x01000000)
#define REVISION_2     UINT32_C(0x02000000)
#define REVISION_3     UINT32_C(0x03000000)
#define SIZE_1	       12
#define SIZE_2	       20
#define SIZE_3	       24

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

int lcap_xattr_decode(struct lcap_xattr *out, const void *raw, size_t len)
{
	const unsigned char *p = raw;
	uint32_t magic;
	size_t want;

	if (out == NULL || raw == NULL || len < 4)
		goto invalid;
	magic = get_le32(p);
	switch (magic & REVISION_MASK) {
	case REVISION_1:
		want = SIZE_1;
		break;
	case REVISION_2:
		want = SIZE_2;
		break;
	case REVISION_3:
		want = SIZE_3;
		break;
	default:
		goto invalid;
	}
	/* Only the effective flag is defined; anything else is not ours to guess. */
	if (len != want || (magic & ~REVISION_MASK & ~FLAG_EFFECTIVE) != 0)
		goto invalid;
	memset(out, 0, sizeof(*out));
	out->revision = (int)(magic >> 24);
	out->effective = (magic & FLAG_EFFECTIVE) != 0;
	out->permitted[0] = get_le32(p + 4);
	out->inheritable[0] = get_le32(p + 8);
	if (want >= SIZE_2) {
		out->permitted[1] = get_le32(p + 12);
		out->inheritable[1] = get_le32(p + 16);
	}
	if (want == SIZE_3)
		out->rootid = get_le32(p + 20);
	return 0;
invalid:
	errno = EINVAL;
	return -1;
}

size_t lcap_xattr_encode(const struct lcap_xattr *in, void *raw)
{
	unsigned char *p = raw;
	uint32_t magic = in->rootid != 0 ? REVISION_3 : REVISION_2;

	if (in->effective)
		magic |= FLAG_EFFECTIVE;
	put_le32(p, magic);
	put_le32(p + 4, in->permitted[0]);
	put_le32(p + 8, in->inheritable[0]);
	put_le32(p + 12, in->permitted[1]);
	put_le32(p + 16, in->inheritable[1]);
	if (in->rootid == 0)
		return SIZE_2;
	put_le32(p + 20, in->rootid);
	return SIZE_3;
}
