// SPDX-License-Identifier: GPL-2.0
/*
 * tcpconnect: follow each connect from SYN_SENT (bpfkit/connect.bpf.h);
 * its outcome, ESTABLISHED, or CLOSE with the error the kernel left in
 * sk_err (ECONNREFUSED from a reset, ETIMEDOUT), is sent with the flow as
 * the tracepoint gives it.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/connect.bpf.h"
#include "tcpconnect.h"

char LICENSE[] SEC("license") = "GPL";

/* Send failed connects only (-x). */
const volatile bool failed_only;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct bpfkit_connect);
} tcpconnect_socks SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int tcpconnect_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct tcpconnect_event e = {};
	struct bpfkit_connect *c;
	long err;

	c = bpfkit_tcp_connect(ctx, &tcpconnect_socks, &err);
	if (err)
		bpfkit_drop(BPFKIT_STAGING_FULL);
	if (!c)
		return 0;
	bpfkit_tp_flow(ctx, &e.flow);
	if ((failed_only && ctx->newstate == BPFKIT_TCP_ESTABLISHED) ||
	    !bpfkit_flow_selected(&e.flow))
		goto out;
	e.rec = c->task;
	e.start_ns = c->start_ns;
	e.pid = c->pid;
	e.tid = c->tid;
	e.uid = c->uid;
	__builtin_memcpy(e.comm, c->comm, sizeof(e.comm));
	e.state = ctx->newstate;
	if (ctx->newstate != BPFKIT_TCP_ESTABLISHED)
		e.error = BPF_CORE_READ((struct sock *)ctx->skaddr, sk_err);
	bpfkit_emit_stamped(ctx, &e.rec, sizeof(e));
out:
	bpfkit_sock_forget(&tcpconnect_socks, ctx->skaddr);
	return 0;
}
