/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record bindsnoop sends for every completed bind(2). */
#ifndef BINDSNOOP_H
#define BINDSNOOP_H

#include "bpfkit/channel.h"

/* What the socket said at bind time (bindsnoop_event.opts). */
enum bindsnoop_opt {
	BINDSNOOP_SOCKET =
		1 << 0, /* the fd was a socket: proto, type, the rest */
	BINDSNOOP_REUSEADDR = 1 << 1, /* SO_REUSEADDR */
	BINDSNOOP_REUSEPORT = 1 << 2, /* SO_REUSEPORT */
};

struct bindsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 ret; /* 0, or -errno */
	__s32 fd;
	__s32 bound_dev_if; /* SO_BINDTODEVICE's interface index, or 0 */
	__u16 family; /* the address's AF_* */
	__u16 port; /* the port asked for, host order */
	__u16 bound_port; /* the port the socket has after the call */
	__u16 proto; /* IPPROTO_* of the socket */
	__u16 type; /* SOCK_* of the socket */
	__u16 opts; /* enum bindsnoop_opt */
	__u8 addr[16]; /* IPv4 (4 bytes) or IPv6 address, network order */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* BINDSNOOP_H */
