// SPDX-License-Identifier: GPL-2.0
/* storm: one 72-byte record per getppid(2) (48 without the task ids). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "storm.h"

char LICENSE[] SEC("license") = "GPL";

/* Send through libbpf's stock perf buffer path (for the benchmark). */
const volatile bool stock;
/*
 * Send records without the task's ids, the benchmark's measure of them:
 * none read, and each record as much shorter as the ids are long.
 */
const volatile bool no_task_ids;

#define TASK_IDS_SIZE (sizeof(struct bpfkit_record) - sizeof(__u64))

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} stock_perf SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int storm(void *ctx)
{
	struct storm_event e = { .message = "storm" };

	/* Decide on overload control before the record is built. */
	if (!bpfkit_selected() || !bpfkit_admit_entry())
		return 0;
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	if (stock)
		bpf_perf_event_output(ctx, &stock_perf, BPF_F_CURRENT_CPU, &e,
				      sizeof(e));
	else if (no_task_ids)
		bpfkit_emit_stamped(ctx, &e.rec, sizeof(e) - TASK_IDS_SIZE);
	else
		bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
