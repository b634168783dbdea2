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
 * tcp:tcp_retransmit_skb's context at its format file's layouts, which
 * user space checks and picks (layout_family, layout_err), rather than
 * vmlinux.h's types, whose CO-RE relocations would have libbpf parse and
 * search the kernel's BTF: with the socket's family since Linux 5.16, and
 * on newer kernels (6.18 here) with the retransmit's error after it, the
 * event then firing for a retransmit that failed too.
 */
struct retransmit_ctx {
	__u64 common; /* the tracepoints' common header */
	const void *skbaddr; /* offset 8 */
	const void *skaddr; /* 16 */
	int state; /* 24 */
	__u16 sport; /* 28 */
	__u16 dport; /* 30 */
	__u16 family; /* 32 */
	__u8 saddr[4]; /* 34 */
	__u8 daddr[4]; /* 38 */
	__u8 saddr_v6[16]; /* 42 */
	__u8 daddr_v6[16]; /* 58 */
	int err; /* 76, where layout_err */
};

/* Before Linux 5.16 (5.10's): no family, IPv4 addresses v4-mapped too. */
struct retransmit_ctx_old {
	__u64 common;
	const void *skbaddr; /* 8 */
	const void *skaddr; /* 16 */
	int state; /* 24 */
	__u16 sport; /* 28 */
	__u16 dport; /* 30 */
	__u8 saddr[4]; /* 32 */
	__u8 daddr[4]; /* 36 */
	__u8 saddr_v6[16]; /* 40 */
	__u8 daddr_v6[16]; /* 56 */
};

const volatile bool layout_family = true;
const volatile bool layout_err;

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
 * The flow of retransmit event C (either layout) with family FAMILY, and
 * its state, read by helper (a load the compiler shares between the two
 * layouts would go through a modified ctx pointer, which the verifier
 * refuses).
 */
#define retransmit_flow(c, f, family_)                                      \
	({                                                                  \
		(f)->family = (family_);                                    \
		(f)->sport = BPF_PROBE_READ(c, sport);                      \
		(f)->dport = BPF_PROBE_READ(c, dport);                      \
		if ((f)->family == BPFKIT_AF_INET) {                        \
			bpf_probe_read_kernel((f)->saddr, 4, c->saddr);     \
			bpf_probe_read_kernel((f)->daddr, 4, c->daddr);     \
		} else {                                                    \
			bpf_probe_read_kernel((f)->saddr, 16, c->saddr_v6); \
			bpf_probe_read_kernel((f)->daddr, 16, c->daddr_v6); \
		}                                                           \
		BPF_PROBE_READ(c, state);                                   \
	})

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tcpretrans_skb(void *ctx)
{
	struct retransmit_ctx *c = ctx;
	struct retransmit_ctx_old *old = ctx;
	struct tcpretrans_event e = {};
	const void *skaddr;
	struct owner *o;

	/* A retransmit that failed sent nothing. */
	if (layout_err && BPF_PROBE_READ(c, err))
		return 0;
	skaddr = layout_family ? BPF_PROBE_READ(c, skaddr) :
				 BPF_PROBE_READ(old, skaddr);
	o = bpfkit_sock_lookup(&tcpretrans_owners, skaddr);
	if (o && !o->selected)
		return 0;
	if (!o && filtered)
		return 0;
	if (layout_family)
		e.state =
			retransmit_flow(c, &e.flow, BPF_PROBE_READ(c, family));
	else
		e.state = retransmit_flow(old, &e.flow, BPFKIT_AF_INET6);
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
