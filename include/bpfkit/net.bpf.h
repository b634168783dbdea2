/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the network tools: a flow's family, addresses and ports
 * from sock:inet_sock_set_state or from a struct sock (IPv4 and IPv6), the
 * -4/-6 and port filters, and per-socket state kept in a hash map keyed by
 * the sock pointer, since a connection's transitions run in different
 * contexts (SYN_SENT in the connecting task, ESTABLISHED and CLOSE often
 * in softirq). The tracepoint's record and the kernel's structs are read
 * the CO-RE way, relocated by libbpf for the kernel the tool runs on
 * (kernel differences: bpfkit/core_fixes.bpf.h).
 */
#ifndef BPFKIT_NET_BPF_H
#define BPFKIT_NET_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/files.bpf.h"
#include "bpfkit/net.h"

#define BPFKIT_IPPROTO_TCP 6

const volatile struct bpfkit_net_cfg bpfkit_net_cfg;

/* The flow of the socket a sock:inet_sock_set_state event is about. */
static __always_inline void
bpfkit_tp_flow(const struct trace_event_raw_inet_sock_set_state *ctx,
	       struct bpfkit_flow *f)
{
	f->family = ctx->family;
	f->sport = ctx->sport;
	f->dport = ctx->dport;
	/* Tracepoint arrays are read by helper: no offsets into ctx. */
	if (f->family == BPFKIT_AF_INET) {
		bpf_probe_read_kernel(f->saddr, 4, ctx->saddr);
		bpf_probe_read_kernel(f->daddr, 4, ctx->daddr);
	} else {
		bpf_probe_read_kernel(f->saddr, 16, ctx->saddr_v6);
		bpf_probe_read_kernel(f->daddr, 16, ctx->daddr_v6);
	}
}

/* The flow of socket SK, field by field (bpfkit_sock_flow()). */
static __always_inline void bpfkit_sock_flow_fields(const struct sock *sk,
						    struct bpfkit_flow *f)
{
	f->family = BPF_CORE_READ(sk, __sk_common.skc_family);
	f->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
	f->dport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	if (f->family == BPFKIT_AF_INET) {
		bpf_core_read(f->saddr, 4, &sk->__sk_common.skc_rcv_saddr);
		bpf_core_read(f->daddr, 4, &sk->__sk_common.skc_daddr);
	} else {
		bpf_core_read(f->saddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
		bpf_core_read(f->daddr, 16, &sk->__sk_common.skc_v6_daddr);
	}
}

/* The bytes of struct sock bpfkit_sock_flow() reads at once. */
#define BPFKIT_SOCK_SPAN 128

/* A field of sock_common: its offset in struct sock, and its end. */
#define bpfkit_skc_off(field) \
	bpf_core_field_offset(struct sock, __sk_common.field)
#define bpfkit_skc_end(field)    \
	(bpfkit_skc_off(field) + \
	 bpf_core_field_size(struct sock, __sk_common.field))

/*
 * The flow of socket SK, from one read of the socket's first
 * BPFKIT_SOCK_SPAN bytes (five reads cost more than the rest of a program
 * counting bytes); field by field where a kernel puts them further.
 */
static __always_inline void bpfkit_sock_flow(const struct sock *sk,
					     struct bpfkit_flow *f)
{
	__u8 buf[BPFKIT_SOCK_SPAN];
	__u16 port;

	if (bpfkit_skc_end(skc_v6_rcv_saddr) > BPFKIT_SOCK_SPAN ||
	    bpfkit_skc_end(skc_v6_daddr) > BPFKIT_SOCK_SPAN ||
	    bpfkit_skc_end(skc_family) > BPFKIT_SOCK_SPAN ||
	    bpfkit_skc_end(skc_num) > BPFKIT_SOCK_SPAN ||
	    bpfkit_skc_end(skc_dport) > BPFKIT_SOCK_SPAN ||
	    bpfkit_skc_end(skc_rcv_saddr) > BPFKIT_SOCK_SPAN ||
	    bpfkit_skc_end(skc_daddr) > BPFKIT_SOCK_SPAN) {
		bpfkit_sock_flow_fields(sk, f);
		return;
	}
	if (bpf_probe_read_kernel(buf, sizeof(buf), sk))
		return;
	__builtin_memcpy(&f->family, &buf[bpfkit_skc_off(skc_family)], 2);
	__builtin_memcpy(&f->sport, &buf[bpfkit_skc_off(skc_num)], 2);
	__builtin_memcpy(&port, &buf[bpfkit_skc_off(skc_dport)], 2);
	f->dport = bpf_ntohs(port);
	if (f->family == BPFKIT_AF_INET) {
		__builtin_memcpy(f->saddr, &buf[bpfkit_skc_off(skc_rcv_saddr)],
				 4);
		__builtin_memcpy(f->daddr, &buf[bpfkit_skc_off(skc_daddr)], 4);
	} else {
		__builtin_memcpy(f->saddr,
				 &buf[bpfkit_skc_off(skc_v6_rcv_saddr)], 16);
		__builtin_memcpy(f->daddr, &buf[bpfkit_skc_off(skc_v6_daddr)],
				 16);
	}
}

/* The socket behind FD in the current task, or NULL. */
static __always_inline struct socket *bpfkit_fd_socket(int fd)
{
	struct file *file = bpfkit_fd_file(fd);
	struct socket *sock;

	if (!file)
		return NULL;
	sock = BPF_CORE_READ(file, private_data);
	/* Only a socket's file is its socket's file. */
	if (!sock || BPF_CORE_READ(sock, file) != file)
		return NULL;
	return sock;
}

/* Is ADDR (16 bytes) an IPv4-mapped IPv6 address, ::ffff:a.b.c.d? */
static __always_inline bool bpfkit_v4_mapped(const __u8 *addr)
{
	int i;

	for (i = 0; i < 10; i++)
		if (addr[i])
			return false;
	return addr[10] == 0xff && addr[11] == 0xff;
}

/*
 * Does flow F pass -4/-6? An IPv4-mapped IPv6 flow is IPv4 traffic on an
 * IPv6 socket, and is shown as IPv4: it passes -4.
 */
static __always_inline bool bpfkit_family_selected(const struct bpfkit_flow *f)
{
	__u16 family = f->family;

	if (!bpfkit_net_cfg.family)
		return true;
	if (family == BPFKIT_AF_INET6 && bpfkit_v4_mapped(f->daddr))
		family = BPFKIT_AF_INET;
	return family == bpfkit_net_cfg.family;
}

/*
 * Does a change into NEWSTATE run in the task owning the socket, in one of
 * its syscalls: listen(2) (LISTEN), connect(2) (SYN_SENT), close(2) or
 * shutdown(2) (FIN_WAIT1, LAST_ACK)? The others (ESTABLISHED, CLOSE...)
 * often run in softirq, in whatever task was interrupted.
 */
static __always_inline bool bpfkit_tcp_in_owner_task(int newstate)
{
	return newstate == BPFKIT_TCP_LISTEN ||
	       newstate == BPFKIT_TCP_SYN_SENT ||
	       newstate == BPFKIT_TCP_FIN_WAIT1 ||
	       newstate == BPFKIT_TCP_LAST_ACK;
}

/* Is PORT in list P (or P empty)? */
static __always_inline bool
bpfkit_port_selected(const volatile struct bpfkit_ports *p, __u16 port)
{
	int i;

	if (!p->n)
		return true;
	for (i = 0; i < BPFKIT_PORTS_MAX; i++) {
		if (i >= p->n)
			break;
		if (p->port[i] == port)
			return true;
	}
	return false;
}

/*
 * Does flow F, seen from its socket (the source is local), pass -4/-6 and
 * the local and remote port lists?
 */
static __always_inline bool bpfkit_flow_selected(const struct bpfkit_flow *f)
{
	return bpfkit_family_selected(f) &&
	       bpfkit_port_selected(&bpfkit_net_cfg.lports, f->sport) &&
	       bpfkit_port_selected(&bpfkit_net_cfg.rports, f->dport);
}

/*
 * Keep VALUE for socket SK in hash MAP (keyed by the sock pointer).
 * Returns 0 or the update's error (a map with no room).
 */
static __always_inline long bpfkit_sock_keep(void *map, const void *sk,
					     const void *value)
{
	__u64 key = (__u64)sk;

	return bpf_map_update_elem(map, &key, value, BPF_ANY);
}

/* bpfkit_sock_keep(); a map with no room counts the event lost, staging full. */
static __always_inline long bpfkit_sock_stage(void *map, const void *sk,
					      const void *value)
{
	long err = bpfkit_sock_keep(map, sk, value);

	if (err)
		bpfkit_drop(BPFKIT_STAGING_FULL);
	return err;
}

/* What MAP holds for socket SK, or NULL. */
static __always_inline void *bpfkit_sock_lookup(void *map, const void *sk)
{
	__u64 key = (__u64)sk;

	return bpf_map_lookup_elem(map, &key);
}

/* Forget socket SK in MAP. */
static __always_inline void bpfkit_sock_forget(void *map, const void *sk)
{
	__u64 key = (__u64)sk;

	bpf_map_delete_elem(map, &key);
}

#endif /* BPFKIT_NET_BPF_H */
