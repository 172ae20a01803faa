/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Whether capaudit counts in the kernel (eBPF on raw tracepoints), and the
 * source that needs nothing else: raw tracepoints are named to bpf(2)
 * directly, so counting works where tracefs is root's or not mounted.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "capaudit_counting.h"
#include "capaudit_perf.h"
#include "capaudit_privilege.h"
#include "capaudit_source.h"

void counting_try(const struct sysview *sv, struct source *src, int use_bpf)
{
	struct counting *cfg = &src->counting;

	if (src->kind != SOURCE_TRACEPOINT &&
	    src->kind != SOURCE_RAW_TRACEPOINT)
		return;
	if (!use_bpf) {
		snprintf(cfg->why, sizeof(cfg->why), "--no-bpf");
		return;
	}
	if (counter_not_built() != NULL) {
		snprintf(cfg->why, sizeof(cfg->why), "%s", counter_not_built());
		return;
	}
	/* A fake /sys (tests): the kernel's eBPF is not the machine's. */
	if (sv->root[0] != '\0') {
		snprintf(cfg->why, sizeof(cfg->why), "CAPAUDIT_SYSROOT is set");
		return;
	}
	/*
	 * The programs see every check of the command's processes, also in
	 * set-user-ID and file-capability programs it runs, where perf stops
	 * writing samples for an unprivileged watcher. A caller who holds
	 * CAP_BPF and CAP_PERFMON itself could load such programs anyway;
	 * capabilities capaudit got from its own file must not show more
	 * than perf would.
	 */
	if (privileged_by_own_file()) {
		snprintf(
			cfg->why, sizeof(cfg->why),
			"capaudit's capabilities come from its file, not from its caller");
		return;
	}
	/*
	 * Loaded (the kernel checks the programs against its own BTF),
	 * attached, one check of capaudit's own counted; kept for the run.
	 */
	counter_probe(cfg, setuid_check);
}

/*
 * The raw tracepoint is found by name in the kernel's BTF and attached by
 * name: no tracefs file is read, so a tracefs mounted root's 0700 (as
 * systemd mounts it at boot) or none at all does not matter. Without
 * counting there are no samples to read (their layout and the event's id
 * live in tracefs), so this source exists only where counting does.
 */
int raw_tracepoint_find(const struct sysview *sv, struct source *src, char *why,
			size_t whylen)
{
	struct source raw;

	memset(&raw, 0, sizeof(raw));
	raw.kind = SOURCE_RAW_TRACEPOINT;
	/* One side-band event per thread and CPU (capaudit_perf.c). */
	raw.nevents = 1;
	counting_try(sv, &raw, 1);
	if (!raw.counting.usable) {
		snprintf(why, whylen, "%s", raw.counting.why);
		return -1;
	}
	*src = raw;
	return 0;
}

void counting_describe(const struct source *src, FILE *out)
{
	const struct counting *cfg = &src->counting;

	if (cfg->usable)
		fprintf(out,
			"in the kernel, by eBPF programs on the raw tracepoints cap_capable, task_newtask, sched_process_exec and signal_generate\n");
	else if (cfg->why[0] != '\0')
		fprintf(out, "one perf sample per check (eBPF: %s)\n",
			cfg->why);
	else
		fprintf(out, "one perf sample per check\n");
}
