/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * With --user the command runs as another user on root's terminal, the
 * one root's shell reads its next command from. TIOCSTI pushes bytes
 * into a terminal's input as if typed: a command of that user's could
 * queue "chmod u+s /bin/sh" for root's shell to run once capaudit ends
 * (as with su -c). So before the command starts, the launched child,
 * still root, installs a seccomp filter that refuses TIOCSTI and
 * TIOCLINUX (whose selection paste does the same on a virtual console)
 * to it and to everything it runs; a filter cannot be removed, and
 * set-user-ID programs keep it too. The terminal stays its controlling
 * terminal otherwise: ^C, job control and /dev/tty work as before.
 * Where capaudit knows no system call numbers for the filter, or the
 * kernel has no seccomp, the command gets a session of its own instead:
 * TIOCSTI on a terminal that is not one's controlling terminal needs
 * CAP_SYS_ADMIN.
 *
 * Only async-signal-safe calls: this runs in the child of a threaded
 * program, before its execve (cap_launch(3)'s rule).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "capaudit_tty.h"

/*
 * ioctl(2)'s numbers in each ABI a process of this machine may call the
 * kernel with: a filter that knew only the native one would let the
 * 32-bit ABI through.
 */
#if defined(__x86_64__) || defined(__i386__)
#define ABI_A	     AUDIT_ARCH_X86_64
#define ABI_A_IOCTL  16
#define ABI_A_IOCTL2 (0x40000000 | 514) /* x32: __X32_SYSCALL_BIT */
#define ABI_B	     AUDIT_ARCH_I386
#define ABI_B_IOCTL  54
#elif defined(__aarch64__) || (defined(__arm__) && defined(__ARMEL__))
#define ABI_A	     AUDIT_ARCH_AARCH64
#define ABI_A_IOCTL  29
#define ABI_A_IOCTL2 29
#define ABI_B	     AUDIT_ARCH_ARM
#define ABI_B_IOCTL  54
#endif

#ifdef ABI_A
/* The request is an unsigned int: only the low half of the argument counts. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define REQUEST_LOW (offsetof(struct seccomp_data, args[1]) + 4)
#else
#define REQUEST_LOW offsetof(struct seccomp_data, args[1])
#endif

static int install_filter(void)
{
	static struct sock_filter code[] = {
		/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ABI_A, 0, 4),
		/* 2 */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ABI_A_IOCTL, 7, 0),
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ABI_A_IOCTL2, 6, 0),
		/* 5 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ABI_B, 0, 3),
		/* 7 */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		/* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ABI_B_IOCTL, 2, 0),
		/* 9 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 10: an ABI the filter cannot read: refused, never let through */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		/* 11 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, REQUEST_LOW),
		/* 12 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0),
		/* 13 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0),
		/* 14 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* 15 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = {
		.len = (unsigned short)(sizeof(code) / sizeof(code[0])),
		.filter = code,
	};

	/*
	 * Without no_new_privs: the child is still root (CAP_SYS_ADMIN),
	 * and no_new_privs would keep the command from gaining what its
	 * files grant, which is what capaudit watches.
	 */
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}
#endif

int tty_guard(void)
{
#ifdef ABI_A
	if (install_filter() == 0)
		return 0;
#endif
	return setsid() < 0 ? -1 : 0;
}
