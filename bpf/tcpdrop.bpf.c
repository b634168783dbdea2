// SPDX-License-Identifier: GPL-2.0
/*
 * tcpdrop: on skb:kfree_skb (every packet the kernel frees as dropped),
 * read the packet's IPv4 or IPv6 header and, for TCP, its ports and flags
 * from the skb's own headers (skb->head + network_header), and send them
 * with the drop reason (the tracepoint's reason field, 5.17+). Without -a
 * only TCP drops are sent. The record, the skb and the task are read the
 * CO-RE way, the headers through vmlinux.h's iphdr, ipv6hdr and tcphdr.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpdrop.h"

char LICENSE[] SEC("license") = "GPL";

/* Send drops of every protocol (-a), not only TCP's. */
const volatile bool all_protocols;
/* Send these reasons only (-R). */
const volatile struct tcpdrop_reasons reasons;

/* A network header offset the skb has not set (skb_network_header_was_set). */
#define HEADER_UNSET 0xffff

/* x86-64's kernel stack size (THREAD_SIZE, without KASAN). */
#define TASK_STACK_SIZE 16384

/* Where softirqs run (user space finds them in /proc/kallsyms). */
const volatile struct tcpdrop_code_range softirq_code[TCPDROP_SOFTIRQ_FUNCS];

/* A drop's kernel stack, when it must be searched for softirq code. */
struct stack_scratch {
	__u64 ip[TCPDROP_STACK_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stack_scratch);
} tcpdrop_stack SEC(".maps");

/* Does the kernel stack of CTX pass through softirq code? */
static __always_inline bool in_softirq_code(void *ctx)
{
	struct stack_scratch *s;
	__u32 zero = 0;
	long len;
	int i, j;

	s = bpf_map_lookup_elem(&tcpdrop_stack, &zero);
	if (!s)
		return false;
	len = bpf_get_stack(ctx, s->ip, sizeof(s->ip), 0);
	if (len <= 0)
		return false;
	for (i = 0; i < TCPDROP_STACK_DEPTH; i++) {
		if (i >= len / 8)
			break;
		for (j = 0; j < TCPDROP_SOFTIRQ_FUNCS; j++)
			if (s->ip[i] >= softirq_code[j].start &&
			    s->ip[i] < softirq_code[j].end)
				return true;
	}
	return false;
}

/*
 * Does the tracepoint run in the current task's own context? The perf
 * side of a tracepoint leaves its caller's registers first in CTX (the
 * reason a program may not read those 8 bytes itself), their stack
 * pointer where the tracepoint ran. Off the task's own stack it runs on
 * an interrupt stack (hardirq, NMI, softirq run from an interrupt of the
 * kernel or from local_bh_enable()); on it, it may still run softirqs
 * (on return from an interrupt of user space, in ksoftirqd): the current
 * task is then whoever was interrupted, and the stack says so.
 */
static __always_inline __u8 current_context(void *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct pt_regs *regs;
	__u64 stack, sp;

	if (bpf_probe_read_kernel(&regs, sizeof(regs), ctx) || !regs)
		return TCPDROP_IN_UNKNOWN;
	sp = PT_REGS_SP_CORE(regs);
	stack = (__u64)BPF_CORE_READ(task, stack);
	if (sp - stack >= TASK_STACK_SIZE || in_softirq_code(ctx))
		return TCPDROP_IN_INTERRUPT;
	return TCPDROP_IN_TASK;
}

static __always_inline bool reason_selected(__u32 reason)
{
	__u64 word = reason / 64;

	if (!reasons.any)
		return true;
	/* Check the register that indexes, not a copy the compiler makes. */
	barrier_var(word);
	if (word >= TCPDROP_REASONS_MAX / 64)
		return false;
	return reasons.bits[word] & (1ULL << (reason % 64));
}

/* The TCP header at HEAD + OFF into E: ports and flags. */
static __always_inline void read_tcp(const unsigned char *head, __u32 off,
				     struct tcpdrop_event *e)
{
	struct tcphdr th;

	if (bpf_probe_read_kernel(&th, sizeof(th), head + off))
		return;
	e->flow.sport = bpf_ntohs(th.source);
	e->flow.dport = bpf_ntohs(th.dest);
	/* The flags byte, FIN the lowest bit, CWR the highest. */
	e->tcpflags = BPF_CORE_READ_BITFIELD(&th, fin) |
		      BPF_CORE_READ_BITFIELD(&th, syn) << 1 |
		      BPF_CORE_READ_BITFIELD(&th, rst) << 2 |
		      BPF_CORE_READ_BITFIELD(&th, psh) << 3 |
		      BPF_CORE_READ_BITFIELD(&th, ack) << 4 |
		      BPF_CORE_READ_BITFIELD(&th, urg) << 5 |
		      BPF_CORE_READ_BITFIELD(&th, ece) << 6 |
		      BPF_CORE_READ_BITFIELD(&th, cwr) << 7;
}

/*
 * The IP header at the skb's network header (and TCP's after it): the
 * addresses, the protocol and, for TCP, ports and flags, into E.
 */
static __always_inline void read_headers(const struct sk_buff *skb,
					 struct tcpdrop_event *e)
{
	const unsigned char *head = BPF_CORE_READ(skb, head);
	__u16 nh = BPF_CORE_READ(skb, network_header);
	struct ipv6hdr ip6;
	struct iphdr ip;

	if (nh == HEADER_UNSET)
		return;
	if (e->ethertype == TCPDROP_ETH_P_IP) {
		if (bpf_probe_read_kernel(&ip, sizeof(ip), head + nh) ||
		    BPF_CORE_READ_BITFIELD(&ip, version) != 4)
			return;
		e->flow.family = BPFKIT_AF_INET;
		__builtin_memcpy(e->flow.saddr, &ip.saddr, 4);
		__builtin_memcpy(e->flow.daddr, &ip.daddr, 4);
		e->ipproto = ip.protocol;
		if (ip.protocol == TCPDROP_IPPROTO_TCP)
			read_tcp(head,
				 nh + BPF_CORE_READ_BITFIELD(&ip, ihl) * 4, e);
		return;
	}
	if (bpf_probe_read_kernel(&ip6, sizeof(ip6), head + nh) ||
	    BPF_CORE_READ_BITFIELD(&ip6, version) != 6)
		return;
	e->flow.family = BPFKIT_AF_INET6;
	__builtin_memcpy(e->flow.saddr, &ip6.saddr, 16);
	__builtin_memcpy(e->flow.daddr, &ip6.daddr, 16);
	/* Extension headers are not walked: their protocol is the next one. */
	e->ipproto = ip6.nexthdr;
	if (ip6.nexthdr == TCPDROP_IPPROTO_TCP)
		read_tcp(head, nh + sizeof(ip6), e);
}

SEC("tracepoint/skb/kfree_skb")
int tcpdrop_kfree_skb(struct trace_event_raw_kfree_skb *ctx)
{
	const struct sk_buff *skb = ctx->skbaddr;
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tcpdrop_event e = {};

	e.ethertype = ctx->protocol;
	if (e.ethertype != TCPDROP_ETH_P_IP &&
	    e.ethertype != TCPDROP_ETH_P_IPV6 && !all_protocols)
		return 0;
	e.reason_kind = bpfkit_kfree_skb_reason(ctx, &e.reason) ?
				TCPDROP_REASON_GIVEN :
				TCPDROP_REASON_NOT_GIVEN;
	if (!reason_selected(e.reason))
		return 0;
	if (e.ethertype == TCPDROP_ETH_P_IP ||
	    e.ethertype == TCPDROP_ETH_P_IPV6)
		read_headers(skb, &e);
	if (e.ipproto != TCPDROP_IPPROTO_TCP && !all_protocols)
		return 0;
	/* -4/-6 keep the IP drops of that family; others have no family. */
	if (bpfkit_net_cfg.family && !e.flow.family)
		return 0;
	if (!bpfkit_family_selected(&e.flow))
		return 0;
	e.context = current_context(ctx);
	if (e.context == TCPDROP_IN_TASK) {
		e.pid = pid_tgid >> 32;
		e.tid = pid_tgid;
		bpf_get_current_comm(e.comm, sizeof(e.comm));
	}
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
