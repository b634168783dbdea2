// SPDX-License-Identifier: GPL-2.0
/*
 * tpfloor: the least a tracer can do on any tracepoints, for benchmarks:
 * one per-CPU counter increment per hit, by one program of each kind that
 * user space attaches to the tracepoints its command line names (a
 * tracepoint's through perf, a raw one's through raw_tp).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} tpfloor_hits SEC(".maps");

static __always_inline void hit(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&tpfloor_hits, &zero);

	if (n)
		(*n)++;
}

SEC("tracepoint")
int tpfloor_tp(void *ctx)
{
	hit();
	return 0;
}

SEC("raw_tp")
int tpfloor_raw(void *ctx)
{
	hit();
	return 0;
}
