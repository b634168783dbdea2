// SPDX-License-Identifier: GPL-2.0
/*
 * tcpdrop: on skb:kfree_skb (every packet the kernel frees as dropped),
 * read the packet's IPv4 or IPv6 header and, for TCP, its ports and flags
 * from the skb's own headers (skb->head + network_header, at offsets from
 * the kernel's BTF), and send them with the drop reason (the tracepoint's
 * reason field, 5.17+). Without -a only TCP drops are sent. The record is
 * read where the tracepoint's format file puts its fields, and the
 * headers through wire layouts of our own: no CO-RE relocation, and no
 * kernel BTF parsed by libbpf at load.
 */
#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/layout.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpdrop.h"

char LICENSE[] SEC("license") = "GPL";

/* Send drops of every protocol (-a), not only TCP's. */
const volatile bool all_protocols;
/* Send these reasons only (-R). */
const volatile struct tcpdrop_reasons reasons;

/* Where this kernel's record has each field (reason: BPFKIT_ABSENT < 5.17). */
const volatile struct tcpdrop_record record;
/* Where the task's stack and the skb's headers are. */
const volatile struct tcpdrop_layout layout;

/* The IPv4, IPv6 and TCP headers as they are on the wire. */
struct wire_ipv4 {
	__u8 version_ihl; /* version: the high 4 bits; ihl: the low 4 */
	__u8 tos;
	__be16 tot_len, id, frag_off;
	__u8 ttl, protocol;
	__sum16 check;
	__be32 saddr, daddr;
};

struct wire_ipv6 {
	__u8 version_prio; /* version: the high 4 bits */
	__u8 flow_lbl[3];
	__be16 payload_len;
	__u8 nexthdr, hop_limit;
	__u8 saddr[16], daddr[16];
};

struct wire_tcp {
	__be16 source, dest;
	__be32 seq, ack_seq;
	__u8 doff, flags; /* the flags byte: 13 bytes in */
};

/* x86-64's struct pt_regs (the ptrace ABI): sp is its 20th register. */
#define PT_REGS_SP_OFFSET (19 * 8)

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
	const void *task = (void *)bpf_get_current_task(), *regs;
	__u64 stack, sp;

	if (bpf_probe_read_kernel(&regs, sizeof(regs), ctx) || !regs)
		return TCPDROP_IN_UNKNOWN;
	sp = bpfkit_read_u64(regs, PT_REGS_SP_OFFSET);
	stack = bpfkit_read_u64(task, layout.task_struct_stack);
	if (sp - stack >= TASK_STACK_SIZE || in_softirq_code(ctx))
		return TCPDROP_IN_INTERRUPT;
	return TCPDROP_IN_TASK;
}

static __always_inline bool reason_selected(__u32 reason)
{
	if (!reasons.any)
		return true;
	if (reason >= TCPDROP_REASONS_MAX)
		return false;
	return reasons.bits[reason / 64] & (1ULL << (reason % 64));
}

/* The TCP header at HEAD + OFF into E: ports and flags. */
static __always_inline void read_tcp(const unsigned char *head, __u32 off,
				     struct tcpdrop_event *e)
{
	struct wire_tcp th;

	if (bpf_probe_read_kernel(&th, sizeof(th), head + off))
		return;
	e->flow.sport = bpf_ntohs(th.source);
	e->flow.dport = bpf_ntohs(th.dest);
	e->tcpflags = th.flags;
}

/*
 * The IP header at the skb's network header (and TCP's after it): the
 * addresses, the protocol and, for TCP, ports and flags, into E.
 */
static __always_inline void read_headers(const void *skb,
					 struct tcpdrop_event *e)
{
	const unsigned char *head = bpfkit_read_ptr(skb, layout.sk_buff_head);
	__u16 nh = bpfkit_read_u16(skb, layout.sk_buff_network_header);
	struct wire_ipv6 ip6;
	struct wire_ipv4 ip;

	if (nh == HEADER_UNSET)
		return;
	if (e->ethertype == TCPDROP_ETH_P_IP) {
		if (bpf_probe_read_kernel(&ip, sizeof(ip), head + nh) ||
		    ip.version_ihl >> 4 != 4)
			return;
		e->flow.family = BPFKIT_AF_INET;
		__builtin_memcpy(e->flow.saddr, &ip.saddr, 4);
		__builtin_memcpy(e->flow.daddr, &ip.daddr, 4);
		e->ipproto = ip.protocol;
		if (ip.protocol == TCPDROP_IPPROTO_TCP)
			read_tcp(head, nh + (ip.version_ihl & 0xf) * 4, e);
		return;
	}
	if (bpf_probe_read_kernel(&ip6, sizeof(ip6), head + nh) ||
	    ip6.version_prio >> 4 != 6)
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
int tcpdrop_kfree_skb(void *ctx)
{
	const void *skb = bpfkit_read_ptr(ctx, record.skbaddr);
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct tcpdrop_event e = {};

	e.ethertype = bpfkit_read_u16(ctx, record.protocol);
	if (e.ethertype != TCPDROP_ETH_P_IP &&
	    e.ethertype != TCPDROP_ETH_P_IPV6 && !all_protocols)
		return 0;
	if (record.reason != BPFKIT_ABSENT) {
		e.reason = bpfkit_read_s32(ctx, record.reason);
		e.reason_kind = TCPDROP_REASON_GIVEN;
	} else {
		e.reason_kind = TCPDROP_REASON_NOT_GIVEN;
	}
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
