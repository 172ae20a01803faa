// SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
/*
 * The physical floor of counting capability checks with eBPF: empty
 * programs on the four raw tracepoints capaudit's counter uses. What a
 * check (or a new task, an exec, a signal) costs under them is what any
 * eBPF counter on those tracepoints pays before it does any work of its
 * own: the tracepoint's call into BPF and the program's entry and exit.
 * Loaded by floor.c through a light skeleton (bpftool gen skeleton -L).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("raw_tp/cap_capable")
int floor_check(void *ctx)
{
	return 0;
}

SEC("raw_tp/task_newtask")
int floor_fork(void *ctx)
{
	return 0;
}

SEC("raw_tp/sched_process_exec")
int floor_exec(void *ctx)
{
	return 0;
}

SEC("raw_tp/signal_generate")
int floor_signal(void *ctx)
{
	return 0;
}

/* The same licence as capaudit's programs: the same helpers allowed. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";
