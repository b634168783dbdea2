// SPDX-License-Identifier: GPL-2.0
/*
 * wakeuptime: a task that blocks has the time kept; whoever wakes it has
 * its stacks and name taken then, in its own context (sched_waking), with
 * the woken task's name; when the woken task runs again, the time it was
 * blocked is added to the count of its waker's stacks.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/sched.bpf.h"
#include "bpfkit/stacks.bpf.h"
#include "wakeuptime.h"

char LICENSE[] SEC("license") = "GPL";

/* Blocks not timed: more tasks blocked or woken at once than the maps hold. */
__u64 wakeuptime_untimed;

/* When each selected task blocked, by thread id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAKEUPTIME_MAX_BLOCKED);
	__type(key, __u32);
	__type(value, __u64);
} wakeuptime_starts SEC(".maps");

/* Who woke each blocked task, by its thread id, until it runs. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAKEUPTIME_MAX_BLOCKED);
	__type(key, __u32);
	__type(value, struct bpfkit_stack_key);
} wakeuptime_wakers SEC(".maps");

SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 prev_tid = BPF_CORE_READ(prev, pid);
	__u32 next_tid = BPF_CORE_READ(next, pid);
	struct bpfkit_stack_key *waker;
	__u64 now = bpf_ktime_get_ns(), *start;

	/*
	 * PREV blocks (a preempted task is still runnable: nobody wakes
	 * it). The filters select the task woken, the current one here.
	 */
	if (prev_tid && !preempt &&
	    bpfkit_task_state(prev) != BPFKIT_TASK_RUNNING &&
	    bpfkit_selected() &&
	    bpf_map_update_elem(&wakeuptime_starts, &prev_tid, &now, BPF_ANY))
		__sync_fetch_and_add(&wakeuptime_untimed, 1);

	start = bpf_map_lookup_elem(&wakeuptime_starts, &next_tid);
	if (!start)
		return 0;
	waker = bpf_map_lookup_elem(&wakeuptime_wakers, &next_tid);
	if (waker) {
		bpfkit_stack_count_block(waker, now - *start);
		bpf_map_delete_elem(&wakeuptime_wakers, &next_tid);
	}
	bpf_map_delete_elem(&wakeuptime_starts, &next_tid);
	return 0;
}

/*
 * The waker's context: sched_waking runs in try_to_wake_up() on the
 * waker's CPU, where sched_wakeup may run later on the woken task's CPU
 * (a wakeup queued to it), with another task current.
 */
SEC("raw_tp/sched_waking")
int BPF_PROG(waking_raw, struct task_struct *p)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	struct bpfkit_stack_key key;

	/* A task woken twice before it runs keeps its first waker. */
	if (!bpf_map_lookup_elem(&wakeuptime_starts, &tid) ||
	    bpf_map_lookup_elem(&wakeuptime_wakers, &tid))
		return 0;
	bpfkit_stack_key_fill(ctx, &key);
	BPF_CORE_READ_INTO(&key.target, p, comm);
	if (bpf_map_update_elem(&wakeuptime_wakers, &tid, &key, BPF_NOEXIST))
		__sync_fetch_and_add(&wakeuptime_untimed, 1);
	return 0;
}
