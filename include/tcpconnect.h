/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcpconnect sends for every active TCP connect's outcome. */
#ifndef TCPCONNECT_H
#define TCPCONNECT_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

struct tcpconnect_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	struct bpfkit_flow flow;
	__u64 start_ns; /* bpf_ktime_get_ns() at SYN_SENT */
	__u32 pid; /* the connecting task, seen at SYN_SENT */
	__u32 tid;
	__u32 uid;
	__u32 state; /* ESTABLISHED, or CLOSE: the connect failed */
	__s32 error; /* with CLOSE: the socket's sk_err (ECONNREFUSED...) */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* TCPCONNECT_H */
