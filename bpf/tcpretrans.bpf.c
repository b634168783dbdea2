// SPDX-License-Identifier: GPL-2.0
/*
 * tcpretrans: every retransmitted segment from tcp:tcp_retransmit_skb,
 * with the socket's flow and state, and its process where known: taken on
 * sock:inet_sock_set_state at the socket's first change in a task of its
 * own (listen, connect, close) and kept by socket until CLOSE, since
 * retransmits mostly run from the retransmit timer, in softirq.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpretrans.h"

char LICENSE[] SEC("license") = "GPL";

/* -p, -u, -c or --cgroup is set: a retransmit needs an owner that passes. */
const volatile bool filtered;

/*
 * tcp:tcp_retransmit_skb's context, read by CO-RE: an event of its own
 * (struct trace_event_raw_tcp_retransmit_skb, vmlinux.h) from Linux 4.15
 * and again in recent kernels, where it gained err (the event then fires
 * for a retransmit that failed too); one of the tcp_event_sk_skb class in
 * between (6.1's), which gained family later (5.10's has none).
 */
struct trace_event_raw_tcp_event_sk_skb {
	const void *skaddr;
	int state;
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u8 saddr[4];
	__u8 daddr[4];
	__u8 saddr_v6[16];
	__u8 daddr_v6[16];
} __attribute__((preserve_access_index));

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
int tcpretrans_state(struct bpfkit_sock_state_ctx *ctx)
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

/*
 * The flow of CTX, a retransmit event of type T, and its state, read by
 * helper (a load the compiler shares between the two types would go
 * through a modified ctx pointer, which the verifier refuses); without a
 * family field, IPv6's, where the kernel keeps an IPv4 address v4-mapped.
 */
#define retransmit_flow(T, ctx, f)                                          \
	({                                                                  \
		T *c = (void *)(ctx);                                       \
		(f)->family = bpf_core_field_exists(c->family) ?            \
				      BPF_CORE_READ(c, family) :            \
				      BPFKIT_AF_INET6;                      \
		(f)->sport = BPF_CORE_READ(c, sport);                       \
		(f)->dport = BPF_CORE_READ(c, dport);                       \
		if ((f)->family == BPFKIT_AF_INET) {                        \
			bpf_probe_read_kernel((f)->saddr, 4, c->saddr);     \
			bpf_probe_read_kernel((f)->daddr, 4, c->daddr);     \
		} else {                                                    \
			bpf_probe_read_kernel((f)->saddr, 16, c->saddr_v6); \
			bpf_probe_read_kernel((f)->daddr, 16, c->daddr_v6); \
		}                                                           \
		BPF_CORE_READ(c, state);                                    \
	})

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tcpretrans_skb(void *ctx)
{
	struct trace_event_raw_tcp_retransmit_skb *own = ctx;
	struct trace_event_raw_tcp_event_sk_skb *class = ctx;
	struct tcpretrans_event e = {};
	const void *skaddr;
	struct owner *o;

	if (bpf_core_type_exists(struct trace_event_raw_tcp_retransmit_skb)) {
		/* A retransmit that failed sent nothing. */
		if (bpf_core_field_exists(own->err) && BPF_CORE_READ(own, err))
			return 0;
		skaddr = BPF_CORE_READ(own, skaddr);
	} else {
		skaddr = BPF_CORE_READ(class, skaddr);
	}
	o = bpfkit_sock_lookup(&tcpretrans_owners, skaddr);
	if (o && !o->selected)
		return 0;
	if (!o && filtered)
		return 0;
	if (bpf_core_type_exists(struct trace_event_raw_tcp_retransmit_skb))
		e.state = retransmit_flow(
			struct trace_event_raw_tcp_retransmit_skb, ctx,
			&e.flow);
	else
		e.state = retransmit_flow(
			struct trace_event_raw_tcp_event_sk_skb, ctx, &e.flow);
	if (!bpfkit_family_selected(&e.flow))
		return 0;
	if (o) {
		e.owned = 1;
		e.pid = o->pid;
		e.uid = o->uid;
		__builtin_memcpy(e.comm, o->comm, sizeof(e.comm));
	}
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
