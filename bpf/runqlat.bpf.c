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

/*
 * A field of task T: a plain load where the verifier trusts T (tp_btf), a
 * bpf_probe_read_kernel() call where it does not (raw_tp). BTF is a
 * constant in every caller, so each program keeps one of the two.
 */
#define task_field(btf, t, field) ((btf) ? (t)->field : BPF_CORE_READ(t, field))

/*
 * The time now for task P, which is on a run queue or about to be: on the
 * tp_btf path, the clock of P's run queue, which the scheduler has just
 * updated under that queue's lock at each of these tracepoints (two loads;
 * bpf_ktime_get_ns() costs more than the rest of the wakeup program here);
 * on the raw_tp path, which may not follow task pointers by loads, or
 * where tasks have no group run queue, the ktime clock.
 */
static __always_inline __u64 now_for(struct task_struct *p, bool btf)
{
	if (btf && bpf_core_field_exists(p->se.cfs_rq))
		return p->se.cfs_rq->rq->clock;
	return bpf_ktime_get_ns();
}

/* Keep NOW as the time task P, of thread id TID, was queued. */
static __always_inline void queued(struct task_struct *p, __u32 tid, bool btf,
				   __u64 now)
{
	__u64 *ts;

	if (btf) {
		ts = bpf_task_storage_get(&runqlat_queued, p, NULL,
					  BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (ts)
			*ts = now;
		else
			bpfkit_hist_miss();
		return;
	}
	if (bpf_map_update_elem(&runqlat_start, &tid, &now, BPF_ANY))
		bpfkit_hist_miss();
}

/* Whether task P, of thread id TID, is one to time (the idle task never is). */
static __always_inline bool timed(struct task_struct *p, __u32 tid)
{
	return tid && bpfkit_task_selected(p);
}

/* Task P is woken: it waits from now on. */
static __always_inline void woken(struct task_struct *p, bool btf)
{
	__u32 tid = task_field(btf, p, pid);

	if (timed(p, tid))
		queued(p, tid, btf, now_for(p, btf));
}

/* Where NEXT's queueing time is kept; NULL: not queued while we traced. */
static __always_inline __u64 *queued_at(struct task_struct *next, __u32 tid,
					bool btf)
{
	__u64 *start;

	if (!tid)
		return NULL;
	if (btf) {
		start = bpf_task_storage_get(&runqlat_queued, next, NULL, 0);
		return start && *start ? start : NULL;
	}
	return bpf_map_lookup_elem(&runqlat_start, &tid);
}

/*
 * PREV leaves the CPU to NEXT: NEXT's wait ends, and PREV's begins if it
 * is still runnable (preempted). One clock read serves both, and none is
 * taken when neither is timed (a sleeping PREV leaving the CPU to the idle
 * task or to a task not queued while we traced).
 */
static __always_inline void switched(struct task_struct *prev,
				     struct task_struct *next, bool btf)
{
	__u32 next_tid = task_field(btf, next, pid), prev_tid = 0;
	__u64 *start = queued_at(next, next_tid, btf), now, delta;
	bool requeued = false;

	if (task_field(btf, prev, __state) == TASK_RUNNING) {
		prev_tid = task_field(btf, prev, pid);
		requeued = timed(prev, prev_tid);
	}
	if (!requeued && !start)
		return;
	now = now_for(next, btf);
	if (requeued)
		queued(prev, prev_tid, btf, now);
	if (!start)
		return;
	/* A task may move between run queues, whose clocks may differ. */
	delta = now > *start ? now - *start : 0;
	if (btf)
		*start = 0;
	else
		bpf_map_delete_elem(&runqlat_start, &next_tid);
	bpfkit_hist_add_task(&runqlat_hists, key_by, next, delta);
}

/* tp_btf programs, where the kernel has them (user space chooses). */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(wakeup_btf, struct task_struct *p)
{
	woken(p, true);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(wakeup_new_btf, struct task_struct *p)
{
	woken(p, true);
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
	woken(p, false);
	return 0;
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(wakeup_new_raw, struct task_struct *p)
{
	woken(p, false);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	switched(prev, next, false);
	return 0;
}
