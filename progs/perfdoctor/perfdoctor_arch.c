/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Which system call perf will make: a seccomp filter sees the number of
 * perf_event_open() and the audit architecture of the calling convention,
 * and both follow from the ELF header of the binary that runs (an i386
 * perf on an x86_64 kernel calls number 336 as AUDIT_ARCH_I386, an x32
 * one 298 with the x32 bit set as AUDIT_ARCH_X86_64). Only the
 * conventions the running kernel executes natively are known here.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfdoctor.h"

/* The x32 system calls are the x86_64 ones with this bit set. */
#define X32_SYSCALL_BIT 0x40000000U

struct arch_row {
	const char *kernel; /* uname's machine of a kernel that runs it */
	uint16_t machine;
	unsigned char elf_class;
	struct perf_arch arch;
};

/* One convention a line. */
/* clang-format off */
static const struct arch_row rows[] = {
	{ "x86_64", EM_X86_64, ELFCLASS64, { AUDIT_ARCH_X86_64, 298, "x86_64" } },
	{ "x86_64", EM_386, ELFCLASS32, { AUDIT_ARCH_I386, 336, "i386" } },
	{ "x86_64", EM_X86_64, ELFCLASS32,
	  { AUDIT_ARCH_X86_64, X32_SYSCALL_BIT | 298, "x32" } },
	{ "aarch64", EM_AARCH64, ELFCLASS64, { AUDIT_ARCH_AARCH64, 241, "aarch64" } },
	{ "riscv64", EM_RISCV, ELFCLASS64, { AUDIT_ARCH_RISCV64, 241, "riscv64" } },
};
/* clang-format on */

int perf_arch_of_elf(const unsigned char *hdr, size_t len, struct perf_arch *a)
{
	struct utsname u;
	uint16_t machine;
	size_t i;

	memset(a, 0, sizeof(*a));
	/* e_machine sits at byte 18 in both classes. */
	if (len < 20 || memcmp(hdr, ELFMAG, SELFMAG) != 0 ||
	    hdr[EI_DATA] != ELFDATA2LSB)
		return -1;
	machine = (uint16_t)(hdr[18] | hdr[19] << 8);
	if (uname(&u) < 0)
		return -1;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].machine == machine &&
		    rows[i].elf_class == hdr[EI_CLASS] &&
		    strcmp(rows[i].kernel, u.machine) == 0) {
			*a = rows[i].arch;
			return 0;
		}
	return -1;
}

int perf_arch_of_fd(int fd, struct perf_arch *a)
{
	unsigned char hdr[64];
	char proc[40];
	ssize_t n;
	int rfd;

	memset(a, 0, sizeof(*a));
	snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
	rfd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (rfd < 0)
		return -1;
	n = pread(rfd, hdr, sizeof(hdr), 0);
	close(rfd);
	if (n < 0)
		return -1;
	if (perf_arch_of_elf(hdr, (size_t)n, a) < 0) {
		errno = ENOEXEC;
		return -1;
	}
	return 0;
}

/* The convention perfdoctor itself was built for. */
#if defined(__x86_64__) && defined(__ILP32__)
#define OWN_ARCH "x32"
#elif defined(__x86_64__)
#define OWN_ARCH "x86_64"
#elif defined(__i386__)
#define OWN_ARCH "i386"
#elif defined(__aarch64__)
#define OWN_ARCH "aarch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define OWN_ARCH "riscv64"
#else
#define OWN_ARCH ""
#endif

int perf_arch_self(struct perf_arch *a)
{
	struct utsname u;
	size_t i;

	memset(a, 0, sizeof(*a));
	if (uname(&u) < 0)
		return -1;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].arch.name, OWN_ARCH) == 0 &&
		    strcmp(rows[i].kernel, u.machine) == 0) {
			*a = rows[i].arch;
			return 0;
		}
	errno = ENOEXEC;
	return -1;
}

int perf_arch_of_process(int dfd, struct perf_arch *a)
{
	int fd = openat(dfd, "exe", O_PATH | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	r = perf_arch_of_fd(fd, a);
	close(fd);
	return r;
}
