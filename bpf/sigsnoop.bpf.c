// SPDX-License-Identifier: GPL-2.0
/*
 * sigsnoop: send a record for every signal the kernel generates
 * (signal:signal_generate), and for every kill-family syscall that failed
 * before generating one (e.g. EPERM, ESRCH).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "sigsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool kill_only; /* -k: signals sent by kill-family calls */
const volatile bool failed_only; /* -x: not delivered, or the call failed */
const volatile int target_sig; /* -s: this signal only; 0: all */

/* A kill(2), tkill(2) or tgkill(2) in flight. */
struct kill_call {
	__s32 tpid;
	__s32 sig;
	bool generated;
};

BPFKIT_STAGING(struct kill_call);

static __always_inline void fill_sender(struct sigsnoop_event *e)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	e->pid = pid_tgid >> 32;
	e->tid = pid_tgid;
	e->uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
}

static __always_inline int kill_enter(__s32 tpid, __s32 sig)
{
	struct kill_call k = { .tpid = tpid, .sig = sig };

	if (target_sig && sig != target_sig)
		return 0;
	/*
	 * Unstaged, the call's failure cannot be reported, nor its signal
	 * with -k: count it lost (without -k the signal is still sent).
	 */
	bpfkit_stage(&bpfkit_staging, &k, sizeof(k));
	return 0;
}

/* Report a call that failed without generating a signal. */
static __always_inline int kill_exit(void *ctx, long ret)
{
	struct sigsnoop_event e = {};
	struct kill_call *k;

	k = bpfkit_staged(&bpfkit_staging);
	if (!k)
		return 0;
	if (ret < 0 && !k->generated) {
		fill_sender(&e);
		e.tpid = k->tpid;
		e.sig = k->sig;
		e.result = SIGSNOOP_FAILED;
		e.err = -ret;
		e.kill = 1;
		bpfkit_emit(ctx, &e.rec, sizeof(e));
	}
	bpfkit_unstage(&bpfkit_staging, k);
	return 0;
}

/* The record: vmlinux.h's type, each field's offset relocated by CO-RE. */
SEC("tracepoint/signal/signal_generate")
int signal_generate(struct trace_event_raw_signal_generate *ctx)
{
	struct sigsnoop_event e = {};
	int sig = ctx->sig, result = ctx->result;
	struct kill_call *k;

	/* A kill-family call in flight was selected at its entry. */
	k = bpfkit_staged(&bpfkit_staging);
	if (k)
		k->generated = true;
	else if (kill_only || !bpfkit_selected())
		return 0;
	if (target_sig && sig != target_sig)
		return 0;
	if (failed_only && result == TRACE_SIGNAL_DELIVERED)
		return 0;

	fill_sender(&e);
	e.tpid = ctx->pid;
	e.sig = sig;
	e.code = ctx->code;
	e.result = result;
	e.kill = k != NULL;
	e.group = ctx->group;
	bpf_probe_read_kernel(e.tcomm, sizeof(e.tcomm), ctx->comm);
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_kill")
int kill_entry(struct syscall_trace_enter *ctx)
{
	return kill_enter(ctx->args[0], ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_enter_tkill")
int tkill_entry(struct syscall_trace_enter *ctx)
{
	return kill_enter(ctx->args[0], ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_enter_tgkill")
int tgkill_entry(struct syscall_trace_enter *ctx)
{
	return kill_enter(ctx->args[1], ctx->args[2]);
}

/* The exit of every kill: one program, attached to each (user space). */
SEC("tracepoint")
int kill_return(struct syscall_trace_exit *ctx)
{
	return kill_exit(ctx, ctx->ret);
}
