// SPDX-License-Identifier: GPL-2.0
/*
 * cpudist: how long tasks run each time they are switched in (or, with
 * -O, how long they stay off the CPU), in a histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "cpudist.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool off_cpu; /* -O: time off the CPU, not on it */

/* When each task (by tid) was switched in (or out, with -O). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CPUDIST_MAX_TASKS);
	__type(key, __u32);
	__type(value, __u64);
} cpudist_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} cpudist_hists SEC(".maps");

/* T starts the period being timed (on or off the CPU). */
static __always_inline void begin(struct task_struct *t, __u64 now)
{
	__u32 tid = BPF_CORE_READ(t, pid);

	/* The idle task is never timed. */
	if (!tid || !bpfkit_task_selected(t))
		return;
	if (bpf_map_update_elem(&cpudist_start, &tid, &now, BPF_ANY))
		bpfkit_hist_miss();
}

/* T ends the period being timed: add it to its histogram. */
static __always_inline void end(struct task_struct *t, __u64 now)
{
	__u32 tid = BPF_CORE_READ(t, pid);
	__u64 *start, delta;

	start = bpf_map_lookup_elem(&cpudist_start, &tid);
	if (!start)
		return;
	delta = now - *start;
	bpf_map_delete_elem(&cpudist_start, &tid);

	bpfkit_hist_add_task(&cpudist_hists, t, delta);
}

static __always_inline void switched(struct task_struct *prev,
				     struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();

	if (off_cpu) {
		begin(prev, now);
		end(next, now);
	} else {
		end(prev, now);
		begin(next, now);
	}
}

/* Its first three arguments, the same since Linux 5.18 added prev_state. */
SEC("raw_tp/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	switched(prev, next);
	return 0;
}
