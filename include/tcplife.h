/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcplife sends for every TCP session that closed. */
#ifndef TCPLIFE_H
#define TCPLIFE_H

#include "bpfkit/channel.h"
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

#endif /* TCPLIFE_H */
