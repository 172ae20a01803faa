/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The risk tier of every capability, with a one-line reason for each. */
#include <string.h>

#include "risk.h"

#define ALL_FLAGS ((1u << CAP_EFFECTIVE) | (1u << CAP_PERMITTED) | \
		   (1u << CAP_INHERITABLE))

/*
 * Root-equivalent means a known, short path from the capability alone to
 * full control of the machine; the reasons name that path so an auditor can
 * judge it. Facts from capabilities(7) and the kernel sources.
 */
static const struct {
	enum cap_risk_tier tier;
	const char *reason;
} labels[] = {
	[CAP_CHOWN] = { CAP_RISK_ROOT, "can take ownership of any file, such as /etc/shadow or a root-run script" },
	[CAP_DAC_OVERRIDE] = { CAP_RISK_ROOT, "bypasses file permissions: can rewrite /etc/passwd or any root-owned binary" },
	[CAP_DAC_READ_SEARCH] = { CAP_RISK_ROOT, "reads any file (e.g. /etc/shadow, SSH keys) and opens files by handle, escaping containers" },
	[CAP_FOWNER] = { CAP_RISK_ROOT, "acts as owner of any file: can chmod /etc/shadow or make a root binary writable" },
	[CAP_FSETID] = { CAP_RISK_ESCALATION, "keeps set-user-ID and set-group-ID bits when modifying files" },
	[CAP_KILL] = { CAP_RISK_ESCALATION, "can signal any process, including daemons that guard the system" },
	[CAP_SETGID] = { CAP_RISK_ROOT, "can switch to any group, such as shadow or disk, whose files give root" },
	[CAP_SETUID] = { CAP_RISK_ROOT, "can switch to uid 0: root in one system call" },
	[CAP_SETPCAP] = { CAP_RISK_ROOT, "can raise inheritable capabilities and change securebits, handing privileges on to programs it runs" },
	[CAP_LINUX_IMMUTABLE] = { CAP_RISK_LOW, "can set and clear the immutable and append-only file attributes" },
	[CAP_NET_BIND_SERVICE] = { CAP_RISK_LOW, "can bind ports below 1024" },
	[CAP_NET_BROADCAST] = { CAP_RISK_LOW, "can broadcast and listen to multicast (unused by current kernels)" },
	[CAP_NET_ADMIN] = { CAP_RISK_ESCALATION, "reconfigures interfaces, routes and firewalls: can redirect or intercept traffic" },
	[CAP_NET_RAW] = { CAP_RISK_ESCALATION, "raw and packet sockets: can spoof and sniff traffic on the host" },
	[CAP_IPC_LOCK] = { CAP_RISK_LOW, "can lock memory beyond RLIMIT_MEMLOCK" },
	[CAP_IPC_OWNER] = { CAP_RISK_ESCALATION, "bypasses permission checks on System V IPC objects of other users" },
	[CAP_SYS_MODULE] = { CAP_RISK_ROOT, "loads kernel modules: arbitrary code in the kernel" },
	[CAP_SYS_RAWIO] = { CAP_RISK_ROOT, "raw I/O ports and /dev/mem access: can rewrite kernel memory" },
	[CAP_SYS_CHROOT] = { CAP_RISK_ROOT, "chroot into a tree it controls and run a set-user-ID program there with forged files" },
	[CAP_SYS_PTRACE] = { CAP_RISK_ROOT, "can trace and inject code into any process, including root's" },
	[CAP_SYS_PACCT] = { CAP_RISK_LOW, "can switch process accounting on and off" },
	[CAP_SYS_ADMIN] = { CAP_RISK_ROOT, "the catch-all \"new root\": mounts, namespaces, BPF, perf and much more" },
	[CAP_SYS_BOOT] = { CAP_RISK_ROOT, "reboots and kexec-loads a new kernel of its choosing" },
	[CAP_SYS_NICE] = { CAP_RISK_LOW, "raises priorities and sets real-time scheduling, which can starve the system" },
	[CAP_SYS_RESOURCE] = { CAP_RISK_LOW, "overrides resource limits and disk quotas" },
	[CAP_SYS_TIME] = { CAP_RISK_ESCALATION, "sets the system clock, which can defeat certificate and log checks" },
	[CAP_SYS_TTY_CONFIG] = { CAP_RISK_ROOT, "vhangup and TTY configuration: can hijack consoles of other users" },
	[CAP_MKNOD] = { CAP_RISK_ROOT, "creates device nodes: a node for the root disk or /dev/mem gives root" },
	[CAP_LEASE] = { CAP_RISK_LOW, "takes file leases on files it does not own" },
	[CAP_AUDIT_WRITE] = { CAP_RISK_LOW, "writes records to the kernel audit log" },
	[CAP_AUDIT_CONTROL] = { CAP_RISK_ROOT, "changes audit rules and the login uid: can hide what root does" },
	[CAP_SETFCAP] = { CAP_RISK_ROOT, "sets file capabilities: can give itself any capability through a program it writes" },
	[CAP_MAC_OVERRIDE] = { CAP_RISK_ROOT, "overrides mandatory access control (Smack)" },
	[CAP_MAC_ADMIN] = { CAP_RISK_ROOT, "reconfigures mandatory access control (Smack, AppArmor policy)" },
	[CAP_SYSLOG] = { CAP_RISK_KERNEL_READ, "reads the kernel log and unmasked kernel addresses, defeating KASLR" },
	[CAP_WAKE_ALARM] = { CAP_RISK_LOW, "sets alarms that wake the system from suspend" },
	[CAP_BLOCK_SUSPEND] = { CAP_RISK_LOW, "can keep the system from suspending" },
	[CAP_AUDIT_READ] = { CAP_RISK_LOW, "reads the audit log through multicast netlink" },
	[CAP_PERFMON] = { CAP_RISK_KERNEL_READ, "observes every process and the kernel through perf_events; with cap_bpf it loads tracing programs that read kernel memory" },
	[CAP_BPF] = { CAP_RISK_KERNEL_READ, "loads BPF programs and maps; with cap_perfmon its tracing programs read kernel memory" },
	[CAP_CHECKPOINT_RESTORE] = { CAP_RISK_ESCALATION, "restores processes with chosen PIDs and reads other processes' memory maps" },
};

#define LABELS ((cap_value_t)(sizeof(labels) / sizeof(labels[0])))

enum cap_risk_tier cap_risk_tier_of(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].tier : CAP_RISK_LOW;
}

const char *cap_risk_reason(cap_value_t cap)
{
	return cap >= 0 && cap < LABELS ? labels[cap].reason : NULL;
}

const char *cap_risk_tier_name(enum cap_risk_tier tier)
{
	switch (tier) {
	case CAP_RISK_ROOT:
		return "root-equivalent";
	case CAP_RISK_KERNEL_READ:
		return "kernel-read";
	case CAP_RISK_ESCALATION:
		return "escalation-adjacent";
	default:
		return "low";
	}
}

static int has_cap(cap_t caps, cap_value_t cap, unsigned flag_mask)
{
	int flag;

	for (flag = CAP_EFFECTIVE; flag <= CAP_INHERITABLE; flag++) {
		cap_flag_value_t v = CAP_CLEAR;

		if ((flag_mask & (1u << flag)) &&
		    cap_get_flag(caps, cap, (cap_flag_t)flag, &v) == 0 &&
		    v == CAP_SET)
			return 1;
	}
	return 0;
}

enum cap_risk_tier cap_risk_highest(cap_t caps, unsigned flag_mask,
				    cap_value_t *worst)
{
	enum cap_risk_tier highest = CAP_RISK_LOW;
	cap_value_t which = -1, cap;

	for (cap = 0; cap < 64; cap++) {
		enum cap_risk_tier tier;

		if (!has_cap(caps, cap, flag_mask))
			continue;
		tier = cap_risk_tier_of(cap);
		if (which < 0 || tier > highest) {
			highest = tier;
			which = cap;
		}
	}
	if (worst != NULL)
		*worst = which;
	return highest;
}

static int is_perf_binary(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strcmp(base, "perf") == 0 || strncmp(base, "perf_", 5) == 0 ||
	       strncmp(base, "perf-", 5) == 0;
}

const char *cap_risk_suggestion(cap_t caps, const char *path)
{
	int admin = has_cap(caps, CAP_SYS_ADMIN, ALL_FLAGS);

	if (admin && path != NULL && is_perf_binary(path))
		/* The group form: a bare "=ep" would give perf to every user. */
		return "perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: setcap --perf-group=perf_users --perf <file>";
	if (admin && has_cap(caps, CAP_BPF, ALL_FLAGS))
		return "BPF tools need cap_bpf with cap_perfmon (Linux 5.8+), not cap_sys_admin";
	if (has_cap(caps, CAP_SYS_PTRACE, ALL_FLAGS) && path != NULL &&
	    is_perf_binary(path))
		return "perf on Linux 5.9+ needs no cap_sys_ptrace once it holds cap_perfmon";
	if (has_cap(caps, CAP_DAC_OVERRIDE, ALL_FLAGS) &&
	    !has_cap(caps, CAP_DAC_READ_SEARCH, ALL_FLAGS))
		return "if the program only reads files, cap_dac_read_search is narrower than cap_dac_override";
	return NULL;
}
