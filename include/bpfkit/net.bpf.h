/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the network tools: a flow's family, addresses and ports
 * from sock:inet_sock_set_state or from a struct sock (IPv4 and IPv6), the
 * -4/-6 and port filters, and per-socket state kept in a hash map keyed by
 * the sock pointer, since a connection's transitions run in different
 * contexts (SYN_SENT in the connecting task, ESTABLISHED and CLOSE often
 * in softirq). A socket is read at the offsets of bpfkit_sock_layout
 * (bpfkit/layout.h), not by CO-RE, and the tracepoint's context at its
 * format file's layout: a tool reading no other kernel type needs no
 * kernel BTF parsed by libbpf.
 */
#ifndef BPFKIT_NET_BPF_H
#define BPFKIT_NET_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/layout.bpf.h"
#include "bpfkit/net.h"

#define BPFKIT_IPPROTO_TCP 6

const volatile struct bpfkit_net_cfg bpfkit_net_cfg;

/* Where a socket's members lie (bpfkit_read_sock_layout()). */
const volatile struct bpfkit_sock_layout bpfkit_sock_layout;

/*
 * sock:inet_sock_set_state's context at the layout of its format file
 * (the same on Linux 6.1 and 6.18; tcpstates.bats checks it), rather than
 * vmlinux.h's trace_event_raw_inet_sock_set_state, whose CO-RE relocation
 * would have libbpf parse and search the kernel's BTF.
 */
struct bpfkit_sock_state_ctx {
	__u64 common; /* the tracepoints' common header */
	const void *skaddr; /* offset 8 */
	int oldstate; /* 16 */
	int newstate; /* 20 */
	__u16 sport; /* 24 */
	__u16 dport; /* 26 */
	__u16 family; /* 28 */
	__u16 protocol; /* 30 */
	__u8 saddr[4]; /* 32 */
	__u8 daddr[4]; /* 36 */
	__u8 saddr_v6[16]; /* 40 */
	__u8 daddr_v6[16]; /* 56 */
};

/* The flow of the socket a sock:inet_sock_set_state event is about. */
static __always_inline void
bpfkit_tp_flow(const struct bpfkit_sock_state_ctx *ctx, struct bpfkit_flow *f)
{
	f->family = ctx->family;
	f->sport = ctx->sport;
	f->dport = ctx->dport;
	/* Tracepoint arrays are read by helper: no offsets into ctx. */
	if (ctx->family == BPFKIT_AF_INET) {
		bpf_probe_read_kernel(f->saddr, 4, ctx->saddr);
		bpf_probe_read_kernel(f->daddr, 4, ctx->daddr);
	} else {
		bpf_probe_read_kernel(f->saddr, 16, ctx->saddr_v6);
		bpf_probe_read_kernel(f->daddr, 16, ctx->daddr_v6);
	}
}

/* Socket SK's struct sock_common. */
static __always_inline const void *bpfkit_sk_common(const void *sk)
{
	return sk + bpfkit_sock_layout.sock___sk_common;
}

/* The flow of socket SK (a struct sock). */
static __always_inline void bpfkit_sock_flow(const void *sk,
					     struct bpfkit_flow *f)
{
	const void *c = bpfkit_sk_common(sk);
	const volatile struct bpfkit_sock_layout *l = &bpfkit_sock_layout;

	f->family = bpfkit_read_u16(c, l->sock_common_skc_family);
	f->sport = bpfkit_read_u16(c, l->sock_common_skc_num);
	f->dport = bpf_ntohs(bpfkit_read_u16(c, l->sock_common_skc_dport));
	if (f->family == BPFKIT_AF_INET) {
		bpf_probe_read_kernel(f->saddr, 4,
				      c + l->sock_common_skc_rcv_saddr);
		bpf_probe_read_kernel(f->daddr, 4,
				      c + l->sock_common_skc_daddr);
	} else {
		bpf_probe_read_kernel(f->saddr, 16,
				      c + l->sock_common_skc_v6_rcv_saddr);
		bpf_probe_read_kernel(f->daddr, 16,
				      c + l->sock_common_skc_v6_daddr);
	}
}

/* Socket SK's protocol (IPPROTO_*) and pending error (sk_err). */
static __always_inline __u16 bpfkit_sock_protocol(const void *sk)
{
	return bpfkit_read_u16(sk, bpfkit_sock_layout.sock_sk_protocol);
}

static __always_inline int bpfkit_sock_err(const void *sk)
{
	return bpfkit_read_s32(sk, bpfkit_sock_layout.sock_sk_err);
}

/* The socket (a struct socket) behind FD in the current task, or NULL. */
static __always_inline const void *bpfkit_fd_socket(int fd)
{
	const void *task = (const void *)bpf_get_current_task();
	const void *fdt, *fds, *file, *sock;
	__u32 max_fds = 0;

	fdt = bpfkit_read_ptr(
		bpfkit_read_ptr(task, bpfkit_sock_layout.task_struct_files),
		bpfkit_sock_layout.files_struct_fdt);
	bpf_probe_read_kernel(&max_fds, sizeof(max_fds),
			      fdt + bpfkit_sock_layout.fdtable_max_fds);
	if (fd < 0 || fd >= max_fds)
		return NULL;
	fds = bpfkit_read_ptr(fdt, bpfkit_sock_layout.fdtable_fd);
	file = bpfkit_read_ptr(fds, fd * sizeof(void *));
	if (!file)
		return NULL;
	sock = bpfkit_read_ptr(file, bpfkit_sock_layout.file_private_data);
	/* Only a socket's file is its socket's file. */
	if (!sock ||
	    bpfkit_read_ptr(sock, bpfkit_sock_layout.socket_file) != file)
		return NULL;
	return sock;
}

/* The struct sock of SOCK (a struct socket). */
static __always_inline const void *bpfkit_socket_sock(const void *sock)
{
	return bpfkit_read_ptr(sock, bpfkit_sock_layout.socket_sk);
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
 * Keep VALUE for socket SK in hash MAP (keyed by the sock pointer); a map
 * with no room counts the event as lost, staging full. Returns 0 or the
 * update's error.
 */
static __always_inline long bpfkit_sock_stage(void *map, const void *sk,
					      const void *value)
{
	__u64 key = (__u64)sk;
	long err = bpf_map_update_elem(map, &key, value, BPF_ANY);

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
