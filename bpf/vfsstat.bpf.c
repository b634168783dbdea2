// SPDX-License-Identifier: GPL-2.0
/*
 * vfsstat: count the file calls of the selected tasks as they enter the
 * kernel, by kind (read, write, fsync, open, create), in a per-CPU array.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/filter.bpf.h"
#include "vfsstat.h"

char LICENSE[] SEC("license") = "GPL";

/* O_CREAT, the same on every architecture but alpha, mips, parisc, sparc. */
#define O_CREAT 0100

/* Calls by enum vfsstat_op, per CPU; user space sums them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, VFSSTAT_OPS);
	__type(key, __u32);
	__type(value, __u64);
} vfsstat_counts SEC(".maps");

static __always_inline void add(__u32 op)
{
	__u64 *n = bpf_map_lookup_elem(&vfsstat_counts, &op);

	if (n)
		(*n)++;
}

static __always_inline int count(__u32 op)
{
	if (bpfkit_selected())
		add(op);
	return 0;
}

/* An open: a create too when FLAGS ask for one. */
static __always_inline int count_open(__u64 flags)
{
	if (!bpfkit_selected())
		return 0;
	add(VFSSTAT_OPEN);
	if (flags & O_CREAT)
		add(VFSSTAT_CREATE);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_read")
int read_enter(void *ctx)
{
	return count(VFSSTAT_READ);
}

SEC("tracepoint/syscalls/sys_enter_readv")
int readv_enter(void *ctx)
{
	return count(VFSSTAT_READ);
}

SEC("tracepoint/syscalls/sys_enter_pread64")
int pread64_enter(void *ctx)
{
	return count(VFSSTAT_READ);
}

SEC("tracepoint/syscalls/sys_enter_preadv")
int preadv_enter(void *ctx)
{
	return count(VFSSTAT_READ);
}

SEC("tracepoint/syscalls/sys_enter_preadv2")
int preadv2_enter(void *ctx)
{
	return count(VFSSTAT_READ);
}

SEC("tracepoint/syscalls/sys_enter_write")
int write_enter(void *ctx)
{
	return count(VFSSTAT_WRITE);
}

SEC("tracepoint/syscalls/sys_enter_writev")
int writev_enter(void *ctx)
{
	return count(VFSSTAT_WRITE);
}

SEC("tracepoint/syscalls/sys_enter_pwrite64")
int pwrite64_enter(void *ctx)
{
	return count(VFSSTAT_WRITE);
}

SEC("tracepoint/syscalls/sys_enter_pwritev")
int pwritev_enter(void *ctx)
{
	return count(VFSSTAT_WRITE);
}

SEC("tracepoint/syscalls/sys_enter_pwritev2")
int pwritev2_enter(void *ctx)
{
	return count(VFSSTAT_WRITE);
}

SEC("tracepoint/syscalls/sys_enter_fsync")
int fsync_enter(void *ctx)
{
	return count(VFSSTAT_FSYNC);
}

SEC("tracepoint/syscalls/sys_enter_fdatasync")
int fdatasync_enter(void *ctx)
{
	return count(VFSSTAT_FSYNC);
}

SEC("tracepoint/syscalls/sys_enter_open")
int open_enter(struct syscall_trace_enter *ctx)
{
	return count_open(ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_enter_openat")
int openat_enter(struct syscall_trace_enter *ctx)
{
	return count_open(ctx->args[2]);
}

SEC("tracepoint/syscalls/sys_enter_openat2")
int openat2_enter(struct syscall_trace_enter *ctx)
{
	__u64 flags = 0;

	/* The flags lead openat2(2)'s struct open_how, in user memory. */
	bpf_probe_read_user(&flags, sizeof(flags), (const void *)ctx->args[2]);
	return count_open(flags);
}

SEC("tracepoint/syscalls/sys_enter_creat")
int creat_enter(void *ctx)
{
	return count_open(O_CREAT);
}
