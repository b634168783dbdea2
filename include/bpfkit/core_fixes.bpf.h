/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel differences the BPF side meets, in one place, each read the
 * CO-RE way (type flavours, bpf_core_field_exists(), ...) and named with
 * the kernel version that changed it. libbpf resolves every check below at
 * load, against the running kernel's BTF: the branch not taken is dead
 * code the verifier never sees.
 */
#ifndef BPFKIT_CORE_FIXES_BPF_H
#define BPFKIT_CORE_FIXES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>

/*
 * task_struct's state: "state", a long, before Linux 5.14, which renamed
 * it "__state" and made it an unsigned int.
 */
struct task_struct___o {
	volatile long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int bpfkit_task_state(const void *task)
{
	const struct task_struct *t = task;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((const struct task_struct___o *)task, state);
}

/*
 * The network tools' differences.
 *
 * struct sock's sk_protocol and sk_type: bitfields of 8 and 16 bits before
 * Linux 5.6, a u16 each since. Read either way, as libbpf relocates them.
 */
static __always_inline __u16 bpfkit_sock_protocol(const struct sock *sk)
{
	return BPF_CORE_READ_BITFIELD_PROBED(sk, sk_protocol);
}

static __always_inline __u16 bpfkit_sock_type(const struct sock *sk)
{
	return BPF_CORE_READ_BITFIELD_PROBED(sk, sk_type);
}

/*
 * tcp:tcp_retransmit_skb's record: the tcp_event_sk_skb class's (this
 * struct) until the event got a record of its own, with the retransmit's
 * err, after Linux 6.12 (6.18 has it; vmlinux.h's
 * trace_event_raw_tcp_retransmit_skb). The class's record has the
 * socket's family since Linux 5.16; before (5.10), IPv4 addresses are in
 * saddr_v6 and daddr_v6 too, v4-mapped.
 */
struct trace_event_raw_tcp_event_sk_skb___o {
	struct trace_entry ent;
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
} __attribute__((preserve_access_index));

/*
 * skb:kfree_skb's drop reason (enum skb_drop_reason): since Linux 5.17.
 * Is it there? Then its value in *REASON.
 */
static __always_inline bool
bpfkit_kfree_skb_reason(const struct trace_event_raw_kfree_skb *ctx,
			__u32 *reason)
{
	if (!bpf_core_field_exists(ctx->reason))
		return false;
	*reason = ctx->reason;
	return true;
}

#endif /* BPFKIT_CORE_FIXES_BPF_H */
