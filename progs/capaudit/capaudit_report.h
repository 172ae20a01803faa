/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: the report as a table. */
#ifndef CAPAUDIT_REPORT_H
#define CAPAUDIT_REPORT_H

#include <stdio.h>

struct run_result;
struct source;
struct tally;

/* "exited with status 1", "killed by signal 9". */
void describe_status(int status, char *buf, size_t size);
void report_table(const struct tally *t, const struct source *src,
		  const struct run_result *rr, FILE *out);

#endif
