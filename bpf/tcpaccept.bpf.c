// SPDX-License-Identifier: GPL-2.0
/*
 * tcpaccept: at the exit of accept(2) and accept4(2), in the accepting
 * task, read the new socket behind the returned fd (task, file table,
 * socket, struct sock, the CO-RE way) and send its flow
 * when it is TCP over IPv4 or IPv6. The connection's own state changes
 * run in softirq, in whatever task was interrupted; the syscall's exit is
 * the accepting task's.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpaccept.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline int accept_exit(struct syscall_trace_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tcpaccept_event e = {};
	struct socket *sock;
	struct sock *sk;

	if (ctx->ret < 0 || !bpfkit_selected())
		return 0;
	sock = bpfkit_fd_socket(ctx->ret);
	sk = sock ? BPF_CORE_READ(sock, sk) : NULL;
	if (!sk || bpfkit_sock_protocol(sk) != BPFKIT_IPPROTO_TCP)
		return 0;
	bpfkit_sock_flow(sk, &e.flow);
	if ((e.flow.family != BPFKIT_AF_INET &&
	     e.flow.family != BPFKIT_AF_INET6) ||
	    !bpfkit_flow_selected(&e.flow))
		return 0;
	e.pid = pid_tgid >> 32;
	e.tid = pid_tgid;
	e.uid = bpf_get_current_uid_gid();
	e.fd = ctx->ret;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_accept4")
int tcpaccept_accept4(struct syscall_trace_exit *ctx)
{
	return accept_exit(ctx);
}

SEC("tracepoint/syscalls/sys_exit_accept")
int tcpaccept_accept(struct syscall_trace_exit *ctx)
{
	return accept_exit(ctx);
}
