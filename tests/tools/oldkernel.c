/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * oldkernel <last_cap> <program> [args...]: runs the program as if the
 * kernel's highest capability were <last_cap>, e.g. 37 for a kernel before
 * 5.8 (no CAP_PERFMON). A seccomp filter makes the prctl(2) calls that ask
 * about a capability above it (PR_CAPBSET_READ, PR_CAPBSET_DROP and
 * PR_CAP_AMBIENT) fail with EINVAL, which is how such a kernel answers.
 * Sets no_new_privs first, so it works without privilege.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

#define ARG_LO(n) (offsetof(struct seccomp_data, args[n]))

int main(int argc, char **argv)
{
#ifdef NATIVE_ARCH
	unsigned last;
	struct sock_fprog prog;

	if (argc < 3) {
		fprintf(stderr,
			"usage: oldkernel <last_cap> <program> [args...]\n");
		return 2;
	}
	last = (unsigned)strtoul(argv[1], NULL, 0);
	{
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
			/* PR_CAPBSET_READ / PR_CAPBSET_DROP: the cap is arg 1. */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_CAPBSET_READ, 2,
				 0),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_CAPBSET_DROP, 1,
				 0),
			BPF_JUMP(BPF_JMP | BPF_JA, 2, 0, 0),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1)),
			BPF_JUMP(BPF_JMP | BPF_JA, 3, 0, 0),
			/* PR_CAP_AMBIENT: the cap is arg 2. */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_CAP_AMBIENT, 1,
				 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)),
			BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, last, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};

		prog.len = (unsigned short)(sizeof(f) / sizeof(f[0]));
		prog.filter = f;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
			perror("oldkernel: PR_SET_NO_NEW_PRIVS");
			return 2;
		}
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
			int err = errno;

			perror("oldkernel: seccomp");
			/* A kernel built without seccomp filters: the suite
			 * cannot simulate an old kernel here, which is a
			 * skip; any other failure is the tool's own. */
			return err == EINVAL || err == ENOSYS ? 77 : 2;
		}
	}
	execv(argv[2], argv + 2);
	perror("oldkernel: execv");
	return 2;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "oldkernel: no seccomp architecture for this CPU\n");
	return 77;
#endif
}
