/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A classic BPF interpreter for seccomp filters, written from seccomp(2),
 * bpf(4)-style classic BPF's definition and the kernel's documented
 * checks: perfdoctor runs another process's filters on the system call
 * perf would make, to tell whether they let it through. Every value
 * carries the set of unknown words it was computed from, so a decision
 * that needs one (an argument perf's caller picks, the instruction
 * pointer) is reported as such, never guessed.
 */
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>

#include "perfdoctor_cbpf.h"

/* Actions the uapi header of an older system may lack. */
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG 0x7ffc0000U
#endif
#ifndef SECCOMP_RET_ACTION_FULL
#define SECCOMP_RET_ACTION_FULL 0xffff0000U
#endif

/* A value and the unknown words (a bit each) it was computed from. */
struct val {
	uint32_t v;
	uint32_t taint;
};

static int invalid(struct cbpf_result *res, unsigned pc, const char *why)
{
	res->status = CBPF_INVALID;
	res->pc = pc;
	res->why = why;
	return -1;
}

/*
 * The opcodes seccomp accepts (seccomp_check_filter() on top of the
 * classic checks): no packet loads but whole words of seccomp_data, no
 * modulo, no extensions.
 */
static int allowed_code(uint16_t code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_ALU | BPF_ADD | BPF_K:
	case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K:
	case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return 1;
	}
	return 0;
}

static int is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

/*
 * Every scratch word loaded must have been stored on every path that
 * reaches the load; jumps go forward only, so one pass in order sees
 * every predecessor first (the rule the kernel applies before loading).
 */
static int check_memory(const struct sock_filter *prog, size_t len,
			struct cbpf_result *res)
{
	uint16_t reach[CBPF_MAX_INSNS], valid = 0;
	size_t pc;

	for (pc = 0; pc < len; pc++)
		reach[pc] = 0xffff;
	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &prog[pc];

		valid &= reach[pc];
		switch (f->code) {
		case BPF_ST:
		case BPF_STX:
			valid |= (uint16_t)(1U << f->k);
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (!(valid & (1U << f->k)))
				return invalid(
					res, (unsigned)pc,
					"loads a scratch word no path has stored");
			break;
		case BPF_JMP | BPF_JA:
			reach[pc + 1 + f->k] &= valid;
			valid = 0xffff;
			break;
		default:
			if (is_cond_jump(f->code)) {
				reach[pc + 1 + f->jt] &= valid;
				reach[pc + 1 + f->jf] &= valid;
				valid = 0xffff;
			}
		}
	}
	return 0;
}

int cbpf_check(const struct sock_filter *prog, size_t len,
	       struct cbpf_result *res)
{
	size_t pc;

	memset(res, 0, sizeof(*res));
	if (prog == NULL || len == 0 || len > CBPF_MAX_INSNS)
		return invalid(res, 0,
			       "has no instructions, or more than 4096");
	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &prog[pc];
		/* The instructions after this one: how far a jump may go. */
		uint64_t left = (uint64_t)len - pc - 1;

		if (!allowed_code(f->code))
			return invalid(res, (unsigned)pc,
				       "has an opcode seccomp does not allow");
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k >= CBPF_WORDS * 4 || (f->k & 3) != 0)
				return invalid(
					res, (unsigned)pc,
					"loads outside struct seccomp_data, or not a whole word");
			break;
		case BPF_ALU | BPF_DIV | BPF_K:
			if (f->k == 0)
				return invalid(res, (unsigned)pc,
					       "divides by the constant 0");
			break;
		case BPF_ALU | BPF_LSH | BPF_K:
		case BPF_ALU | BPF_RSH | BPF_K:
			if (f->k >= 32)
				return invalid(res, (unsigned)pc,
					       "shifts by 32 or more");
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
		case BPF_ST:
		case BPF_STX:
			if (f->k >= CBPF_MEM_WORDS)
				return invalid(
					res, (unsigned)pc,
					"names a scratch word past the 16th");
			break;
		case BPF_JMP | BPF_JA:
			if ((uint64_t)f->k >= left)
				return invalid(
					res, (unsigned)pc,
					"jumps past its last instruction");
			break;
		default:
			if (is_cond_jump(f->code) && ((uint64_t)f->jt >= left ||
						      (uint64_t)f->jf >= left))
				return invalid(
					res, (unsigned)pc,
					"jumps past its last instruction");
		}
	}
	if (prog[len - 1].code != (BPF_RET | BPF_K) &&
	    prog[len - 1].code != (BPF_RET | BPF_A))
		return invalid(res, (unsigned)(len - 1),
			       "does not end with a return");
	return check_memory(prog, len, res);
}

/* The lowest unknown word behind a value, for the report. */
static int first_word(uint32_t taint)
{
	int i;

	for (i = 0; i < CBPF_WORDS; i++)
		if (taint & (1U << i))
			return i;
	return -1;
}

static void depends(struct cbpf_result *res, unsigned pc, uint32_t taint)
{
	res->status = CBPF_DEPENDS;
	res->pc = pc;
	res->word = first_word(taint);
}

/*
 * One ALU instruction on A with operand o. Returns 0, 1 when it returned
 * (a division by 0), or -1 when it stopped (res says why).
 */
static int alu(struct val *a, struct val o, uint16_t code, unsigned pc,
	       struct cbpf_result *res)
{
	uint32_t taint = a->taint | o.taint;

	switch (BPF_OP(code)) {
	case BPF_ADD:
		a->v += o.v;
		break;
	case BPF_SUB:
		a->v -= o.v;
		break;
	case BPF_MUL:
		a->v *= o.v;
		break;
	case BPF_DIV:
		if (o.taint) {
			depends(res, pc, o.taint); /* it might be 0 */
			return -1;
		}
		if (o.v == 0) {
			/* Classic BPF's rule, kept by the kernel: return 0. */
			res->status = CBPF_DONE;
			res->ret = 0;
			res->pc = pc;
			return 1;
		}
		a->v /= o.v;
		break;
	case BPF_AND:
		a->v &= o.v;
		break;
	case BPF_OR:
		a->v |= o.v;
		break;
	case BPF_XOR:
		a->v ^= o.v;
		break;
	case BPF_LSH:
	case BPF_RSH:
		if (o.taint) {
			depends(res, pc, o.taint);
			return -1;
		}
		if (o.v >= 32) {
			res->status = CBPF_UNDEFINED;
			res->pc = pc;
			res->why =
				"shifts by 32 or more, which the kernel leaves to the processor";
			return -1;
		}
		a->v = BPF_OP(code) == BPF_LSH ? a->v << o.v : a->v >> o.v;
		break;
	case BPF_NEG:
		a->v = 0U - a->v;
		taint = a->taint;
		break;
	default:
		invalid(res, pc, "has an opcode seccomp does not allow");
		return -1;
	}
	a->taint = taint;
	return 0;
}

/* Whether a conditional jump is taken: A against K or X. */
static int jump_taken(uint16_t code, uint32_t a, uint32_t o)
{
	switch (BPF_OP(code)) {
	case BPF_JEQ:
		return a == o;
	case BPF_JGT:
		return a > o;
	case BPF_JGE:
		return a >= o;
	default: /* BPF_JSET, the only one left (allowed_code) */
		return (a & o) != 0;
	}
}

void cbpf_run(const struct sock_filter *prog, size_t len,
	      const struct cbpf_input *in, struct cbpf_result *res)
{
	struct val a = { 0, 0 }, x = { 0, 0 }, mem[CBPF_MEM_WORDS];
	uint16_t stored = 0;
	size_t pc = 0, steps = 0;

	if (cbpf_check(prog, len, res) < 0)
		return;
	memset(mem, 0, sizeof(mem));
	/*
	 * cbpf_check() proved every jump forward and inside the program
	 * and the last instruction a return, so this ends within len
	 * steps; the bounds are checked again at each step all the same.
	 */
	while (pc < len && steps++ < len) {
		const struct sock_filter *f = &prog[pc];
		struct val o =
			BPF_SRC(f->code) == BPF_X ? x : (struct val){ f->k, 0 };
		int r;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k >= CBPF_WORDS * 4 || (f->k & 3) != 0) {
				invalid(res, (unsigned)pc,
					"loads outside struct seccomp_data");
				return;
			}
			a.v = in->word[f->k / 4];
			a.taint = (in->known & (1U << (f->k / 4)))
					  ? 0
					  : 1U << (f->k / 4);
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			a = (struct val){ CBPF_WORDS * 4, 0 };
			break;
		case BPF_LDX | BPF_W | BPF_LEN:
			x = (struct val){ CBPF_WORDS * 4, 0 };
			break;
		case BPF_LD | BPF_IMM:
			a = (struct val){ f->k, 0 };
			break;
		case BPF_LDX | BPF_IMM:
			x = (struct val){ f->k, 0 };
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (f->k >= CBPF_MEM_WORDS ||
			    !(stored & (1U << f->k))) {
				invalid(res, (unsigned)pc,
					"loads a scratch word never stored");
				return;
			}
			if (f->code == (BPF_LD | BPF_MEM))
				a = mem[f->k];
			else
				x = mem[f->k];
			break;
		case BPF_ST:
		case BPF_STX:
			if (f->k >= CBPF_MEM_WORDS) {
				invalid(res, (unsigned)pc,
					"names a scratch word past the 16th");
				return;
			}
			mem[f->k] = f->code == BPF_ST ? a : x;
			stored |= (uint16_t)(1U << f->k);
			break;
		case BPF_MISC | BPF_TAX:
			x = a;
			break;
		case BPF_MISC | BPF_TXA:
			a = x;
			break;
		case BPF_RET | BPF_K:
			res->status = CBPF_DONE;
			res->ret = f->k;
			res->pc = (unsigned)pc;
			return;
		case BPF_RET | BPF_A:
			if (a.taint) {
				depends(res, (unsigned)pc, a.taint);
				return;
			}
			res->status = CBPF_DONE;
			res->ret = a.v;
			res->pc = (unsigned)pc;
			return;
		case BPF_JMP | BPF_JA:
			pc += 1 + (size_t)f->k;
			continue;
		default:
			if (BPF_CLASS(f->code) == BPF_ALU) {
				r = alu(&a, o, f->code, (unsigned)pc, res);
				if (r != 0)
					return;
				break;
			}
			if (!is_cond_jump(f->code)) {
				invalid(res, (unsigned)pc,
					"has an opcode seccomp does not allow");
				return;
			}
			if (a.taint | o.taint) {
				depends(res, (unsigned)pc, a.taint | o.taint);
				return;
			}
			pc += 1 + (size_t)(jump_taken(f->code, a.v, o.v)
						   ? f->jt
						   : f->jf);
			continue;
		}
		pc++;
	}
	invalid(res, (unsigned)(pc < len ? pc : len - 1),
		"runs past its end or longer than its length");
}

/* seccomp's order: the lower, as a signed number, the more restrictive. */
static int32_t strictness(uint32_t ret)
{
	return (int32_t)(ret & SECCOMP_RET_ACTION_FULL);
}

static enum cbpf_verdict verdict_of(uint32_t ret)
{
	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
	case SECCOMP_RET_LOG:
		return CBPF_ALLOWED;
	case SECCOMP_RET_TRACE:
		return CBPF_TRACER;
	case SECCOMP_RET_USER_NOTIF:
		return CBPF_NOTIFIED;
	default: /* errno, trap, kill, and what the kernel kills for */
		return CBPF_REFUSED;
	}
}

void cbpf_combine(const struct cbpf_filter *filters, size_t n,
		  const struct cbpf_input *in, struct cbpf_outcome *out)
{
	uint32_t best = SECCOMP_RET_ALLOW;
	int undecided = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		struct cbpf_result r;

		cbpf_run(filters[i].insns, filters[i].len, in, &r);
		if (r.status != CBPF_DONE) {
			if (!undecided) {
				out->undecided = r;
				out->undecided_filter = i;
			}
			undecided = 1;
			continue;
		}
		if (strictness(r.ret) < strictness(best)) {
			best = r.ret;
			out->filter = i;
		}
	}
	out->action = best;
	out->verdict = verdict_of(best);
	/*
	 * A filter that could not be run through may return anything, so
	 * only a refusal stands beside it: whatever it returns, the
	 * winner is no less restrictive than an errno, a trap or a kill.
	 */
	if (undecided && out->verdict != CBPF_REFUSED)
		out->verdict = CBPF_UNDECIDED;
}

int cbpf_action_kills(uint32_t action)
{
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ERRNO:
	case SECCOMP_RET_TRACE:
	case SECCOMP_RET_USER_NOTIF:
	case SECCOMP_RET_LOG:
	case SECCOMP_RET_ALLOW:
		return 0;
	default: /* kill, trap, and what the kernel kills for */
		return 1;
	}
}

const char *cbpf_action_name(uint32_t action, char *buf, size_t len)
{
	uint32_t data = action & SECCOMP_RET_DATA;

	switch (action & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
		snprintf(buf, len, "SECCOMP_RET_KILL_PROCESS");
		break;
	case SECCOMP_RET_KILL_THREAD:
		snprintf(buf, len, "SECCOMP_RET_KILL_THREAD");
		break;
	case SECCOMP_RET_TRAP:
		snprintf(buf, len, "SECCOMP_RET_TRAP");
		break;
	case SECCOMP_RET_ERRNO:
		/* The kernel caps the errno at 4095 (MAX_ERRNO). */
		snprintf(buf, len, "SECCOMP_RET_ERRNO(%u)",
			 data > 4095 ? 4095 : data);
		break;
	case SECCOMP_RET_USER_NOTIF:
		snprintf(buf, len, "SECCOMP_RET_USER_NOTIF");
		break;
	case SECCOMP_RET_TRACE:
		snprintf(buf, len, "SECCOMP_RET_TRACE(%u)", data);
		break;
	case SECCOMP_RET_LOG:
		snprintf(buf, len, "SECCOMP_RET_LOG");
		break;
	case SECCOMP_RET_ALLOW:
		snprintf(buf, len, "SECCOMP_RET_ALLOW");
		break;
	default:
		snprintf(
			buf, len,
			"0x%08x, an action the kernel does not know (it kills the process)",
			action);
	}
	return buf;
}
