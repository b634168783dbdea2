// SPDX-License-Identifier: GPL-2.0
/*
 * profile: on every perf event sample (cpu-clock or cycles, on every CPU)
 * count the running task's user and kernel stacks.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/filter.bpf.h"
#include "bpfkit/stacks.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("perf_event")
int sample(struct bpf_perf_event_data *ctx)
{
	struct bpfkit_stack_key key;

	/* The idle task (pid 0) runs when nothing else does. */
	if (!(__u32)bpf_get_current_pid_tgid() || !bpfkit_selected())
		return 0;
	bpfkit_stack_key_fill(ctx, &key);
	bpfkit_stack_count(&key, 1);
	return 0;
}
