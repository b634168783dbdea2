// SPDX-License-Identifier: GPL-2.0
/*
 * tcpretrans: every retransmitted segment from tcp:tcp_retransmit_skb,
 * with the socket's flow and state, and its process where known: taken on
 * sock:inet_sock_set_state at the socket's first change in a task of its
 * own (listen, connect, close), with its ids for the record's header
 * (containers), and kept by socket until CLOSE, since retransmits mostly
 * run from the retransmit timer, in softirq.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpretrans.h"

char LICENSE[] SEC("license") = "GPL";

struct owner {
	struct bpfkit_record task; /* its ids */
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
	bpfkit_record_task(&o.task);
	o.pid = bpf_get_current_pid_tgid() >> 32;
	o.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(o.comm, sizeof(o.comm));
	/* A full map only leaves the process unknown. */
	bpf_map_update_elem(&tcpretrans_owners, &key, &o, BPF_NOEXIST);
	return 0;
}

/*
 * Flow F and the state of retransmit record C (either record type, see
 * core_fixes.bpf.h), whose family is FAMILY_. Read by helper: a load the
 * compiler shares between the two types would go through a modified ctx
 * pointer, which the verifier refuses.
 */
#define retransmit_flow(c, f, family_)                                 \
	({                                                             \
		(f)->family = (family_);                               \
		(f)->sport = BPF_CORE_READ(c, sport);                  \
		(f)->dport = BPF_CORE_READ(c, dport);                  \
		if ((f)->family == BPFKIT_AF_INET) {                   \
			bpf_core_read((f)->saddr, 4, &(c)->saddr);     \
			bpf_core_read((f)->daddr, 4, &(c)->daddr);     \
		} else {                                               \
			bpf_core_read((f)->saddr, 16, &(c)->saddr_v6); \
			bpf_core_read((f)->daddr, 16, &(c)->daddr_v6); \
		}                                                      \
		BPF_CORE_READ(c, state);                               \
	})

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tcpretrans_skb(void *ctx)
{
	struct trace_event_raw_tcp_retransmit_skb *c = ctx;
	struct trace_event_raw_tcp_event_sk_skb___o *old = ctx;
	bool own =
		bpf_core_type_exists(struct trace_event_raw_tcp_retransmit_skb);
	struct tcpretrans_event e = {};
	const void *skaddr;
	struct owner *o;

	/* A retransmit that failed sent nothing. */
	if (own && bpf_core_field_exists(c->err) && BPF_CORE_READ(c, err))
		return 0;
	skaddr = own ? BPF_CORE_READ(c, skaddr) : BPF_CORE_READ(old, skaddr);
	o = bpfkit_sock_lookup(&tcpretrans_owners, skaddr);
	if (o && !o->selected)
		return 0;
	/* With -p, -u, -c or --cgroup, a retransmit needs an owner that passes. */
	if (!o && bpfkit_filtering())
		return 0;
	if (own)
		e.state = retransmit_flow(c, &e.flow, BPF_CORE_READ(c, family));
	else if (bpf_core_field_exists(old->family))
		e.state = retransmit_flow(old, &e.flow,
					  BPF_CORE_READ(old, family));
	else
		e.state = retransmit_flow(old, &e.flow, BPFKIT_AF_INET6);
	if (!bpfkit_family_selected(&e.flow))
		return 0;
	if (o) {
		e.rec = o->task;
		e.owned = 1;
		e.pid = o->pid;
		e.uid = o->uid;
		__builtin_memcpy(e.comm, o->comm, sizeof(e.comm));
	}
	bpfkit_emit_stamped(ctx, &e.rec, sizeof(e));
	return 0;
}
