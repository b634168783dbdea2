// SPDX-License-Identifier: GPL-2.0
/*
 * execsnoop: stage path and argv of every execve and execveat at syscall
 * entry, keyed by thread id, and send the record with the return value at
 * syscall exit, with argv read again from the new image if the exec
 * succeeded: at entry, pages not in memory cannot be read.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/layout.bpf.h"
#include "bpfkit/syscall.bpf.h"
#include "execsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 max_args = EXECSNOOP_DEFAULT_ARGS;
const volatile bool include_failed = false;
const volatile struct execsnoop_layout layout;

/*
 * sched:sched_process_exec's context at the layout of its format file, the
 * same on every kernel since 3.4 (Linux 6.1 and 6.18 included), rather
 * than vmlinux.h's trace_event_raw_sched_process_exec, whose CO-RE
 * relocation would have libbpf parse and search the kernel's BTF.
 * execsnoop.bats checks the format file against these offsets.
 */
struct sched_process_exec_ctx {
	__u64 common; /* the tracepoints' common header */
	__u32 filename; /* offset 8: __data_loc */
	int pid; /* 12 */
	int old_pid; /* 16 */
};

static const struct execsnoop_event empty_event = {};

/* Execs in flight: allocated on entry, freed on exit. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct execsnoop_event);
} execs SEC(".maps");

/* True when the user string at S was longer than LEN - 1 bytes. */
static __always_inline bool cut_short(const char *s, __u32 len)
{
	char c = 0;

	bpf_probe_read_user(&c, 1, s + len - 1);
	return c != 0;
}

/*
 * Append argv[I] to E's args, cut at EXECSNOOP_ARG_LEN: 0 when done, 1 when
 * the list ended (a NULL entry) or E has no room left, -1 when it could not
 * be read. A global function, so the verifier walks its body once per
 * program, not once per argument: inlined in stage()'s loop, --max-args 60
 * took 6000 verified instructions per program, and --max-args 20 2100.
 */
__noinline int append_arg(struct execsnoop_event *e, __u64 argv_addr, __u32 i)
{
	const char *const *argv = (const char *const *)argv_addr;
	const char *arg = NULL;
	__u32 size;
	long n;

	if (!e)
		return 1;
	if (bpf_probe_read_user(&arg, sizeof(arg), &argv[i]))
		return -1;
	if (!arg)
		return 1;
	size = e->args_size;
	if (size > EXECSNOOP_ARGS_BUF - EXECSNOOP_ARG_LEN)
		return 1;
	n = bpf_probe_read_user_str(&e->args[size], EXECSNOOP_ARG_LEN, arg);
	if (n < 0)
		return -1;
	if (n == EXECSNOOP_ARG_LEN && cut_short(arg, EXECSNOOP_ARG_LEN))
		e->flags |= EXECSNOOP_LONG_ARG;
	e->args_size = size + n;
	return 0;
}

/* A global function: verified once, not once per caller. */
__noinline int stage(__u64 path_addr, __u64 argv_addr, int fd, __u32 flags)
{
	const char *const *argv = (const char *const *)argv_addr;
	const char *path = (const char *)path_addr;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct execsnoop_event *e;
	const char *arg = NULL;
	__u32 i;
	long n;
	int ret;

	/* Start from a zeroed record for this thread. */
	if (bpf_map_update_elem(&execs, &tid, &empty_event, BPF_ANY)) {
		bpfkit_drop(BPFKIT_STAGING_FULL);
		return 0;
	}
	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e) {
		bpfkit_drop(BPFKIT_READ_FAILED);
		return 0;
	}
	e->tid = tid;
	e->fd = fd;
	e->flags = flags;

	/*
	 * Copy the path; an empty one (length 1, or 0 before Linux 6.5) runs
	 * the file open as fd, one that cannot be read does not.
	 */
	n = bpf_probe_read_user_str(e->path, sizeof(e->path), path);
	if (n < 0)
		e->flags |= EXECSNOOP_PATH_UNREADABLE;
	if (n == sizeof(e->path) && cut_short(path, sizeof(e->path)))
		e->flags |= EXECSNOOP_LONG_PATH;
	if (n >= 0 && n <= 1 && (flags & EXECSNOOP_EXECVEAT))
		e->flags |= EXECSNOOP_FD_PATH;

	/* Copy argv[0 .. max_args - 1]. */
	if (!argv) /* an empty list, for Linux */
		return 0;
	for (i = 0; i < EXECSNOOP_MAX_ARGS && i < max_args; i++) {
		ret = append_arg(e, argv_addr, i);
		if (ret > 0)
			return 0;
		if (ret < 0)
			goto unreadable;
	}

	/* Mark the list cut only if another argument really follows. */
	if (bpf_probe_read_user(&arg, sizeof(arg), &argv[i]))
		goto unreadable;
	if (arg)
		e->flags |= EXECSNOOP_MORE_ARGS;
	return 0;
unreadable:
	e->flags |= EXECSNOOP_ARGS_UNREADABLE;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_execve")
int enter_execve(struct bpfkit_sys_enter *ctx)
{
	return stage(ctx->args[0], ctx->args[1], 0, 0);
}

SEC("tracepoint/syscalls/sys_enter_execveat")
int enter_execveat(struct bpfkit_sys_enter *ctx)
{
	return stage(ctx->args[1], ctx->args[2], (int)ctx->args[0],
		     EXECSNOOP_EXECVEAT);
}

/* A non-leader thread that execs takes over the leader's pid: follow it. */
SEC("tracepoint/sched/sched_process_exec")
int exec_rekey(struct sched_process_exec_ctx *ctx)
{
	__u32 old = ctx->old_pid, tid = ctx->pid;
	struct execsnoop_event *e;

	if (old == tid)
		return 0;
	e = bpf_map_lookup_elem(&execs, &old);
	if (!e)
		return 0;
	if (bpf_map_update_elem(&execs, &tid, e, BPF_ANY))
		bpfkit_drop(BPFKIT_STAGING_FULL);
	bpf_map_delete_elem(&execs, &old);
	return 0;
}

/*
 * After a successful exec: take argv from the new image, where the kernel
 * has just copied it, whole up to EXECSNOOP_ARGS_BUF bytes. What was staged
 * at entry stays if it cannot be read.
 */
static __always_inline void read_new_args(const void *task,
					  struct execsnoop_event *e)
{
	const void *mm = bpfkit_read_ptr(task, layout.task_struct_mm);
	__u64 start = bpfkit_read_u64(mm, layout.mm_struct_arg_start);
	__u64 len = bpfkit_read_u64(mm, layout.mm_struct_arg_end) - start;
	__u32 flags = e->flags & ~(EXECSNOOP_MORE_ARGS | EXECSNOOP_LONG_ARG |
				   EXECSNOOP_ARGS_UNREADABLE);

	if (len > EXECSNOOP_ARGS_BUF) {
		len = EXECSNOOP_ARGS_BUF;
		flags |= EXECSNOOP_LONG_ARGS;
	}
	if (bpf_probe_read_user(e->args, len, (const void *)start))
		return;
	e->args_size = len;
	e->flags = flags;
}

static __always_inline int finish(void *ctx, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	const void *task, *file, *dentry, *name;
	struct execsnoop_event *e;
	__u32 used;

	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e)
		return 0;
	if ((ret < 0 && !include_failed) || !bpfkit_selected())
		goto out;

	/* Complete the record: who ran it, as whom, and how it went. */
	task = (const void *)bpf_get_current_task();
	e->pid = id >> 32;
	e->ppid = bpfkit_read_s32(
		bpfkit_read_ptr(task, layout.task_struct_real_parent),
		layout.task_struct_tgid);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ret = ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));

	/* An fd exec has no path: name the file that now runs instead. */
	if ((e->flags & EXECSNOOP_FD_PATH) && !ret) {
		file = bpfkit_read_ptr(bpfkit_read_ptr(task,
						       layout.task_struct_mm),
				       layout.mm_struct_exe_file);
		dentry = bpfkit_read_ptr(file, layout.file_f_path +
						       layout.path_dentry);
		name = bpfkit_read_ptr(dentry,
				       layout.dentry_d_name + layout.qstr_name);
		bpf_probe_read_kernel_str(e->path, sizeof(e->path), name);
	}
	if (!ret)
		read_new_args(task, e);

	/* Send the header and the used part of args only. */
	used = e->args_size;
	if (used > EXECSNOOP_ARGS_BUF)
		used = EXECSNOOP_ARGS_BUF;
	bpfkit_emit(ctx, &e->rec,
		    offsetof(struct execsnoop_event, args) + used);
out:
	bpf_map_delete_elem(&execs, &tid);
	return 0;
}

/* The exit of both exec calls: one program, attached to each (user space). */
SEC("tracepoint")
int exit_exec(struct bpfkit_sys_exit *ctx)
{
	return finish(ctx, ctx->ret);
}
