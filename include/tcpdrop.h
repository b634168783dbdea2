/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The record tcpdrop sends for every packet the kernel dropped
 * (skb:kfree_skb), and the drop reasons it is told to keep.
 */
#ifndef TCPDROP_H
#define TCPDROP_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

/* The IP protocol numbers tcpdrop reads headers for. */
#define TCPDROP_IPPROTO_TCP 6

/* The link-layer protocols (skb->protocol, host order) with IP headers. */
#define TCPDROP_ETH_P_IP 0x0800
#define TCPDROP_ETH_P_IPV6 0x86dd

/* The drop reasons -R keeps: one bit per enum skb_drop_reason value. */
#define TCPDROP_REASONS_MAX 1024

struct tcpdrop_reasons {
	__u32 any; /* -R given: only the reasons whose bits are set */
	__u64 bits[TCPDROP_REASONS_MAX / 64];
};

/*
 * The kernel code that runs softirqs (handle_softirqs, 6.8+, which every
 * way of running them passes through, and where it is found, the others
 * are not looked for; the same specialised by the compiler as
 * handle_softirqs.constprop.0, as in Debian's 6.1 PREEMPT_RT kernel, where
 * a task's local_bh_enable() runs them through it, not __do_softirq;
 * before 6.8 __do_softirq), for the BPF side to find in a drop's stack:
 * [start, end), 0 if absent.
 */
#define TCPDROP_SOFTIRQ_FUNCS 3
#define TCPDROP_STACK_DEPTH 64

struct tcpdrop_code_range {
	__u64 start;
	__u64 end;
};

/* What the kernel gave as the reason (the tracepoint's field, 5.17+). */
enum tcpdrop_reason_kind {
	TCPDROP_REASON_GIVEN = 1,
	TCPDROP_REASON_NOT_GIVEN, /* a kernel before 5.17: no reason field */
};

/* Where the drop ran: only a task's own context has a meaningful pid. */
enum tcpdrop_context {
	TCPDROP_IN_TASK,
	TCPDROP_IN_INTERRUPT, /* softirq, hardirq or NMI: on an interrupt stack */
	TCPDROP_IN_UNKNOWN, /* the tracepoint's registers could not be read */
};

struct tcpdrop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	/* With IP headers: saddr, sport are the packet's source. */
	struct bpfkit_flow flow;
	__u32 reason; /* enum skb_drop_reason, with TCPDROP_REASON_GIVEN */
	__u32 pid; /* the current task, in TCPDROP_IN_TASK */
	__u32 tid;
	__u16 ethertype; /* skb->protocol, host order */
	__u8 ipproto; /* the IP protocol; 0: not IP, or no IP header */
	__u8 tcpflags; /* TCP: the header's flags byte (FIN 0x01 ... CWR 0x80) */
	__u8 reason_kind; /* enum tcpdrop_reason_kind */
	__u8 context; /* enum tcpdrop_context */
	__u8 pad[2];
	char comm[BPFKIT_COMM_LEN]; /* the current task, in TCPDROP_IN_TASK */
};

#endif /* TCPDROP_H */
