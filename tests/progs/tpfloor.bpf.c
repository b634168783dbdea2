// SPDX-License-Identifier: GPL-2.0
/*
 * tpfloor: the least a tracer can do on any tracepoints, for benchmarks:
 * one per-CPU counter increment per hit, by one program of each kind that
 * user space attaches to the tracepoints its command line names (a
 * tracepoint's through perf, a raw one's through raw_tp). With --timed,
 * the least a tool that times a syscall can do: its entry keeps the time
 * in the task's storage, its exit adds the time taken to the counter.
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

/* --timed: each thread's syscall entry time. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} tpfloor_starts SEC(".maps");

SEC("tracepoint")
int tpfloor_enter(void *ctx)
{
	__u64 *start;

	start = bpf_task_storage_get(&tpfloor_starts,
				     bpf_get_current_task_btf(), NULL,
				     BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (start)
		*start = bpf_ktime_get_ns();
	return 0;
}

SEC("tracepoint")
int tpfloor_exit(void *ctx)
{
	__u64 *start, *n, zero = 0;

	start = bpf_task_storage_get(&tpfloor_starts,
				     bpf_get_current_task_btf(), NULL, 0);
	if (!start || !*start)
		return 0;
	n = bpf_map_lookup_elem(&tpfloor_hits, &zero);
	if (n)
		*n += bpf_ktime_get_ns() - *start;
	*start = 0;
	return 0;
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
