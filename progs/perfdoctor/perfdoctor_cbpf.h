/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor_cbpf.c: seccomp's classic BPF, run as the kernel runs it, on
 * a struct seccomp_data some of whose words are not known; and what a
 * stack of filters makes of one system call. Pure: no system call, no
 * output, so the unit suite can hold it against the kernel.
 */
#ifndef PERFDOCTOR_CBPF_H
#define PERFDOCTOR_CBPF_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* struct seccomp_data is 64 bytes: 16 words, loaded 4 bytes at a time. */
#define CBPF_WORDS	     16
#define CBPF_WORD_NR	     0
#define CBPF_WORD_ARCH	     1
#define CBPF_WORD_IP	     2 /* and 3: instruction_pointer, low word first */
#define CBPF_WORD_ARG(i, hi) (4 + 2 * (i) + (hi)) /* little-endian */

/* The kernel's limits (BPF_MAXINSNS, BPF_MEMWORDS). */
#define CBPF_MAX_INSNS 4096
#define CBPF_MEM_WORDS 16

/* What a filter sees: bit i of known set when word[i] is the real value. */
struct cbpf_input {
	uint32_t word[CBPF_WORDS];
	uint32_t known;
};

enum cbpf_status {
	CBPF_DONE,    /* ret is what the filter returns */
	CBPF_DEPENDS, /* the outcome needs word (not known) */
	CBPF_INVALID, /* the kernel would not have loaded it: why */
	CBPF_UNDEFINED, /* a shift by 32 or more, which the kernel leaves to the CPU */
};

struct cbpf_result {
	enum cbpf_status status;
	uint32_t ret;
	unsigned pc;	 /* the instruction that decided, or was refused */
	int word;	 /* CBPF_DEPENDS: the unknown word it needed */
	const char *why; /* CBPF_INVALID and CBPF_UNDEFINED: a clause */
};

/*
 * Checks prog as seccomp(2) checks a filter before loading it (the
 * opcodes seccomp allows, loads inside struct seccomp_data and aligned,
 * jumps forward and inside the program, scratch memory stored before it
 * is loaded, no division by a constant 0, no constant shift of 32 or
 * more, a return last). Returns 0, or -1 with res's status CBPF_INVALID,
 * pc and why.
 */
int cbpf_check(const struct sock_filter *prog, size_t len,
	       struct cbpf_result *res);

/*
 * Runs prog on in, checking it first (cbpf_check) and every step again.
 * A division by an X of 0 returns 0, as the kernel's translation of
 * classic BPF does. A jump or return that needs a word in->known lacks
 * stops with CBPF_DEPENDS: never a guess.
 */
void cbpf_run(const struct sock_filter *prog, size_t len,
	      const struct cbpf_input *in, struct cbpf_result *res);

/* One filter of a process, as PTRACE_SECCOMP_GET_FILTER gives it. */
struct cbpf_filter {
	const struct sock_filter *insns;
	size_t len;
};

/*
 * The filters' combined action for in, as seccomp(2) combines them: each
 * filter runs and the most restrictive action wins (kill process, kill
 * thread, trap, errno, user notification, trace, log, allow; an action
 * the kernel does not know counts as kill process). Among equal actions
 * the first in the array wins: give them newest first, as ptrace does.
 */
enum cbpf_verdict {
	CBPF_ALLOWED,	/* allow or log: the kernel runs the call */
	CBPF_REFUSED,	/* an action that keeps the kernel from running it */
	CBPF_TRACER,	/* SECCOMP_RET_TRACE: ENOSYS without a tracer */
	CBPF_NOTIFIED,	/* SECCOMP_RET_USER_NOTIF: a supervisor decides */
	CBPF_UNDECIDED, /* a filter's outcome is unknown, and may decide */
};

struct cbpf_outcome {
	enum cbpf_verdict verdict;
	/*
	 * The action that wins (CBPF_REFUSED with an undecided filter
	 * beside it: the most restrictive known one; the real one is no
	 * less restrictive). filter is its index.
	 */
	uint32_t action;
	size_t filter;
	/* CBPF_UNDECIDED: the first filter that could not be run through. */
	struct cbpf_result undecided;
	size_t undecided_filter;
};

void cbpf_combine(const struct cbpf_filter *filters, size_t n,
		  const struct cbpf_input *in, struct cbpf_outcome *out);

/* 1 when action kills or traps the caller (SIGSYS) instead of failing the call. */
int cbpf_action_kills(uint32_t action);

/*
 * "SECCOMP_RET_ERRNO(1)" and the like, for a filter's return value, into
 * buf.
 */
const char *cbpf_action_name(uint32_t action, char *buf, size_t len);

#endif
