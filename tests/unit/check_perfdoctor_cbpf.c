/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * progs/perfdoctor/perfdoctor_cbpf.c, perfdoctor's seccomp interpreter,
 * held against the kernel itself wherever the kernel can answer:
 *  - it refuses exactly the programs seccomp(2) refuses (every opcode,
 *    loads out of range or unaligned, jumps past the end, scratch words
 *    never stored, constant division by 0 or shifts of 32, no return last);
 *  - it computes what the kernel computes: random programs, run by the
 *    kernel on a system call of ours (their result read back through
 *    SECCOMP_RET_ERRNO, 12 bits at a time) and by the interpreter;
 *  - stacked filters combine as the kernel combines them (the most
 *    restrictive action wins, the newest among equals);
 * and on its own: a decision that needs an unknown word is reported as
 * such, never guessed, and nothing it is given makes it loop or read
 * out of bounds. The kernel cases fork; they need no privilege.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "perfdoctor_cbpf.h"

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG 0x7ffc0000U
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif

/* A system call number no x86_64 kernel has: only our filters answer it. */
#define NR_TEST 1000
#define ALLOW	SECCOMP_RET_ALLOW

#define STMT(c, k) ((struct sock_filter){ (uint16_t)(c), 0, 0, (uint32_t)(k) })
#define JUMP(c, k, t, f)                                                  \
	((struct sock_filter){ (uint16_t)(c), (uint8_t)(t), (uint8_t)(f), \
			       (uint32_t)(k) })

/*
 * valgrind has no seccomp(2): the cases that need the kernel are left out
 * of the suite there (and counted nowhere), not passed.
 */
static int kernel_filters_work(void)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		struct sock_filter f[] = { STMT(BPF_RET | BPF_K, ALLOW) };
		struct sock_fprog prog = { 1, f };

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		_exit(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ==
				      0
			      ? 0
			      : 1);
	}
	waitpid(p, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int install(const struct sock_filter *f, size_t n)
{
	struct sock_filter copy[CBPF_MAX_INSNS];
	struct sock_fprog prog = { (unsigned short)n, copy };

	memcpy(copy, f, n * sizeof(*f));
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static int check_ok(const struct sock_filter *f, size_t n)
{
	struct cbpf_result r;

	return cbpf_check(f, n, &r) == 0;
}

/*
 * Every 16-bit opcode in the one place of a program that returns ALLOW
 * whatever it does (A = ALLOW, X = 1, scratch word 0 stored; k 1 for a
 * division, ALLOW for a return): the kernel and cbpf_check() must accept
 * the same ones. The filters the kernel accepts stay installed, which is
 * why each of them allows everything.
 */
START_TEST(accepts_the_opcodes_the_kernel_accepts)
{
	int pipefd[2], st, agreed = 0;
	uint32_t code;
	pid_t p;

	ck_assert_int_eq(pipe(pipefd), 0);
	p = fork();
	if (p == 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		for (code = 0; code <= 0xffff; code++) {
			uint32_t k = BPF_OP(code) == BPF_DIV ? 1 : 0;
			struct sock_filter f[] = {
				STMT(BPF_LD | BPF_IMM, ALLOW),
				STMT(BPF_LDX | BPF_IMM, 1),
				STMT(BPF_ST, 0),
				STMT(code,
				     BPF_CLASS(code) == BPF_RET ? ALLOW : k),
				STMT(BPF_RET | BPF_K, ALLOW),
			};
			int kernel = install(f, 5) == 0;
			int ours = check_ok(f, 5);

			if (kernel != ours) {
				uint32_t bad[2] = { code, (uint32_t)kernel };

				if (write(pipefd[1], bad, sizeof(bad)) < 0)
					_exit(2);
			}
		}
		_exit(0);
	}
	close(pipefd[1]);
	{
		uint32_t bad[2];

		while (read(pipefd[0], bad, sizeof(bad)) == sizeof(bad)) {
			ck_assert_msg(0,
				      "opcode 0x%04x: the kernel %s it, we %s",
				      bad[0], bad[1] ? "accepts" : "refuses",
				      bad[1] ? "refuse" : "accept");
		}
		agreed = 1;
	}
	close(pipefd[0]);
	waitpid(p, &st, 0);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "the child died: %d", st);
	ck_assert(agreed);
}
END_TEST

/* Programs the kernel refuses or accepts for what is in them, not their opcodes. */
struct shape {
	const char *what;
	struct sock_filter f[6];
	size_t n;
};

static const struct shape shapes[] = {
	{ "a load at the last word",
	  { STMT(BPF_LD | BPF_W | BPF_ABS, 60), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a load past struct seccomp_data",
	  { STMT(BPF_LD | BPF_W | BPF_ABS, 64), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a load far out",
	  { STMT(BPF_LD | BPF_W | BPF_ABS, 0xfffffffcU),
	    STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "an unaligned load",
	  { STMT(BPF_LD | BPF_W | BPF_ABS, 2), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a byte load",
	  { STMT(BPF_LD | BPF_B | BPF_ABS, 0), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a jump to the last instruction",
	  { STMT(BPF_JMP | BPF_JA, 1), STMT(BPF_RET | BPF_K, 0),
	    STMT(BPF_RET | BPF_K, ALLOW) },
	  3 },
	{ "a jump past the end",
	  { STMT(BPF_JMP | BPF_JA, 2), STMT(BPF_RET | BPF_K, 0),
	    STMT(BPF_RET | BPF_K, ALLOW) },
	  3 },
	{ "a jump that wraps around to itself",
	  { STMT(BPF_JMP | BPF_JA, 0xffffffffU), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a conditional jump past the end",
	  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
	    STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a conditional jump of 255",
	  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 255, 0),
	    STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "scratch word 16",
	  { STMT(BPF_ST, 16), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a scratch word loaded, never stored",
	  { STMT(BPF_LD | BPF_MEM, 3), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a scratch word stored on one path only",
	  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), STMT(BPF_ST, 3),
	    STMT(BPF_LD | BPF_MEM, 3), STMT(BPF_RET | BPF_K, ALLOW) },
	  4 },
	{ "a scratch word stored on both paths",
	  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2), STMT(BPF_ST, 3),
	    STMT(BPF_JMP | BPF_JA, 1), STMT(BPF_ST, 3),
	    STMT(BPF_LD | BPF_MEM, 3), STMT(BPF_RET | BPF_K, ALLOW) },
	  6 },
	{ "a division by the constant 0",
	  { STMT(BPF_ALU | BPF_DIV | BPF_K, 0), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a shift by the constant 32",
	  { STMT(BPF_ALU | BPF_LSH | BPF_K, 32), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "a shift by the constant 31",
	  { STMT(BPF_ALU | BPF_RSH | BPF_K, 31), STMT(BPF_RET | BPF_K, ALLOW) },
	  2 },
	{ "no return at the end",
	  { STMT(BPF_RET | BPF_K, ALLOW), STMT(BPF_LD | BPF_IMM, 0) },
	  2 },
	{ "no instruction", { STMT(BPF_RET | BPF_K, ALLOW) }, 0 },
};

START_TEST(refuses_the_shapes_the_kernel_refuses)
{
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		int st, kernel;
		pid_t p;

		p = fork();
		if (p == 0) {
			int ok;

			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			ok = install(shapes[i].f, shapes[i].n) == 0;
			/* Installed, it may refuse write(): answer first. */
			_exit(ok);
		}
		waitpid(p, &st, 0);
		ck_assert_msg(WIFEXITED(st), "%s: the child died",
			      shapes[i].what);
		kernel = WEXITSTATUS(st);
		ck_assert_msg(check_ok(shapes[i].f, shapes[i].n) == kernel,
			      "%s: the kernel %s it, cbpf_check() does not",
			      shapes[i].what, kernel ? "accepts" : "refuses");
	}
	/* And more than the kernel's 4096 instructions. */
	{
		static struct sock_filter big[CBPF_MAX_INSNS + 1];
		size_t j;

		for (j = 0; j < CBPF_MAX_INSNS + 1; j++)
			big[j] = STMT(BPF_RET | BPF_K, ALLOW);
		ck_assert(check_ok(big, CBPF_MAX_INSNS));
		ck_assert(!check_ok(big, CBPF_MAX_INSNS + 1));
	}
}
END_TEST

/* A small random number generator of our own: the same programs every run. */
static uint32_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static uint32_t rnd_value(void)
{
	switch (rnd() % 4) {
	case 0:
		return rnd() % 8;
	case 1:
		return 0xffffffffU - rnd() % 4;
	case 2:
		return 1U << (rnd() % 32);
	default:
		return rnd();
	}
}

#define BODY	 40
#define PROG_MAX (3 + 16 + BODY + 8)

/*
 * A random program: for NR_TEST only, scratch words 0..7 stored, a body
 * of loads, stores, ALU and forward jumps (some returning an errno),
 * then a tail returning SECCOMP_RET_ERRNO with 12 bits of A, shifted by
 * the low word of args[5].
 */
static size_t random_program(struct sock_filter *f)
{
	static const uint16_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL,
					    BPF_DIV, BPF_AND, BPF_OR,
					    BPF_XOR, BPF_LSH, BPF_RSH };
	static const uint16_t jmp_ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE,
					    BPF_JSET };
	size_t n = 0, body, tail, i;

	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, 0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_TEST, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, ALLOW);
	for (i = 0; i < 8; i++) {
		f[n++] = STMT(BPF_LD | BPF_IMM, rnd_value());
		f[n++] = STMT(BPF_ST, i);
	}
	body = n;
	tail = body + BODY;
	for (i = 0; i < BODY; i++) {
		size_t pc = body + i, left = tail - pc - 1;
		uint16_t src = rnd() % 2 ? BPF_X : BPF_K;
		uint16_t op;

		switch (rnd() % 10) {
		case 0:
			f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS,
				      4 * (rnd() % CBPF_WORDS));
			break;
		case 1:
			f[n++] = STMT(rnd() % 2 ? BPF_LD | BPF_IMM
						: BPF_LDX | BPF_IMM,
				      rnd_value());
			break;
		case 2:
			f[n++] = STMT(rnd() % 2 ? BPF_LD | BPF_MEM
						: BPF_LDX | BPF_MEM,
				      rnd() % 8);
			break;
		case 3:
			f[n++] = STMT(rnd() % 2 ? BPF_ST : BPF_STX, rnd() % 8);
			break;
		case 4:
			f[n++] = STMT(rnd() % 2 ? BPF_MISC | BPF_TAX
						: BPF_MISC | BPF_TXA,
				      0);
			break;
		case 5:
		case 6:
			op = alu_ops[rnd() % 9];
			if (src == BPF_K && (op == BPF_LSH || op == BPF_RSH))
				f[n++] = STMT(BPF_ALU | op | BPF_K, rnd() % 32);
			else if (src == BPF_K && op == BPF_DIV)
				f[n++] = STMT(BPF_ALU | op | BPF_K,
					      1 + rnd() % 1000);
			else
				f[n++] = STMT(BPF_ALU | op | src, rnd_value());
			break;
		case 7:
			f[n++] = STMT(rnd() % 4 ? BPF_ALU | BPF_NEG
						: BPF_RET | BPF_K,
				      SECCOMP_RET_ERRNO | (rnd() % 4096));
			break;
		case 8:
			f[n++] = JUMP(
				BPF_JMP | jmp_ops[rnd() % 4] | src, rnd_value(),
				rnd() % (left + 1 > 255 ? 255 : left + 1),
				rnd() % (left + 1 > 255 ? 255 : left + 1));
			break;
		default:
			f[n++] = STMT(BPF_JMP | BPF_JA, rnd() % (left + 1));
		}
	}
	f[n++] = STMT(BPF_ST, 15);
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, CBPF_WORD_ARG(5, 0) * 4);
	f[n++] = STMT(BPF_MISC | BPF_TAX, 0);
	f[n++] = STMT(BPF_LD | BPF_MEM, 15);
	f[n++] = STMT(BPF_ALU | BPF_RSH | BPF_X, 0);
	f[n++] = STMT(BPF_ALU | BPF_AND | BPF_K, 0xfff);
	f[n++] = STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO);
	f[n++] = STMT(BPF_RET | BPF_A, 0);
	return n;
}

#define INPUTS 4
static const uint32_t shifts[] = { 0, 12, 20 };

/* The arguments of call i (args[5] carries the shift). */
static void call_args(uint64_t seed, int i, uint64_t *a)
{
	int j;

	for (j = 0; j < 5; j++)
		a[j] = seed * 0x9E3779B97F4A7C15ULL *
			       (uint64_t)(i * 7 + j + 1) ^
		       (uint64_t)(j == 2 ? 3 : 0);
	a[5] = shifts[i % 3];
}

/*
 * What the kernel returns for a filter's value: the errno of
 * SECCOMP_RET_ERRNO, capped at 4095; -1 when the filter kills.
 */
static int32_t observed(uint32_t ret)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	if ((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ERRNO)
		return -1;
	return (int32_t)(data > 4095 ? 4095 : data);
}

START_TEST(computes_what_the_kernel_computes)
{
	int prog, compared = 0, undefined = 0;

	rnd_state = 0x2545F491U;
	for (prog = 0; prog < 150; prog++) {
		struct sock_filter f[PROG_MAX];
		size_t n = random_program(f);
		int pipefd[2], st, i, got = 0, accepted;
		int32_t answers[INPUTS * 3];
		pid_t p;

		ck_assert_int_eq(pipe(pipefd), 0);
		p = fork();
		if (p == 0) {
			close(pipefd[0]);
			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			accepted = install(f, n) == 0;
			if (write(pipefd[1], &accepted, sizeof(accepted)) < 0)
				_exit(2);
			for (i = 0; accepted && i < INPUTS * 3; i++) {
				uint64_t a[6];
				long r;
				int32_t v;

				call_args((uint64_t)prog, i, a);
				errno = 0;
				r = syscall(NR_TEST, a[0], a[1], a[2], a[3],
					    a[4], a[5]);
				v = r == 0 ? 0 : r == -1 ? errno : -2;
				if (write(pipefd[1], &v, sizeof(v)) < 0)
					_exit(2);
			}
			_exit(0);
		}
		close(pipefd[1]);
		ck_assert_int_eq(read(pipefd[0], &accepted, sizeof(accepted)),
				 sizeof(accepted));
		while (got < INPUTS * 3 &&
		       read(pipefd[0], &answers[got], sizeof(answers[0])) ==
			       sizeof(answers[0]))
			got++;
		close(pipefd[0]);
		waitpid(p, &st, 0);
		ck_assert_msg(accepted == check_ok(f, n),
			      "program %d: the kernel %s it", prog,
			      accepted ? "accepts" : "refuses");
		for (i = 0; accepted && i < INPUTS * 3; i++) {
			struct cbpf_input in;
			struct cbpf_result r;
			uint64_t a[6];
			int j;

			call_args((uint64_t)prog, i, a);
			memset(&in, 0, sizeof(in));
			in.word[CBPF_WORD_NR] = NR_TEST;
			in.word[CBPF_WORD_ARCH] = AUDIT_ARCH_X86_64;
			for (j = 0; j < 6; j++) {
				in.word[CBPF_WORD_ARG(j, 0)] = (uint32_t)a[j];
				in.word[CBPF_WORD_ARG(j, 1)] =
					(uint32_t)(a[j] >> 32);
			}
			/* Where libc's syscall() makes the call: unknown. */
			in.known = 0xffffU & ~(3U << CBPF_WORD_IP);
			cbpf_run(f, n, &in, &r);
			if (r.status == CBPF_UNDEFINED ||
			    r.status == CBPF_DEPENDS) {
				undefined++;
				if (i >= got)
					break; /* the kernel killed it here */
				continue;
			}
			ck_assert_msg(r.status == CBPF_DONE,
				      "program %d call %d: %s at %u", prog, i,
				      r.why, r.pc);
			if (i >= got) {
				/* Killed: a division by an X of 0 returns 0. */
				ck_assert_msg(
					observed(r.ret) == -1 &&
						WIFSIGNALED(st) &&
						WTERMSIG(st) == SIGSYS,
					"program %d call %d: the kernel killed it, we say 0x%08x",
					prog, i, r.ret);
				compared++;
				break;
			}
			ck_assert_msg(
				observed(r.ret) == answers[i],
				"program %d call %d: the kernel says %d, we 0x%08x",
				prog, i, answers[i], r.ret);
			compared++;
		}
	}
	printf("%d calls compared with the kernel, %d left undecided\n",
	       compared, undefined);
	ck_assert_int_gt(compared, 800);
}
END_TEST

/* A decision that needs an unknown word is never guessed. */
START_TEST(never_guesses_an_unknown_word)
{
	struct sock_filter branch[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, 4 * CBPF_WORD_ARG(3, 0)),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 42, 0, 1),
		STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		STMT(BPF_RET | BPF_K, ALLOW),
	};
	struct sock_filter overwritten[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, 4 * CBPF_WORD_ARG(3, 0)),
		STMT(BPF_LD | BPF_IMM, 7),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 7, 0, 1),
		STMT(BPF_RET | BPF_K, ALLOW),
		STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_filter returned[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, 4 * CBPF_WORD_IP),
		STMT(BPF_ALU | BPF_OR | BPF_K, ALLOW),
		STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_filter through_memory[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, 4 * CBPF_WORD_ARG(0, 1)),
		STMT(BPF_ST, 4),
		STMT(BPF_LD | BPF_IMM, 1),
		STMT(BPF_LDX | BPF_MEM, 4),
		STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		STMT(BPF_RET | BPF_K, ALLOW),
	};
	struct sock_filter x_compare[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, 4 * CBPF_WORD_ARG(2, 0)),
		STMT(BPF_MISC | BPF_TAX, 0),
		STMT(BPF_LD | BPF_IMM, 5),
		JUMP(BPF_JMP | BPF_JGT | BPF_X, 0, 0, 1),
		STMT(BPF_RET | BPF_K, ALLOW),
		STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct cbpf_input in;
	struct cbpf_result r;

	memset(&in, 0, sizeof(in));
	in.known = 1U << CBPF_WORD_NR | 1U << CBPF_WORD_ARCH;
	cbpf_run(branch, 4, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DEPENDS);
	ck_assert_int_eq(r.word, CBPF_WORD_ARG(3, 0));
	ck_assert_uint_eq(r.pc, 1);
	in.known |= 1U << CBPF_WORD_ARG(3, 0);
	in.word[CBPF_WORD_ARG(3, 0)] = 42;
	cbpf_run(branch, 4, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DONE);
	ck_assert_uint_eq(r.ret, SECCOMP_RET_ERRNO | EPERM);
	in.known = 0;
	cbpf_run(overwritten, 5, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DONE);
	ck_assert_uint_eq(r.ret, ALLOW);
	cbpf_run(returned, 3, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DEPENDS);
	ck_assert_int_eq(r.word, CBPF_WORD_IP);
	cbpf_run(through_memory, 6, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DEPENDS);
	ck_assert_int_eq(r.word, CBPF_WORD_ARG(0, 1));
	cbpf_run(x_compare, 6, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DEPENDS);
	ck_assert_int_eq(r.word, CBPF_WORD_ARG(2, 0));
}
END_TEST

/* What the kernel does with what cbpf_check() lets through, at run time. */
START_TEST(runs_to_the_kernels_rules)
{
	struct sock_filter div0[] = {
		STMT(BPF_LDX | BPF_IMM, 0),
		STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		STMT(BPF_RET | BPF_K, ALLOW),
	};
	struct sock_filter shift40[] = {
		STMT(BPF_LDX | BPF_IMM, 40),
		STMT(BPF_ALU | BPF_LSH | BPF_X, 0),
		STMT(BPF_RET | BPF_K, ALLOW),
	};
	struct sock_filter lens[] = {
		STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		STMT(BPF_LDX | BPF_W | BPF_LEN, 0),
		STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_filter bad[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, 64),
		STMT(BPF_RET | BPF_K, ALLOW),
	};
	struct cbpf_input in;
	struct cbpf_result r;

	memset(&in, 0, sizeof(in));
	in.known = 0xffff;
	cbpf_run(div0, 3, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DONE);
	ck_assert_uint_eq(r.ret, 0);
	cbpf_run(shift40, 3, &in, &r);
	ck_assert_int_eq(r.status, CBPF_UNDEFINED);
	cbpf_run(lens, 4, &in, &r);
	ck_assert_int_eq(r.status, CBPF_DONE);
	ck_assert_uint_eq(r.ret, 128);
	/* Never run, whatever it is given. */
	cbpf_run(bad, 2, &in, &r);
	ck_assert_int_eq(r.status, CBPF_INVALID);
	cbpf_run(NULL, 0, &in, &r);
	ck_assert_int_eq(r.status, CBPF_INVALID);
}
END_TEST

/* Random bytes as programs: checked or refused, never a hang or a stray read. */
START_TEST(survives_random_bytes)
{
	static struct sock_filter f[64];
	struct cbpf_input in;
	struct cbpf_result r;
	int round, ran = 0;
	size_t i;

	rnd_state = 0x9E3779B9U;
	memset(&in, 0, sizeof(in));
	in.known = 0xffff;
	for (round = 0; round < 20000; round++) {
		size_t n = 1 + rnd() % 64;

		for (i = 0; i < n; i++) {
			uint32_t w = rnd();

			/* Mostly codes seccomp knows, to get past the check. */
			f[i].code = (uint16_t)(rnd() % 2 ? w & 0xff : w >> 16);
			f[i].jt = (uint8_t)(rnd() % 4);
			f[i].jf = (uint8_t)(rnd() % 4);
			f[i].k = rnd() % 3 ? rnd() % 64 : rnd();
		}
		f[n - 1] = STMT(BPF_RET | BPF_A, 0);
		cbpf_run(f, n, &in, &r);
		ran += r.status != CBPF_INVALID;
		ck_assert(r.status == CBPF_INVALID || r.pc < n);
	}
	printf("%d of 20000 random programs ran\n", ran);
	ck_assert_int_gt(ran, 100);
}
END_TEST

/* seccomp(2)'s order, and its rule for ties and for actions it does not know. */
static const uint32_t actions[] = {
	SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_KILL_THREAD,
	SECCOMP_RET_TRAP,	  SECCOMP_RET_ERRNO | 5,
	SECCOMP_RET_ERRNO | 7,	  SECCOMP_RET_USER_NOTIF,
	SECCOMP_RET_TRACE | 3,	  SECCOMP_RET_LOG,
	SECCOMP_RET_ALLOW,
};

static struct cbpf_filter one(struct sock_filter *f, uint32_t action)
{
	*f = STMT(BPF_RET | BPF_K, action);
	return (struct cbpf_filter){ f, 1 };
}

START_TEST(combines_as_seccomp_does)
{
	struct sock_filter fa, fb,
		depend[2] = {
			STMT(BPF_LD | BPF_W | BPF_ABS, 4 * CBPF_WORD_IP),
			STMT(BPF_RET | BPF_A, 0),
		};
	struct cbpf_filter two[3];
	struct cbpf_outcome o;
	struct cbpf_input in;
	size_t a, b, n = sizeof(actions) / sizeof(actions[0]);

	memset(&in, 0, sizeof(in));
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			two[0] = one(&fa, actions[a]); /* the newest */
			two[1] = one(&fb, actions[b]);
			cbpf_combine(two, 2, &in, &o);
			/* Listed most restrictive first; the newest wins a tie. */
			if (a <= b ||
			    (actions[a] & SECCOMP_RET_ACTION_FULL) ==
				    (actions[b] & SECCOMP_RET_ACTION_FULL))
				ck_assert_msg(o.action == actions[a] &&
						      o.filter == 0,
					      "0x%08x over 0x%08x: got 0x%08x",
					      actions[a], actions[b], o.action);
			else
				ck_assert_msg(o.action == actions[b] &&
						      o.filter == 1,
					      "0x%08x under 0x%08x: got 0x%08x",
					      actions[a], actions[b], o.action);
		}
	two[0] = one(&fa, 0x00010000U); /* unknown to the kernel: it kills */
	cbpf_combine(two, 1, &in, &o);
	ck_assert_int_eq(o.verdict, CBPF_REFUSED);
	two[0] = one(&fa, SECCOMP_RET_LOG);
	cbpf_combine(two, 1, &in, &o);
	ck_assert_int_eq(o.verdict, CBPF_ALLOWED);
	two[0] = one(&fa, SECCOMP_RET_USER_NOTIF);
	cbpf_combine(two, 1, &in, &o);
	ck_assert_int_eq(o.verdict, CBPF_NOTIFIED);
	two[0] = one(&fa, SECCOMP_RET_TRACE);
	cbpf_combine(two, 1, &in, &o);
	ck_assert_int_eq(o.verdict, CBPF_TRACER);
	cbpf_combine(two, 0, &in, &o);
	ck_assert_int_eq(o.verdict, CBPF_ALLOWED);
	/* Beside a filter that cannot be run through, only a refusal stands. */
	two[1] = (struct cbpf_filter){ depend, 2 };
	for (a = 0; a < n; a++) {
		two[0] = one(&fa, actions[a]);
		cbpf_combine(two, 2, &in, &o);
		if ((actions[a] & SECCOMP_RET_ACTION_FULL) <=
			    SECCOMP_RET_ERRNO ||
		    actions[a] == SECCOMP_RET_KILL_PROCESS)
			ck_assert_int_eq(o.verdict, CBPF_REFUSED);
		else
			ck_assert_int_eq(o.verdict, CBPF_UNDECIDED);
		ck_assert_uint_eq(o.undecided_filter, 1);
	}
}
END_TEST

static volatile sig_atomic_t trapped;

static void on_sigsys(int sig)
{
	(void)sig;
	trapped = 1;
}

/*
 * The kernel's own combination, for each pair the child can observe
 * (user notification needs a listener, left out): getppid()'s answer,
 * an errno, SIGSYS caught (trap), or death (kill).
 */
START_TEST(combination_agrees_with_the_kernel)
{
	static const uint32_t seen[] = {
		SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_TRAP,
		SECCOMP_RET_ERRNO | 5,	  SECCOMP_RET_ERRNO | 7,
		SECCOMP_RET_TRACE | 3,	  SECCOMP_RET_LOG,
		SECCOMP_RET_ALLOW,
	};
	size_t a, b, n = sizeof(seen) / sizeof(seen[0]);

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			struct sock_filter fa, fb;
			struct cbpf_filter two[2];
			struct cbpf_outcome o;
			struct cbpf_input in;
			int st, want;
			pid_t p = fork();

			if (p == 0) {
				struct sock_filter f[2][4];
				uint32_t act[2] = { seen[b], seen[a] };
				struct sigaction sa;
				int i;
				long r;

				memset(&sa, 0, sizeof(sa));
				sa.sa_handler = on_sigsys;
				sigaction(SIGSYS, &sa, NULL);
				prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
				/* b first, then a: a is the newest. */
				for (i = 0; i < 2; i++) {
					f[i][0] = STMT(BPF_LD | BPF_W | BPF_ABS,
						       0);
					f[i][1] =
						JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						     SYS_getppid, 0, 1);
					f[i][2] = STMT(BPF_RET | BPF_K, act[i]);
					f[i][3] = STMT(BPF_RET | BPF_K, ALLOW);
					if (install(f[i], 4) != 0)
						_exit(99);
				}
				errno = 0;
				r = syscall(SYS_getppid);
				if (trapped)
					_exit(50);
				_exit(r > 0 ? 60 : errno);
			}
			waitpid(p, &st, 0);
			memset(&in, 0, sizeof(in));
			two[0] = one(&fa, seen[a]);
			two[1] = one(&fb, seen[b]);
			cbpf_combine(two, 2, &in, &o);
			switch (o.action & SECCOMP_RET_ACTION_FULL) {
			case SECCOMP_RET_KILL_PROCESS:
				want = -1;
				break;
			case SECCOMP_RET_TRAP:
				want = 50;
				break;
			case SECCOMP_RET_ERRNO:
				want = (int)(o.action & SECCOMP_RET_DATA);
				break;
			case SECCOMP_RET_TRACE:
				want = ENOSYS; /* no tracer */
				break;
			default:
				want = 60;
			}
			if (want == -1)
				ck_assert_msg(
					WIFSIGNALED(st) &&
						WTERMSIG(st) == SIGSYS,
					"0x%08x over 0x%08x: not killed (%d)",
					seen[a], seen[b], st);
			else
				ck_assert_msg(
					WIFEXITED(st) &&
						WEXITSTATUS(st) == want,
					"0x%08x over 0x%08x: the kernel %d, we %d",
					seen[a], seen[b],
					WIFEXITED(st) ? WEXITSTATUS(st)
						      : -WTERMSIG(st),
					want);
		}
}
END_TEST

START_TEST(names_actions)
{
	char buf[120];

	ck_assert_str_eq(
		cbpf_action_name(SECCOMP_RET_ERRNO | 1, buf, sizeof(buf)),
		"SECCOMP_RET_ERRNO(1)");
	ck_assert_str_eq(
		cbpf_action_name(SECCOMP_RET_ERRNO | 0xffff, buf, sizeof(buf)),
		"SECCOMP_RET_ERRNO(4095)");
	ck_assert_str_eq(
		cbpf_action_name(SECCOMP_RET_KILL_PROCESS, buf, sizeof(buf)),
		"SECCOMP_RET_KILL_PROCESS");
	ck_assert_ptr_nonnull(
		strstr(cbpf_action_name(0x00010000U, buf, sizeof(buf)),
		       "does not know"));
}
END_TEST

static Suite *cbpf_suite(void)
{
	Suite *s = suite_create("perfdoctor_cbpf");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	if (kernel_filters_work()) {
		tcase_add_test(tc, accepts_the_opcodes_the_kernel_accepts);
		tcase_add_test(tc, refuses_the_shapes_the_kernel_refuses);
		tcase_add_test(tc, computes_what_the_kernel_computes);
		tcase_add_test(tc, combination_agrees_with_the_kernel);
	} else {
		printf("not run: the four cases against the kernel (seccomp(2) refuses filters here: valgrind?)\n");
	}
	tcase_add_test(tc, never_guesses_an_unknown_word);
	tcase_add_test(tc, runs_to_the_kernels_rules);
	tcase_add_test(tc, survives_random_bytes);
	tcase_add_test(tc, combines_as_seccomp_does);
	tcase_add_test(tc, names_actions);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(cbpf_suite)
