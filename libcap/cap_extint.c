/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The external form of a cap_t: a persistent 29-byte blob programs may store. */
#include <errno.h>
#include <string.h>

#include "lcap.h"

/*
 * Layout (libcap's, so blobs written by either library read in the other):
 *   bytes 0-3  magic 90 c2 01 51
 *   byte  4    L, bytes per flag vector (we write 8: 64 bits)
 *   then L*3 bytes interleaved by byte position: byte j of flag f is at
 *   5 + 3*j + f, with f = 0 effective, 1 permitted, 2 inheritable, each
 *   vector little-endian.
 */
static const unsigned char ext_magic[4] = { 0x90, 0xc2, 0x01, 0x51 };

#define EXT_HEADER 5
#define EXT_VECTOR (LCAP_WORDS * 4)
#define EXT_SIZE   (EXT_HEADER + LCAP_FLAGS * EXT_VECTOR)

ssize_t cap_size(cap_t caps)
{
	(void)caps; /* fixed size, even for a bad set, as in libcap */
	return EXT_SIZE;
}

ssize_t cap_copy_ext(void *buffer, cap_t caps, ssize_t length)
{
	unsigned char *out = buffer;
	struct _cap_struct snap;
	int flag, j;

	if (out == NULL || length < EXT_SIZE ||
	    lcap_snapshot(caps, LCAP_KIND_SET, &snap, sizeof(snap)) < 0) {
		errno = EINVAL;
		return -1;
	}
	memcpy(out, ext_magic, sizeof(ext_magic));
	out[4] = EXT_VECTOR;
	for (j = 0; j < EXT_VECTOR; j++)
		for (flag = 0; flag < LCAP_FLAGS; flag++)
			out[EXT_HEADER + LCAP_FLAGS * j + flag] =
				(unsigned char)(snap.flags[flag][j / 4] >>
						(8 * (j % 4)));
	return EXT_SIZE;
}

/*
 * Decodes a blob whose vectors are L bytes; bytes beyond our 64 bits are
 * ignored and missing ones read as zero, which is how libcap treats them.
 */
static cap_t decode_ext(const unsigned char *in)
{
	unsigned vector = in[4];
	unsigned j;
	int flag;
	cap_t caps;

	if (memcmp(in, ext_magic, sizeof(ext_magic)) != 0) {
		errno = EINVAL;
		return NULL;
	}
	caps = cap_init();
	if (caps == NULL)
		return NULL;
	for (j = 0; j < vector && j < EXT_VECTOR; j++)
		for (flag = 0; flag < LCAP_FLAGS; flag++)
			caps->flags[flag][j / 4] |=
				(uint32_t)in[EXT_HEADER + LCAP_FLAGS * j + flag]
				<< (8 * (j % 4));
	return caps;
}

cap_t cap_copy_int(const void *buffer)
{
	if (buffer == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return decode_ext(buffer);
}

cap_t cap_copy_int_check(const void *buffer, ssize_t length)
{
	const unsigned char *in = buffer;

	if (in == NULL || length < EXT_HEADER ||
	    length < EXT_HEADER + LCAP_FLAGS * (ssize_t)in[4]) {
		errno = EINVAL;
		return NULL;
	}
	return decode_ext(in);
}
