/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * scfilter [OPTION...] CMD [ARG...]: runs CMD under seccomp filters that
 * answer perf_event_open() in chosen ways, as a container runtime's
 * profile would, for perfdoctor's suites. Each option installs one
 * filter, in order (the last is the newest); every other system call is
 * let through.
 *   -e N    perf_event_open: SECCOMP_RET_ERRNO(N)
 *   -k      perf_event_open: SECCOMP_RET_KILL_PROCESS
 *   -t      perf_event_open: SECCOMP_RET_TRAP
 *   -T      perf_event_open: SECCOMP_RET_TRACE
 *   -l      perf_event_open: SECCOMP_RET_LOG
 *   -a      everything: SECCOMP_RET_ALLOW
 *   -P      a profile shaped as libseccomp compiles podman's default one
 *           for a container without CAP_SYS_ADMIN: the architecture
 *           checked (other ones killed), x32 numbers refused with ENOSYS,
 *           some calls judged by their arguments, and perf_event_open()
 *           refused with EPERM
 *   -Q      the same profile with the rule the runtime adds for a
 *           container holding the capability: perf_event_open() allowed
 *   -g N    perf_event_open: EPERM when group_fd (its 4th argument) is N
 *   -c      perf_event_open: EPERM when its flags ask for
 *           PERF_FLAG_FD_CLOEXEC (perf then tries again without)
 *   -C      the same with SECCOMP_RET_KILL_PROCESS
 *   -x N    N filters that let everything through
 *   -F      clone() and clone3() answer 0 without running: every fork()
 *           "succeeds" in the parent, as though it were the child
 *   -N      sets no_new_privs (none is needed as root: CAP_SYS_ADMIN)
 *   -S      prctl(PR_GET_SECUREBITS): SECCOMP_RET_ERRNO(EPERM), so that
 *           securebits cannot be read (perf_event_open() is let through)
 *   -X N    getxattr(), lgetxattr(), fgetxattr() (and getxattrat() where
 *           the headers know it): SECCOMP_RET_ERRNO(N), so that no file
 *           capability can be read, as on a filesystem that fails it; the
 *           kernel's own read at exec is no system call and unaffected
 * Exits 125 when it cannot install them, else execs CMD.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR	  offsetof(struct seccomp_data, nr)
#define ARCH	  offsetof(struct seccomp_data, arch)
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ARG_HI(i) (ARG_LO(i) + 4)

static int install(struct sock_filter *f, unsigned short n)
{
	struct sock_fprog prog = { n, f };

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		fprintf(stderr, "scfilter: seccomp: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* perf_event_open() gets action; everything else is allowed. */
static int perf_gets(unsigned action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, sizeof(f) / sizeof(f[0]));
}

/* prctl(PR_GET_SECUREBITS) refused with EPERM; everything else allowed. */
static int securebits_refused(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_GET_SECUREBITS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, sizeof(f) / sizeof(f[0]));
}

/* Every call reading an extended attribute answers the errno e. */
static int xattr_reads_fail(unsigned e)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getxattr, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_lgetxattr, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fgetxattr, 2, 0),
#ifdef SYS_getxattrat
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getxattrat, 1, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getxattr, 1, 0),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | e),
	};

	return install(f, sizeof(f) / sizeof(f[0]));
}

/*
 * libseccomp's shape for an x86_64 profile: the architecture first, the
 * x32 range, then the calls one by one, those with argument rules
 * loading their arguments in their own branch (personality(2) with a
 * persona, as podman allows a few; socket(2) refusing AF_VSOCK).
 */
static int profile(int with_rule)
{
	/* The instructions are numbered for the jumps. */
	/* clang-format off */
	struct sock_filter f[] = {
	/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARCH),
	/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
	/* 2 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	/* 3 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
	/* 4 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
	/* 5 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	/* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_personality, 0, 4),
	/* 7 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HI(0)),
	/* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 11),
	/* 9 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
	/* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffff, 9, 9),
	/* 11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 4),
	/* 12 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HI(0)),
	/* 13 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 6),
	/* 14 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
	/* 15 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 40 /* AF_VSOCK */, 3, 4),
	/* 16 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open,
			  with_rule ? 3 : 0, 3),
	/* 17 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	/* 18 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	/* 19 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAFNOSUPPORT),
	/* 20 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	/* clang-format on */

	return install(f, sizeof(f) / sizeof(f[0]));
}

/* EPERM for perf_event_open() when group_fd is n. */
static int group_fd_rule(unsigned n)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(3)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, n, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, sizeof(f) / sizeof(f[0]));
}

/* clone() and clone3() return 0 unrun: a fork the caller cannot tell. */
static int fake_fork(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, sizeof(f) / sizeof(f[0]));
}

/* action for perf_event_open() with PERF_FLAG_FD_CLOEXEC (1 << 3). */
static int cloexec_rule(unsigned action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(4)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 1U << 3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, sizeof(f) / sizeof(f[0]));
}

static int allow_all(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, 1);
}

static int number(const char *s, unsigned long max, unsigned long *n)
{
	char *end;

	errno = 0;
	*n = strtoul(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' && *n <= max ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	int c, r = 0;

	while (r == 0 &&
	       (c = getopt(argc, argv, "+e:ktTlaPQg:cCx:FNSX:")) != -1) {
		switch (c) {
		case 'e':
			r = number(optarg, 4095, &n) ||
			    perf_gets(SECCOMP_RET_ERRNO | (unsigned)n);
			break;
		case 'k':
			r = perf_gets(SECCOMP_RET_KILL_PROCESS);
			break;
		case 't':
			r = perf_gets(SECCOMP_RET_TRAP);
			break;
		case 'T':
			r = perf_gets(SECCOMP_RET_TRACE);
			break;
		case 'l':
			r = perf_gets(SECCOMP_RET_LOG);
			break;
		case 'a':
			r = allow_all();
			break;
		case 'P':
		case 'Q':
			r = profile(c == 'Q');
			break;
		case 'g':
			r = number(optarg, 0xffffffffUL, &n) ||
			    group_fd_rule((unsigned)n);
			break;
		case 'c':
		case 'C':
			r = cloexec_rule(c == 'c' ? SECCOMP_RET_ERRNO | EPERM
						  : SECCOMP_RET_KILL_PROCESS);
			break;
		case 'x':
			r = number(optarg, 10000, &n);
			for (i = 0; r == 0 && i < n; i++)
				r = allow_all();
			break;
		case 'F':
			r = fake_fork();
			break;
		case 'N':
			r = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			break;
		case 'S':
			r = securebits_refused();
			break;
		case 'X':
			r = number(optarg, 4095, &n) ||
			    xattr_reads_fail((unsigned)n);
			break;
		default:
			return 125;
		}
	}
	if (r != 0 || optind >= argc) {
		fprintf(stderr,
			"usage: scfilter [-e N|-k|-t|-T|-l|-a|-P|-Q|-g N|-c|-C|-x N|-F|-N|-S|-X N]... CMD [ARG...]\n");
		return 125;
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "scfilter: %s: %s\n", argv[optind], strerror(errno));
	return 127;
}
