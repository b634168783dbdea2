// SPDX-License-Identifier: GPL-2.0
/*
 * bindsnoop: copy each bind(2)'s address at syscall entry; at exit, read
 * the socket behind the fd (the CO-RE way) for its protocol, its
 * SO_REUSEADDR and SO_REUSEPORT settings (sock_common's bitfields) and the
 * port it got, and send it all with the result.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "bindsnoop.h"

char LICENSE[] SEC("license") = "GPL";

/* The bytes of a sockaddr_in6, the longest address read. */
#define ADDR_LEN 28

/* Send failed binds only (-x). */
const volatile bool failed_only;

/* A bind in flight. */
struct bind_args {
	__s32 fd;
	__u8 addr[ADDR_LEN];
};

BPFKIT_STAGING(struct bind_args);

SEC("tracepoint/syscalls/sys_enter_bind")
int bind_enter(struct syscall_trace_enter *ctx)
{
	struct bind_args a = { .fd = ctx->args[0] };
	const void *addr = (const void *)ctx->args[1];

	/* bpfkit_stage()'s steps, the address read for a selected call only. */
	if (!bpfkit_selected())
		return 0;
	if (!bpfkit_admit_entry())
		return 0;
	/* A sockaddr_in at the end of a mapping has no room for an in6's bytes. */
	if (bpf_probe_read_user(a.addr, ADDR_LEN, addr))
		bpf_probe_read_user(a.addr, sizeof(struct sockaddr_in), addr);
	if (bpfkit_stage_put(&bpfkit_staging, &a, sizeof(a)))
		bpfkit_drop(BPFKIT_STAGING_FULL);
	return 0;
}

/* What the socket says: protocol, type, options, the port it has. */
static __always_inline void read_socket(struct bindsnoop_event *e,
					const struct socket *sock)
{
	struct sock *sk = BPF_CORE_READ(sock, sk);

	if (!sk)
		return;
	e->opts = BINDSNOOP_SOCKET;
	if (BPF_CORE_READ_BITFIELD_PROBED(sk, __sk_common.skc_reuse))
		e->opts |= BINDSNOOP_REUSEADDR;
	if (BPF_CORE_READ_BITFIELD_PROBED(sk, __sk_common.skc_reuseport))
		e->opts |= BINDSNOOP_REUSEPORT;
	e->bound_dev_if = BPF_CORE_READ(sk, __sk_common.skc_bound_dev_if);
	e->proto = bpfkit_sock_protocol(sk);
	e->type = bpfkit_sock_type(sk);
	if (e->family == BPFKIT_AF_INET || e->family == BPFKIT_AF_INET6)
		e->bound_port = bpf_ntohs(
			BPF_CORE_READ((struct inet_sock *)sk, inet_sport));
}

SEC("tracepoint/syscalls/sys_exit_bind")
int bind_exit(struct syscall_trace_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;
	struct bindsnoop_event e = {};
	struct bind_args *a;
	struct socket *sock;

	a = bpfkit_staged(&bpfkit_staging);
	if (!a)
		return 0;
	if (failed_only && ctx->ret >= 0)
		goto out;

	e.pid = pid_tgid >> 32;
	e.tid = tid;
	e.uid = bpf_get_current_uid_gid();
	e.ret = ctx->ret;
	e.fd = a->fd;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	/* sockaddr_in and sockaddr_in6 alike: family, then port. */
	e.family = *(__u16 *)&a->addr[0];
	if (e.family == BPFKIT_AF_INET || e.family == BPFKIT_AF_INET6)
		e.port = bpf_ntohs(*(__u16 *)&a->addr[2]);
	if (e.family == BPFKIT_AF_INET)
		__builtin_memcpy(e.addr, &a->addr[4], 4);
	else if (e.family == BPFKIT_AF_INET6)
		__builtin_memcpy(e.addr, &a->addr[8], 16);
	sock = bpfkit_fd_socket(a->fd);
	if (sock)
		read_socket(&e, sock);
	bpfkit_emit(ctx, &e.rec, sizeof(e));
out:
	bpfkit_unstage(&bpfkit_staging, a);
	return 0;
}
