// SPDX-License-Identifier: GPL-2.0
/*
 * filelife: send the path of each file an open creates (FMODE_CREATED on
 * the new file), and of each name unlinked, for user space to pair.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/files.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "filelife.h"

char LICENSE[] SEC("license") = "GPL";

#define AT_FDCWD -100
#define AT_REMOVEDIR 0x200
#define O_CREAT 0100
/*
 * f_mode's "this open created the file", set by the open since Linux
 * 4.19 (include/linux/fs.h; a macro, so not in BTF): the same bit from
 * then to 6.18 at least.
 */
#define FMODE_CREATED 0x100000

/*
 * A call in flight (bpfkit_stage()): an open with O_CREAT,
 * or an unlink. A NULL path fails the call: nothing to stage.
 */
struct file_args {
	__u64 path;
	__s32 dfd;
	__u32 kind;
};

BPFKIT_STAGING(struct file_args);

/* The record is too big for the stack: build it here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct filelife_event);
} filelife_scratch SEC(".maps");

static __always_inline int create_enter(__u64 path, __u64 flags)
{
	struct file_args a = { .path = path, .kind = FILELIFE_CREATE };

	if (flags & O_CREAT)
		bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
	return 0;
}

static __always_inline int unlink_enter(__s32 dfd, __u64 path, __u64 flags)
{
	struct file_args a = { path, dfd, FILELIFE_UNLINK };

	if (!(flags & AT_REMOVEDIR))
		bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_open")
int open_enter(struct syscall_trace_enter *ctx)
{
	return create_enter(ctx->args[0], ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_enter_openat")
int openat_enter(struct syscall_trace_enter *ctx)
{
	return create_enter(ctx->args[1], ctx->args[2]);
}

SEC("tracepoint/syscalls/sys_enter_openat2")
int openat2_enter(struct syscall_trace_enter *ctx)
{
	__u64 flags = 0;

	/* The flags lead openat2(2)'s struct open_how, in user memory. */
	bpf_probe_read_user(&flags, sizeof(flags), (const void *)ctx->args[2]);
	return create_enter(ctx->args[1], flags);
}

SEC("tracepoint/syscalls/sys_enter_creat")
int creat_enter(struct syscall_trace_enter *ctx)
{
	return create_enter(ctx->args[0], O_CREAT);
}

SEC("tracepoint/syscalls/sys_enter_unlink")
int unlink_enter_prog(struct syscall_trace_enter *ctx)
{
	return unlink_enter(AT_FDCWD, ctx->args[0], 0);
}

SEC("tracepoint/syscalls/sys_enter_unlinkat")
int unlinkat_enter(struct syscall_trace_enter *ctx)
{
	return unlink_enter(ctx->args[0], ctx->args[1], ctx->args[2]);
}

/* Where an unlink's path starts: the root, the working directory, DFD. */
static __always_inline const struct path *base(const struct file_args *a,
					       struct filelife_event *e)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct fs_struct *fs = BPF_CORE_READ(task, fs);
	struct file *f;

	if (e->data[0] == '/')
		return &fs->root;
	if (a->dfd == AT_FDCWD)
		return &fs->pwd;
	f = bpfkit_fd_file(a->dfd);
	return f ? &f->f_path : NULL;
}

/* The exit of every call traced: one program, attached to each. */
SEC("tracepoint")
int file_exit(struct syscall_trace_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	const struct path *path = NULL;
	struct filelife_event *e;
	__u32 tid = pid_tgid;
	struct file_args a, *staged;
	struct file *f;
	long ret = ctx->ret, len = 0;
	__u32 depth;

	staged = bpfkit_staged(&bpfkit_staging);
	if (!staged)
		return 0;
	a = *staged;
	bpfkit_unstage(&bpfkit_staging, staged);
	if (ret < 0)
		return 0;
	if (a.kind == FILELIFE_CREATE) {
		/* An open of a file that existed created nothing. */
		f = bpfkit_fd_file(ret);
		if (!f || !(BPF_CORE_READ(f, f_mode) & FMODE_CREATED))
			return 0;
		path = &f->f_path;
	}
	e = bpfkit_scratch(&filelife_scratch);
	if (!e)
		return 0;
	if (a.kind == FILELIFE_UNLINK) {
		len = bpfkit_read_user_str(e->data, FILELIFE_PATH_MAX, a.path);
		path = base(&a, e);
	}
	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->uid = bpf_get_current_uid_gid();
	e->kind = a.kind;
	e->path_len = len;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	depth = path ? bpfkit_path_names(path, (void *)(e->data + len)) : 0;
	e->depth = depth;
	/* The bytes used only: a perf page holds a create of 31 names. */
	bpfkit_emit(ctx, &e->rec,
		    offsetof(struct filelife_event, data) + len +
			    depth * BPFKIT_NAME_LEN);
	return 0;
}
