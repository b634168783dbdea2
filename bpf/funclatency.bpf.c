// SPDX-License-Identifier: GPL-2.0
/*
 * funclatency: the latency of a user-space function as a histogram. A
 * uprobe at each call keeps the time per thread; the uretprobe at its
 * return adds the time since to the histogram. User space attaches both
 * to the function it names (bpfkit_attach_user_probes()).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "funclatency.h"

char LICENSE[] SEC("license") = "GPL";

/* Calls in progress: their start time, by thread id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} funclatency_starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} funclatency_hists SEC(".maps");

SEC("uprobe")
int func_entry(struct pt_regs *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 now;

	if (!bpfkit_selected())
		return 0;
	now = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&funclatency_starts, &tid, &now, BPF_ANY))
		bpfkit_hist_miss();
	return 0;
}

SEC("uretprobe")
int func_return(struct pt_regs *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid(), key = FUNCLATENCY_KEY;
	struct bpfkit_hist *h;
	__u64 *start, ns;

	start = bpf_map_lookup_elem(&funclatency_starts, &tid);
	if (!start)
		return 0;
	ns = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&funclatency_starts, &tid);
	h = bpfkit_hist_get(&funclatency_hists, &key);
	if (h)
		bpfkit_hist_add(h, ns);
	return 0;
}
