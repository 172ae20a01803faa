/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Loading a light skeleton, and the verifier's word when it refuses
 * (capaudit_skel.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/skel_internal.h>

#include "capaudit_skel.h"
#include "capaudit_verifier.h"

/*
 * Room for the verifier's log of a refusal. Each program's load writes
 * it from the start (the loader's own program first), so it ends up
 * holding the refused program's; a log too long for it loses its head,
 * never the reason at its end.
 */
#define LOG_SIZE (1U << 20)

static void *open_prepared(const struct skel_kind *k, const void *arg)
{
	void *skel = k->open();

	if (skel != NULL && k->prepare != NULL)
		k->prepare(skel, arg);
	return skel;
}

/*
 * The load again, in a fresh skeleton (the first may be half loaded),
 * with the verifier's log: its reason into why. 0, or -1 when the log
 * holds none (the refusal was not the verifier's).
 */
static int verifier_says(const struct skel_kind *k, const void *arg, char *why,
			 size_t whylen)
{
	struct bpf_loader_ctx *ctx;
	char reason[400];
	void *skel;
	char *log;
	int rc = -1;

	log = calloc(1, LOG_SIZE);
	if (log == NULL)
		return -1;
	skel = open_prepared(k, arg);
	if (skel != NULL) {
		ctx = skel;
		ctx->log_level = 1;
		ctx->log_size = LOG_SIZE;
		ctx->log_buf = (__u64)(unsigned long)log;
		if (k->load(skel) < 0 && log[0] != '\0' &&
		    verifier_reason(log, reason, sizeof(reason)) == 0) {
			snprintf(why, whylen, "the verifier refused %s: %s",
				 k->what, reason);
			rc = 0;
		}
		k->destroy(skel);
	}
	free(log);
	return rc;
}

void *skel_load(const struct skel_kind *k, const void *arg, char *why,
		size_t whylen)
{
	void *skel = open_prepared(k, arg);
	int err;

	if (skel == NULL) {
		err = errno ? errno : ENOMEM;
		snprintf(why, whylen, "opening %s: %s", k->what, strerror(err));
		errno = err;
		return NULL;
	}
	err = k->load(skel);
	if (err == 0)
		return skel;
	k->destroy(skel);
	err = err < 0 ? -err : EINVAL;
	if (verifier_says(k, arg, why, whylen) < 0)
		snprintf(why, whylen, "loading %s: %s", k->what, strerror(err));
	errno = err;
	return NULL;
}
