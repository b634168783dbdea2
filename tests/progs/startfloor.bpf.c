// SPDX-License-Identifier: GPL-2.0
/*
 * startfloor: the least a tracer can load, for start-up benchmarks: one
 * tracepoint program (sched_process_exec) that counts in .bss, no maps of
 * its own, no CO-RE relocation.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 startfloor_execs;

SEC("tracepoint/sched/sched_process_exec")
int count_exec(void *ctx)
{
	__sync_fetch_and_add(&startfloor_execs, 1);
	return 0;
}
