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
#include "bpfkit/pertask.bpf.h"
#include "funclatency.h"

char LICENSE[] SEC("license") = "GPL";

/* Calls in progress: their start time. */
BPFKIT_STAGING(__u64);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} funclatency_hists SEC(".maps");

SEC("uprobe")
int func_entry(struct pt_regs *ctx)
{
	__u64 now;

	if (!bpfkit_selected())
		return 0;
	now = bpf_ktime_get_ns();
	if (bpfkit_stage_put(&bpfkit_staging, &now, sizeof(now)))
		bpfkit_hist_miss();
	return 0;
}

SEC("uretprobe")
int func_return(struct pt_regs *ctx)
{
	__u32 key = FUNCLATENCY_KEY;
	struct bpfkit_hist *h;
	__u64 *start, ns;

	start = bpfkit_staged(&bpfkit_staging);
	if (!start)
		return 0;
	ns = bpf_ktime_get_ns() - *start;
	bpfkit_unstage(&bpfkit_staging, start);
	h = bpfkit_hist_get(&funclatency_hists, &key);
	if (h)
		bpfkit_hist_add(h, ns);
	return 0;
}
