// SPDX-License-Identifier: GPL-2.0
/*
 * tcpconnlat: on sock:inet_sock_set_state, CLOSE -> SYN_SENT (in the
 * connecting task) keeps the time and the task by socket; SYN_SENT ->
 * ESTABLISHED (often in softirq, at the SYN-ACK) sends the connect's
 * latency, or with -H adds it to the shared histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcpconnlat.h"

char LICENSE[] SEC("license") = "GPL";

/* -H: a histogram instead of events. */
const volatile bool histogram;

struct connect_start {
	__u64 start_ns;
	__u32 pid;
	__u32 tid;
	__u32 uid;
	char comm[BPFKIT_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct connect_start);
} tcpconnlat_socks SEC(".maps");

/* -H: one histogram, key 0. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} tcpconnlat_hists SEC(".maps");

static __always_inline int
connect_begin(const struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), key = (__u64)ctx->skaddr;
	struct connect_start s = {};

	if (!bpfkit_selected())
		return 0;
	s.start_ns = bpf_ktime_get_ns();
	s.pid = pid_tgid >> 32;
	s.tid = pid_tgid;
	s.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(s.comm, sizeof(s.comm));
	if (!histogram) {
		bpfkit_sock_stage(&tcpconnlat_socks, ctx->skaddr, &s);
	} else if (bpf_map_update_elem(&tcpconnlat_socks, &key, &s, BPF_ANY)) {
		bpfkit_hist_miss();
	}
	return 0;
}

SEC("tracepoint/sock/inet_sock_set_state")
int tcpconnlat_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct tcpconnlat_event e = {};
	struct connect_start *s;
	struct bpfkit_hist *h;
	__u32 zero = 0;

	if (ctx->protocol != BPFKIT_IPPROTO_TCP)
		return 0;
	if (ctx->newstate == BPFKIT_TCP_SYN_SENT)
		return connect_begin(ctx);
	if (ctx->oldstate != BPFKIT_TCP_SYN_SENT)
		return 0;
	s = bpfkit_sock_lookup(&tcpconnlat_socks, ctx->skaddr);
	if (!s)
		return 0;
	bpfkit_tp_flow(ctx, &e.flow);
	if (ctx->newstate != BPFKIT_TCP_ESTABLISHED ||
	    !bpfkit_family_selected(&e.flow))
		goto out;
	e.latency_ns = bpf_ktime_get_ns() - s->start_ns;
	if (histogram) {
		h = bpfkit_hist_get(&tcpconnlat_hists, &zero);
		if (h)
			bpfkit_hist_add(h, e.latency_ns);
		goto out;
	}
	e.pid = s->pid;
	e.tid = s->tid;
	e.uid = s->uid;
	__builtin_memcpy(e.comm, s->comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
out:
	bpfkit_sock_forget(&tcpconnlat_socks, ctx->skaddr);
	return 0;
}
