/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap's "did you mean" line for a word that looks like an option
 * (issue 14, item 6), printed after libcap's own lines. Kept apart from
 * setcap_explain.c, whose one-line output the fuzz harness
 * (tests/fuzz/fuzz_setcap_explain.c) checks exactly.
 */
#include <stdio.h>
#include <string.h>

#include "setcap_explain.h"
#include "suggest.h"

void suggest_option(const char *word)
{
	/* Every option setcap takes, as it must be written. */
	static const char *const options[] = {
		"-h", "-q", "-v", "-f", "-n", "-r", "--license", "--version",
		"--perf", "--perf=", "--perf-group=",
	};
	/* "--help" is no typo but a habit (or a typo of one): it is -h. */
	static const char *const habits[] = { "--help", "-help", "--usage" };

	if (suggest_nearest(word, habits, sizeof(habits) / sizeof(habits[0]))
	    != NULL) {
		suggest_say(stderr, "setcap", "option", word, "-h");
		return;
	}
	suggest_unknown(stderr, "setcap", "option", word, options,
			sizeof(options) / sizeof(options[0]));
}
