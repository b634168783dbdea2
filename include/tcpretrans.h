/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcpretrans sends for every TCP retransmit. */
#ifndef TCPRETRANS_H
#define TCPRETRANS_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

struct tcpretrans_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	struct bpfkit_flow flow; /* local is the source */
	__u32 state; /* the socket's TCP state */
	__u32 pid; /* the socket's process, once known */
	__u32 uid;
	__u32 owned; /* pid, uid and comm are known */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* TCPRETRANS_H */
