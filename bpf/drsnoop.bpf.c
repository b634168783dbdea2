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

/* A reclaim in progress. */
struct reclaim {
	__u64 start_ns;
	__u64 gfp_flags;
	__s32 order;
	__u32 kind;
};

BPFKIT_STAGING(struct reclaim);

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

	bpfkit_stage(&bpfkit_staging, &r, sizeof(r));
	return 0;
}

static __always_inline int
end(struct trace_event_raw_mm_vmscan_direct_reclaim_end_template *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct drsnoop_event e = {};
	struct reclaim *r;

	r = bpfkit_staged(&bpfkit_staging);
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
	bpfkit_unstage(&bpfkit_staging, r);
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
