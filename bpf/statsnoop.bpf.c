// SPDX-License-Identifier: GPL-2.0
/*
 * statsnoop: remember each stat-family call's arguments at syscall entry,
 * and send them with the result and the path at syscall exit.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/staging.bpf.h"
#include "statsnoop.h"

char LICENSE[] SEC("license") = "GPL";

/* The kernel's AT_FDCWD, for the calls without a directory fd. */
#define AT_FDCWD -100

/* Send failed calls only (-x). */
const volatile bool failed_only;

/* A call in flight. */
struct stat_args {
	__u64 path;
	__s32 dfd;
	__u32 flags;
	__u32 call;
};

BPFKIT_STAGING(struct stat_args);

/* The record is too big for the stack: build it here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct statsnoop_event);
} statsnoop_scratch SEC(".maps");

static __always_inline int enter(__u64 path, __s32 dfd, __u32 flags, __u32 call)
{
	struct stat_args a = { path, dfd, flags, call };

	bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
	return 0;
}

static __always_inline int leave(void *ctx, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct statsnoop_event *e;
	struct stat_args *a;
	long len;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	if (failed_only && ret >= 0)
		goto out;
	e = bpfkit_scratch(&statsnoop_scratch);
	if (!e)
		goto out;

	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->uid = bpf_get_current_uid_gid();
	e->ret = ret;
	e->dfd = a->dfd;
	e->flags = a->flags;
	e->call = a->call;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	len = bpfkit_read_user_str(e->path, sizeof(e->path), a->path);

	/* Send the header and the path's bytes only. */
	bpfkit_emit(ctx, &e->rec, offsetof(struct statsnoop_event, path) + len);
out:
	bpfkit_unstage(&bpfkit_staging, a);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_newstat")
int newstat_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], AT_FDCWD, 0, STATSNOOP_STAT);
}

SEC("tracepoint/syscalls/sys_enter_stat")
int stat_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], AT_FDCWD, 0, STATSNOOP_STAT);
}

SEC("tracepoint/syscalls/sys_enter_newlstat")
int newlstat_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], AT_FDCWD, 0, STATSNOOP_LSTAT);
}

SEC("tracepoint/syscalls/sys_enter_lstat")
int lstat_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], AT_FDCWD, 0, STATSNOOP_LSTAT);
}

SEC("tracepoint/syscalls/sys_enter_newfstatat")
int newfstatat_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[1], ctx->args[0], ctx->args[3],
		     STATSNOOP_FSTATAT);
}

SEC("tracepoint/syscalls/sys_enter_fstatat64")
int fstatat64_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[1], ctx->args[0], ctx->args[3],
		     STATSNOOP_FSTATAT);
}

SEC("tracepoint/syscalls/sys_enter_statx")
int statx_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[1], ctx->args[0], ctx->args[2], STATSNOOP_STATX);
}

/* The exit of every stat call: one program, attached to each (user space). */
SEC("tracepoint")
int stat_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx, ctx->ret);
}
