/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * common/sha256.c: the FIPS 180-4 examples and NIST's byte-oriented test
 * vectors (the one-million-"a" and, without sanitizers or valgrind, the
 * 1 GiB "long message" past 2^32 bits of length), every way of cutting a message into
 * updates, and sha256_fd_size() against coreutils' sha256sum on files of odd
 * sizes around the block and buffer boundaries and a large one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "sha256.h"

static void check_digest(const unsigned char d[SHA256_SIZE], const char *want)
{
	char hex[SHA256_HEX];

	sha256_to_hex(d, hex);
	ck_assert_str_eq(hex, want);
}

/* The valgrind pass (run.sh exports VALGRIND=1 to the suites). */
static int under_valgrind(void)
{
	const char *v = getenv("VALGRIND");

	return v != NULL && strcmp(v, "1") == 0;
}

static void check_text(const char *msg, size_t len, const char *want)
{
	unsigned char d[SHA256_SIZE];

	sha256(msg, len, d);
	check_digest(d, want);
}

START_TEST(fips_180_4_examples)
{
	/* The examples of FIPS 180-4's companion document (one block, two). */
	check_text(
		"abc", 3,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_text(
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check_text(
		"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		112,
		"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}
END_TEST

START_TEST(nist_short_messages)
{
	/* SHA256ShortMsg.rsp: Len = 0, 8 and 16 bits. */
	check_text(
		"", 0,
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_text(
		"\xd3", 1,
		"28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1");
	check_text(
		"\x11\xaf", 2,
		"5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98");
}
END_TEST

START_TEST(one_million_a)
{
	char *a = malloc(1000000);
	unsigned char d[SHA256_SIZE];
	struct sha256 c;
	int i;

	ck_assert_ptr_nonnull(a);
	memset(a, 'a', 1000000);
	check_text(
		a, 1000000,
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* The same in updates of 1000 bytes. */
	sha256_init(&c);
	for (i = 0; i < 1000; i++)
		sha256_update(&c, a, 1000);
	sha256_final(&c, d);
	check_digest(
		d,
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}
END_TEST

START_TEST(nist_long_message)
{
	/* 2^24 times this 64-byte string: 1 GiB, 2^33 bits of length, so
	 * the length field's upper word is used. */
	static const char unit[] =
		"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno";
	char *chunk;
	unsigned char d[SHA256_SIZE];
	struct sha256 c;
	int i;

	/*
	 * The plain pass only. What 1 GiB adds over one_million_a is the
	 * digest of a length past 2^32 bits: arithmetic on the uint64_t
	 * byte count, nothing UBSan can flag (unsigned), and the same
	 * memory touched in the same order as for a megabyte, which
	 * memcheck and ASan check there. A count that overflowed would
	 * give a wrong digest, which the plain pass compares with NIST's.
	 * Under them it took hours (valgrind) or ten seconds of CPU (ASan)
	 * to prove nothing more.
	 */
	if (under_valgrind() ||
	    (getenv("SANITIZE") != NULL && getenv("SANITIZE")[0] != '\0'))
		return;
	chunk = malloc(64 * 1024);
	ck_assert_ptr_nonnull(chunk);
	for (i = 0; i < 1024; i++)
		memcpy(chunk + 64 * i, unit, 64);
	sha256_init(&c);
	for (i = 0; i < 16384; i++)
		sha256_update(&c, chunk, 64 * 1024);
	sha256_final(&c, d);
	check_digest(
		d,
		"50e72a0e26442fe2552dc3938ac58658228c0cbfb1d2ca872ae435266fcd055e");
	free(chunk);
}
END_TEST

/* A deterministic byte stream (xorshift), so failures can be replayed. */
static void fill(unsigned char *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		p[i] = (unsigned char)(seed >> 11);
	}
}

START_TEST(every_split_gives_the_same_digest)
{
	/* Three pieces cut at every pair of points: each block boundary,
	 * the 55/56-byte padding edge and an empty update are crossed. */
	unsigned char msg[200], whole[SHA256_SIZE], d[SHA256_SIZE];
	size_t i, j;

	fill(msg, sizeof(msg), 7);
	sha256(msg, sizeof(msg), whole);
	for (i = 0; i <= sizeof(msg); i++) {
		for (j = i; j <= sizeof(msg); j++) {
			struct sha256 c;

			sha256_init(&c);
			sha256_update(&c, msg, i);
			sha256_update(&c, msg + i, j - i);
			sha256_update(&c, msg + j, sizeof(msg) - j);
			sha256_final(&c, d);
			ck_assert_mem_eq(d, whole, SHA256_SIZE);
		}
	}
}
END_TEST

START_TEST(hex_has_one_spelling)
{
	unsigned char d[SHA256_SIZE], back[SHA256_SIZE];
	char hex[SHA256_HEX], bad[SHA256_HEX];

	fill(d, sizeof(d), 99);
	sha256_to_hex(d, hex);
	ck_assert_uint_eq(strlen(hex), 64);
	ck_assert_int_eq(sha256_from_hex(hex, back), 0);
	ck_assert_mem_eq(d, back, SHA256_SIZE);

	memcpy(bad, hex, sizeof(bad));
	bad[10] = 'A'; /* upper case: a second spelling */
	if (hex[10] >= 'a' && hex[10] <= 'f')
		bad[10] = (char)(hex[10] - 'a' + 'A');
	errno = 0;
	ck_assert_int_eq(sha256_from_hex(bad, back), -1);
	ck_assert_int_eq(errno, EINVAL);
	memcpy(bad, hex, sizeof(bad));
	bad[63] = '\0'; /* 63 digits */
	errno = 0;
	ck_assert_int_eq(sha256_from_hex(bad, back), -1);
	ck_assert_int_eq(errno, EINVAL);
	bad[63] = 'g';
	ck_assert_int_eq(sha256_from_hex(bad, back), -1);
	ck_assert_int_eq(sha256_from_hex("", back), -1);
	ck_assert_mem_eq(d, back, SHA256_SIZE); /* a failure writes nothing */
}
END_TEST

/* sha256sum's digest of path, from its own output. */
static void sha256sum_of(const char *path, char out[SHA256_HEX])
{
	char cmd[512], line[256];
	FILE *p;

	/* The comment keeps valgrind from tracing sh and sha256sum. */
	snprintf(cmd, sizeof(cmd), "sha256sum '%s' # " UNTRACED_FOREIGN, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(strlen(line) > 64 && line[64] == ' ',
		      "sha256sum printed %s", line);
	memcpy(out, line, 64);
	out[64] = '\0';
}

/* Writes len bytes of the stream to a new file; returns its descriptor. */
static int stream_file(char *path, size_t len, uint32_t seed)
{
	unsigned char buf[65536];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	while (len > 0) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		fill(buf, n, seed++);
		ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
		len -= n;
	}
	return fd;
}

START_TEST(fd_digest_is_sha256sums)
{
	/* Around the 64-byte block, the 55/56-byte padding edge, the
	 * function's 16 KiB read buffer; a prime past a megabyte; 24 MiB
	 * and 13 bytes. Under valgrind, not the last: it runs the read loop
	 * and the block function over the same buffers, in the same order,
	 * as the megabyte (61 reads) does, which memcheck checks there; its
	 * digest is compared with sha256sum's by the plain and sanitizer
	 * passes. Making and hashing it took three CPU seconds there. */
	static const size_t sizes[] = {
		0,     1,     3,     55,      56,
		57,    63,    64,    65,      119,
		120,   127,   128,   129,     16383,
		16384, 16385, 32769, 1000003, 24 * 1024 * 1024 + 13,
	};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char path[] = "/tmp/check_sha256.XXXXXX";
		char ours[SHA256_HEX], theirs[SHA256_HEX];
		unsigned char d[SHA256_SIZE];
		int fd;

		if (sizes[i] > 2000000 && under_valgrind())
			continue;
		fd = stream_file(path, sizes[i], (uint32_t)(i + 1));

		/* The descriptor's offset is at the end: pread ignores it. */
		ck_assert_int_eq(sha256_fd_size(fd, (off_t)sizes[i], d), 0);
		ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), (off_t)sizes[i]);
		sha256_to_hex(d, ours);
		sha256sum_of(path, theirs);
		ck_assert_msg(strcmp(ours, theirs) == 0,
			      "%zu bytes: ours %s, sha256sum %s", sizes[i],
			      ours, theirs);
		close(fd);
		unlink(path);
	}
}
END_TEST

START_TEST(fd_errors_keep_their_errno)
{
	unsigned char d[SHA256_SIZE];
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_int_eq(sha256_fd_size(fd, 1, d), -1);
	ck_assert_int_eq(errno, EISDIR);
	close(fd);
	fd = open("/", O_PATH);
	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_int_eq(sha256_fd_size(fd, 1, d), -1);
	ck_assert_int_eq(errno, EBADF); /* O_PATH: no reading */
	close(fd);
}
END_TEST

/* A size the caller took: exactly that many bytes, or EAGAIN. */
START_TEST(fd_size_reads_that_size_only)
{
	char path[] = "/tmp/check_sha256.XXXXXX";
	char ours[SHA256_HEX], theirs[SHA256_HEX];
	unsigned char d[SHA256_SIZE];
	int fd = stream_file(path, 100000, 7);

	ck_assert_int_eq(sha256_fd_size(fd, 100000, d), 0);
	sha256_to_hex(d, ours);
	sha256sum_of(path, theirs);
	ck_assert_str_eq(ours, theirs);
	/* Longer than said: not read to its end (it grew meanwhile). */
	errno = 0;
	ck_assert_int_eq(sha256_fd_size(fd, 99999, d), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* Shorter than said. */
	errno = 0;
	ck_assert_int_eq(sha256_fd_size(fd, 100001, d), -1);
	ck_assert_int_eq(errno, EAGAIN);
	errno = 0;
	ck_assert_int_eq(sha256_fd_size(fd, -1, d), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
	unlink(path);
}
END_TEST

static Suite *sha256_suite(void)
{
	Suite *s = suite_create("common_sha256");
	TCase *tc = tcase_create("core"), *slow = tcase_create("slow");

	tcase_add_test(tc, fips_180_4_examples);
	tcase_add_test(tc, nist_short_messages);
	tcase_add_test(tc, one_million_a);
	tcase_add_test(tc, every_split_gives_the_same_digest);
	tcase_add_test(tc, hex_has_one_spelling);
	suite_add_tcase(s, tc);
	/* Files of up to 24 MiB, and 1 GiB hashed: seconds, more under
	 * the sanitizers and on a loaded machine. */
	tcase_add_test(slow, fd_digest_is_sha256sums);
	tcase_add_test(slow, fd_errors_keep_their_errno);
	tcase_add_test(slow, fd_size_reads_that_size_only);
	tcase_add_test(slow, nist_long_message);
	tcase_set_timeout(slow, 300);
	suite_add_tcase(s, slow);
	return s;
}

CHECK_MAIN(sha256_suite)
