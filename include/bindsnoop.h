/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record bindsnoop sends for every completed bind(2). */
#ifndef BINDSNOOP_H
#define BINDSNOOP_H

#include "bpfkit/channel.h"
#include "bpfkit/layout.h"

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

/*
 * The socket members the BPF side reads at offsets from the kernel's BTF,
 * without CO-RE (bpfkit/layout.h), beyond the net room's (its fd's socket
 * and protocol, BPFKIT_SOCK_MEMBERS): X(struct, member, bytes read). An
 * inet_sock begins with its struct sock, a struct sock with its
 * sock_common.
 */
#define BINDSNOOP_MEMBERS(X)                              \
	X(sock_common, skc_reuse, BPFKIT_BITFIELD(4))     \
	X(sock_common, skc_reuseport, BPFKIT_BITFIELD(1)) \
	X(sock_common, skc_bound_dev_if, 4)               \
	X(sock, sk_type, 2)                               \
	X(inet_sock, inet_sport, 2)

struct bindsnoop_layout {
	BINDSNOOP_MEMBERS(BPFKIT_LAYOUT_OFFSET)
};

#endif /* BINDSNOOP_H */
