// SPDX-License-Identifier: GPL-2.0
/*
 * hello-tail: one dispatcher on every syscall entry tail-calls the program
 * that user space put at the syscall's number in a program array. Each
 * target reports its kind of syscall; a number with no program falls
 * through, to be ignored or, with --all, reported as another syscall.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "hello-tail.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile bool report_all; /* --all: report unhandled syscalls */
const volatile __u32 self_pid; /* never report our own syscalls */

/* Syscall number -> program; sized and filled by user space. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} programs SEC(".maps");

/* Send the current task's record for syscall NR. */
static __always_inline int report(void *ctx, long nr, enum hello_tail_kind kind)
{
	struct hello_tail_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	e.nr = nr;
	e.kind = kind;
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}

/* The raw tracepoint's arguments: the registers and the syscall number. */
SEC("raw_tp/sys_enter")
int BPF_PROG(dispatch, struct pt_regs *regs, long id)
{
	if ((bpf_get_current_pid_tgid() >> 32) == self_pid ||
	    !bpfkit_selected())
		return 0;

	/* Jump to the syscall's program; returns only if there is none. */
	bpf_tail_call(ctx, &programs, id);
	if (report_all)
		report(ctx, id, HELLO_TAIL_OTHER);
	return 0;
}

/* The targets: reached only by tail call, never attached themselves. */
SEC("raw_tp")
int BPF_PROG(hello_exec, struct pt_regs *regs, long id)
{
	return report(ctx, id, HELLO_TAIL_EXEC);
}

SEC("raw_tp")
int BPF_PROG(hello_timer_create, struct pt_regs *regs, long id)
{
	return report(ctx, id, HELLO_TAIL_TIMER_CREATE);
}

SEC("raw_tp")
int BPF_PROG(hello_timer_delete, struct pt_regs *regs, long id)
{
	return report(ctx, id, HELLO_TAIL_TIMER_DELETE);
}

SEC("raw_tp")
int BPF_PROG(hello_timer_other, struct pt_regs *regs, long id)
{
	return report(ctx, id, HELLO_TAIL_TIMER_OTHER);
}
