/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* What the kernel's verifier said when it refused a program. */
#ifndef CAPAUDIT_VERIFIER_H
#define CAPAUDIT_VERIFIER_H

#include <stddef.h>

/*
 * From the verifier's log (log_level 1), why it refused the program, into
 * out, as a compiler says it: "FILE:LINE: REASON (instruction N: INSN;
 * source: TEXT)". REASON is the last line that is not a statistics line
 * ("processed 12 insns (limit 1000000) ...", which comes last on current
 * kernels); INSN the instruction line before it; FILE, LINE and TEXT the
 * source line the log names before that instruction ("; TEXT @ FILE:LINE",
 * in a program with line information). Without a source line it is
 * "REASON (instruction N: INSN)", and without an instruction REASON
 * alone. Control characters and what else a terminal acts on are written
 * as \ooo (escape.h), and what does not fit is cut whole. Returns 0, or
 * -1 when the log holds no reason or memory ran out (out empty).
 */
int verifier_reason(const char *log, char *out, size_t len);

#endif
