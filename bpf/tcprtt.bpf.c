// SPDX-License-Identifier: GPL-2.0
/*
 * tcprtt: at each tcp:tcp_probe (a TCP socket receiving a segment in the
 * established state), add the socket's smoothed round-trip time, srtt in
 * microseconds, to the histogram of its key: one for all, or per local or
 * remote address or port as --by says. The record is read the CO-RE way:
 * its layout differs between kernels (5.10 has no family member: the
 * family is the addresses' own sa_family, on every kernel).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/histogram.bpf.h"
#include "bpfkit/net.bpf.h"
#include "tcprtt.h"

char LICENSE[] SEC("license") = "GPL";

/* enum tcprtt_by: what a histogram is per. */
const volatile __u32 by;

/* -a, -A: this local or remote address only (family 0: any). */
const volatile __u16 laddr_family;
const volatile __u8 laddr[16];
const volatile __u16 raddr_family;
const volatile __u8 raddr[16];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct tcprtt_key);
	__type(value, struct bpfkit_hist);
} tcprtt_hists SEC(".maps");

/*
 * The one histogram when none is per anything (by 0): a per-CPU array,
 * added to without atomics (bpfkit_hist_add_local()): the kernel runs no
 * second tracepoint program on a CPU where one runs (a nested hit is
 * skipped and counted in the program's misses).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} tcprtt_all SEC(".maps");

/*
 * The address in SA, a sockaddr_in or sockaddr_in6 (tcp_probe's 28-byte
 * saddr or daddr), into ADDR; its family, AF_INET for an IPv4-mapped IPv6
 * address (then its IPv4 one), or 0 for neither.
 */
static __always_inline __u16 sockaddr_addr(const __u8 *sa, __u8 *addr)
{
	__u8 buf[28];
	__u16 family;

	bpf_probe_read_kernel(buf, sizeof(buf), sa);
	family = *(__u16 *)buf;
	if (family == BPFKIT_AF_INET) {
		__builtin_memcpy(addr, &buf[4], 4);
	} else if (family == BPFKIT_AF_INET6) {
		if (!bpfkit_v4_mapped(&buf[8])) {
			__builtin_memcpy(addr, &buf[8], 16);
			return family;
		}
		__builtin_memcpy(addr, &buf[20], 4);
		family = BPFKIT_AF_INET;
	} else {
		return 0;
	}
	return family;
}

/* Does ADDR of FAMILY pass a filter of WANT_FAMILY and WANT (-a, -A)? */
static __always_inline bool addr_selected(__u16 family, const __u8 *addr,
					  __u16 want_family,
					  const volatile __u8 *want)
{
	int i, len = family == BPFKIT_AF_INET ? 4 : 16;

	if (!want_family)
		return true;
	if (family != want_family)
		return false;
	for (i = 0; i < 16; i++) {
		if (i >= len)
			break;
		if (addr[i] != want[i])
			return false;
	}
	return true;
}

SEC("tracepoint/tcp/tcp_probe")
int tcprtt_probe(struct trace_event_raw_tcp_probe *ctx)
{
	struct bpfkit_flow f = {};
	struct tcprtt_key key = {};
	struct bpfkit_hist *h;
	__u32 srtt = ctx->srtt, zero = 0;

	/* No round trip measured yet. */
	if (!srtt)
		return 0;
	/*
	 * The addresses (a helper call each, which costs more here than the
	 * rest of the program) only for what asks for them: keys, -a, -A,
	 * -4, -6. tcp_probe is a TCP socket's, of AF_INET or AF_INET6.
	 */
	if ((by & (TCPRTT_BY_LADDR | TCPRTT_BY_RADDR)) || laddr_family ||
	    raddr_family || bpfkit_net_cfg.family) {
		f.family = sockaddr_addr(ctx->saddr, f.saddr);
		if (sockaddr_addr(ctx->daddr, f.daddr) != f.family || !f.family)
			return 0;
	}
	f.sport = ctx->sport;
	f.dport = ctx->dport;
	if (!bpfkit_flow_selected(&f) ||
	    !addr_selected(f.family, f.saddr, laddr_family, laddr) ||
	    !addr_selected(f.family, f.daddr, raddr_family, raddr))
		return 0;

	if (!by) {
		h = bpf_map_lookup_elem(&tcprtt_all, &zero);
		if (h)
			bpfkit_hist_add_local(h, srtt * 1000ULL);
		return 0;
	}
	if (by & (TCPRTT_BY_LADDR | TCPRTT_BY_RADDR))
		key.family = f.family;
	if (by & TCPRTT_BY_LADDR)
		__builtin_memcpy(key.laddr, f.saddr, 16);
	if (by & TCPRTT_BY_RADDR)
		__builtin_memcpy(key.raddr, f.daddr, 16);
	if (by & TCPRTT_BY_LPORT)
		key.lport = f.sport;
	if (by & TCPRTT_BY_RPORT)
		key.rport = f.dport;
	h = bpfkit_hist_get(&tcprtt_hists, &key);
	if (h)
		bpfkit_hist_add(h, srtt * 1000ULL);
	return 0;
}
