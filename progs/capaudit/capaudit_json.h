/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --json: the report and the suggestion, one object a line. */
#ifndef CAPAUDIT_JSON_H
#define CAPAUDIT_JSON_H

#include <stdio.h>

struct run_result;
struct source;
struct suggestion;
struct tally;

/* A "check" object for each row of t, then the run's "summary". */
void report_json(const struct tally *t, const struct source *src,
		 const struct run_result *rr, FILE *out);
/* The "suggest" object: sg's grant, file by file; command, or NULL (--pid). */
void suggest_json(const struct suggestion *sg, const struct tally *t,
		  const char *command, FILE *out);

#endif
