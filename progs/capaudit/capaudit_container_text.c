/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * --suggest's lines for containers (capaudit_container.c decides them):
 * for each way the grant reaches a container's process, what it is and
 * how its run went, the flags of podman run or docker run, and a
 * Kubernetes securityContext; then what those runs did not cover. The
 * flags are quoted for the shell (shquote.h) and the YAML's strings
 * double-quoted, so a paste holds what the line says and no more.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capaudit_container.h"
#include "capaudit_container_text.h"
#include "capaudit_report.h"
#include "capaudit_suggest.h"
#include "escape.h"
#include "json.h"
#include "mask.h"
#include "shquote.h"

int container_flags_fputs(const struct container_flags *f, FILE *out)
{
	char *quoted[CONTAINER_WORDS];
	size_t i, n;
	int rc = 0;

	/* Every word quoted first: a line is written whole or not at all. */
	for (n = 0; n < f->n; n++)
		if ((quoted[n] = shquote_dup(f->word[n])) == NULL)
			break;
	if (n < f->n) {
		rc = -1;
	} else {
		for (i = 0; i < n; i++)
			fprintf(out, "%s%s", i ? " " : "", quoted[i]);
		fputc('\n', out);
	}
	for (i = 0; i < n; i++)
		free(quoted[i]);
	return rc;
}

/*
 * A double-quoted YAML string is written as a JSON string is (YAML
 * takes JSON's escapes), so no name can end the string, the line or the
 * mapping it is in.
 */
void container_context_fputs(const struct container_context *k, FILE *out)
{
	size_t i;

	fprintf(out,
		"securityContext:\n"
		"  runAsUser: %lu\n"
		"  runAsGroup: %lu\n"
		"  runAsNonRoot: %s\n"
		"  allowPrivilegeEscalation: %s\n"
		"  capabilities:\n"
		"    drop: [\"ALL\"]\n"
		"    add: [",
		(unsigned long)k->run_as_user, (unsigned long)k->run_as_group,
		k->run_as_non_root ? "true" : "false",
		k->allow_privilege_escalation ? "true" : "false");
	for (i = 0; i < k->nadd; i++) {
		if (i > 0)
			fputs(", ", out);
		json_string(out, k->add[i]);
	}
	fputs("]\n", out);
}

/* "bounding, permitted and effective set cap_a,cap_b, ...": after execve. */
static void describe_sets(const struct container_sets *cs, char *buf,
			  size_t size)
{
	char list[1024];

	mask_names(list, sizeof(list), cs->bounding, 0);
	if (cs->file_caps)
		snprintf(buf, size,
			 "bounding set %s, inheritable and ambient set empty, "
			 "no_new_privs not set, each file with its grant as "
			 "file capabilities",
			 list);
	else if (cs->ambient)
		snprintf(buf, size,
			 "bounding, inheritable, permitted, effective and "
			 "ambient set %s, no_new_privs set",
			 list);
	else
		snprintf(buf, size,
			 "bounding, permitted and effective set %s, "
			 "inheritable and ambient set empty, no_new_privs set",
			 list);
}

/* What is said of each way, by enum container_way. */
static const struct way_words {
	const char *runtimes; /* those that give the way's sets */
	const char *flags;    /* whose run command takes the flags */
	const char *means;    /* what the way means for the grant, or NULL */
} words[] = {
	[WAY_ROOT] = { "podman, docker or Kubernetes",
		       "podman run or docker run", NULL },
	[WAY_AMBIENT] = { "podman", "podman run",
			  "podman gives a user other than root what "
			  "--cap-add adds as ambient capabilities: every "
			  "program in the container holds them" },
	[WAY_FILE_CAPS] = { "docker or Kubernetes", "docker run",
			    "docker and Kubernetes give a user other than "
			    "root no ambient capability: each file needs its "
			    "grant in the image (the setcap lines above), and "
			    "privilege escalation allowed" },
};

static void print_way(const struct container_advice *ca,
		      const struct container_proof *p, FILE *out)
{
	struct container_context k;
	struct container_flags f;
	char sets[1200], what[64];

	describe_sets(&p->sets, sets, sizeof(sets));
	fprintf(out,
		"# %s, as uid %lu in the container: ", words[p->way].runtimes,
		(unsigned long)ca->uid);
	if (p->ran && !p->proven) {
		/* Shown not to work: nothing to paste. */
		fputs("no flags: ", out);
		escape_fputs(p->unproven, out);
		fputc('\n', out);
		return;
	}
	if (container_flags_of(p, ca->uid, ca->gid, &f) < 0 ||
	    container_context_of(p, ca->uid, ca->gid, &k) < 0) {
		fputs("no flags: a capability of the grant has no name the "
		      "runtimes know\n",
		      out);
		return;
	}
	if (p->proven) {
		fprintf(out,
			"the flags of %s, proven by run %d in the sets the "
			"container gets there (%s)\n",
			words[p->way].flags, p->run, sets);
	} else {
		fprintf(out, "the flags of %s, NOT PROVEN (",
			words[p->way].flags);
		escape_fputs(p->unproven, out);
		fprintf(out, "); the sets the container gets there: %s\n",
			sets);
	}
	if (words[p->way].means != NULL)
		fprintf(out, "#   %s\n", words[p->way].means);
	if (p->proven) {
		describe_status(p->status, what, sizeof(what));
		fprintf(out, "#   run %d, in those sets: %s", p->run, what);
		if (p->left)
			fprintf(out,
				" (it left %zu process%s behind, which "
				"capaudit ended)",
				p->left, p->left == 1 ? "" : "es");
		fputc('\n', out);
	}
	if (container_flags_fputs(&f, out) < 0)
		fprintf(out, "# no flags: %s\n", strerror(errno));
	if (!container_has_context(p->way))
		return;
	if (p->proven)
		fprintf(out,
			"# Kubernetes, the container's securityContext (the "
			"sets of run %d):\n",
			p->run);
	else
		fputs("# Kubernetes, the container's securityContext (NOT "
		      "PROVEN, as above):\n",
		      out);
	container_context_fputs(&k, out);
}

void container_print(const struct suggestion *sg, FILE *out)
{
	const struct container_advice *ca = &sg->container;
	size_t i;

	if (!ca->shown) {
		if (ca->why_not[0])
			fprintf(out, "# containers: no lines: %s\n",
				ca->why_not);
		return;
	}
	for (i = 0; i < ca->nways; i++)
		print_way(ca, &ca->ways[i], out);
	if (ca->runs > 0)
		fputs("# note: the container runs had the runtime's capability sets "
		      "and the user's ids, not its seccomp profile, security module, "
		      "cgroups or image, and ran in the initial user namespace, as in "
		      "a container that root starts (in a rootless container's own "
		      "namespace no capability counts outside it)\n",
		      out);
	if (ca->grant & (MASK_BIT(CAP_PERFMON) | MASK_BIT(CAP_BPF)))
		fputs("# note: the default seccomp profile of podman 4 (and of "
		      "docker before 2022) lets perf_event_open(2) and bpf(2) "
		      "through only with CAP_SYS_ADMIN, whatever else a "
		      "container holds: perfdoctor, run in the container, says "
		      "whether a filter refuses them\n",
		      out);
}
