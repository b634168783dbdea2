// SPDX-License-Identifier: GPL-2.0
/*
 * tcplife: on sock:inet_sock_set_state, a socket's first transition into
 * SYN_SENT, SYN_RECV or ESTABLISHED starts its session (kept by socket);
 * the first transition that runs in the task owning it (SYN_SENT in the
 * connecting task, FIN_WAIT1 or LAST_ACK in the one that closes it) names
 * its process, and its task's ids for the record's header (containers);
 * CLOSE, often in softirq, sends the session with its byte counts and
 * duration.
 *
 * tcp_sock's bytes_acked and bytes_received count sequence numbers, and SYN and FIN
 * take one each: the data bytes are what is left without our SYN once
 * acknowledged (an active open that got its SYN-ACK), our FIN once
 * acknowledged (sent: the socket went through FIN_WAIT1 or LAST_ACK;
 * acknowledged: snd_una reached write_seq) and the peer's FIN once
 * received (RCV_SHUTDOWN in sk_shutdown).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcplife.h"

char LICENSE[] SEC("license") = "GPL";

/* How the session's task is known. */
enum owner {
	OWNER_UNKNOWN, /* no transition in a task of its own yet */
	OWNER_SELECTED, /* known, and passes the common filters */
	OWNER_LEFT_OUT, /* known, and does not */
};

/* What the session's transitions said (session.seen). */
enum seen {
	SEEN_SYN_ACKED = 1 << 0, /* SYN_SENT -> ESTABLISHED: our SYN acked */
	SEEN_FIN_SENT = 1 << 1, /* FIN_WAIT1 or LAST_ACK: we sent a FIN */
};

#define RCV_SHUTDOWN 1 /* sk_shutdown: the peer's FIN came */

struct session {
	struct bpfkit_record task; /* the owner's ids; zero while unknown */
	__u64 start_ns;
	__u32 pid;
	__u32 uid;
	__u32 owner; /* enum owner */
	__u32 seen; /* enum seen */
	char comm[BPFKIT_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct session);
} tcplife_socks SEC(".maps");

static __always_inline void take_owner(struct session *s)
{
	if (!bpfkit_selected()) {
		s->owner = OWNER_LEFT_OUT;
		return;
	}
	s->owner = OWNER_SELECTED;
	bpfkit_record_task(&s->task);
	s->pid = bpf_get_current_pid_tgid() >> 32;
	s->uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(s->comm, sizeof(s->comm));
}

static __always_inline int
session_end(struct trace_event_raw_inet_sock_set_state *ctx, struct session *s)
{
	const struct tcp_sock *tp = ctx->skaddr;
	struct tcplife_event e = {};

	/* With -p, -u, -c or --cgroup, a session needs an owner that passes. */
	if (s->owner == OWNER_LEFT_OUT ||
	    (bpfkit_filtering() && s->owner != OWNER_SELECTED))
		return 0;
	bpfkit_tp_flow(ctx, &e.flow);
	if (!bpfkit_flow_selected(&e.flow))
		return 0;
	e.tx_bytes = BPF_CORE_READ(tp, bytes_acked);
	if (e.tx_bytes && (s->seen & SEEN_SYN_ACKED))
		e.tx_bytes--;
	if (e.tx_bytes && (s->seen & SEEN_FIN_SENT) &&
	    BPF_CORE_READ(tp, snd_una) == BPF_CORE_READ(tp, write_seq))
		e.tx_bytes--;
	e.rx_bytes = BPF_CORE_READ(tp, bytes_received);
	if (e.rx_bytes &&
	    (BPF_CORE_READ((struct sock *)tp, sk_shutdown) & RCV_SHUTDOWN))
		e.rx_bytes--;
	e.rec = s->task;
	e.duration_ns = bpf_ktime_get_ns() - s->start_ns;
	e.owned = s->owner == OWNER_SELECTED;
	e.pid = s->pid;
	e.uid = s->uid;
	__builtin_memcpy(e.comm, s->comm, sizeof(e.comm));
	bpfkit_emit_stamped(ctx, &e.rec, sizeof(e));
	return 0;
}

SEC("tracepoint/sock/inet_sock_set_state")
int tcplife_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct session *s, fresh = {};
	int newstate = ctx->newstate;

	if (ctx->protocol != BPFKIT_IPPROTO_TCP)
		return 0;
	s = bpfkit_sock_lookup(&tcplife_socks, ctx->skaddr);
	if (newstate == BPFKIT_TCP_CLOSE) {
		if (s) {
			session_end(ctx, s);
			bpfkit_sock_forget(&tcplife_socks, ctx->skaddr);
		}
		return 0;
	}
	if (!s) {
		/* A session starts; one already open at start is not known. */
		if (newstate > BPFKIT_TCP_SYN_RECV)
			return 0;
		fresh.start_ns = bpf_ktime_get_ns();
		if (bpfkit_tcp_in_owner_task(newstate))
			take_owner(&fresh);
		bpfkit_sock_stage(&tcplife_socks, ctx->skaddr, &fresh);
		return 0;
	}
	if (s->owner == OWNER_UNKNOWN && bpfkit_tcp_in_owner_task(newstate))
		take_owner(s);
	if (newstate == BPFKIT_TCP_ESTABLISHED &&
	    ctx->oldstate == BPFKIT_TCP_SYN_SENT)
		s->seen |= SEEN_SYN_ACKED;
	if (newstate == BPFKIT_TCP_FIN_WAIT1 || newstate == BPFKIT_TCP_LAST_ACK)
		s->seen |= SEEN_FIN_SENT;
	return 0;
}
