/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record solisten sends for every completed listen(2). */
#ifndef SOLISTEN_H
#define SOLISTEN_H

#include "bpfkit/channel.h"
#include "bpfkit/net.h"

struct solisten_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	/* The socket's family and local address and port (the source). */
	struct bpfkit_flow flow;
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 ret; /* 0, or -errno */
	__s32 fd;
	__s32 backlog; /* as asked for */
	__u16 proto; /* IPPROTO_* of the socket; 0: the fd was no socket */
	__u16 pad;
	char comm[BPFKIT_COMM_LEN];
};

#endif /* SOLISTEN_H */
