/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What tcptop's two sides share: its map of bytes per process and flow. */
#ifndef TCPTOP_H
#define TCPTOP_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

/* The most flows counted in an interval. */
#define TCPTOP_MAX_KEYS 10240

struct tcptop_key {
	struct bpfkit_flow flow; /* the socket's: local is the source */
	__u32 pid; /* the process that sent or received */
	__u32 pad;
};

struct tcptop_val {
	__u64 sent; /* bytes sent since the last report */
	__u64 received; /* bytes received */
	char comm[BPFKIT_COMM_LEN]; /* the process's, at its first count */
};

#endif /* TCPTOP_H */
