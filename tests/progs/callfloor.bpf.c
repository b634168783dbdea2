// SPDX-License-Identifier: GPL-2.0
/*
 * callfloor: the least a syscall tracer can do, for benchmarks: on the
 * storm program's tracepoint (sys_enter_getppid), one per-CPU counter
 * increment.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} callfloor_hits SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int callfloor(void *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&callfloor_hits, &zero);

	if (n)
		(*n)++;
	return 0;
}
