/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcpstates sends for every TCP state change. */
#ifndef TCPSTATES_H
#define TCPSTATES_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

struct tcpstates_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	struct bpfkit_flow flow; /* local is the source */
	__u64 skaddr; /* the socket, to tell connections apart */
	__u64 prev_ns; /* time in the old state; 0: not seen entering it */
	__u32 oldstate;
	__u32 newstate;
	__u32 pid; /* the socket's process, once known */
	__u32 uid;
	__u32 owned; /* pid, uid and comm are known */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* TCPSTATES_H */
