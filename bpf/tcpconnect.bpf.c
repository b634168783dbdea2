// SPDX-License-Identifier: GPL-2.0
/*
 * tcpconnect: on sock:inet_sock_set_state, CLOSE -> SYN_SENT runs in the
 * connecting task: keep its pid, uid and comm by socket. The socket's
 * next transition (often in softirq) is the outcome: ESTABLISHED, or
 * CLOSE with the error the kernel left in sk_err (ECONNREFUSED from a
 * reset, ETIMEDOUT); send it with the flow as the tracepoint gives it.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpconnect.h"

char LICENSE[] SEC("license") = "GPL";

/* Send failed connects only (-x). */
const volatile bool failed_only;
/* Send connects to these ports only (-P). */
const volatile struct bpfkit_ports dports;

/* A connect in flight: its task, by socket. */
struct connect_start {
	__u64 start_ns;
	__u32 pid;
	__u32 tid;
	__u32 uid;
	char comm[BPFKIT_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct connect_start);
} tcpconnect_socks SEC(".maps");

static __always_inline int
connect_begin(const struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct connect_start s = {};

	if (!bpfkit_selected())
		return 0;
	s.start_ns = bpf_ktime_get_ns();
	s.pid = pid_tgid >> 32;
	s.tid = pid_tgid;
	s.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(s.comm, sizeof(s.comm));
	bpfkit_sock_stage(&tcpconnect_socks, ctx->skaddr, &s);
	return 0;
}

SEC("tracepoint/sock/inet_sock_set_state")
int tcpconnect_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct tcpconnect_event e = {};
	struct connect_start *s;

	if (ctx->protocol != BPFKIT_IPPROTO_TCP)
		return 0;
	if (ctx->newstate == BPFKIT_TCP_SYN_SENT)
		return connect_begin(ctx);
	if (ctx->oldstate != BPFKIT_TCP_SYN_SENT)
		return 0;
	s = bpfkit_sock_lookup(&tcpconnect_socks, ctx->skaddr);
	if (!s)
		return 0;
	bpfkit_tp_flow(ctx, &e.flow);
	if ((failed_only && ctx->newstate == BPFKIT_TCP_ESTABLISHED) ||
	    !bpfkit_family_selected(&e.flow) ||
	    !bpfkit_port_selected(&dports, e.flow.dport))
		goto out;
	e.start_ns = s->start_ns;
	e.pid = s->pid;
	e.tid = s->tid;
	e.uid = s->uid;
	__builtin_memcpy(e.comm, s->comm, sizeof(e.comm));
	e.state = ctx->newstate;
	if (ctx->newstate != BPFKIT_TCP_ESTABLISHED)
		e.error = BPF_CORE_READ((struct sock *)ctx->skaddr, sk_err);
	bpfkit_emit(ctx, &e.rec, sizeof(e));
out:
	bpfkit_sock_forget(&tcpconnect_socks, ctx->skaddr);
	return 0;
}
