/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side of the network tools: the -4/-6 and port settings for the
 * BPF side (written at load, setup.h), addresses in their textual forms
 * (inet_ntop; IPv4-mapped IPv6 shown as IPv4), flows as columns and as
 * JSON (addresses as strings, ports as numbers), TCP state names and the
 * kernel's packet drop reasons.
 *
 *	bpfkit_print_flow(&e->flow);		its columns
 *	bpfkit_json_flow(&j, &e->flow);		its JSON fields
 *	bpfkit_flow_text(&e->flow, &t);		or t.saddr, t.daddr
 */
#ifndef BPFKIT_NET_USER_H
#define BPFKIT_NET_USER_H

#include <stddef.h>
#include <netinet/in.h>
#include "bpfkit/net.h"
#include "output.h"

/* What the network options say. */
struct bpfkit_net_opts {
	__u16 family; /* -4: AF_INET, -6: AF_INET6; 0: both */
	struct bpfkit_ports lports; /* -L; tcpaccept's -P */
	struct bpfkit_ports rports; /* -D; tcpconnect's -P */
};

/* Filter as OPTS says from now on; until called, both families. */
void bpfkit_net_init(const struct bpfkit_net_opts *opts);

/* Before load: the settings the options give net.bpf.h. */
void bpfkit_net_cfg_init(volatile struct bpfkit_net_cfg *cfg);

/* The family FLOW is shown as: AF_INET for an IPv4-mapped IPv6 flow. */
int bpfkit_flow_family(const struct bpfkit_flow *flow);

/*
 * ADDR (16 bytes, network order) of FAMILY as text in BUF of LEN bytes
 * (at least INET6_ADDRSTRLEN): IPv4 dotted, IPv6 as inet_ntop writes it,
 * an IPv4-mapped IPv6 address as its IPv4 one. Returns BUF.
 */
const char *bpfkit_addr_str(int family, const __u8 *addr, char *buf,
			    size_t len);

/* A flow's two addresses as text. */
struct bpfkit_flow_text {
	char saddr[INET6_ADDRSTRLEN];
	char daddr[INET6_ADDRSTRLEN];
	int ip; /* 4 or 6: the family shown */
};

void bpfkit_flow_text(const struct bpfkit_flow *flow,
		      struct bpfkit_flow_text *t);

/* The tracepoint the TCP tools see state changes on (net.bpf.h's flows). */
#define BPFKIT_TP_SOCK_STATE                                 \
	{                                                    \
		"sock", "inet_sock_set_state", "Linux 4.16+" \
	}

/* The widths of an address and a port column. */
#define BPFKIT_ADDR_W 25
#define BPFKIT_PORT_W 5

/*
 * FLOW's columns on stdout, "IP SADDR SPORT DADDR DPORT" (the widths
 * above), with no space or newline after.
 */
void bpfkit_print_flow(const struct bpfkit_flow *flow);

/*
 * Their header, the source's columns named SRC ('L': LADDR, LPORT; 'S':
 * SADDR, SPORT) and the destination's DST ('R', 'D').
 */
const char *bpfkit_flow_header(char src, char dst);

/* "ip" (4 or 6), "saddr", "sport", "daddr" and "dport" of FLOW. */
void bpfkit_json_flow(struct bpfkit_json *j, const struct bpfkit_flow *flow);

/*
 * A socket family's name without AF_ (UNIX, INET, INET6...), else "AF_N"
 * in BUF of LEN bytes; a protocol's (TCP, UDP, SCTP, MPTCP...), else its
 * number in BUF. Each returns the name.
 */
const char *bpfkit_family_name(__u16 family, char *buf, size_t len);
const char *bpfkit_proto_name(__u16 proto, char *buf, size_t len);

/* A TCP state's name, as the kernel's tracepoint prints it without TCP_. */
const char *bpfkit_tcp_state_name(int state);

/*
 * Read the names of the packet drop reasons from the kernel BTF's enum
 * skb_drop_reason (BTF_PATH's if set; Linux 5.17+; they differ between
 * kernels), with their SKB_DROP_REASON_ (or SKB_) prefix stripped, as
 * skb:kfree_skb prints them, from libbpf's parse of the BTF
 * (bpfkit_kernel_btf(), kernel room). Returns 0, -ENOENT when BTF has no
 * such enum, -ENOMEM, or libbpf's -errno for BTF it could not read.
 */
int bpfkit_drop_reasons_load(const char *btf_path);
void bpfkit_drop_reasons_free(void);

/* The name of drop reason REASON, or NULL when the kernel names none. */
const char *bpfkit_drop_reason_name(__u32 reason);

/* The value of the drop reason named NAME (any case), or -ENOENT. */
long bpfkit_drop_reason_value(const char *name);

#endif /* BPFKIT_NET_USER_H */
