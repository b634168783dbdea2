// SPDX-License-Identifier: GPL-2.0
/*
 * softirqs: the time spent in each softirq, from irq:softirq_entry to
 * irq:softirq_exit, per softirq and with -C per CPU.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "softirqs.h"

char LICENSE[] SEC("license") = "GPL";

/* Entry time of the softirq running on each CPU, for bpfkit_hist_cpu_*(). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} softirqs_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct softirqs_key);
	__type(value, struct bpfkit_hist);
} softirqs_hists SEC(".maps");

/*
 * Raw tracepoints: the softirq's number is an argument, not read through
 * a pointer, so nothing here needs the kernel's BTF, which libbpf then
 * does not load (tp_btf would have it parse all of it for the same loads).
 */
SEC("raw_tp/softirq_entry")
int BPF_PROG(softirq_entry, unsigned int vec)
{
	bpfkit_hist_cpu_enter(&softirqs_start);
	return 0;
}

SEC("raw_tp/softirq_exit")
int BPF_PROG(softirq_exit, unsigned int vec)
{
	struct softirqs_key key = { .vec = vec, .cpu = bpfkit_hist_cpu() };

	bpfkit_hist_cpu_exit(&softirqs_start, &softirqs_hists, &key);
	return 0;
}
