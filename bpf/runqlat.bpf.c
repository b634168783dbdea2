// SPDX-License-Identifier: GPL-2.0
/*
 * runqlat: the time tasks wait on a run queue, from their wakeup (or their
 * preemption) to the switch that runs them, in a histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/histogram.bpf.h"
#include "bpfkit/runq.bpf.h"
#include "runqlat.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} runqlat_hists SEC(".maps");

/* Task P is woken: it waits from now on. */
static __always_inline void woken(struct task_struct *p, bool btf)
{
	if (bpfkit_runq_woken(p, btf))
		bpfkit_hist_miss();
}

/* PREV leaves the CPU to NEXT: NEXT's wait, if timed, goes in its histogram. */
static __always_inline void switched(void *ctx, struct task_struct *prev,
				     struct task_struct *next, bool btf)
{
	bool lost;
	__u64 wait;
	bool ended = bpfkit_runq_switched(prev, next, btf, &wait, &lost);

	if (lost)
		bpfkit_hist_miss();
	if (ended)
		bpfkit_hist_add_task(&runqlat_hists, next, wait);
}

/* The sched tracepoints' programs, on tp_btf and on raw_tp. */
BPFKIT_RUNQ_PROGRAMS()
