// SPDX-License-Identifier: GPL-2.0
/*
 * syncsnoop: time each sync call from its syscall entry to its exit, and
 * send it with its kind and result.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/staging.bpf.h"
#include "syncsnoop.h"

char LICENSE[] SEC("license") = "GPL";

/* A call in flight (bpfkit_stage()). */
struct sync_args {
	__u64 start_ns;
	__u64 arg;
	__u32 call;
};

BPFKIT_STAGING(struct sync_args);

static __always_inline int enter(__u64 arg, __u32 call)
{
	struct sync_args a = { bpf_ktime_get_ns(), arg, call };

	bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_sync")
int sync_enter(struct syscall_trace_enter *ctx)
{
	return enter(0, SYNCSNOOP_SYNC);
}

SEC("tracepoint/syscalls/sys_enter_fsync")
int fsync_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], SYNCSNOOP_FSYNC);
}

SEC("tracepoint/syscalls/sys_enter_fdatasync")
int fdatasync_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], SYNCSNOOP_FDATASYNC);
}

SEC("tracepoint/syscalls/sys_enter_syncfs")
int syncfs_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], SYNCSNOOP_SYNCFS);
}

SEC("tracepoint/syscalls/sys_enter_msync")
int msync_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], SYNCSNOOP_MSYNC);
}

SEC("tracepoint/syscalls/sys_enter_sync_file_range")
int sync_file_range_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], SYNCSNOOP_SYNC_FILE_RANGE);
}

/* The exit of every sync call: one program, attached to each (user space). */
SEC("tracepoint")
int sync_exit(struct syscall_trace_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct syncsnoop_event e = {};
	struct sync_args *a;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	e.latency_ns = bpf_ktime_get_ns() - a->start_ns;
	e.arg = a->arg;
	e.call = a->call;
	bpfkit_unstage(&bpfkit_staging, a);
	e.pid = pid_tgid >> 32;
	e.tid = pid_tgid;
	e.uid = bpf_get_current_uid_gid();
	e.ret = ctx->ret;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
