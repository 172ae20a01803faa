/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/exec_target.c: how the kernel would execute a file, from its first bytes. */
#define _GNU_SOURCE /* O_PATH */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "exec_target.h"

static char dir[] = "/tmp/check_exec_target.XXXXXX";

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s # " UNTRACED_FOREIGN, dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Writes bytes to a file in the test directory; returns an O_PATH descriptor. */
static int file_with(const char *name, const void *bytes, size_t len, int flags)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, bytes, len), (ssize_t)len);
	close(fd);
	fd = open(path, flags | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

static struct exec_target inspect(const char *name, const void *bytes,
				  size_t len)
{
	struct exec_target t;
	int fd = file_with(name, bytes, len, O_PATH);

	ck_assert_int_eq(exec_target_inspect(fd, &t), 0);
	close(fd);
	return t;
}

/* An ELF header of the given class, byte order and type. */
static size_t elf_header(unsigned char *h, int msb, uint16_t type)
{
	memset(h, 0, 64);
	memcpy(h, ELFMAG, SELFMAG);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = msb ? ELFDATA2MSB : ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	h[EI_NIDENT] = msb ? (unsigned char)(type >> 8) : (unsigned char)type;
	h[EI_NIDENT + 1] =
		msb ? (unsigned char)type : (unsigned char)(type >> 8);
	return 64;
}

START_TEST(elf_executables_and_shared_objects)
{
	unsigned char h[64];
	size_t n;

	n = elf_header(h, 0, ET_EXEC);
	ck_assert_int_eq(inspect("exec", h, n).kind, EXEC_TARGET_ELF);
	n = elf_header(h, 0, ET_DYN);
	ck_assert_int_eq(inspect("pie", h, n).kind, EXEC_TARGET_ELF);
	n = elf_header(h, 1, ET_DYN);
	ck_assert_int_eq(inspect("big-endian", h, n).kind, EXEC_TARGET_ELF);
}
END_TEST

START_TEST(elf_that_does_not_execute)
{
	unsigned char h[64];
	char buf[200];
	struct exec_target t;
	size_t n;

	n = elf_header(h, 0, ET_REL);
	t = inspect("object", h, n);
	ck_assert_int_eq(t.kind, EXEC_TARGET_ELF_OTHER);
	ck_assert_ptr_nonnull(exec_target_problem(&t, buf, sizeof(buf)));
	/* Too short to hold e_type. */
	t = inspect("stub", ELFMAG, SELFMAG);
	ck_assert_int_eq(t.kind, EXEC_TARGET_ELF_OTHER);
}
END_TEST

START_TEST(scripts_keep_their_interpreter_line)
{
	char buf[200];
	struct exec_target t =
		inspect("wrapper", "#!/bin/sh -e\nexec perf_6.1 \"$@\"\n", 33);
	const char *why = exec_target_problem(&t, buf, sizeof(buf));

	ck_assert_int_eq(t.kind, EXEC_TARGET_SCRIPT);
	ck_assert_str_eq(t.interp, "#!/bin/sh -e");
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "is a script (#!/bin/sh -e)"));
	/* A "#!" line longer than the buffer is cut, never overrun. */
	{
		char longer[300];

		memset(longer, 'x', sizeof(longer));
		longer[0] = '#', longer[1] = '!';
		t = inspect("long", longer, sizeof(longer));
		ck_assert_int_eq(t.kind, EXEC_TARGET_SCRIPT);
		ck_assert_uint_eq(strlen(t.interp), sizeof(t.interp) - 1);
	}
}
END_TEST

START_TEST(anything_else_is_not_elf)
{
	char buf[200];
	struct exec_target t = inspect("data", "MZ\x90\0", 4);

	ck_assert_int_eq(t.kind, EXEC_TARGET_OTHER);
	ck_assert_ptr_nonnull(strstr(exec_target_problem(&t, buf, sizeof(buf)),
				     "not an ELF executable"));
	t = inspect("empty", "", 0);
	ck_assert_int_eq(t.kind, EXEC_TARGET_OTHER);
	t = inspect("hash", "#", 1);
	ck_assert_int_eq(t.kind, EXEC_TARGET_OTHER);
}
END_TEST

/*
 * An ELF64 file of the machine's order whose program headers hold a
 * PT_INTERP naming interp (size bytes of it, NUL included), or none.
 */
static size_t elf_with_interp(unsigned char *f, const char *interp, size_t size)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)f;
	Elf64_Phdr ph[2];

	memset(f, 0, 512);
	memcpy(h->e_ident, ELFMAG, SELFMAG);
	h->e_ident[EI_CLASS] = ELFCLASS64;
	h->e_ident[EI_DATA] = *(const unsigned char *)&(uint16_t){ 1 }
				      ? ELFDATA2LSB
				      : ELFDATA2MSB;
	h->e_type = ET_DYN;
	h->e_phoff = sizeof(*h);
	h->e_phentsize = sizeof(Elf64_Phdr);
	h->e_phnum = 2;
	memset(ph, 0, sizeof(ph));
	ph[0].p_type = PT_LOAD;
	ph[1].p_type = interp != NULL ? PT_INTERP : PT_NOTE;
	ph[1].p_offset = 300;
	ph[1].p_filesz = size;
	memcpy(f + sizeof(*h), ph, sizeof(ph));
	if (interp != NULL)
		memcpy(f + 300, interp, size);
	return 300 + size;
}

/* What exec_target_elf_interp() says of these bytes. */
static int interp_of(const char *name, const void *bytes, size_t len, char *buf,
		     size_t size)
{
	int fd = file_with(name, bytes, len, O_PATH), rc;

	errno = 0;
	rc = exec_target_elf_interp(fd, buf, size);
	close(fd);
	return rc;
}

/*
 * The dynamic loader an ELF file names, as the kernel reads PT_INTERP;
 * none for a static one or no ELF file; headers that do not hold
 * together, a name without its NUL or too long to fit, an error.
 */
START_TEST(elf_program_interpreter)
{
	static const char ld[] = "/lib64/ld-linux-x86-64.so.2";
	unsigned char f[512];
	char buf[64];
	size_t n;

	n = elf_with_interp(f, ld, sizeof(ld));
	ck_assert_int_eq(interp_of("dyn", f, n, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, ld);
	n = elf_with_interp(f, NULL, 0);
	ck_assert_int_eq(interp_of("static", f, n, buf, sizeof(buf)), 0);
	ck_assert_int_eq(
		interp_of("script", "#!/bin/sh\n", 10, buf, sizeof(buf)), 0);
	/* The name without its NUL, or with one inside it. */
	n = elf_with_interp(f, ld, sizeof(ld) - 1);
	ck_assert_int_eq(interp_of("unended", f, n + 1, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EINVAL);
	n = elf_with_interp(f, "/a\0b", 5);
	ck_assert_int_eq(interp_of("inner", f, n, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EINVAL);
	n = elf_with_interp(f, ld, sizeof(ld));
	ck_assert_int_eq(interp_of("long", f, n, buf, 10), -1);
	ck_assert_int_eq(errno, ENAMETOOLONG);
	/* The program headers past the end of the file. */
	n = elf_with_interp(f, ld, sizeof(ld));
	ck_assert_int_eq(interp_of("cut", f, 80, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* The other byte order: no machine here runs it. */
	n = elf_with_interp(f, ld, sizeof(ld));
	f[EI_DATA] = f[EI_DATA] == ELFDATA2LSB ? ELFDATA2MSB : ELFDATA2LSB;
	ck_assert_int_eq(interp_of("order", f, n, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(honoured_only_for_elf_on_a_normal_mount)
{
	unsigned char h[64];
	char buf[200];
	struct exec_target t;

	t = inspect("exec", h, elf_header(h, 0, ET_EXEC));
	ck_assert_ptr_null(exec_target_problem(&t, buf, sizeof(buf)));
	t.nosuid = 1;
	ck_assert_ptr_nonnull(
		strstr(exec_target_problem(&t, buf, sizeof(buf)), "nosuid"));
	t.noexec = 1;
	ck_assert_ptr_nonnull(
		strstr(exec_target_problem(&t, buf, sizeof(buf)), "noexec"));
}
END_TEST

START_TEST(errors_are_reported)
{
	struct exec_target t;
	char path[128];
	int fd;

	/* Not a regular file: EINVAL, without reading anything. */
	fd = open(dir, O_PATH | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_int_eq(exec_target_inspect(fd, &t), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
	/* A closed descriptor: EBADF. */
	errno = 0;
	ck_assert_int_eq(exec_target_inspect(fd, &t), -1);
	ck_assert_int_eq(errno, EBADF);
	/* An ordinary read-only descriptor works as well as O_PATH. */
	fd = file_with("plain", "#!/bin/true\n", 12, O_RDONLY);
	ck_assert_int_eq(exec_target_inspect(fd, &t), 0);
	ck_assert_int_eq(t.kind, EXEC_TARGET_SCRIPT);
	close(fd);
	/* The inode is read, not the name: a rename changes nothing. */
	fd = file_with("moved", "#!/bin/true\n", 12, O_PATH);
	snprintf(path, sizeof(path), "%s/moved", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(exec_target_inspect(fd, &t), 0);
	ck_assert_int_eq(t.kind, EXEC_TARGET_SCRIPT);
	close(fd);
}
END_TEST

static Suite *exec_target_suite(void)
{
	Suite *s = suite_create("common_exec_target");
	TCase *tc = tcase_create("exec_target");

	tcase_add_unchecked_fixture(tc, make_dir, remove_dir);
	tcase_add_test(tc, elf_executables_and_shared_objects);
	tcase_add_test(tc, elf_that_does_not_execute);
	tcase_add_test(tc, scripts_keep_their_interpreter_line);
	tcase_add_test(tc, anything_else_is_not_elf);
	tcase_add_test(tc, honoured_only_for_elf_on_a_normal_mount);
	tcase_add_test(tc, errors_are_reported);
	tcase_add_test(tc, elf_program_interpreter);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(exec_target_suite)
