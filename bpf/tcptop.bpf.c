// SPDX-License-Identifier: GPL-2.0
/*
 * tcptop: the bytes each process sends and receives on each TCP flow,
 * summed in a hash map that user space reads and clears every interval.
 * From Linux 6.3, sock:sock_send_length and sock_recv_length give every
 * sendmsg and recvmsg a socket makes, with its struct sock; before, the
 * read, write, readv, writev, sendto, recvfrom, sendmsg and recvmsg
 * syscalls do: their entry keeps the TCP socket behind the fd (read the
 * CO-RE way), their exit counts the bytes. User space loads one set or the
 * other.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "bpfkit/pertask.bpf.h"
#include "tcptop.h"

char LICENSE[] SEC("license") = "GPL";

#define MSG_PEEK 2

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TCPTOP_MAX_KEYS);
	__type(key, struct tcptop_key);
	__type(value, struct tcptop_val);
} tcptop_flows SEC(".maps");

/* A syscall on a TCP socket in flight (before Linux 6.3). */
struct call {
	__u64 sk;
	__u32 sent; /* 1: it sends; 0: it receives */
	__u32 pad;
};

BPFKIT_STAGING(struct call);

/* Bytes not counted: their flow or call found its map full. */
__u64 tcptop_missed;

/* Add BYTES sent (SENT) or received by the current process on SK. */
static __always_inline void count(const struct sock *sk, long bytes, bool sent)
{
	struct tcptop_key key = {};
	struct tcptop_val *v, zero = {};

	bpfkit_sock_flow(sk, &key.flow);
	if (!bpfkit_flow_selected(&key.flow))
		return;
	key.pid = bpf_get_current_pid_tgid() >> 32;
	v = bpf_map_lookup_elem(&tcptop_flows, &key);
	if (!v) {
		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&tcptop_flows, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&tcptop_flows, &key);
		if (!v) {
			__sync_fetch_and_add(&tcptop_missed, 1);
			return;
		}
	}
	if (sent)
		__sync_fetch_and_add(&v->sent, bytes);
	else
		__sync_fetch_and_add(&v->received, bytes);
}

/* sock:sock_{send,recv}_length: a TCP socket's sendmsg or recvmsg. */
static __always_inline void
sock_length(const struct trace_event_raw_sock_msg_length *ctx, bool sent)
{
	if (ctx->ret <= 0 || ctx->protocol != BPFKIT_IPPROTO_TCP)
		return;
	/* A peek leaves the bytes to the next read. */
	if (!sent && (ctx->flags & MSG_PEEK))
		return;
	if (bpfkit_selected())
		count(ctx->sk, ctx->ret, sent);
}

SEC("tracepoint/sock/sock_send_length")
int tcptop_send_length(struct trace_event_raw_sock_msg_length *ctx)
{
	sock_length(ctx, true);
	return 0;
}

SEC("tracepoint/sock/sock_recv_length")
int tcptop_recv_length(struct trace_event_raw_sock_msg_length *ctx)
{
	sock_length(ctx, false);
	return 0;
}

/* Before Linux 6.3: a syscall's entry keeps FD's socket if it is TCP's. */
static __always_inline void call_enter(long fd, bool sent, long flags)
{
	struct call c = { .sent = sent };
	struct socket *sock;
	struct sock *sk;

	if ((!sent && (flags & MSG_PEEK)) || !bpfkit_selected())
		return;
	sock = bpfkit_fd_socket(fd);
	sk = sock ? BPF_CORE_READ(sock, sk) : NULL;
	if (!sk || bpfkit_sock_protocol(sk) != BPFKIT_IPPROTO_TCP)
		return;
	c.sk = (__u64)sk;
	if (bpfkit_stage_put(&bpfkit_staging, &c, sizeof(c)))
		__sync_fetch_and_add(&tcptop_missed, 1);
}

/* ...and its exit counts the bytes it moved. */
static __always_inline void call_exit(long ret)
{
	struct call *c = bpfkit_staged(&bpfkit_staging);

	if (!c)
		return;
	if (ret > 0)
		count((const struct sock *)c->sk, ret, c->sent);
	bpfkit_unstage(&bpfkit_staging, c);
}

/* The programs of syscall NAME, which sends (SENT) with flags FLAGS. */
#define CALL(name, sent, flags)                                  \
	SEC("tracepoint/syscalls/sys_enter_" #name)              \
	int tcptop_enter_##name(struct syscall_trace_enter *ctx) \
	{                                                        \
		call_enter(ctx->args[0], sent, flags);           \
		return 0;                                        \
	}                                                        \
                                                                 \
	SEC("tracepoint/syscalls/sys_exit_" #name)               \
	int tcptop_exit_##name(struct syscall_trace_exit *ctx)   \
	{                                                        \
		call_exit(ctx->ret);                             \
		return 0;                                        \
	}

CALL(write, true, 0)
CALL(writev, true, 0)
CALL(sendto, true, 0)
CALL(sendmsg, true, 0)
CALL(read, false, 0)
CALL(readv, false, 0)
CALL(recvfrom, false, ctx->args[3])
CALL(recvmsg, false, ctx->args[2])
