// SPDX-License-Identifier: GPL-2.0
/*
 * runqlat: the time tasks wait on a run queue, from their wakeup (or their
 * preemption) to the switch that runs them, in a histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "runqlat.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING 0

const volatile enum bpfkit_hist_by key_by = BPFKIT_HIST_ALL;

/*
 * When each queued task was queued: in the task itself (task storage) for
 * the tp_btf programs, whose task pointers the verifier trusts; by tid in
 * a hash map for the raw_tp ones.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} runqlat_queued SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RUNQLAT_MAX_QUEUED);
	__type(key, __u32);
	__type(value, __u64);
} runqlat_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} runqlat_hists SEC(".maps");

static __always_inline void queued(struct task_struct *p, bool btf)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	__u64 *ts;

	/* The idle task is never queued. */
	if (!tid || !bpfkit_task_selected(p))
		return;
	if (btf) {
		ts = bpf_task_storage_get(&runqlat_queued, p, NULL,
					  BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (ts)
			*ts = bpf_ktime_get_ns();
		else
			bpfkit_hist_miss();
		return;
	}
	ts = &(__u64){ bpf_ktime_get_ns() };
	if (bpf_map_update_elem(&runqlat_start, &tid, ts, BPF_ANY))
		bpfkit_hist_miss();
}

/* How long NEXT waited since it was queued, taking its start; 0: not seen. */
static __always_inline __u64 waited(struct task_struct *next, __u32 tid,
				    bool btf)
{
	__u64 *start, delta;

	if (btf) {
		start = bpf_task_storage_get(&runqlat_queued, next, NULL, 0);
		if (!start || !*start)
			return 0;
		delta = bpf_ktime_get_ns() - *start;
		*start = 0;
		return delta;
	}
	start = bpf_map_lookup_elem(&runqlat_start, &tid);
	if (!start)
		return 0;
	delta = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&runqlat_start, &tid);
	return delta;
}

static __always_inline void switched(struct task_struct *prev,
				     struct task_struct *next, bool btf)
{
	__u32 tid = BPF_CORE_READ(next, pid);
	__u64 delta;

	/* A task switched out while still runnable waits from now on. */
	if (BPF_CORE_READ(prev, __state) == TASK_RUNNING)
		queued(prev, btf);

	delta = waited(next, tid, btf);
	if (!delta)
		return;
	bpfkit_hist_add_task(&runqlat_hists, key_by, next, delta);
}

/* tp_btf programs, where the kernel has them (user space chooses). */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(wakeup_btf, struct task_struct *p)
{
	queued(p, true);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(wakeup_new_btf, struct task_struct *p)
{
	queued(p, true);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(switch_btf, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	switched(prev, next, true);
	return 0;
}

/* The same on raw tracepoints. */
SEC("raw_tp/sched_wakeup")
int BPF_PROG(wakeup_raw, struct task_struct *p)
{
	queued(p, false);
	return 0;
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(wakeup_new_raw, struct task_struct *p)
{
	queued(p, false);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	switched(prev, next, false);
	return 0;
}
