// SPDX-License-Identifier: GPL-2.0
/*
 * hello-buffer: send pid, uid, command, a greeting and the program path for
 * every execve. The same event comes from six attach types (Learning eBPF,
 * chapter 7); user space loads only the one it picked.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "hello-buffer.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile bool even_odd; /* greet by pid parity */
const volatile long execve_nr = -1; /* for the sys_enter programs */

/* -m UID=TEXT: a greeting per uid, filled by user space after load. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HB_MAX_MESSAGES);
	__type(key, __u32);
	__type(value, char[HB_MESSAGE_LEN]);
} messages SEC(".maps");

static const char hello[HB_MESSAGE_LEN] = "Hello World";
static const char even[HB_MESSAGE_LEN] = "Even pid";
static const char odd[HB_MESSAGE_LEN] = "Odd pid";

/* The uid's own greeting, else the pid's parity with --even-odd, else hello. */
static __always_inline void greet(char *message, __u32 pid, __u32 uid)
{
	const char *text = bpf_map_lookup_elem(&messages, &uid);

	if (!text)
		text = !even_odd ? hello : pid & 1 ? odd : even;
	__builtin_memcpy(message, text, HB_MESSAGE_LEN);
}

/* Build and send the record for an execve of FILENAME seen by TYPE. */
static __always_inline int send(void *ctx, const char *filename,
				enum hb_attach type)
{
	struct hello_buffer_event e = {};

	if (!bpfkit_selected())
		return 0;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = bpf_get_current_uid_gid() & 0xffffffff;
	bpf_get_current_comm(e.command, sizeof(e.command));
	greet(e.message, e.pid, e.uid);
	e.attach = type;
	bpf_probe_read_user_str(e.path, sizeof(e.path), filename);

	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}

/* The stable tracepoint: execve's arguments as a typed record. */
SEC("tracepoint/syscalls/sys_enter_execve")
int hello_tracepoint(struct syscall_trace_enter *ctx)
{
	return send(ctx, (const char *)ctx->args[0], HB_TRACEPOINT);
}

/* The BTF-typed raw tracepoint every syscall enters through. */
SEC("tp_btf/sys_enter")
int BPF_PROG(hello_tp_btf, struct pt_regs *regs, long id)
{
	if (id != execve_nr)
		return 0;
	return send(ctx, (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs),
		    HB_TP_BTF);
}

/* The same raw tracepoint, untyped: args[0] is pt_regs, args[1] the nr. */
SEC("raw_tp/sys_enter")
int hello_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];

	if (ctx->args[1] != execve_nr)
		return 0;
	return send(ctx, (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs),
		    HB_RAW_TP);
}

/* A trampoline on the syscall wrapper (target set by user space). */
SEC("fentry")
int BPF_PROG(hello_fentry, struct pt_regs *regs)
{
	return send(ctx, (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs),
		    HB_FENTRY);
}

/* libbpf finds the syscall's kernel function and decodes its arguments. */
SEC("ksyscall/execve")
int BPF_KSYSCALL(hello_ksyscall, const char *filename)
{
	return send(ctx, filename, HB_KSYSCALL);
}

/* A kprobe on the syscall's kernel function, named by user space. */
SEC("kprobe")
int BPF_KSYSCALL(hello_kprobe, const char *filename)
{
	return send(ctx, filename, HB_KPROBE);
}
