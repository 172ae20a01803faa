/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The grant in a container: which capability sets its runtime gives the
 * container's process, and one run of the command under exactly those
 * sets for each way, after the trials proved the grant with file
 * capabilities. The sets are what the runtimes were seen to give, with
 * "--cap-drop=ALL --cap-add=..." (podman 4.3 with runc, rootful, read
 * from /proc/self/status in the container; docker and Kubernetes' CRI
 * runtimes put the same spec to runc):
 *
 *   root in the container: bounding, permitted and effective sets the
 *   added capabilities, inheritable and ambient empty; no_new_privs as
 *   --security-opt=no-new-privileges or allowPrivilegeEscalation says.
 *
 *   another user, in podman (podman run, podman play kube): the added
 *   capabilities in all five sets: podman raises them as ambient ones,
 *   which every program in the container then holds.
 *
 *   another user, in docker and Kubernetes: the bounding set only (no
 *   ambient set is raised, and the permitted set a user other than root
 *   had goes at its execve): the grant reaches the process only as a
 *   file's capabilities in the image, which no_new_privs would make the
 *   kernel ignore, so privilege escalation must be allowed.
 *
 * The run of podman's way for another user gives every program the
 * command starts the grant: capaudit_ambient.c keeps it to root's.
 * How it is shown: capaudit_container_text.c and capaudit_json.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capaudit.h"
#include "capaudit_container.h"
#include "capaudit_interp.h"
#include "capaudit_prove.h"
#include "capaudit_report.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "mask.h"
#include "names.h"

const char *const *container_runtimes(enum container_way way)
{
	static const char *const all[] = { "podman", "docker", "kubernetes",
					   NULL };
	static const char *const podman[] = { "podman", NULL };
	static const char *const others[] = { "docker", "kubernetes", NULL };

	return way == WAY_ROOT ? all : way == WAY_AMBIENT ? podman : others;
}

int container_has_context(enum container_way way)
{
	return way != WAY_AMBIENT;
}

int container_cap_name(cap_value_t cap, char *buf, size_t len)
{
	char name[64];
	size_t i;

	names_cap(cap, name, sizeof(name));
	if (strncmp(name, "cap_", 4) != 0 || strlen(name + 4) >= len)
		return -1;
	for (i = 0; name[4 + i] != '\0'; i++)
		buf[i] = (char)toupper((unsigned char)name[4 + i]);
	buf[i] = '\0';
	return 0;
}

int container_flags_of(const struct container_proof *p, uid_t uid, gid_t gid,
		       struct container_flags *f)
{
	char name[48];
	int c;

	memset(f, 0, sizeof(*f));
	snprintf(f->word[f->n++], sizeof(f->word[0]), "--cap-drop=ALL");
	for (MASK_EACH(c, p->sets.bounding)) {
		if (container_cap_name(c, name, sizeof(name)) < 0)
			return -1;
		snprintf(f->word[f->n++], sizeof(f->word[0]), "--cap-add=%s",
			 name);
	}
	/*
	 * The ids as numbers: the image's user database may not have the
	 * name, and a uid alone gets group 0 there (podman, docker).
	 */
	snprintf(f->word[f->n++], sizeof(f->word[0]), "--user=%lu:%lu",
		 (unsigned long)uid, (unsigned long)gid);
	/* Said either way: a daemon may default to no-new-privileges. */
	snprintf(f->word[f->n++], sizeof(f->word[0]),
		 p->sets.no_new_privs
			 ? "--security-opt=no-new-privileges"
			 : "--security-opt=no-new-privileges=false");
	return 0;
}

int container_context_of(const struct container_proof *p, uid_t uid, gid_t gid,
			 struct container_context *k)
{
	int c;

	memset(k, 0, sizeof(*k));
	k->run_as_user = uid;
	k->run_as_group = gid;
	k->run_as_non_root = uid != 0;
	k->allow_privilege_escalation = !p->sets.no_new_privs;
	for (MASK_EACH(c, p->sets.bounding))
		if (container_cap_name(c, k->add[k->nadd++],
				       sizeof(k->add[0])) < 0)
			return -1;
	return 0;
}

void container_sets_of(enum container_way way, uint64_t grant,
		       struct container_sets *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->bounding = grant;
	switch (way) {
	case WAY_ROOT:
		cs->no_new_privs = 1;
		break;
	case WAY_AMBIENT:
		cs->inheritable = cs->ambient = grant;
		cs->no_new_privs = 1;
		break;
	case WAY_FILE_CAPS:
		cs->file_caps = 1;
		break;
	}
}

cap_iab_t container_iab(const struct container_sets *cs)
{
	cap_iab_t iab = cap_iab_init();
	cap_value_t c, bits = cap_max_bits();
	int rc = 0;

	if (iab == NULL)
		return NULL;
	for (c = 0; c < bits && c < MASK_BITS; c++) {
		uint64_t bit = MASK_BIT(c);

		if (!(cs->bounding & bit))
			rc |= cap_iab_set_vector(iab, CAP_IAB_BOUND, c,
						 CAP_SET);
		if (cs->inheritable & bit)
			rc |= cap_iab_set_vector(iab, CAP_IAB_INH, c, CAP_SET);
		if (cs->ambient & bit)
			rc |= cap_iab_set_vector(iab, CAP_IAB_AMB, c, CAP_SET);
	}
	if (rc != 0) {
		int saved = errno;

		cap_free(iab);
		errno = saved;
		return NULL;
	}
	return iab;
}

void container_plan(struct suggestion *sg, uid_t uid, gid_t gid,
		    const char *why_not)
{
	struct container_advice *ca = &sg->container;
	size_t i;

	memset(ca, 0, sizeof(*ca));
	ca->asked = 1;
	ca->grant = suggest_every_file(sg, 0);
	ca->uid = uid;
	ca->gid = gid;
	if (ca->grant == 0)
		return;
	if (why_not != NULL) {
		snprintf(ca->why_not, sizeof(ca->why_not), "%s", why_not);
		return;
	}
	ca->shown = 1;
	if (uid == 0) {
		ca->nways = 1;
		ca->ways[0].way = WAY_ROOT;
	} else {
		ca->nways = 2;
		ca->ways[0].way = WAY_AMBIENT;
		ca->ways[1].way = WAY_FILE_CAPS;
	}
	for (i = 0; i < ca->nways; i++) {
		container_sets_of(ca->ways[i].way, ca->grant,
				  &ca->ways[i].sets);
		snprintf(ca->ways[i].unproven, sizeof(ca->ways[i].unproven),
			 "%s",
			 sg->proven ? "no run was made in these sets"
				    : "the grant itself is not proven, and no "
				      "run was made in these sets");
	}
}

/* One way's run, judged; its outcome into p. */
static void prove_way(struct suggestion *sg, const struct success *succ,
		      const struct container_runner *runner,
		      struct container_proof *p, uint64_t *grant)
{
	char what[64], was[64];
	struct run_result rr;
	struct tally t;
	size_t i;

	for (i = 0; i < sg->nfiles; i++)
		grant[i] = p->sets.file_caps ? sg->files[i].grant : 0;
	/*
	 * Another user's run gives no interpreter a root-equivalent
	 * capability, as a file's or (podman's way: every program holds
	 * the grant) as an ambient one: it is not made (capaudit_interp.c).
	 */
	if (sg->container.uid != 0 &&
	    (!interp_grant_allowed(sg, grant, p->unproven,
				   sizeof(p->unproven)) ||
	     !interp_ambient_allowed(sg, p->sets.ambient, p->unproven,
				     sizeof(p->unproven))))
		return;
	/* Its messages (trial_judge()) name the run by sg->runs. */
	sg->runs++;
	p->run = sg->runs;
	sg->container.runs++;
	sg->unproven[0] = '\0';
	memset(&rr, 0, sizeof(rr));
	if (runner->run(runner->ctx, sg, grant, &p->sets, &rr, &t) < 0) {
		snprintf(p->unproven, sizeof(p->unproven), "%s",
			 sg->unproven[0] ? sg->unproven : "a run failed");
		sg->unproven[0] = '\0';
		return;
	}
	tally_free(&t);
	p->ran = 1;
	p->status = rr.status;
	p->left = rr.left;
	if (success_of(succ, sg->have_reference, sg->reference, rr.status)) {
		p->proven = 1;
		p->unproven[0] = '\0';
		return;
	}
	describe_status(rr.status, what, sizeof(what));
	describe_status(sg->reference, was, sizeof(was));
	snprintf(
		p->unproven, sizeof(p->unproven),
		"run %d, in these sets, %s, where run %d, with every candidate "
		"granted as file capabilities, %s",
		p->run, what, sg->reference_run, was);
}

void container_prove(struct suggestion *sg, const struct success *succ,
		     const struct container_runner *runner)
{
	struct container_advice *ca = &sg->container;
	int runs = sg->runs;
	uint64_t *grant;
	size_t i;

	if (!ca->shown || !sg->proven)
		return;
	grant = calloc(sg->nfiles ? sg->nfiles : 1, sizeof(*grant));
	if (grant == NULL) {
		for (i = 0; i < ca->nways; i++)
			snprintf(ca->ways[i].unproven,
				 sizeof(ca->ways[i].unproven), "%s",
				 strerror(ENOMEM));
		return;
	}
	/*
	 * After the proof: the least grant is known, and the runs that
	 * found it end with one that starts from the state the command's
	 * own run did. These runs are not among the proof's (its count
	 * and --json's "runs" stay the proof's).
	 */
	for (i = 0; i < ca->nways; i++)
		prove_way(sg, succ, runner, &ca->ways[i], grant);
	sg->runs = runs;
	free(grant);
}
