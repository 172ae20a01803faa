/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A program with a bug planted in it, for check_capaudit_verifier: the
 * value a hash map lookup returns may be NULL, and this one is written
 * through unchecked, which every verifier refuses. The suite loads it
 * through capaudit's own loader (capaudit_skel.c) and expects the
 * refusal to name this file, the line marked below and the verifier's
 * reason. Built for the tests only, never into capaudit.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} planted_map SEC(".maps");

SEC("raw_tp/task_newtask")
int planted_prog(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = (__u32)ctx->args[1];
	__u64 *v = bpf_map_lookup_elem(&planted_map, &key);

	*v = 1; /* PLANTED: a value that may be NULL, written unchecked */
	return 0;
}
