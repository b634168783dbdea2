// SPDX-License-Identifier: GPL-2.0
/*
 * tcpstates: every TCP state change from sock:inet_sock_set_state, with
 * the time the socket spent in its old state, kept by socket from its
 * previous change. The socket's process is taken at the first change that
 * runs in a task of its own (SYN_SENT: the connecting task; FIN_WAIT1,
 * LAST_ACK: the closing one), with its ids for the records' headers
 * (containers); the others often run in softirq.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpstates.h"

char LICENSE[] SEC("license") = "GPL";

/* A socket's last change, and its process once known. */
struct sock_state {
	struct bpfkit_record task; /* the owner's ids; zero while unknown */
	__u64 changed_ns;
	__u32 pid;
	__u32 uid;
	__u32 owned; /* pid, uid and comm are known */
	__u32 left_out; /* ...and do not pass the common filters */
	char comm[BPFKIT_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct sock_state);
} tcpstates_socks SEC(".maps");

static __always_inline void take_owner(struct sock_state *s)
{
	s->owned = 1;
	if (!bpfkit_selected()) {
		s->left_out = 1;
		return;
	}
	bpfkit_record_task(&s->task);
	s->pid = bpf_get_current_pid_tgid() >> 32;
	s->uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(s->comm, sizeof(s->comm));
}

SEC("tracepoint/sock/inet_sock_set_state")
int tcpstates_change(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct sock_state *s, fresh = {};
	struct tcpstates_event e = {};
	__u64 now = bpf_ktime_get_ns();

	if (ctx->protocol != BPFKIT_IPPROTO_TCP)
		return 0;
	s = bpfkit_sock_lookup(&tcpstates_socks, ctx->skaddr);
	if (s) {
		e.prev_ns = now - s->changed_ns;
		s->changed_ns = now;
		if (!s->owned && bpfkit_tcp_in_owner_task(ctx->newstate))
			take_owner(s);
	} else {
		/* A socket first seen: keep it, or count the change lost. */
		s = &fresh;
		s->changed_ns = now;
		if (bpfkit_tcp_in_owner_task(ctx->newstate))
			take_owner(s);
		if (ctx->newstate != BPFKIT_TCP_CLOSE &&
		    bpfkit_sock_stage(&tcpstates_socks, ctx->skaddr, s))
			return 0;
	}

	bpfkit_tp_flow(ctx, &e.flow);
	/* With -p, -u, -c or --cgroup, a change needs an owner that passes. */
	if (!s->left_out && (!bpfkit_filtering() || s->owned) &&
	    bpfkit_flow_selected(&e.flow)) {
		e.rec = s->task;
		e.skaddr = (__u64)ctx->skaddr;
		e.oldstate = ctx->oldstate;
		e.newstate = ctx->newstate;
		e.owned = s->owned;
		e.pid = s->pid;
		e.uid = s->uid;
		__builtin_memcpy(e.comm, s->comm, sizeof(e.comm));
		bpfkit_emit_stamped(ctx, &e.rec, sizeof(e));
	}
	if (ctx->newstate == BPFKIT_TCP_CLOSE)
		bpfkit_sock_forget(&tcpstates_socks, ctx->skaddr);
	return 0;
}
