// SPDX-License-Identifier: GPL-2.0
/*
 * tcpretrans: every retransmitted segment from tcp:tcp_retransmit_skb,
 * with the socket's flow and state, and its process where known: taken on
 * sock:inet_sock_set_state at the socket's first change in a task of its
 * own (listen, connect, close) and kept by socket until CLOSE, since
 * retransmits mostly run from the retransmit timer, in softirq.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpretrans.h"

char LICENSE[] SEC("license") = "GPL";

/* -p, -u, -c or --cgroup is set: a retransmit needs an owner that passes. */
const volatile bool filtered;

/*
 * tcp:tcp_retransmit_skb's fields up to daddr_v6, the same from Linux 4.16
 * to 6.18 (its struct's name in BTF changed, so no CO-RE by that name).
 */
struct retransmit_ctx {
	__u64 common;
	const void *skbaddr;
	const void *skaddr;
	int state;
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u8 saddr[4];
	__u8 daddr[4];
	__u8 saddr_v6[16];
	__u8 daddr_v6[16];
};

struct owner {
	__u32 pid;
	__u32 uid;
	__u32 selected; /* passes the common filters */
	char comm[BPFKIT_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct owner);
} tcpretrans_owners SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int tcpretrans_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 key = (__u64)ctx->skaddr;
	struct owner o = {};

	if (ctx->protocol != BPFKIT_IPPROTO_TCP)
		return 0;
	if (ctx->newstate == BPFKIT_TCP_CLOSE) {
		bpfkit_sock_forget(&tcpretrans_owners, ctx->skaddr);
		return 0;
	}
	if (!bpfkit_tcp_in_owner_task(ctx->newstate) ||
	    bpfkit_sock_lookup(&tcpretrans_owners, ctx->skaddr))
		return 0;
	o.selected = bpfkit_selected();
	o.pid = bpf_get_current_pid_tgid() >> 32;
	o.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(o.comm, sizeof(o.comm));
	/* A full map only leaves the process unknown. */
	bpf_map_update_elem(&tcpretrans_owners, &key, &o, BPF_NOEXIST);
	return 0;
}

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tcpretrans_skb(struct retransmit_ctx *ctx)
{
	struct tcpretrans_event e = {};
	struct owner *o;

	o = bpfkit_sock_lookup(&tcpretrans_owners, ctx->skaddr);
	if (o && !o->selected)
		return 0;
	if (!o && filtered)
		return 0;
	e.flow.family = ctx->family;
	e.flow.sport = ctx->sport;
	e.flow.dport = ctx->dport;
	if (ctx->family == BPFKIT_AF_INET) {
		bpf_probe_read_kernel(e.flow.saddr, 4, ctx->saddr);
		bpf_probe_read_kernel(e.flow.daddr, 4, ctx->daddr);
	} else {
		bpf_probe_read_kernel(e.flow.saddr, 16, ctx->saddr_v6);
		bpf_probe_read_kernel(e.flow.daddr, 16, ctx->daddr_v6);
	}
	if (!bpfkit_family_selected(&e.flow))
		return 0;
	e.state = ctx->state;
	if (o) {
		e.owned = 1;
		e.pid = o->pid;
		e.uid = o->uid;
		__builtin_memcpy(e.comm, o->comm, sizeof(e.comm));
	}
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
