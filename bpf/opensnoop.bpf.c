// SPDX-License-Identifier: GPL-2.0
/*
 * opensnoop: remember each open's arguments at syscall entry, and send
 * them with the result and the path at syscall exit.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "bpfkit/staging.bpf.h"
#include "opensnoop.h"

char LICENSE[] SEC("license") = "GPL";

/* Send failed opens only (-x). */
const volatile bool failed_only;

/* An open in flight. */
struct open_args {
	__u64 path;
	__u64 flags;
	__u32 mode;
	__u32 call;
};

BPFKIT_STAGING(struct open_args);

/* The record is too big for the stack: build it here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct opensnoop_event);
} opensnoop_scratch SEC(".maps");

static __always_inline int enter(__u64 path, __u64 flags, __u32 mode,
				 __u32 call)
{
	struct open_args a = { path, flags, mode, call };

	bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
	return 0;
}

static __always_inline int leave(void *ctx, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct opensnoop_event *e;
	struct open_args *a;
	long len;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	if (failed_only && ret >= 0)
		goto out;
	e = bpfkit_scratch(&opensnoop_scratch);
	if (!e)
		goto out;

	/* Fill the record; the path is in memory now that the kernel read it. */
	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->uid = bpf_get_current_uid_gid();
	e->ret = ret;
	e->flags = a->flags;
	e->mode = a->mode;
	e->call = a->call;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	len = bpfkit_read_user_str(e->path, sizeof(e->path), a->path);

	/* Send the header and the path's bytes only. */
	bpfkit_emit(ctx, &e->rec, offsetof(struct opensnoop_event, path) + len);
out:
	bpfkit_unstage(&bpfkit_staging, a);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_open")
int open_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], ctx->args[1], ctx->args[2], OPENSNOOP_OPEN);
}

SEC("tracepoint/syscalls/sys_enter_openat")
int openat_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[1], ctx->args[2], ctx->args[3],
		     OPENSNOOP_OPENAT);
}

/*
 * The head of openat2(2)'s struct open_how, in the caller's memory: laid
 * out by the UAPI (linux/openat2.h), the same whatever the kernel.
 */
struct open_how_head {
	__u64 flags;
	__u64 mode;
};

SEC("tracepoint/syscalls/sys_enter_openat2")
int openat2_enter(struct syscall_trace_enter *ctx)
{
	struct open_how_head how = {};

	/* The flags live in user memory. */
	bpf_probe_read_user(&how, sizeof(how), (const void *)ctx->args[2]);
	return enter(ctx->args[1], how.flags, how.mode, OPENSNOOP_OPENAT2);
}

/* The exit of every open: one program, attached to each (user space). */
SEC("tracepoint")
int open_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx, ctx->ret);
}
