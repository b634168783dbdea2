// SPDX-License-Identifier: GPL-2.0
/*
 * solisten: keep each listen(2)'s fd and backlog at syscall entry; at
 * exit, read the socket behind the fd (the CO-RE way) for its family,
 * protocol and the address and port it listens on (listen() binds a port
 * of the kernel's choice to an unbound socket), and send them with the
 * result.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "solisten.h"

char LICENSE[] SEC("license") = "GPL";

/* Send failed listens only (-x). */
const volatile bool failed_only;

/* A listen in flight. */
struct listen_args {
	__s32 fd;
	__s32 backlog;
};

BPFKIT_STAGING(struct listen_args);

SEC("tracepoint/syscalls/sys_enter_listen")
int listen_enter(struct syscall_trace_enter *ctx)
{
	struct listen_args a = { .fd = ctx->args[0], .backlog = ctx->args[1] };

	bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_listen")
int listen_exit(struct syscall_trace_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct solisten_event e = {};
	struct listen_args *a;
	struct socket *sock;
	struct sock *sk;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	if (failed_only && ctx->ret >= 0)
		goto out;
	sock = bpfkit_fd_socket(a->fd);
	sk = sock ? BPF_CORE_READ(sock, sk) : NULL;
	if (sk) {
		bpfkit_sock_flow(sk, &e.flow);
		e.proto = bpfkit_sock_protocol(sk);
	}
	/* -4/-6 and -P leave out what is not theirs, and what is no socket. */
	if (!bpfkit_flow_selected(&e.flow))
		goto out;
	e.pid = pid_tgid >> 32;
	e.tid = tid;
	e.uid = bpf_get_current_uid_gid();
	e.ret = ctx->ret;
	e.fd = a->fd;
	e.backlog = a->backlog;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
out:
	bpfkit_unstage(&bpfkit_staging, a);
	return 0;
}
