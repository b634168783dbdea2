// SPDX-License-Identifier: GPL-2.0
/*
 * switchfloor: the least a scheduler tracer can do, for benchmarks: on
 * runqlat's tracepoints (sched_wakeup, sched_wakeup_new, sched_switch as
 * tp_btf), one per-CPU counter increment each.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} switchfloor_hits SEC(".maps");

static __always_inline void hit(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&switchfloor_hits, &zero);

	if (n)
		(*n)++;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(floor_wakeup, struct task_struct *p)
{
	hit();
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(floor_wakeup_new, struct task_struct *p)
{
	hit();
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	hit();
	return 0;
}
