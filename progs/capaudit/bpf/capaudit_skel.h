/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Loading a light skeleton (bpftool gen skeleton -L), and saying why the
 * kernel refused it: the verifier's reason and the line of our BPF
 * source it stopped at. capaudit's programs load through it, and so does
 * the test that plants a bug in a program of its own.
 */
#ifndef CAPAUDIT_SKEL_H
#define CAPAUDIT_SKEL_H

#include <stddef.h>

/*
 * One generated skeleton's functions, taking it as a void pointer (each
 * generated one takes a type of its own). Every light skeleton begins
 * with its struct bpf_loader_ctx, where the verifier's log is asked for.
 */
struct skel_kind {
	const char *what; /* for messages: "the programs" */
	void *(*open)(void);
	/*
	 * What must be set between open and load (read-only data, map
	 * sizes), from the caller's arg; may be NULL.
	 */
	void (*prepare)(void *skel, const void *arg);
	int (*load)(void *skel); /* 0, or a negative errno */
	void (*destroy)(void *skel);
};

/*
 * Opens, prepares and loads a skeleton of kind k. Returns it, or NULL
 * with errno set and why filled in: for a program the verifier refused,
 * "the verifier refused WHAT: FILE:LINE: REASON (...)" (the format of
 * verifier_reason()); otherwise "loading WHAT: STRERROR".
 */
void *skel_load(const struct skel_kind *k, const void *arg, char *why,
		size_t whylen);

#endif
