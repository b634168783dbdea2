// SPDX-License-Identifier: GPL-2.0
/*
 * bitesize: the sizes of block I/O requests as a histogram per process,
 * the process that issued each request, counted at its issue.
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

/* Its request: the first argument or the second (core_fixes.bpf.h). */
SEC("raw_tp/block_rq_issue")
int rq_issue(unsigned long long *ctx)
{
	struct request *rq = bpfkit_rq_arg(ctx, issue);
	bitesize_key key;
	struct bpfkit_hist *h;

	if (!rq_selected(rq) || !bpfkit_selected())
		return 0;
	key = bpf_get_current_pid_tgid() >> 32;
	h = bpfkit_hist_get(&bitesize_hists, &key);
	if (!h)
		return 0;
	/* Its latest command: one that execs names its later requests. */
	bpf_get_current_comm(h->name, sizeof(h->name));
	/* Bytes, in Kbyte buckets (the reader's bpfkit_hist_io_sizes()). */
	bpfkit_hist_add(h, BPF_CORE_READ(rq, __data_len));
	return 0;
}
