/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * SHA-256 (FIPS 180-4): what a file is, not only where it is. capmanifest
 * records each capable file's digest, so restore can tell the program it
 * recorded from another one put at the same path.
 */
#ifndef COMMON_SHA256_H
#define COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h> /* off_t */

#define SHA256_SIZE 32 /* bytes of a digest */
#define SHA256_HEX  65 /* its lower-case hex, NUL included */

struct sha256 {
	uint32_t h[8];	/* the hash value so far */
	uint64_t bytes; /* message length, modulo 2^64 */
	unsigned char block[64];
	size_t used; /* bytes waiting in block */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/* Pads, writes the digest to out and leaves c to be initialised again. */
void sha256_final(struct sha256 *c, unsigned char out[SHA256_SIZE]);

/* The digest of len bytes at data, in one call. */
void sha256(const void *data, size_t len, unsigned char out[SHA256_SIZE]);

/*
 * The digest of the regular file fd from offset 0 to size, a size the
 * caller took (and, say, judged) itself, so that a file someone keeps
 * appending to is not read for ever (pread: the descriptor's offset is
 * neither used nor moved). 0, or -1 with errno: pread's (EINTR is
 * retried), EINVAL for a negative size, or EAGAIN when the file is not
 * that size once read (it changed meanwhile), so no more than size bytes
 * (and one) are ever read.
 */
int sha256_fd_size(int fd, off_t size, unsigned char out[SHA256_SIZE]);

/* Lower-case hex, 64 digits and a NUL. */
void sha256_to_hex(const unsigned char d[SHA256_SIZE], char out[SHA256_HEX]);
/*
 * Reads exactly 64 lower-case hex digits at hex (what follows them is
 * not looked at). 0, or -1 with errno EINVAL: one spelling per digest.
 */
int sha256_from_hex(const char *hex, unsigned char out[SHA256_SIZE]);

#endif
