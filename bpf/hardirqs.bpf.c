// SPDX-License-Identifier: GPL-2.0
/*
 * hardirqs: the time spent in each hard IRQ handler, from
 * irq:irq_handler_entry to irq:irq_handler_exit, by handler name and with
 * -C per CPU.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "hardirqs.h"

char LICENSE[] SEC("license") = "GPL";

/* Entry time of the handler running on each CPU, for bpfkit_hist_cpu_*(). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hardirqs_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct hardirqs_key);
	__type(value, struct bpfkit_hist);
} hardirqs_hists SEC(".maps");

/*
 * Raw tracepoints: unlike tp_btf, they attach on a kernel without BTF of
 * its own, where --btf FILE relocates the read of the name.
 */
SEC("raw_tp/irq_handler_entry")
int BPF_PROG(irq_handler_entry, int irq, struct irqaction *action)
{
	bpfkit_hist_cpu_enter(&hardirqs_start);
	return 0;
}

SEC("raw_tp/irq_handler_exit")
int BPF_PROG(irq_handler_exit, int irq, struct irqaction *action, int ret)
{
	struct hardirqs_key key = { .irq = irq, .cpu = bpfkit_hist_cpu() };

	bpf_probe_read_kernel_str(key.name, sizeof(key.name),
				  BPF_CORE_READ(action, name));
	bpfkit_hist_cpu_exit(&hardirqs_start, &hardirqs_hists, &key);
	return 0;
}
