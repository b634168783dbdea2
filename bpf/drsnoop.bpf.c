// SPDX-License-Identifier: GPL-2.0
/*
 * drsnoop: send a record for every direct reclaim a task runs, from its
 * begin to its end, with the pages it reclaimed: the page allocator's
 * (vmscan:mm_vmscan_direct_reclaim_*) and a memory cgroup's, which a task
 * charging past its cgroup's limit (memory.high, memory.max, v1's
 * limit_in_bytes) runs itself (vmscan:mm_vmscan_memcg_reclaim_*).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "drsnoop.h"

char LICENSE[] SEC("license") = "GPL";

/* A reclaim in progress, by thread id. */
struct reclaim {
	__u64 start_ns;
	__u64 gfp_flags;
	__s32 order;
	__u32 kind;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct reclaim);
} drsnoop_reclaims SEC(".maps");

static __always_inline int
begin(const struct trace_event_raw_mm_vmscan_direct_reclaim_begin_template *ctx,
      enum drsnoop_kind kind)
{
	struct reclaim r = {
		.start_ns = bpf_ktime_get_ns(),
		.gfp_flags = ctx->gfp_flags,
		.order = ctx->order,
		.kind = kind,
	};

	bpfkit_stage(&drsnoop_reclaims, &r);
	return 0;
}

static __always_inline int
end(struct trace_event_raw_mm_vmscan_direct_reclaim_end_template *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct drsnoop_event e = {};
	struct reclaim *r;

	r = bpf_map_lookup_elem(&drsnoop_reclaims, &tid);
	if (!r)
		return 0;
	e.latency_ns = bpf_ktime_get_ns() - r->start_ns;
	e.nr_reclaimed = ctx->nr_reclaimed;
	e.gfp_flags = r->gfp_flags;
	e.order = r->order;
	e.kind = r->kind;
	e.pid = pid_tgid >> 32;
	e.tid = tid;
	e.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_map_delete_elem(&drsnoop_reclaims, &tid);
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_begin")
int direct_begin(
	struct trace_event_raw_mm_vmscan_direct_reclaim_begin_template *ctx)
{
	return begin(ctx, DRSNOOP_GLOBAL);
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_end")
int direct_end(struct trace_event_raw_mm_vmscan_direct_reclaim_end_template *ctx)
{
	return end(ctx);
}

SEC("tracepoint/vmscan/mm_vmscan_memcg_reclaim_begin")
int memcg_begin(
	struct trace_event_raw_mm_vmscan_direct_reclaim_begin_template *ctx)
{
	return begin(ctx, DRSNOOP_MEMCG);
}

SEC("tracepoint/vmscan/mm_vmscan_memcg_reclaim_end")
int memcg_end(struct trace_event_raw_mm_vmscan_direct_reclaim_end_template *ctx)
{
	return end(ctx);
}
