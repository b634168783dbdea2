// SPDX-License-Identifier: GPL-2.0
/*
 * filetop: count the reads and writes of each process on each file, with
 * the bytes they returned, from the syscalls' entries (the file, from the
 * fd) and exits (the result).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/files.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/pertask.bpf.h"
#include "filetop.h"

char LICENSE[] SEC("license") = "GPL";

#define S_IFMT 00170000
#define S_IFSOCK 0140000
#define S_IFREG 0100000

/* Count every kind of file, not regular files only (-a). */
const volatile bool all_files;

/* Calls not counted: the counts' map was full, or the staging map. */
__u64 filetop_missed;

/*
 * A read or write in flight (bpfkit_stage_put()): its file and its row's
 * key, staged at the entry, unstaged at the exit.
 */
struct io_args {
	struct file *file;
	struct filetop_key key;
	__u32 type; /* enum filetop_type */
	bool write;
};

BPFKIT_STAGING(struct io_args);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FILETOP_MAX_KEYS);
	__type(key, struct filetop_key);
	__type(value, struct filetop_val);
} filetop_counts SEC(".maps");

static __always_inline __u32 file_type(__u32 mode)
{
	if ((mode & S_IFMT) == S_IFREG)
		return FILETOP_REGULAR;
	return (mode & S_IFMT) == S_IFSOCK ? FILETOP_SOCKET : FILETOP_OTHER;
}

/*
 * Keep the file behind FD and its row's key for the exit, a regular file
 * unless -a, when the task is selected: the exit reads no kernel memory
 * but a new row's name.
 */
static __always_inline int enter(long fd, bool write)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct io_args a = { .key.pid = pid_tgid >> 32, .write = write };
	struct inode *inode;
	struct file *f;

	if (!bpfkit_selected())
		return 0;
	/* A local: CO-RE relocates the kernel's structs only, not io_args. */
	f = bpfkit_fd_file(fd);
	if (!f)
		return 0;
	a.file = f;
	inode = BPF_CORE_READ(f, f_inode);
	a.type = file_type(BPF_CORE_READ(inode, i_mode));
	if (!all_files && a.type != FILETOP_REGULAR)
		return 0;
	a.key.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	a.key.ino = BPF_CORE_READ(inode, i_ino);
	if (bpfkit_stage_put(&bpfkit_staging, &a, sizeof(a)))
		__sync_fetch_and_add(&filetop_missed, 1);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_read")
int read_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], false);
}

SEC("tracepoint/syscalls/sys_enter_readv")
int readv_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], false);
}

SEC("tracepoint/syscalls/sys_enter_pread64")
int pread64_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], false);
}

SEC("tracepoint/syscalls/sys_enter_preadv")
int preadv_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], false);
}

SEC("tracepoint/syscalls/sys_enter_preadv2")
int preadv2_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], false);
}

SEC("tracepoint/syscalls/sys_enter_write")
int write_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], true);
}

SEC("tracepoint/syscalls/sys_enter_writev")
int writev_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], true);
}

SEC("tracepoint/syscalls/sys_enter_pwrite64")
int pwrite64_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], true);
}

SEC("tracepoint/syscalls/sys_enter_pwritev")
int pwritev_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], true);
}

SEC("tracepoint/syscalls/sys_enter_pwritev2")
int pwritev2_enter(struct syscall_trace_enter *ctx)
{
	return enter(ctx->args[0], true);
}

/* Count a read or write as it returns RET. */
static __always_inline int leave(long ret)
{
	struct filetop_val *v, zero = {};
	struct io_args *a;
	struct file *f;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	if (ret < 0)
		goto out;
	v = bpf_map_lookup_elem(&filetop_counts, &a->key);
	if (!v) {
		/* A new row: the names, read once. */
		f = a->file;
		zero.type = a->type;
		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_probe_read_kernel_str(zero.name, sizeof(zero.name),
					  BPF_CORE_READ(f, f_path.dentry,
							d_name.name));
		bpf_map_update_elem(&filetop_counts, &a->key, &zero,
				    BPF_NOEXIST);
		v = bpf_map_lookup_elem(&filetop_counts, &a->key);
		if (!v) {
			__sync_fetch_and_add(&filetop_missed, 1);
			goto out;
		}
	}
	if (a->write) {
		__sync_fetch_and_add(&v->writes, 1);
		__sync_fetch_and_add(&v->write_bytes, ret);
	} else {
		__sync_fetch_and_add(&v->reads, 1);
		__sync_fetch_and_add(&v->read_bytes, ret);
	}
out:
	bpfkit_unstage(&bpfkit_staging, a);
	return 0;
}

/* Each call's exit: a program of its own, which the skeleton attaches. */

SEC("tracepoint/syscalls/sys_exit_read")
int read_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_readv")
int readv_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_pread64")
int pread64_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_preadv")
int preadv_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_preadv2")
int preadv2_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_write")
int write_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_writev")
int writev_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_pwrite64")
int pwrite64_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_pwritev")
int pwritev_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_pwritev2")
int pwritev2_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx->ret);
}
