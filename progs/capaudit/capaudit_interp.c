/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The trials run the command as its user with the capabilities under
 * test. An interpreter runs the code it is given with them, and that
 * code may be its user's: a script, a file of his that a shell sources,
 * a redirect he wrote. His code decides what the interpreter asks for
 * (a refused open of a root's file makes cap_dac_override a candidate)
 * and so what the next trial hands it: a root-equivalent capability
 * there is root for him while the trial runs. So, for a user other than
 * root, no run gives an interpreter a root-equivalent capability, as a
 * file capability (every trial, the docker and Kubernetes way) or as an
 * ambient one (podman's way, where every program holds the grant): the
 * candidate is not tried and the grant stays unproven, said why. What
 * is not root-equivalent is still tried (the interpreter warning says
 * what granting it means).
 */
#include <stdio.h>
#include <stdlib.h>

#include "capaudit_interp.h"
#include "capaudit_suggest.h"
#include "capaudit_warn.h"
#include "escape.h"
#include "mask.h"
#include "risk.h"

/* "not tried: PATH is an interpreter: ..." into why, PATH escaped. */
static void refused(const char *path, uint64_t caps, const char *as, char *why,
		    size_t len)
{
	char list[256], *shown = escape_dup(path);

	mask_names(list, sizeof(list), caps, 4);
	snprintf(
		why, len,
		"not tried: %.120s is an interpreter: a trial giving it %s%s would give %s to every script it runs, its user's included",
		shown != NULL ? shown : "a file", list, as, list);
	free(shown);
}

int interp_grant_allowed(const struct suggestion *sg, const uint64_t *grant,
			 char *why, size_t len)
{
	uint64_t root;
	size_t i;

	for (i = 0; i < sg->nfiles; i++) {
		const char *path = sg->files[i].path;

		root = risk_root_mask(grant[i]);
		if (root == 0 || path == NULL || !is_interpreter(path))
			continue;
		refused(path, root, "", why, len);
		return 0;
	}
	return 1;
}

int interp_ambient_allowed(const struct suggestion *sg, uint64_t ambient,
			   char *why, size_t len)
{
	uint64_t root = risk_root_mask(ambient);
	size_t i;

	for (i = 0; root != 0 && i < sg->nprograms; i++) {
		const char *path = sg->programs[i].path;

		if (path == NULL || !is_interpreter(path))
			continue;
		refused(path, root, " (as ambient capabilities)", why, len);
		return 0;
	}
	return 1;
}
