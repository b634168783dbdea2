// SPDX-License-Identifier: GPL-2.0
/*
 * runqlen: at each timer sample on each CPU, the length of that CPU's run
 * queue (the tasks waiting to run there, besides the one running), read
 * from its struct rq by CO-RE, in a histogram per CPU.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/sched.bpf.h"
#include "runqlen.h"

char LICENSE[] SEC("license") = "GPL";

/* Each CPU's own histogram: its copy of the one entry. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} runqlen_hists SEC(".maps");

SEC("perf_event")
int sample(struct bpf_perf_event_data *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct bpfkit_hist *h;
	__u32 zero = 0, len, slot;

	h = bpf_map_lookup_elem(&runqlen_hists, &zero);
	if (!h)
		return 0;
	/* nr_running counts the running task too, unless it is the idle one. */
	len = BPF_CORE_READ(bpfkit_task_rq(t), nr_running);
	if (len && BPF_CORE_READ(t, pid))
		len--;
	slot = len < RUNQLEN_MAX ? len : RUNQLEN_MAX;
	barrier_var(slot); /* bounded in the register indexed, as hist_add's */
	if (slot >= BPFKIT_HIST_SLOTS)
		return 0;
	/*
	 * Only this CPU's timer adds to this CPU's copy, and it does not
	 * nest: plain adds. sum_ns holds the sum of the lengths.
	 */
	h->slots[slot]++;
	h->count++;
	h->sum_ns += len;
	return 0;
}
