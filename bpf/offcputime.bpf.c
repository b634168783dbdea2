// SPDX-License-Identifier: GPL-2.0
/*
 * offcputime: at each context switch, the task leaving the CPU has its
 * stacks taken and its start time kept; when it runs again, the time it
 * spent off the CPU is added to the count of those stacks.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/sched.bpf.h"
#include "bpfkit/stacks.bpf.h"
#include "offcputime.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * --state: the letters' indexes (bit i: BPFKIT_TASK_STATE_LETTERS[i]) or
 * bcc's number (the state's bits: any of them, or 0 for running only).
 */
const volatile __u32 state_letters = 0; /* 0: no letters given */
const volatile __s64 state_bits = -1; /* -1: no number given */

/* Blocks not timed: more tasks off the CPU at once than the map holds. */
__u64 offcputime_untimed;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPUTIME_MAX_BLOCKED);
	__type(key, __u32);
	__type(value, struct offcputime_start);
} offcputime_starts SEC(".maps");

/* Where a start is made before it is stored (too big for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct offcputime_start);
} offcputime_scratch SEC(".maps");

/* Whether PREV leaves the CPU in a state --state selects. */
static __always_inline bool state_selected(const void *prev, bool preempt)
{
	unsigned int state;

	if (!state_letters && state_bits < 0)
		return true;
	/* A preempted task is still runnable, whatever its state says. */
	state = preempt ? BPFKIT_TASK_RUNNING : bpfkit_task_state(prev);
	if (state_letters)
		return state_letters & (1U << bpfkit_task_state_index(state));
	return state_bits ? (state & state_bits) != 0 : state == 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 prev_tid = BPF_CORE_READ(prev, pid);
	__u32 next_tid = BPF_CORE_READ(next, pid);
	struct offcputime_start *start;
	__u32 zero = 0;

	/* PREV is the current task: its stacks are the ones taken here. */
	if (prev_tid && bpfkit_selected() && state_selected(prev, preempt)) {
		start = bpf_map_lookup_elem(&offcputime_scratch, &zero);
		if (start) {
			bpfkit_stack_key_fill(ctx, &start->key);
			start->ts = bpf_ktime_get_ns();
			if (bpf_map_update_elem(&offcputime_starts, &prev_tid,
						start, BPF_ANY))
				__sync_fetch_and_add(&offcputime_untimed, 1);
		}
	}

	start = bpf_map_lookup_elem(&offcputime_starts, &next_tid);
	if (!start)
		return 0;
	bpfkit_stack_count_block(&start->key, bpf_ktime_get_ns() - start->ts);
	bpf_map_delete_elem(&offcputime_starts, &next_tid);
	return 0;
}
