// SPDX-License-Identifier: GPL-2.0
/*
 * mountsnoop: remember each mount-family call's arguments at syscall entry,
 * and send them with the strings they point to and the result at syscall
 * exit.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/staging.bpf.h"
#include "mountsnoop.h"

char LICENSE[] SEC("license") = "GPL";

/* Send failed calls only (-x). */
const volatile bool failed_only;

/* fsconfig commands whose key, and whose value, is a string. */
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_SET_PATH 3
#define FSCONFIG_SET_PATH_EMPTY 4
#define FSCONFIG_SET_FD 5

/* A call in flight: its raw arguments. */
struct mount_args {
	__u64 args[5];
	__u32 call;
};

BPFKIT_STAGING(struct mount_args);

/* The record is too big for the stack: build it here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mountsnoop_event);
} mountsnoop_scratch SEC(".maps");

static __always_inline int enter(const struct mount_args *a)
{
	bpfkit_stage(&bpfkit_staging, a, sizeof(*a));
	return 0;
}

/* Read the user string at ADDR into DST; empty when absent or unreadable. */
static __always_inline void read_str(char *dst, __u32 size, __u64 addr)
{
	dst[0] = '\0';
	if (addr)
		bpf_probe_read_user_str(dst, size, (const void *)addr);
}

/* Put each argument where struct mountsnoop_event says it goes. */
static __always_inline void fill_args(struct mountsnoop_event *e,
				      const struct mount_args *a)
{
	const __u64 *v = a->args;

	e->flags = e->aux = 0;
	e->fd = e->fd2 = 0;
	e->fstype[0] = e->source[0] = e->target[0] = e->data[0] = '\0';
	switch (a->call) {
	case MOUNTSNOOP_MOUNT:
		read_str(e->source, sizeof(e->source), v[0]);
		read_str(e->target, sizeof(e->target), v[1]);
		read_str(e->fstype, sizeof(e->fstype), v[2]);
		e->flags = v[3];
		read_str(e->data, sizeof(e->data), v[4]);
		break;
	case MOUNTSNOOP_UMOUNT:
		read_str(e->target, sizeof(e->target), v[0]);
		e->flags = v[1];
		break;
	case MOUNTSNOOP_FSOPEN:
		read_str(e->fstype, sizeof(e->fstype), v[0]);
		e->flags = v[1];
		break;
	case MOUNTSNOOP_FSCONFIG:
		e->fd = v[0];
		e->aux = v[1];
		if (v[1] <= FSCONFIG_SET_FD)
			read_str(e->fstype, sizeof(e->fstype), v[2]);
		if (v[1] == FSCONFIG_SET_STRING || v[1] == FSCONFIG_SET_PATH ||
		    v[1] == FSCONFIG_SET_PATH_EMPTY)
			read_str(e->source, sizeof(e->source), v[3]);
		e->fd2 = v[4];
		break;
	case MOUNTSNOOP_FSMOUNT:
		e->fd = v[0];
		e->flags = v[1];
		e->aux = v[2];
		break;
	case MOUNTSNOOP_MOVE_MOUNT:
		e->fd = v[0];
		read_str(e->source, sizeof(e->source), v[1]);
		e->fd2 = v[2];
		read_str(e->target, sizeof(e->target), v[3]);
		e->flags = v[4];
		break;
	case MOUNTSNOOP_OPEN_TREE:
		e->fd = v[0];
		read_str(e->source, sizeof(e->source), v[1]);
		e->flags = v[2];
		break;
	}
}

static __always_inline int leave(void *ctx, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct mountsnoop_event *e;
	struct task_struct *task;
	struct mount_args *a;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	if (failed_only && ret >= 0)
		goto out;
	e = bpfkit_scratch(&mountsnoop_scratch);
	if (!e)
		goto out;

	task = (struct task_struct *)bpf_get_current_task();
	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->uid = bpf_get_current_uid_gid();
	e->ret = ret;
	e->mnt_ns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	e->call = a->call;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	fill_args(e, a);
	bpfkit_emit(ctx, &e->rec, sizeof(*e));
out:
	bpfkit_unstage(&bpfkit_staging, a);
	return 0;
}

/* The exit of every call: one program, attached to each (user space). */
SEC("tracepoint")
int mount_exit(struct syscall_trace_exit *ctx)
{
	return leave(ctx, ctx->ret);
}

/*
 * One enter program per syscall: it reads only the arguments its syscall
 * has, as the kernel refuses to attach a program that reads past the end
 * of its tracepoint's record.
 */
#define MOUNT_CALL(name, call, ...)                              \
	SEC("tracepoint/syscalls/sys_enter_" #name)              \
	int name##_enter(struct syscall_trace_enter *ctx)        \
	{                                                        \
		struct mount_args a = { { __VA_ARGS__ }, call }; \
		return enter(&a);                                \
	}

#define ARGS2 ctx->args[0], ctx->args[1]
#define ARGS3 ARGS2, ctx->args[2]
#define ARGS5 ARGS3, ctx->args[3], ctx->args[4]

MOUNT_CALL(mount, MOUNTSNOOP_MOUNT, ARGS5)
MOUNT_CALL(umount, MOUNTSNOOP_UMOUNT, ARGS2)
MOUNT_CALL(fsopen, MOUNTSNOOP_FSOPEN, ARGS2)
MOUNT_CALL(fsconfig, MOUNTSNOOP_FSCONFIG, ARGS5)
MOUNT_CALL(fsmount, MOUNTSNOOP_FSMOUNT, ARGS3)
MOUNT_CALL(move_mount, MOUNTSNOOP_MOVE_MOUNT, ARGS5)
MOUNT_CALL(open_tree, MOUNTSNOOP_OPEN_TREE, ARGS3)
