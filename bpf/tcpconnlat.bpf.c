// SPDX-License-Identifier: GPL-2.0
/*
 * tcpconnlat: follow each connect from SYN_SENT (bpfkit/connect.bpf.h);
 * SYN_SENT -> ESTABLISHED (often in softirq, at the SYN-ACK) sends the
 * connect's latency, or with -H adds it to the shared histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/connect.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "tcpconnlat.h"

char LICENSE[] SEC("license") = "GPL";

/* -H: a histogram instead of events. */
const volatile bool histogram;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct bpfkit_connect);
} tcpconnlat_socks SEC(".maps");

/* -H: one histogram, key 0. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} tcpconnlat_hists SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int tcpconnlat_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct tcpconnlat_event e = {};
	struct bpfkit_connect *c;
	struct bpfkit_hist *h;
	__u32 zero = 0;
	long err;

	c = bpfkit_tcp_connect(ctx, &tcpconnlat_socks, &err);
	if (err && histogram)
		bpfkit_hist_miss();
	else if (err)
		bpfkit_drop(BPFKIT_STAGING_FULL);
	if (!c)
		return 0;
	bpfkit_tp_flow(ctx, &e.flow);
	if (ctx->newstate != BPFKIT_TCP_ESTABLISHED ||
	    !bpfkit_family_selected(&e.flow))
		goto out;
	e.latency_ns = bpf_ktime_get_ns() - c->start_ns;
	if (histogram) {
		h = bpfkit_hist_get(&tcpconnlat_hists, &zero);
		if (h)
			bpfkit_hist_add(h, e.latency_ns);
		goto out;
	}
	e.rec = c->task;
	e.pid = c->pid;
	e.tid = c->tid;
	e.uid = c->uid;
	__builtin_memcpy(e.comm, c->comm, sizeof(e.comm));
	bpfkit_emit_stamped(ctx, &e.rec, sizeof(e));
out:
	bpfkit_sock_forget(&tcpconnlat_socks, ctx->skaddr);
	return 0;
}
