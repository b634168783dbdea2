// SPDX-License-Identifier: GPL-2.0
/*
 * bitesize: the sizes of block I/O requests as a histogram per process,
 * the process that issued each request, counted at its issue: on tp_btf
 * where the kernel loads it (the request's size is a plain load there),
 * else on raw_tp (a bpf_probe_read_kernel() call, which costs more here
 * than the rest of the program).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/blockrq.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "bitesize.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, bitesize_key);
	__type(value, struct bpfkit_hist);
} bitesize_hists SEC(".maps");

/* A request RQ issued; BTF: the verifier trusts RQ (tp_btf). */
static __always_inline void issued(struct request *rq, bool btf)
{
	bitesize_key key;
	struct bpfkit_hist *h;

	if (!rq_selected(rq) || !bpfkit_selected())
		return;
	key = bpf_get_current_pid_tgid() >> 32;
	h = bpfkit_hist_get(&bitesize_hists, &key);
	if (!h)
		return;
	/* Named by its command when first seen. */
	if (!h->name[0])
		bpf_get_current_comm(h->name, sizeof(h->name));
	/* Bytes, in Kbyte buckets (the reader's bpfkit_hist_io_sizes()). */
	bpfkit_hist_add(h,
			btf ? rq->__data_len : BPF_CORE_READ(rq, __data_len));
}

/* Its request: the first argument or the second (core_fixes.bpf.h). */
SEC("tp_btf/block_rq_issue")
int rq_issue_btf(unsigned long long *ctx)
{
	issued(bpfkit_rq_arg(ctx, issue), true);
	return 0;
}

SEC("raw_tp/block_rq_issue")
int rq_issue(unsigned long long *ctx)
{
	issued(bpfkit_rq_arg(ctx, issue), false);
	return 0;
}
