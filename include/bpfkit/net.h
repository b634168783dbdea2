/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * TCP connections as both sides of the network tools see them: a flow's
 * family, addresses and ports (struct bpfkit_flow, filled by net.bpf.h),
 * the TCP states, and the settings user space writes into the object
 * before load (-4/-6, port lists).
 */
#ifndef BPFKIT_NET_H
#define BPFKIT_NET_H

#include "bpfkit/types.h"

/* The address families a flow has (the kernel's AF_INET, AF_INET6). */
#define BPFKIT_AF_INET 2
#define BPFKIT_AF_INET6 10

/* One TCP connection, seen from the socket's side: source is local. */
struct bpfkit_flow {
	__u8 saddr[16]; /* IPv4 (first 4 bytes) or IPv6, network order */
	__u8 daddr[16];
	__u16 family; /* BPFKIT_AF_INET or BPFKIT_AF_INET6 */
	__u16 sport; /* host order */
	__u16 dport; /* host order */
	__u16 pad;
};

/* The kernel's TCP states (include/net/tcp_states.h). */
enum bpfkit_tcp_state {
	BPFKIT_TCP_ESTABLISHED = 1,
	BPFKIT_TCP_SYN_SENT,
	BPFKIT_TCP_SYN_RECV,
	BPFKIT_TCP_FIN_WAIT1,
	BPFKIT_TCP_FIN_WAIT2,
	BPFKIT_TCP_TIME_WAIT,
	BPFKIT_TCP_CLOSE,
	BPFKIT_TCP_CLOSE_WAIT,
	BPFKIT_TCP_LAST_ACK,
	BPFKIT_TCP_LISTEN,
	BPFKIT_TCP_CLOSING,
	BPFKIT_TCP_NEW_SYN_RECV,
};

/* The most ports a port option (-P, -L, -D) takes. */
#define BPFKIT_PORTS_MAX 16

/* A port list: a flow passes when its port is one of them, or n is 0. */
struct bpfkit_ports {
	__u16 n;
	__u16 port[BPFKIT_PORTS_MAX];
};

/* The settings of net.bpf.h, in each object's .rodata. */
struct bpfkit_net_cfg {
	__u16 family; /* -4, -6: BPFKIT_AF_*; 0: both */
	struct bpfkit_ports lports; /* local ports (-L; tcpaccept's -P) */
	struct bpfkit_ports rports; /* remote ports (-D; tcpconnect's -P) */
};

#endif /* BPFKIT_NET_H */
