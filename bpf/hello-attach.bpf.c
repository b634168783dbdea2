// SPDX-License-Identifier: GPL-2.0
/*
 * hello-attach: send pid, uid, command and the program path for every
 * execve, seen by one of six attach types (Learning eBPF, chapter 7). Each
 * program finds execve's filename argument its own way; user space loads
 * only the one it picked.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "hello-attach.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load, for the raw sys_enter programs. */
const volatile long execve_nr = -1;

/* Build and send the record for an execve of FILENAME seen by TYPE. */
static __always_inline int send(void *ctx, const char *filename,
				enum hello_attach_type type)
{
	struct hello_attach_event e = {};

	if (!bpfkit_selected())
		return 0;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = bpf_get_current_uid_gid() & 0xffffffff;
	bpf_get_current_comm(e.command, sizeof(e.command));
	e.attach = type;
	bpf_probe_read_user_str(e.path, sizeof(e.path), filename);

	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}

/* The stable tracepoint: execve's arguments as a typed record. */
SEC("tracepoint/syscalls/sys_enter_execve")
int hello_tracepoint(struct syscall_trace_enter *ctx)
{
	return send(ctx, (const char *)ctx->args[0], HELLO_ATTACH_TRACEPOINT);
}

/* The BTF-typed raw tracepoint every syscall enters through. */
SEC("tp_btf/sys_enter")
int BPF_PROG(hello_tp_btf, struct pt_regs *regs, long id)
{
	if (id != execve_nr)
		return 0;
	return send(ctx, (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs),
		    HELLO_ATTACH_TP_BTF);
}

/* The same raw tracepoint, untyped: args[0] is pt_regs, args[1] the nr. */
SEC("raw_tp/sys_enter")
int hello_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];

	if (ctx->args[1] != execve_nr)
		return 0;
	return send(ctx, (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs),
		    HELLO_ATTACH_RAW_TP);
}

/* A trampoline on the syscall's kernel function (aimed by user space). */
SEC("fentry")
int BPF_PROG(hello_fentry, struct pt_regs *regs)
{
	return send(ctx, (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs),
		    HELLO_ATTACH_FENTRY);
}

/* libbpf finds the syscall's kernel function and decodes its arguments. */
SEC("ksyscall/execve")
int BPF_KSYSCALL(hello_ksyscall, const char *filename)
{
	return send(ctx, filename, HELLO_ATTACH_KSYSCALL);
}

/* A kprobe on the syscall's kernel function, named by user space. */
SEC("kprobe")
int BPF_KSYSCALL(hello_kprobe, const char *filename)
{
	return send(ctx, filename, HELLO_ATTACH_KPROBE);
}
