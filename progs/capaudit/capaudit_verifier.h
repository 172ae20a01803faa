/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* What the kernel's verifier said when it refused a program. */
#ifndef CAPAUDIT_VERIFIER_H
#define CAPAUDIT_VERIFIER_H

#include <stddef.h>

/*
 * From the verifier's log (log_level 1), the reason it refused the
 * program, into out: the last line that is not a statistics line
 * ("processed 12 insns (limit 1000000) ...", which comes last on current
 * kernels), then ", at instruction N: INSN" for the instruction line
 * before it, and ", source: TEXT" for the source line the log gives
 * before that instruction (a program with line information). Returns 0,
 * or -1 when the log holds no reason (out empty).
 */
int verifier_reason(const char *log, char *out, size_t len);

#endif
