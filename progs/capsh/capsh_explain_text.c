/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capsh --explain's own description of each capability, indexed by number:
 * what it allows, the Linux version that introduced it, and where it is
 * effectively equivalent to root or pairs with another capability. Facts
 * from capabilities(7) and the kernel's perf-security documentation.
 * capsh prints each line indented by four spaces.
 */
#include "capsh.h"

const char *const capsh_cap_text[] = {
	/* 0: cap_chown */
	[0] =
		"Lets a process change the owner and group of any file\n"
		"(chown(2), fchown(2), lchown(2)), whoever owns it.\n"
		"In Linux since 2.2.\n"
		"Effectively equivalent to root: taking ownership of a\n"
		"root-owned file such as /etc/shadow, /etc/sudoers or a\n"
		"root crontab makes it writable, and rewriting it gives\n"
		"full root.",
	/* 1: cap_dac_override */
	[1] =
		"Bypasses the read, write and execute permission checks\n"
		"(mode bits and ACLs) on files and directories. Executing\n"
		"a regular file still needs at least one execute bit, and\n"
		"immutable/append-only files (CAP_LINUX_IMMUTABLE) and MAC\n"
		"policies are not overridden.\n"
		"In Linux since 2.2.\n"
		"Effectively equivalent to root: whoever can write\n"
		"/etc/passwd, /etc/shadow, /etc/sudoers or a root crontab\n"
		"can make themselves root.",
	/* 2: cap_dac_read_search */
	[2] =
		"Bypasses read permission checks on files and read and\n"
		"search checks on directories: every file can be read and\n"
		"every directory listed. It also allows\n"
		"open_by_handle_at(2) and linkat(2) with AT_EMPTY_PATH.\n"
		"In Linux since 2.2.\n"
		"Effectively equivalent to root: it reads /etc/shadow and\n"
		"private keys, and open_by_handle_at(2) can reach files\n"
		"outside a chroot or container (the \"shocker\" escape).",
	/* 3: cap_fowner */
	[3] =
		"Bypasses the checks that require the caller to own a\n"
		"file: chmod(2), utime(2), setting ACLs and inode flags,\n"
		"O_NOATIME, and deleting or renaming other users' files in\n"
		"sticky directories such as /tmp. It does not bypass read,\n"
		"write or execute checks (see CAP_DAC_OVERRIDE).\n"
		"In Linux since 2.2.\n"
		"Effectively equivalent to root: it can chmod any\n"
		"root-owned file, e.g. make /etc/shadow writable or add\n"
		"the set-user-ID bit to a root-owned shell.",
	/* 4: cap_fsetid */
	[4] =
		"Keeps the set-user-ID and set-group-ID bits of a file\n"
		"when the process writes to or truncates it (the kernel\n"
		"clears them otherwise), and lets a process set the\n"
		"set-group-ID bit on a file of a group it is not in.\n"
		"In Linux since 2.2.",
	/* 5: cap_kill */
	[5] =
		"Bypasses the permission check for sending signals, so a\n"
		"process can signal (and kill or stop) any process,\n"
		"whatever its user IDs; also the KDSIGACCEPT ioctl.\n"
		"In Linux since 2.2.",
	/* 6: cap_setgid */
	[6] =
		"Allows arbitrary changes to the group IDs of the process\n"
		"(setgid(2), setregid(2), setresgid(2), setfsgid(2)) and to\n"
		"its supplementary groups (setgroups(2)), forging the GID\n"
		"in credentials sent over UNIX sockets, and writing a\n"
		"gid_map for a user namespace.\n"
		"In Linux since 2.2.\n"
		"Effectively equivalent to root on most systems: joining\n"
		"any group (shadow, disk, sudo, docker, ...) gives that\n"
		"group's access, which usually leads to root.",
	/* 7: cap_setuid */
	[7] =
		"Allows arbitrary changes to the user IDs of the process\n"
		"(setuid(2), setreuid(2), setresuid(2), setfsuid(2)),\n"
		"forging the UID in credentials sent over UNIX sockets,\n"
		"and writing a uid_map for a user namespace.\n"
		"In Linux since 2.2.\n"
		"Equivalent to root: setuid(0) followed by execve(2)\n"
		"gives back every capability in the bounding set.",
	/* 8: cap_setpcap */
	[8] =
		"With file capabilities (Linux 2.6.24 and later, the\n"
		"only choice since 2.6.33): add any capability of the\n"
		"bounding set to the inheritable set, drop capabilities\n"
		"from the bounding set (PR_CAPBSET_DROP) and change the\n"
		"securebits. Before 2.6.24 it let a process grant or\n"
		"remove capabilities of other processes.\n"
		"In Linux since 2.2.\n"
		"Close to root: a process can pass any capability still\n"
		"in its bounding set to programs whose file inheritable\n"
		"set holds it.",
	/* 9: cap_linux_immutable */
	[9] =
		"Sets and clears the immutable and append-only inode\n"
		"flags (chattr +i, chattr +a; FS_IMMUTABLE_FL and\n"
		"FS_APPEND_FL). Clearing them lets files protected that\n"
		"way, such as append-only logs, be changed or deleted.\n"
		"In Linux since 2.2.",
	/* 10: cap_net_bind_service */
	[10] =
		"Binds sockets to privileged ports: those below 1024,\n"
		"or below net.ipv4.ip_unprivileged_port_start.\n"
		"In Linux since 2.2.\n"
		"A common, narrow grant for network servers, e.g.\n"
		"setcap cap_net_bind_service=ep /usr/sbin/httpd",
	/* 11: cap_net_broadcast */
	[11] =
		"Meant for socket broadcasts and listening to multicast;\n"
		"no kernel code checks it, so it grants nothing.\n"
		"In Linux since 2.2.",
	/* 12: cap_net_admin */
	[12] =
		"Network administration: interface configuration,\n"
		"firewall (netfilter, nftables) and traffic control\n"
		"rules, routing tables, binding to any address for\n"
		"transparent proxying, promiscuous mode, multicast,\n"
		"driver statistics, and socket options such as SO_MARK,\n"
		"SO_PRIORITY, SO_DEBUG, SO_RCVBUFFORCE, SO_SNDBUFFORCE.\n"
		"BPF networking programs need it along with CAP_BPF.\n"
		"In Linux since 2.2.\n"
		"Powerful: it can redirect, intercept or drop all of the\n"
		"traffic of the host (or of its network namespace).",
	/* 13: cap_net_raw */
	[13] =
		"Opens RAW and PACKET sockets, to craft and capture\n"
		"packets (ping, tcpdump), and binds to any address for\n"
		"transparent proxying.\n"
		"In Linux since 2.2.\n"
		"It lets a process sniff and spoof traffic on every\n"
		"interface it can see.",
	/* 14: cap_ipc_lock */
	[14] =
		"Locks memory beyond RLIMIT_MEMLOCK (mlock(2),\n"
		"mlockall(2), mmap(2) MAP_LOCKED, SHM_LOCK) and allocates\n"
		"huge pages.\n"
		"In Linux since 2.2.\n"
		"With perf: lets perf map ring buffers larger than the\n"
		"per-user perf_event_mlock_kb limit (perf top and perf\n"
		"record with big buffers); pairs with CAP_PERFMON.",
	/* 15: cap_ipc_owner */
	[15] =
		"Bypasses the permission checks on System V IPC objects:\n"
		"message queues, semaphore sets and shared memory.\n"
		"In Linux since 2.2.",
	/* 16: cap_sys_module */
	[16] =
		"Loads and unloads kernel modules (init_module(2),\n"
		"finit_module(2), delete_module(2)). Before Linux 2.6.25\n"
		"it also dropped capabilities from the system-wide\n"
		"bounding set.\n"
		"In Linux since 2.2.\n"
		"Equivalent to root and more: a module runs any code it\n"
		"likes inside the kernel.",
	/* 17: cap_sys_rawio */
	[17] =
		"Raw hardware access: I/O ports (iopl(2), ioperm(2)),\n"
		"/dev/mem, /dev/kmem and /proc/kcore, model-specific\n"
		"registers, FIBMAP, mappings below vm.mmap_min_addr, raw\n"
		"SCSI commands and other device-specific operations.\n"
		"In Linux since 2.2.\n"
		"Equivalent to root: access to physical memory and\n"
		"devices can rewrite the running kernel.",
	/* 18: cap_sys_chroot */
	[18] =
		"Changes the root directory with chroot(2) and enters\n"
		"mount namespaces with setns(2).\n"
		"In Linux since 2.2.\n"
		"Can lead to root: inside a directory tree it controls,\n"
		"a process can make a hard-linked set-user-ID-root\n"
		"program load its own libraries or configuration.",
	/* 19: cap_sys_ptrace */
	[19] =
		"Traces any process with ptrace(2), reads and writes the\n"
		"memory of other processes (process_vm_readv(2),\n"
		"process_vm_writev(2)), and uses kcmp(2) and\n"
		"get_robust_list(2) on them.\n"
		"In Linux since 2.2.\n"
		"Equivalent to root: injecting code into a root process\n"
		"takes over its privileges. Before Linux 5.9, perf needed\n"
		"it (with CAP_PERFMON or CAP_SYS_ADMIN) to monitor other\n"
		"users' processes; since 5.9 CAP_PERFMON alone suffices.",
	/* 20: cap_sys_pacct */
	[20] =
		"Switches process accounting on and off (acct(2)).\n"
		"In Linux since 2.2.",
	/* 21: cap_sys_admin */
	[21] =
		"The catch-all administration capability: mount(2),\n"
		"umount(2), pivot_root(2), swapon(2), sethostname(2),\n"
		"quotactl(2), new namespaces with clone(2), unshare(2)\n"
		"and setns(2), trusted and security extended attributes,\n"
		"many device and filesystem ioctls, seccomp filters\n"
		"without no_new_privs, exceeding fs.file-max, and more.\n"
		"In Linux since 2.2.\n"
		"Equivalent to root. Narrower capabilities were split\n"
		"out of it: CAP_SYSLOG (2.6.37), CAP_PERFMON and CAP_BPF\n"
		"(5.8), CAP_CHECKPOINT_RESTORE (5.9). The kernel still\n"
		"accepts CAP_SYS_ADMIN for those operations, but grant\n"
		"the narrow capability instead.",
	/* 22: cap_sys_boot */
	[22] =
		"Reboots the system (reboot(2)) and loads a new kernel\n"
		"to boot into (kexec_load(2), kexec_file_load(2)).\n"
		"In Linux since 2.2.\n"
		"Effectively root over the machine: kexec can start a\n"
		"kernel of the caller's choosing.",
	/* 23: cap_sys_nice */
	[23] =
		"Raises scheduling priority: lower nice values, nice\n"
		"values of other processes, real-time policies\n"
		"(sched_setscheduler(2)), CPU affinity of other\n"
		"processes, I/O priorities (ioprio_set(2)), and moving\n"
		"other processes' pages between NUMA nodes.\n"
		"In Linux since 2.2.\n"
		"A real-time process can starve the rest of the system.",
	/* 24: cap_sys_resource */
	[24] =
		"Overrides resource limits: raising hard rlimits, disk\n"
		"quotas and the reserved space of ext2/ext4, System V\n"
		"and POSIX message queue limits, pipe size limits, the\n"
		"RLIMIT_NOFILE limit on descriptors in flight over UNIX\n"
		"sockets, PR_SET_MM, lowering oom_score_adj, fast\n"
		"real-time clock interrupts, console and keymap limits.\n"
		"In Linux since 2.2.",
	/* 25: cap_sys_time */
	[25] =
		"Sets the system clock (settimeofday(2),\n"
		"clock_settime(2), adjtimex(2)) and the hardware clock.\n"
		"In Linux since 2.2.\n"
		"Time changes can defeat certificate expiry checks,\n"
		"time-based one-time passwords and log ordering.",
	/* 26: cap_sys_tty_config */
	[26] =
		"Calls vhangup(2) and the privileged ioctls on virtual\n"
		"terminals (keymaps, fonts, console modes).\n"
		"In Linux since 2.2.",
	/* 27: cap_mknod */
	[27] =
		"Creates device special files with mknod(2).\n"
		"In Linux since 2.4.\n"
		"Effectively equivalent to root where no device cgroup\n"
		"or nodev mount stops it: a node for the root disk or\n"
		"for /dev/mem, owned by the caller, gives raw access.",
	/* 28: cap_lease */
	[28] =
		"Takes leases on files the process does not own\n"
		"(fcntl(2) F_SETLEASE).\n"
		"In Linux since 2.4.",
	/* 29: cap_audit_write */
	[29] =
		"Writes records to the kernel audit log over netlink,\n"
		"as login programs do.\n"
		"In Linux since 2.6.11.\n"
		"It can forge audit records.",
	/* 30: cap_audit_control */
	[30] =
		"Configures kernel auditing: enable or disable it,\n"
		"change the rules, read status and rules.\n"
		"In Linux since 2.6.11.\n"
		"It can hide activity from the audit trail.",
	/* 31: cap_setfcap */
	[31] =
		"Sets capabilities on any file (setcap, the\n"
		"security.capability extended attribute). Since Linux\n"
		"5.12 it is also needed to map UID 0 when creating a\n"
		"user namespace.\n"
		"In Linux since 2.6.24.\n"
		"Equivalent to root: it can give cap_setuid (or any\n"
		"capability) to a program the caller controls.",
	/* 32: cap_mac_override */
	[32] =
		"Overrides Mandatory Access Control; implemented for the\n"
		"Smack security module.\n"
		"In Linux since 2.6.25.",
	/* 33: cap_mac_admin */
	[33] =
		"Changes Mandatory Access Control configuration or state:\n"
		"Smack rules, AppArmor policy loading, SELinux contexts\n"
		"that the loaded policy does not define.\n"
		"In Linux since 2.6.25.",
	/* 34: cap_syslog */
	[34] =
		"Privileged syslog(2) operations: read and clear the\n"
		"kernel message ring buffer and set the console log\n"
		"level (split out of CAP_SYS_ADMIN). It also shows real\n"
		"kernel addresses in /proc/kallsyms and elsewhere when\n"
		"kernel.kptr_restrict is 1.\n"
		"In Linux since 2.6.37.\n"
		"With perf: lets perf resolve kernel symbols; pairs with\n"
		"CAP_PERFMON (setcap cap_perfmon,cap_syslog=ep perf).",
	/* 35: cap_wake_alarm */
	[35] =
		"Sets timers that wake the system from suspend\n"
		"(CLOCK_REALTIME_ALARM, CLOCK_BOOTTIME_ALARM).\n"
		"In Linux since 3.0.",
	/* 36: cap_block_suspend */
	[36] =
		"Blocks system suspend (epoll(7) EPOLLWAKEUP,\n"
		"/proc/sys/wake_lock).\n"
		"In Linux since 3.5.",
	/* 37: cap_audit_read */
	[37] =
		"Reads the audit log through a multicast netlink socket.\n"
		"In Linux since 3.16.",
	/* 38: cap_perfmon */
	[38] =
		"Privileged performance monitoring and observability:\n"
		"perf_event_open(2) beyond what perf_event_paranoid\n"
		"allows (CPU-wide events, kernel profiling, raw\n"
		"tracepoints), i915_perf and other PMU drivers, and BPF\n"
		"operations for tracing: BPF tracing programs need\n"
		"CAP_BPF and CAP_PERFMON together.\n"
		"In Linux since 5.8, split out of CAP_SYS_ADMIN, which\n"
		"the kernel still accepts but which is root-equivalent:\n"
		"grant CAP_PERFMON instead. Check the running kernel\n"
		"with: capsh --supports=cap_perfmon\n"
		"\n"
		"/proc/sys/kernel/perf_event_paranoid limits processes\n"
		"without CAP_PERFMON:\n"
		"  -1  almost everything is allowed to everybody\n"
		"   0  no raw tracepoints or ftrace function events\n"
		"   1  also no CPU-wide events: own processes only\n"
		"   2  also no kernel profiling (upstream default)\n"
		"   3  Debian and others: no perf_event_open at all\n"
		"\n"
		"Letting the group perf_users use perf without root\n"
		"(run as root; use the real perf binary, not a wrapper\n"
		"script, and keep it off nosuid mounts):\n"
		"  groupadd perf_users\n"
		"  usermod -aG perf_users alice  (takes effect at login)\n"
		"  chgrp perf_users /usr/bin/perf\n"
		"  chmod 0750 /usr/bin/perf\n"
		"  setcap cap_perfmon,cap_syslog=ep /usr/bin/perf\n"
		"  setcap -v cap_perfmon,cap_syslog=ep /usr/bin/perf\n"
		"  getcap /usr/bin/perf\n"
		"chmod leaves POSIX ACL entries in force: if getfacl lists\n"
		"any, run setfacl -b first. Or do it all in one step:\n"
		"  setcap --perf-group=perf_users --perf /usr/bin/perf\n"
		"setcap -v exits 0 when the file matches; getcap should\n"
		"print \"/usr/bin/perf cap_syslog,cap_perfmon=ep\" (it lists\n"
		"capabilities by number, lowest first). Add:\n"
		"  cap_ipc_lock   for ring buffers above perf_event_mlock_kb\n"
		"                 (perf top, perf record -m)\n"
		"  cap_sys_ptrace before Linux 5.9 only, to monitor other\n"
		"                 users' processes (5.9+ needs CAP_PERFMON)\n"
		"cap_syslog lets perf resolve kernel symbols in\n"
		"/proc/kallsyms (kernel.kptr_restrict=1). Kernels older\n"
		"than 5.8 have no CAP_PERFMON: there cap_sys_admin is the\n"
		"only choice, and it is equivalent to root.\n"
		"\n"
		"Without file capabilities, pam_cap can hand the bit to\n"
		"the group at login: \"auth optional pam_cap.so\" in the\n"
		"PAM service and, in /etc/security/capability.conf,\n"
		"  cap_perfmon   @perf_users\n"
		"puts it in the inheritable set of members' sessions;\n"
		"\"setcap cap_perfmon=ei /usr/bin/perf\" then lets perf\n"
		"raise it for them only. \"^cap_perfmon @perf_users\" sets\n"
		"the ambient bit instead, so every program they run has\n"
		"it. By hand, as root, for one command:\n"
		"  capsh --caps=\"cap_perfmon,cap_setuid,cap_setgid+p \\\n"
		"    cap_perfmon+i\" --keep=1 --user=alice \\\n"
		"    --addamb=cap_perfmon -- -c \"perf top\"",
	/* 39: cap_bpf */
	[39] =
		"Privileged BPF (bpf(2)): creating every kind of map and\n"
		"loading programs with the advanced verifier features\n"
		"(bounded loops, BPF-to-BPF calls, larger complexity\n"
		"limits), even where kernel.unprivileged_bpf_disabled\n"
		"forbids unprivileged BPF.\n"
		"In Linux since 5.8, split out of CAP_SYS_ADMIN.\n"
		"It pairs with others: tracing programs (kprobes,\n"
		"tracepoints, perf events) need CAP_PERFMON as well, and\n"
		"networking programs need CAP_NET_ADMIN. CAP_BPF with\n"
		"CAP_PERFMON can read kernel memory: treat the pair as\n"
		"close to root. Before 5.8 all of this needed\n"
		"CAP_SYS_ADMIN.",
	/* 40: cap_checkpoint_restore */
	[40] =
		"Checkpoint/restore (CRIU): writing\n"
		"/proc/sys/kernel/ns_last_pid, choosing PIDs with\n"
		"clone3(2) set_tid, and reading /proc/PID/map_files of\n"
		"other processes. CRIU usually needs CAP_SYS_PTRACE too.\n"
		"In Linux since 5.9, split out of CAP_SYS_ADMIN.",
};

const int capsh_cap_text_count =
	(int)(sizeof(capsh_cap_text) / sizeof(capsh_cap_text[0]));
