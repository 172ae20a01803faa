/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: the least grant as people deploy it. */
#ifndef CAPAUDIT_ADVICE_H
#define CAPAUDIT_ADVICE_H

#include <stdio.h>

struct run_result;
struct suggestion;
struct tally;

void suggest_print(const struct suggestion *sg, const struct tally *t,
		   const struct run_result *rr, const char *command,
		   const char *user, FILE *out);

#endif
