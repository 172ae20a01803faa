/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The risk tier of every capability, with a one-line reason for each. */
#include <string.h>

#include "mask.h"
#include "perf.h"
#include "risk.h"

#define ALL_FLAGS ((1u << CAP_EFFECTIVE) | (1u << CAP_PERMITTED) | \
		   (1u << CAP_INHERITABLE))

/*
 * Root-equivalent means a known, short path from the capability alone to
 * full control of the machine; the reasons name that path so an auditor can
 * judge it. Facts from capabilities(7) and the kernel sources.
 */
static const struct {
	enum risk_tier tier;
	const char *reason;
} labels[] = {
	[CAP_CHOWN] = { RISK_ROOT, "can take ownership of any file, such as /etc/shadow or a root-run script" },
	[CAP_DAC_OVERRIDE] = { RISK_ROOT, "bypasses file permissions: can rewrite /etc/passwd or any root-owned binary" },
	[CAP_DAC_READ_SEARCH] = { RISK_ROOT, "reads any file (e.g. /etc/shadow, SSH keys) and opens files by handle, escaping containers" },
	[CAP_FOWNER] = { RISK_ROOT, "acts as owner of any file: can chmod /etc/shadow or make a root binary writable" },
	[CAP_FSETID] = { RISK_ESCALATION, "keeps set-user-ID and set-group-ID bits when modifying files" },
	[CAP_KILL] = { RISK_ESCALATION, "can signal any process, including daemons that guard the system" },
	[CAP_SETGID] = { RISK_ROOT, "can switch to any group, such as shadow or disk, whose files give root" },
	[CAP_SETUID] = { RISK_ROOT, "can switch to uid 0: root in one system call" },
	[CAP_SETPCAP] = { RISK_ROOT, "can raise inheritable capabilities and change securebits, handing privileges on to programs it runs" },
	[CAP_LINUX_IMMUTABLE] = { RISK_LOW, "can set and clear the immutable and append-only file attributes" },
	[CAP_NET_BIND_SERVICE] = { RISK_LOW, "can bind ports below 1024" },
	[CAP_NET_BROADCAST] = { RISK_LOW, "can broadcast and listen to multicast (unused by current kernels)" },
	[CAP_NET_ADMIN] = { RISK_ESCALATION, "reconfigures interfaces, routes and firewalls: can redirect or intercept traffic" },
	[CAP_NET_RAW] = { RISK_ESCALATION, "raw and packet sockets: can spoof and sniff traffic on the host" },
	[CAP_IPC_LOCK] = { RISK_LOW, "can lock memory beyond RLIMIT_MEMLOCK" },
	[CAP_IPC_OWNER] = { RISK_ESCALATION, "bypasses permission checks on System V IPC objects of other users" },
	[CAP_SYS_MODULE] = { RISK_ROOT, "loads kernel modules: arbitrary code in the kernel" },
	[CAP_SYS_RAWIO] = { RISK_ROOT, "raw I/O ports and /dev/mem access: can rewrite kernel memory" },
	[CAP_SYS_CHROOT] = { RISK_ROOT, "chroot into a tree it controls and run a set-user-ID program there with forged files" },
	[CAP_SYS_PTRACE] = { RISK_ROOT, "can trace and inject code into any process, including root's" },
	[CAP_SYS_PACCT] = { RISK_LOW, "can switch process accounting on and off" },
	[CAP_SYS_ADMIN] = { RISK_ROOT, "the catch-all \"new root\": mounts, namespaces, BPF, perf and much more" },
	[CAP_SYS_BOOT] = { RISK_ROOT, "reboots and kexec-loads a new kernel of its choosing" },
	[CAP_SYS_NICE] = { RISK_LOW, "raises priorities and sets real-time scheduling, which can starve the system" },
	[CAP_SYS_RESOURCE] = { RISK_LOW, "overrides resource limits and disk quotas" },
	[CAP_SYS_TIME] = { RISK_ESCALATION, "sets the system clock, which can defeat certificate and log checks" },
	[CAP_SYS_TTY_CONFIG] = { RISK_ROOT, "vhangup and TTY configuration: can hijack consoles of other users" },
	[CAP_MKNOD] = { RISK_ROOT, "creates device nodes: a node for the root disk or /dev/mem gives root" },
	[CAP_LEASE] = { RISK_LOW, "takes file leases on files it does not own" },
	[CAP_AUDIT_WRITE] = { RISK_LOW, "writes records to the kernel audit log" },
	[CAP_AUDIT_CONTROL] = { RISK_ROOT, "changes audit rules and the login uid: can hide what root does" },
	[CAP_SETFCAP] = { RISK_ROOT, "sets file capabilities: can give itself any capability through a program it writes" },
	[CAP_MAC_OVERRIDE] = { RISK_ROOT, "overrides mandatory access control (Smack)" },
	[CAP_MAC_ADMIN] = { RISK_ROOT, "reconfigures mandatory access control (Smack, AppArmor policy)" },
	[CAP_SYSLOG] = { RISK_KERNEL_READ, "reads the kernel log and unmasked kernel addresses, defeating KASLR" },
	[CAP_WAKE_ALARM] = { RISK_LOW, "sets alarms that wake the system from suspend" },
	[CAP_BLOCK_SUSPEND] = { RISK_LOW, "can keep the system from suspending" },
	[CAP_AUDIT_READ] = { RISK_LOW, "reads the audit log through multicast netlink" },
	[CAP_PERFMON] = { RISK_KERNEL_READ, "observes every process and the kernel through perf_events; with cap_bpf it loads tracing programs that read kernel memory" },
	[CAP_BPF] = { RISK_KERNEL_READ, "loads BPF programs and maps; with cap_perfmon its tracing programs read kernel memory" },
	[CAP_CHECKPOINT_RESTORE] = { RISK_ESCALATION, "restores processes with chosen PIDs and reads other processes' memory maps" },
};

#define LABELS ((cap_value_t)(sizeof(labels) / sizeof(labels[0])))

enum risk_tier risk_tier_of(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].tier : RISK_LOW;
}

const char *risk_reason(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].reason : NULL;
}

const char *risk_tier_name(enum risk_tier tier)
{
	switch (tier) {
	case RISK_ROOT:
		return "root-equivalent";
	case RISK_KERNEL_READ:
		return "kernel-read";
	case RISK_ESCALATION:
		return "escalation-adjacent";
	default:
		return "low";
	}
}

static int has_cap(cap_t caps, cap_value_t cap, unsigned flag_mask)
{
	return (mask_of_flags(caps, flag_mask) & MASK_BIT(cap)) != 0;
}

enum risk_tier risk_highest(cap_t caps, unsigned flag_mask,
				    cap_value_t *worst)
{
	enum risk_tier highest = RISK_LOW;
	uint64_t held = mask_of_flags(caps, flag_mask);
	cap_value_t which = -1, cap;

	for (MASK_EACH(cap, held)) {
		enum risk_tier tier;

		tier = risk_tier_of(cap);
		if (which < 0 || tier > highest) {
			highest = tier;
			which = cap;
		}
	}
	if (worst != NULL)
		*worst = which;
	return highest;
}

const char *risk_suggestion(cap_t caps, const char *path)
{
	int admin = has_cap(caps, CAP_SYS_ADMIN, ALL_FLAGS);

	if (admin && path != NULL && perf_is_binary(path))
		/* The group form: a bare "=ep" would give perf to every user. */
		return "perf needs cap_perfmon (Linux " PERF_PERFMON_LINUX "+), not cap_sys_admin: " PERF_SETCAP_FIX("<file>");
	if (admin && has_cap(caps, CAP_BPF, ALL_FLAGS))
		return "BPF tools need cap_bpf with cap_perfmon (Linux " PERF_PERFMON_LINUX "+), not cap_sys_admin";
	if (has_cap(caps, CAP_SYS_PTRACE, ALL_FLAGS) && path != NULL &&
	    perf_is_binary(path))
		return "perf on Linux " PERF_NO_PTRACE_LINUX "+ needs no cap_sys_ptrace once it holds cap_perfmon";
	if (has_cap(caps, CAP_DAC_OVERRIDE, ALL_FLAGS) &&
	    !has_cap(caps, CAP_DAC_READ_SEARCH, ALL_FLAGS))
		return "if the program only reads files, cap_dac_read_search is narrower than cap_dac_override";
	return NULL;
}
