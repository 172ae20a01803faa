/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfprobe32: tools/perfprobe.c for the i386 calling convention, built
 * with -m32 and no C library (none may be installed for it): the same
 * CPU-wide event (pid -1, cpu 0, software cpu-clock) opened through
 * int $0x80 as system call 336, which a seccomp filter sees as
 * AUDIT_ARCH_I386. Exit 0 and "perf_event_open: ok" when it opens,
 * 1 and "perf_event_open: errno N" otherwise.
 */
#define NR_WRITE	   4
#define NR_PERF_EVENT_OPEN 336

int start32(void);

__asm__(".globl _start\n"
	"_start:\n"
	"	andl $-16, %esp\n"
	"	call start32\n"
	"	movl %eax, %ebx\n"
	"	movl $1, %eax\n"
	"	int $0x80\n");

static long sys5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

static void say(const char *s, unsigned long n)
{
	sys5(NR_WRITE, 1, (long)s, (long)n, 0, 0);
}

int start32(void)
{
	/* struct perf_event_attr, first published size (64 bytes). */
	unsigned char attr[64] = { 0 };
	char num[16];
	int i = sizeof(num);
	long fd, e;

	attr[0] = 1;  /* type: PERF_TYPE_SOFTWARE; config 0: cpu-clock */
	attr[4] = 64; /* size */
	attr[40] = 1; /* disabled */
	fd = sys5(NR_PERF_EVENT_OPEN, (long)attr, -1, 0, -1, 0);
	if (fd >= 0) {
		say("perf_event_open: ok\n", 20);
		return 0;
	}
	e = -fd;
	num[--i] = '\n';
	do {
		num[--i] = (char)('0' + e % 10);
		e /= 10;
	} while (e > 0 && i > 0);
	say("perf_event_open: errno ", 23);
	say(num + i, sizeof(num) - (unsigned long)i);
	return 1;
}
