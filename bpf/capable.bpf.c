// SPDX-License-Identifier: GPL-2.0
/*
 * capable: send a record for every capability check the kernel makes
 * (capability:cap_capable, Linux 6.14 on): the task, the capability and
 * the result, 0 or -EPERM.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "capable.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool failed_only; /* -x: denied checks only */

SEC("tracepoint/capability/cap_capable")
int cap_capable(struct trace_event_raw_cap_capable *ctx)
{
	struct capable_event e = {};
	__u64 id;
	int ret = ctx->ret;

	if (failed_only && !ret)
		return 0;
	if (!bpfkit_selected())
		return 0;
	id = bpf_get_current_pid_tgid();
	e.pid = id >> 32;
	e.tid = id;
	e.uid = bpf_get_current_uid_gid();
	e.cap = ctx->cap;
	e.ret = ret;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
