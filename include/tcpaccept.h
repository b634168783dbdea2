/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record tcpaccept sends for every accepted TCP connection. */
#ifndef TCPACCEPT_H
#define TCPACCEPT_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

struct tcpaccept_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	struct bpfkit_flow flow; /* local (the listener's) is the source */
	__u32 pid; /* the accepting task */
	__u32 tid;
	__u32 uid;
	__s32 fd; /* the new socket's */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* TCPACCEPT_H */
