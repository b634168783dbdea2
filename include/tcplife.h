/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcplife sends for every TCP session that closed. */
#ifndef TCPLIFE_H
#define TCPLIFE_H

#include "bpfkit/channel.h"
#include "bpfkit/layout.h"
#include "bpfkit/net.h"

struct tcplife_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	struct bpfkit_flow flow; /* local is the source */
	__u64 tx_bytes; /* tcp_sock.bytes_acked: sent and acknowledged */
	__u64 rx_bytes; /* tcp_sock.bytes_received */
	__u64 duration_ns; /* first transition (SYN_SENT, SYN_RECV) to CLOSE */
	__u32 pid; /* the task that connected or closed it */
	__u32 uid;
	__u32 owned; /* pid, uid and comm are known */
	char comm[BPFKIT_COMM_LEN];
};

/*
 * The kernel struct members the BPF side reads at offsets from the kernel's
 * BTF, without CO-RE (bpfkit/layout.h): X(struct, member, bytes read). A
 * tcp_sock begins with its struct sock.
 */
#define TCPLIFE_MEMBERS(X)             \
	X(tcp_sock, bytes_acked, 8)    \
	X(tcp_sock, bytes_received, 8) \
	X(tcp_sock, snd_una, 4)        \
	X(tcp_sock, write_seq, 4)      \
	X(sock, sk_shutdown, 1)

struct tcplife_layout {
	TCPLIFE_MEMBERS(BPFKIT_LAYOUT_OFFSET)
};

#endif /* TCPLIFE_H */
