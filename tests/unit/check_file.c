/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * cap_get_file/fd, cap_set_file/fd, cap_get/set_nsowner, and the on-disk
 * codec (private/cap_xattr.c, compiled into this suite: the one codec the
 * library, getcap and capaudit all use). Tests that write
 * security.capability need CAP_SETFCAP and are added only when run as root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cap_xattr.h"
#include "check_run.h"

static char dir[64];
static char path[128];
/* Not ours: zeroed memory with room for the header cap_free() looks at. */
static _Alignas(16) unsigned char foreign_mem[16 + 64];
#define FOREIGN ((cap_t)(void *)(foreign_mem + 16))

static void make_dir(void)
{
	strcpy(dir, "/tmp/check_file.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	close(open(path, O_CREAT | O_WRONLY, 0755));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' # " UNTRACED_FOREIGN, dir);
	ck_assert_int_eq(system(cmd), 0);
}

static char *text_of(cap_t caps)
{
	static char buf[512];
	char *t = cap_to_text(caps, NULL);

	ck_assert_ptr_nonnull(t);
	snprintf(buf, sizeof(buf), "%s", t);
	cap_free(t);
	return buf;
}

/* ---- codec ---- */

START_TEST(codec_decodes_each_revision)
{
	static const unsigned char v1[12] = { 1, 0, 0, 1, 0, 0x20,
					      0, 0, 1, 0, 0, 0 };
	static const unsigned char v2[20] = { 0, 0, 0,	  2, 0, 0x20, 0,
					      0, 1, 0,	  0, 0, 0,    0,
					      0, 0, 0x40, 0, 0, 0 };
	static const unsigned char v3[24] = { 1, 0, 0, 3, 0,	0, 0, 0,
					      0, 0, 0, 0, 0x40, 0, 0, 0,
					      0, 0, 0, 0, 0xe8, 3, 0, 0 };
	struct lcap_xattr x;

	ck_assert_int_eq(lcap_xattr_decode(&x, v1, sizeof(v1)), 0);
	ck_assert_int_eq(x.revision, 1);
	ck_assert_int_eq(x.effective, 1);
	ck_assert_uint_eq(x.permitted[0], 0x2000);
	ck_assert_uint_eq(x.inheritable[0], 1);
	ck_assert_uint_eq(x.permitted[1], 0);
	ck_assert_int_eq(lcap_xattr_decode(&x, v2, sizeof(v2)), 0);
	ck_assert_int_eq(x.revision, 2);
	ck_assert_int_eq(x.effective, 0);
	ck_assert_uint_eq(x.inheritable[1], 0x40);
	ck_assert_int_eq(lcap_xattr_decode(&x, v3, sizeof(v3)), 0);
	ck_assert_int_eq(x.revision, 3);
	ck_assert_uint_eq(x.permitted[1], 0x40); /* cap_perfmon */
	ck_assert_uint_eq(x.rootid, 1000);
}
END_TEST

START_TEST(codec_rejects_wrong_sizes_revisions_flags)
{
	unsigned char raw[32] = { 0 };
	struct lcap_xattr x;
	size_t len;
	int rev;

	/* Every size 0..32 for revisions 0..5: only 1/12, 2/20, 3/24 pass. */
	for (rev = 0; rev <= 5; rev++) {
		raw[3] = (unsigned char)rev;
		for (len = 0; len <= sizeof(raw); len++) {
			int ok = (rev == 1 && len == 12) ||
				 (rev == 2 && len == 20) ||
				 (rev == 3 && len == 24);

			errno = 0;
			ck_assert_int_eq(lcap_xattr_decode(&x, raw, len),
					 ok ? 0 : -1);
			if (!ok)
				ck_assert_int_eq(errno, EINVAL);
		}
	}
	raw[3] = 2;
	raw[0] = 2; /* an undefined flag bit */
	errno = 0;
	ck_assert_int_eq(lcap_xattr_decode(&x, raw, 20), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(lcap_xattr_decode(NULL, raw, 20), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(codec_round_trips_every_bit_and_rootid)
{
	unsigned char raw[LCAP_XATTR_MAX];
	struct lcap_xattr in, out;
	int bit;

	for (bit = 0; bit < 64; bit++) {
		memset(&in, 0, sizeof(in));
		in.permitted[bit / 32] = UINT32_C(1) << (bit % 32);
		in.inheritable[(63 - bit) / 32] = UINT32_C(1)
						  << ((63 - bit) % 32);
		in.effective = bit & 1;
		in.rootid = bit & 2 ? 1000 + (uint32_t)bit : 0;
		ck_assert_uint_eq(lcap_xattr_encode(&in, raw),
				  in.rootid ? 24 : 20);
		ck_assert_int_eq(
			lcap_xattr_decode(&out, raw, in.rootid ? 24 : 20), 0);
		ck_assert_int_eq(out.revision, in.rootid ? 3 : 2);
		ck_assert_mem_eq(out.permitted, in.permitted,
				 sizeof(in.permitted));
		ck_assert_mem_eq(out.inheritable, in.inheritable,
				 sizeof(in.inheritable));
		ck_assert_int_eq(out.effective, in.effective);
		ck_assert_uint_eq(out.rootid, in.rootid);
	}
	/* The bytes are little-endian, exactly as setcap writes them. */
	memset(&in, 0, sizeof(in));
	in.permitted[1] = 0x40;
	in.effective = 1;
	ck_assert_uint_eq(lcap_xattr_encode(&in, raw), 20);
	ck_assert_mem_eq(raw, "\x01\0\0\x02\0\0\0\0\0\0\0\0\x40\0\0\0\0\0\0\0",
			 20);
}
END_TEST

/*
 * Each undefined bit of the magic, in every revision at its own size, is
 * refused, whatever the words after it hold: the kernel gives such a
 * value no meaning, so neither the library nor getcap may guess one.
 */
START_TEST(codec_rejects_every_undefined_flag_bit)
{
	static const size_t size_of[] = { 0, 12, 20, 24 };
	unsigned char raw[24];
	struct lcap_xattr x;
	int rev, bit;

	memset(raw, 0xa5, sizeof(raw));
	for (rev = 1; rev <= 3; rev++) {
		raw[3] = (unsigned char)rev;
		raw[0] = 1; /* the effective flag alone is fine */
		raw[1] = raw[2] = 0;
		ck_assert_int_eq(lcap_xattr_decode(&x, raw, size_of[rev]), 0);
		for (bit = 1; bit < 24; bit++) {
			uint32_t flags = UINT32_C(1) << bit | 1;

			raw[0] = (unsigned char)flags;
			raw[1] = (unsigned char)(flags >> 8);
			raw[2] = (unsigned char)(flags >> 16);
			errno = 0;
			ck_assert_int_eq(
				lcap_xattr_decode(&x, raw, size_of[rev]), -1);
			ck_assert_int_eq(errno, EINVAL);
		}
	}
}
END_TEST

/*
 * Every field comes from its own bytes: a value whose bytes all differ
 * shows any word read from the wrong offset or in the wrong order, and
 * the words a revision does not have stay 0.
 */
START_TEST(codec_reads_each_word_from_its_offset)
{
	static const size_t size_of[] = { 0, 12, 20, 24 };
	unsigned char raw[24];
	struct lcap_xattr x;
	uint32_t word[6];
	int rev, i;

	for (i = 0; i < 24; i++)
		raw[i] = (unsigned char)(0x11 * (i % 15 + 1) + i / 15);
	for (i = 1; i < 6; i++)
		word[i] = (uint32_t)raw[4 * i] | (uint32_t)raw[4 * i + 1] << 8 |
			  (uint32_t)raw[4 * i + 2] << 16 |
			  (uint32_t)raw[4 * i + 3] << 24;
	for (rev = 1; rev <= 3; rev++) {
		raw[0] = 0;
		raw[1] = raw[2] = 0;
		raw[3] = (unsigned char)rev;
		ck_assert_int_eq(lcap_xattr_decode(&x, raw, size_of[rev]), 0);
		ck_assert_int_eq(x.revision, rev);
		ck_assert_int_eq(x.effective, 0);
		ck_assert_uint_eq(x.permitted[0], word[1]);
		ck_assert_uint_eq(x.inheritable[0], word[2]);
		ck_assert_uint_eq(x.permitted[1], rev >= 2 ? word[3] : 0);
		ck_assert_uint_eq(x.inheritable[1], rev >= 2 ? word[4] : 0);
		ck_assert_uint_eq(x.rootid, rev == 3 ? word[5] : 0);
	}
}
END_TEST

/* Every bit at once, as a fully privileged file holds them, survives too. */
START_TEST(codec_round_trips_all_64_bits)
{
	struct lcap_xattr in = {
		.permitted = { 0xffffffff, 0xffffffff },
		.inheritable = { 0x2000, 0x80000000 },
		.effective = 1,
	}, out;
	unsigned char raw[LCAP_XATTR_MAX];

	ck_assert_uint_eq(lcap_xattr_encode(&in, raw), 20);
	ck_assert_int_eq(lcap_xattr_decode(&out, raw, 20), 0);
	ck_assert_int_eq(out.revision, 2);
	ck_assert_mem_eq(out.permitted, in.permitted, sizeof(in.permitted));
	ck_assert_mem_eq(out.inheritable, in.inheritable,
			 sizeof(in.inheritable));
	ck_assert_int_eq(out.effective, 1);
	in.effective = 0;
	in.rootid = UINT32_MAX;
	ck_assert_uint_eq(lcap_xattr_encode(&in, raw), 24);
	ck_assert_int_eq(lcap_xattr_decode(&out, raw, 24), 0);
	ck_assert_int_eq(out.revision, 3);
	ck_assert_int_eq(out.effective, 0);
	ck_assert_uint_eq(out.rootid, UINT32_MAX);
	ck_assert_mem_eq(out.permitted, in.permitted, sizeof(in.permitted));
}
END_TEST

/* ---- argument and errno paths (no privilege needed) ---- */

START_TEST(nsowner_arguments)
{
	cap_t caps = cap_init();

	errno = 0;
	ck_assert_uint_eq(cap_get_nsowner(NULL), (uid_t)-1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_nsowner(NULL, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_nsowner(FOREIGN, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_uint_eq(cap_get_nsowner(FOREIGN), (uid_t)-1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cap_get_nsowner(caps), 0);
	ck_assert_int_eq(cap_set_nsowner(caps, 1000), 0);
	ck_assert_uint_eq(cap_get_nsowner(caps), 1000);
	cap_free(caps);
}
END_TEST

START_TEST(file_arguments)
{
	cap_t caps = cap_init();
	char link_path[160], fifo[160];
	int fd;

	make_dir();
	errno = 0;
	ck_assert_ptr_null(cap_get_file(NULL));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_file(NULL, caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_file(path, FOREIGN), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cap_get_fd(-1));
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_int_eq(cap_set_fd(-1, caps), -1);
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_ptr_null(cap_get_file("/nonexistent/file"));
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(cap_set_file("/nonexistent/file", caps), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* No xattr: ENODATA, for reading and for removing. */
	errno = 0;
	ck_assert_ptr_null(cap_get_file(path));
	ck_assert_int_eq(errno, ENODATA);
	/* Not a regular file: EINVAL, before any privilege check. */
	snprintf(link_path, sizeof(link_path), "%s/link", dir);
	ck_assert_int_eq(symlink(path, link_path), 0);
	errno = 0;
	ck_assert_int_eq(cap_set_file(link_path, caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_file(link_path, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_file(dir, caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* A FIFO must neither block (O_PATH opens nothing) nor be accepted. */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	errno = 0;
	ck_assert_int_eq(cap_set_file(fifo, caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_file("/dev/null", caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	errno = 0;
	ck_assert_int_eq(cap_set_fd(fd, caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
	/* A partial effective set cannot be written: EINVAL, file untouched. */
	cap_free(caps);
	caps = cap_from_text("cap_chown=p cap_kill=ep");
	errno = 0;
	ck_assert_int_eq(cap_set_file(path, caps), -1);
	ck_assert_int_eq(errno, EINVAL);
	cap_free(caps);
	remove_dir();
}
END_TEST

/* ---- with CAP_SETFCAP: real xattrs ---- */

static void set_raw(const void *raw, size_t len)
{
	ck_assert_int_eq(setxattr(path, "security.capability", raw, len, 0), 0);
}

static size_t get_raw(unsigned char *raw)
{
	ssize_t len = getxattr(path, "security.capability", raw, 64);

	ck_assert_int_ge(len, 0);
	return (size_t)len;
}

START_TEST(round_trip_every_name_and_number)
{
	cap_value_t v;

	make_dir();
	for (v = 0; v < 64; v++) {
		char text[64], *name = cap_to_name(v);
		cap_t caps, back;
		unsigned char raw[64];

		snprintf(text, sizeof(text), "%s=ep", name);
		cap_free(name);
		caps = cap_from_text(text);
		ck_assert_ptr_nonnull(caps);
		ck_assert_int_eq(cap_set_file(path, caps), 0);
		/* Revision 2, effective flag, the one bit: the exact bytes. */
		ck_assert_uint_eq(get_raw(raw), 20);
		ck_assert_uint_eq(raw[0], 1);
		ck_assert_uint_eq(raw[3], 2);
		ck_assert_uint_eq(raw[4 + 8 * (v / 32) + (v % 32) / 8],
				  1u << (v % 8));
		back = cap_get_file(path);
		ck_assert_ptr_nonnull(back);
		ck_assert_int_eq(cap_compare(caps, back), 0);
		ck_assert_uint_eq(cap_get_nsowner(back), 0);
		cap_free(back);
		cap_free(caps);
	}
	remove_dir();
}
END_TEST

START_TEST(round_trip_rootid_and_fd)
{
	cap_t caps = cap_from_text("cap_perfmon,cap_bpf=eip"), back;
	unsigned char raw[64];
	int fd;

	make_dir();
	ck_assert_int_eq(cap_set_nsowner(caps, 1000), 0);
	ck_assert_int_eq(cap_set_file(path, caps), 0);
	ck_assert_uint_eq(get_raw(raw), 24);
	ck_assert_mem_eq(
		raw,
		"\x01\0\0\x03\0\0\0\0\0\0\0\0\xc0\0\0\0\xc0\0\0\0\xe8\x03\0\0",
		24);
	back = cap_get_file(path);
	ck_assert_uint_eq(cap_get_nsowner(back), 1000);
	ck_assert_str_eq(text_of(back), "cap_perfmon,cap_bpf=eip");
	cap_free(back);
	/* Reading follows a symlink, as libcap's getxattr-based reader does. */
	{
		char link_path[160];

		snprintf(link_path, sizeof(link_path), "%s/link", dir);
		ck_assert_int_eq(symlink("f", link_path), 0);
		back = cap_get_file(link_path);
		ck_assert_ptr_nonnull(back);
		ck_assert_uint_eq(cap_get_nsowner(back), 1000);
		cap_free(back);
	}
	/* The fd variants, on a read-only descriptor. */
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(cap_set_nsowner(caps, 0), 0);
	ck_assert_int_eq(cap_set_fd(fd, caps), 0);
	ck_assert_uint_eq(get_raw(raw), 20);
	back = cap_get_fd(fd);
	ck_assert_ptr_nonnull(back);
	ck_assert_uint_eq(cap_get_nsowner(back), 0);
	ck_assert_int_eq(cap_compare(back, caps), 0);
	cap_free(back);
	ck_assert_int_eq(cap_set_fd(fd, NULL), 0);
	errno = 0;
	ck_assert_int_eq(cap_set_fd(fd, NULL), -1);
	ck_assert_int_eq(errno, ENODATA);
	close(fd);
	/* An O_PATH descriptor works too (through /proc/self/fd). */
	fd = open(path, O_PATH);
	ck_assert_int_eq(cap_set_fd(fd, caps), 0);
	close(fd);
	back = cap_get_file(path);
	ck_assert_int_eq(cap_compare(back, caps), 0);
	cap_free(back);
	ck_assert_int_eq(cap_set_file(path, NULL), 0);
	errno = 0;
	ck_assert_int_eq(cap_set_file(path, NULL), -1);
	ck_assert_int_eq(errno, ENODATA);
	cap_free(caps);
	remove_dir();
}
END_TEST

START_TEST(effective_rule_on_write)
{
	cap_t caps, back;
	unsigned char raw[64];

	make_dir();
	/* E bits outside P | I are dropped; the flag is set. */
	caps = cap_from_text("cap_chown=ep cap_kill=e");
	ck_assert_int_eq(cap_set_file(path, caps), 0);
	back = cap_get_file(path);
	ck_assert_str_eq(text_of(back), "cap_chown=ep");
	cap_free(back);
	cap_free(caps);
	/* "=e": the flag alone, read back as the empty set. */
	caps = cap_from_text("=e");
	ck_assert_int_eq(cap_set_file(path, caps), 0);
	ck_assert_uint_eq(get_raw(raw), 20);
	ck_assert_uint_eq(raw[0], 1);
	back = cap_get_file(path);
	ck_assert_str_eq(text_of(back), "=");
	cap_free(back);
	cap_free(caps);
	/* "=": empty, no flag, still an xattr (not the same as none). */
	caps = cap_from_text("=");
	ck_assert_int_eq(cap_set_file(path, caps), 0);
	ck_assert_uint_eq(get_raw(raw), 20);
	ck_assert_uint_eq(raw[0], 0);
	cap_free(caps);
	remove_dir();
}
END_TEST

START_TEST(reads_what_the_kernel_accepts)
{
	/* v2 with P0=0x2000, I0=1, I1=0x40 (libcap shim-observed decode). */
	static const unsigned char v2[20] = { 0, 0, 0,	  2, 0, 0x20, 0,
					      0, 1, 0,	  0, 0, 0,    0,
					      0, 0, 0x40, 0, 0, 0 };
	static const unsigned char v3[24] = { 1, 0, 0, 3, 0,	0x20, 0, 0,
					      0, 0, 0, 0, 0,	0,    0, 0,
					      0, 0, 0, 0, 0xe8, 3,    0, 0 };
	cap_t caps;

	make_dir();
	set_raw(v2, sizeof(v2));
	caps = cap_get_file(path);
	ck_assert_str_eq(text_of(caps),
			 "cap_chown,cap_perfmon=i cap_net_raw+p");
	cap_free(caps);
	set_raw(v3, sizeof(v3));
	caps = cap_get_file(path);
	ck_assert_str_eq(text_of(caps), "cap_net_raw=ep");
	ck_assert_uint_eq(cap_get_nsowner(caps), 1000);
	cap_free(caps);
	/* A v3 with rootid 0 is stored as v2 by the kernel. */
	{
		unsigned char v30[24];

		memcpy(v30, v3, sizeof(v30));
		memset(v30 + 20, 0, 4);
		set_raw(v30, sizeof(v30));
		caps = cap_get_file(path);
		ck_assert_uint_eq(cap_get_nsowner(caps), 0);
		cap_free(caps);
	}
	/* The kernel refuses rev 1 and odd sizes on write, so decode of
	 * those is covered by the codec tests above. */
	ck_assert_int_eq(setxattr(path, "security.capability", v2, 12, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	remove_dir();
}
END_TEST

static Suite *file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, codec_decodes_each_revision);
	tcase_add_test(tc, codec_rejects_wrong_sizes_revisions_flags);
	tcase_add_test(tc, codec_round_trips_every_bit_and_rootid);
	tcase_add_test(tc, codec_rejects_every_undefined_flag_bit);
	tcase_add_test(tc, codec_reads_each_word_from_its_offset);
	tcase_add_test(tc, codec_round_trips_all_64_bits);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, nsowner_arguments);
	tcase_add_test(tc, file_arguments);
	suite_add_tcase(s, tc);
	if (geteuid() == 0) {
		tc = tcase_create("xattr");
		tcase_add_test(tc, round_trip_every_name_and_number);
		tcase_add_test(tc, round_trip_rootid_and_fd);
		tcase_add_test(tc, effective_rule_on_write);
		tcase_add_test(tc, reads_what_the_kernel_accepts);
		suite_add_tcase(s, tc);
	} else {
		fputs("check_file: not root, xattr write tests left out\n",
		      stderr);
	}
	return s;
}

CHECK_MAIN(file_suite)
