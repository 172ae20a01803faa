/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The fixes that belong to what starts a session rather than to the
 * host's files: podman's and docker's flags, a Kubernetes
 * securityContext, systemd unit lines. Least privilege first, and only
 * that: CAP_PERFMON, a seccomp profile that lets perf_event_open()
 * through to CAP_PERFMON alone (perfdoctor --seccomp-profile), and never
 * --privileged, CAP_SYS_ADMIN or an unconfined seccomp, which work only
 * by granting everything else too. For a container where one of those
 * is what makes perf work today, the same lines are the narrower way.
 * Every line is our own text: no name the session or the image controls
 * appears in it.
 */
#include <stdio.h>
#include <string.h>

#include "mask.h"
#include "perfdoctor.h"

/* What the session's starter must change, from what perfdoctor found. */
struct needs {
	int refused;	 /* its seccomp filter refuses perf_event_open() */
	int profile;	 /* a profile that allows it to CAP_PERFMON is wanted */
	int no_perfmon;	 /* CAP_PERFMON is not in its bounding set */
	int userns;	 /* it runs in a user namespace */
	int from_file;	 /* perf gets CAP_PERFMON from its file capabilities */
	int file_needed; /* ... or would, not being uid 0 (Kubernetes) */
	int nnp_voids;	 /* no_new_privs voids those file capabilities */
	int admin;	 /* a container holding CAP_SYS_ADMIN */
	int unconfined;	 /* a container without a seccomp filter */
};

static void needs_of(const struct session_facts *s, const struct subject *who,
		     const struct binary_facts *b, struct needs *n)
{
	uint64_t fp = mask_of_flag(b->caps, CAP_PERMITTED);
	uint64_t fe = mask_of_flag(b->caps, CAP_EFFECTIVE);
	/* Unknown securebits: uid 0 is taken to get root's sets, as usual. */
	int root_way = who->is_root && who->noroot != ANSWER_YES;
	int ambient = (who->ambient & BIT(CAP_PERFMON)) != 0;

	memset(n, 0, sizeof(*n));
	n->refused = s->seccomp == 2 && s->sc.allows != ANSWER_YES;
	n->no_perfmon = !(who->bounding & BIT(CAP_PERFMON));
	n->userns = who->init_userns == ANSWER_NO;
	n->admin = s->in_container && (who->bounding & BIT(CAP_SYS_ADMIN));
	n->unconfined = s->in_container && s->seccomp == 0;
	n->profile = n->refused || n->admin || n->unconfined;
	n->from_file = !root_way && !ambient && (fp & BIT(CAP_PERFMON)) && fe;
	n->file_needed = !root_way && !ambient && !n->from_file;
	n->nnp_voids = who->no_new_privs && n->from_file;
}

static void line(struct fix *out, int *n, int max, int is_command,
		 const char *text, const char *note)
{
	if (*n == max)
		return;
	memset(&out[*n], 0, sizeof(out[*n]));
	snprintf(out[*n].text, sizeof(out[*n].text), "%s", text);
	snprintf(out[*n].note, sizeof(out[*n].note), "%s", note);
	out[*n].is_command = is_command;
	(*n)++;
}

/*
 * The profile command, the podman or docker flags, the securityContext:
 * all of them, whichever runtime the evidence names, since what names it
 * in there (/.dockerenv, container=, a cgroup's name) is the image's or
 * the runtime's to say, and a person runs the same image under several.
 */
static void container_lines(const struct needs *nd, struct fix *out, int *n,
			    int max)
{
	char text[FIX_LEN];

	if (nd->profile)
		line(out, n, max, 1,
		     "perfdoctor --seccomp-profile >perfmon.json",
		     "on the host: podman's and CRI-O's default profile (" SECCOMP_PROFILE_DEFAULT
		     ") with perf_event_open() also allowed to CAP_PERFMON; docker's: --seccomp-profile=BASE, its profiles/seccomp/default.json");
	snprintf(
		text, sizeof(text),
		"podman or docker run: --cap-add=PERFMON%s, not --privileged, --cap-add=SYS_ADMIN or --security-opt seccomp=unconfined%s%s",
		nd->profile ? " --security-opt seccomp=perfmon.json" : "",
		nd->from_file
			? ", nor --security-opt no-new-privileges (it voids perf's file capabilities)"
			: "",
		nd->userns
			? "; run by root (rootful podman), without --userns: CAP_PERFMON in a user namespace does not count for perf"
			: "");
	line(out, n, max, 0, text, "");
	snprintf(
		text, sizeof(text),
		"Kubernetes, the container's securityContext: {capabilities: {add: [PERFMON]}%s, allowPrivilegeEscalation: %s}%s; %s%s",
		nd->profile
			? ", seccompProfile: {type: Localhost, localhostProfile: perfmon.json}"
			: "",
		nd->from_file || nd->file_needed ? "true" : "false",
		nd->profile
			? ", the profile at /var/lib/kubelet/seccomp/perfmon.json on every node"
			: "",
		nd->from_file
			? "true: perf gets CAP_PERFMON from its file capabilities, which no_new_privs (false) voids"
		: nd->file_needed
			? "true, and perf in the image with file capabilities (setcap --perf): a container user other than uid 0 gets nothing at exec from capabilities.add alone (Kubernetes sets no ambient capabilities)"
			: "false will do: perf gets CAP_PERFMON from the container's own sets",
		nd->userns
			? "; and hostUsers: true in the pod's spec: CAP_PERFMON in a user namespace does not count for perf"
			: "");
	line(out, n, max, 0, text, "");
	if (nd->profile)
		line(out, n, max, 0,
		     "podman play kube of that pod: its metadata also needs annotations: {seccomp.security.alpha.kubernetes.io/pod: localhost/perfmon.json} (podman 4 reads this annotation, not seccompProfile; the profile in /var/lib/kubelet/seccomp too)",
		     "");
}

/* A session not in a container: the lines of a systemd service's unit. */
static void service_lines(const struct needs *nd, struct fix *out, int *n,
			  int max)
{
	if (nd->refused)
		line(out, n, max, 0,
		     "a systemd service: SystemCallFilter=perf_event_open in its unit's [Service] section, after its other SystemCallFilter= lines (it allows the call, or takes it off their deny list)",
		     "");
	if (nd->no_perfmon)
		line(out, n, max, 0,
		     "a systemd service: its unit's CapabilityBoundingSet=, where it sets one, must hold CAP_PERFMON",
		     "");
	if (nd->nnp_voids)
		line(out, n, max, 0,
		     "a systemd service: AmbientCapabilities=CAP_PERFMON in its unit's [Service] section (perf then needs no file capabilities, NoNewPrivileges= or not)",
		     "");
	if (nd->userns)
		line(out, n, max, 0,
		     "a systemd service: PrivateUsers=no (PrivateUsers=yes runs it in a user namespace, where CAP_PERFMON does not count for perf)",
		     "");
}

int runtime_lines(const struct session_facts *s, const struct subject *who,
		  const struct binary_facts *b, enum answer answer,
		  struct fix *out, int max, char *why, size_t why_len)
{
	struct needs nd;
	int n = 0;

	why[0] = '\0';
	needs_of(s, who, b, &nd);
	if (answer == ANSWER_YES ||
	    (!nd.refused && !nd.no_perfmon && !nd.userns && !nd.nnp_voids)) {
		/* Nothing of the starter's in the way: more than perf needs? */
		if (!nd.admin && !nd.unconfined)
			return 0;
		snprintf(
			why, why_len,
			"the container %s%s%s, which perf does not need: the narrower way below gives it CAP_PERFMON and lets perf_event_open() through its seccomp filter, and nothing more",
			nd.admin
				? "holds CAP_SYS_ADMIN (--cap-add=SYS_ADMIN or --privileged)"
				: "",
			nd.admin && nd.unconfined ? " and " : "",
			nd.unconfined
				? "runs without a seccomp filter (--security-opt seccomp=unconfined or --privileged)"
				: "");
		container_lines(&nd, out, &n, max);
		return n;
	}
	if (s->in_container)
		container_lines(&nd, out, &n, max);
	else
		service_lines(&nd, out, &n, max);
	return n;
}
