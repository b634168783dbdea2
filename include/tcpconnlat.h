/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcpconnlat sends for every TCP connect that got established. */
#ifndef TCPCONNLAT_H
#define TCPCONNLAT_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

struct tcpconnlat_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	struct bpfkit_flow flow;
	__u64 latency_ns; /* SYN_SENT to ESTABLISHED */
	__u32 pid; /* the connecting task, seen at SYN_SENT */
	__u32 tid;
	__u32 uid;
	__u32 pad;
	char comm[BPFKIT_COMM_LEN];
};

#endif /* TCPCONNLAT_H */
