// SPDX-License-Identifier: GPL-2.0
/*
 * execsnoop: stage the path and argv's address of every execve and
 * execveat at syscall entry, keyed by thread id, and send the record with
 * the return value at syscall exit: argv read from the new image if the
 * exec succeeded (the kernel has just copied it there), from the caller's
 * memory, still there, if it failed.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "execsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 max_args = EXECSNOOP_DEFAULT_ARGS;
const volatile bool include_failed = false;

/* An exec in flight: what only its entry can read. */
struct exec_start {
	__u64 argv; /* the caller's argv */
	__u32 tid; /* the thread that called exec (exec_rekey() moves it) */
	__s32 fd; /* execveat's dirfd */
	__u32 flags; /* EXECSNOOP_* */
	char path[EXECSNOOP_PATH_LEN]; /* gone from memory after a success */
};

static const struct exec_start empty_start = {};

/*
 * Execs in flight, by thread id: preallocated, about 1.4 MiB for 4096
 * (a tracing program's map must not allocate at run time before Linux
 * 6.1: the kernel warns and taints itself).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct exec_start);
} execs SEC(".maps");

/* The record, 8.7 KiB, is built here at exit. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct execsnoop_event);
} execsnoop_scratch SEC(".maps");

/* True when the user string at S was longer than LEN - 1 bytes. */
static __always_inline bool cut_short(const char *s, __u32 len)
{
	char c = 0;

	bpf_probe_read_user(&c, 1, s + len - 1);
	return c != 0;
}

/*
 * Append argv[I] of a failed exec, ARGV the caller's, to the record in
 * this CPU's scratch slot, cut at EXECSNOOP_ARG_LEN: 0 when done, 1 when
 * the list ended (a NULL entry) or the record has no room left, -1 when it
 * could not be read. A global function, verified once rather than once
 * per argument (inlined, --max-args 60 took 6000 verified instructions),
 * and taking numbers only: Linux 5.10's verifier refuses a global function
 * that takes a pointer.
 */
__noinline int append_arg(__u64 argv_addr, __u32 i)
{
	const char *const *argv = (const char *const *)argv_addr;
	struct execsnoop_event *e;
	const char *arg = NULL;
	__u32 size, zero = 0;
	long n;

	e = bpf_map_lookup_elem(&execsnoop_scratch, &zero);
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

static __always_inline int stage(const char *path, __u64 argv, int fd,
				 __u32 flags)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct exec_start *s;
	long n;

	/* Start from a zeroed entry for this thread. */
	if (bpf_map_update_elem(&execs, &tid, &empty_start, BPF_ANY)) {
		bpfkit_drop(BPFKIT_STAGING_FULL);
		return 0;
	}
	s = bpf_map_lookup_elem(&execs, &tid);
	if (!s) {
		bpfkit_drop(BPFKIT_READ_FAILED);
		return 0;
	}
	s->argv = argv;
	s->tid = tid;
	s->fd = fd;
	s->flags = flags;

	/*
	 * Copy the path; an empty one (length 1, or 0 before Linux 6.5) runs
	 * the file open as fd, one that cannot be read does not.
	 */
	n = bpf_probe_read_user_str(s->path, sizeof(s->path), path);
	if (n < 0)
		s->flags |= EXECSNOOP_PATH_UNREADABLE;
	if (n == sizeof(s->path) && cut_short(path, sizeof(s->path)))
		s->flags |= EXECSNOOP_LONG_PATH;
	if (n >= 0 && n <= 1 && (flags & EXECSNOOP_EXECVEAT))
		s->flags |= EXECSNOOP_FD_PATH;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_execve")
int enter_execve(struct syscall_trace_enter *ctx)
{
	return stage((const char *)ctx->args[0], ctx->args[1], 0, 0);
}

SEC("tracepoint/syscalls/sys_enter_execveat")
int enter_execveat(struct syscall_trace_enter *ctx)
{
	return stage((const char *)ctx->args[1], ctx->args[2],
		     (int)ctx->args[0], EXECSNOOP_EXECVEAT);
}

/* A non-leader thread that execs takes over the leader's pid: follow it. */
SEC("tracepoint/sched/sched_process_exec")
int exec_rekey(struct trace_event_raw_sched_process_exec *ctx)
{
	__u32 old = ctx->old_pid, tid = ctx->pid;
	struct exec_start *s;

	if (old == tid)
		return 0;
	s = bpf_map_lookup_elem(&execs, &old);
	if (!s)
		return 0;
	if (bpf_map_update_elem(&execs, &tid, s, BPF_ANY))
		bpfkit_drop(BPFKIT_STAGING_FULL);
	bpf_map_delete_elem(&execs, &old);
	return 0;
}

/*
 * After a successful exec: argv from the new image, where the kernel has
 * just copied it, whole up to EXECSNOOP_ARGS_BUF bytes.
 */
static __always_inline void read_new_args(const struct mm_struct *mm,
					  struct execsnoop_event *e)
{
	__u64 start = BPF_CORE_READ(mm, arg_start);
	__u64 len = BPF_CORE_READ(mm, arg_end) - start;

	if (len > EXECSNOOP_ARGS_BUF) {
		len = EXECSNOOP_ARGS_BUF;
		e->flags |= EXECSNOOP_LONG_ARGS;
	}
	if (bpf_probe_read_user(e->args, len, (const void *)start)) {
		e->flags |= EXECSNOOP_ARGS_UNREADABLE;
		return;
	}
	e->args_size = len;
}

/*
 * After a failed exec: argv[0 .. max_args - 1] from the caller's memory,
 * where they still are.
 */
static __always_inline void read_old_args(__u64 argv_addr,
					  struct execsnoop_event *e)
{
	const char *const *argv = (const char *const *)argv_addr;
	const char *arg = NULL;
	__u32 i;
	int ret;

	if (!argv) /* an empty list, for Linux */
		return;
	for (i = 0; i < EXECSNOOP_MAX_ARGS && i < max_args; i++) {
		ret = append_arg(argv_addr, i);
		if (ret > 0)
			return;
		if (ret < 0)
			goto unreadable;
	}

	/* Mark the list cut only if another argument really follows. */
	if (bpf_probe_read_user(&arg, sizeof(arg), &argv[i]))
		goto unreadable;
	if (arg)
		e->flags |= EXECSNOOP_MORE_ARGS;
	return;
unreadable:
	e->flags |= EXECSNOOP_ARGS_UNREADABLE;
}

static __always_inline int finish(void *ctx, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct execsnoop_event *e;
	struct task_struct *task;
	struct mm_struct *mm;
	struct exec_start *s;
	const unsigned char *name;
	__u32 used;

	s = bpf_map_lookup_elem(&execs, &tid);
	if (!s)
		return 0;
	if ((ret < 0 && !include_failed) || !bpfkit_selected())
		goto out;
	e = bpfkit_scratch(&execsnoop_scratch);
	if (!e)
		goto out;

	/* Who ran it, as whom, how it went, and what entry staged. */
	task = (struct task_struct *)bpf_get_current_task();
	e->pid = id >> 32;
	e->tid = s->tid;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ret = ret;
	e->fd = s->fd;
	e->flags = s->flags;
	e->args_size = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	__builtin_memcpy(e->path, s->path, sizeof(e->path));

	if (ret < 0) {
		read_old_args(s->argv, e);
	} else {
		mm = BPF_CORE_READ(task, mm);
		/* An fd exec has no path: name the file that now runs. */
		if (e->flags & EXECSNOOP_FD_PATH) {
			name = BPF_CORE_READ(mm, exe_file, f_path.dentry,
					     d_name.name);
			bpf_probe_read_kernel_str(e->path, sizeof(e->path),
						  name);
		}
		read_new_args(mm, e);
	}

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
int exit_exec(struct syscall_trace_exit *ctx)
{
	return finish(ctx, ctx->ret);
}
