// SPDX-License-Identifier: GPL-2.0
/*
 * biolatency: block I/O latency from issue (or, with -Q, from queueing) to
 * completion, in a histogram for all disks, per disk or per operation.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#define BPFKIT_RQ_NO_TASK /* the histogram needs no pid or comm */
#include "bpfkit/blockio.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "biolatency.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool queued; /* -Q: from queueing, not issue */
const volatile bool per_disk; /* -D */
const volatile bool per_op; /* -F */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct biolatency_key);
	__type(value, struct bpfkit_hist);
} biolatency_hists SEC(".maps");

static __always_inline void rq_unstaged(void)
{
	bpfkit_hist_miss();
}

static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s)
{
	__u64 start = queued && s->queued_ns ? s->queued_ns : s->issued_ns;
	struct biolatency_key key = {};
	struct bpfkit_hist *h;

	if (per_disk)
		key.dev = bpfkit_rq_dev(rq);
	if (per_op)
		key.op = bpfkit_rq_op(rq);
	h = bpfkit_hist_get(&biolatency_hists, &key);
	if (h)
		bpfkit_hist_add(h, bpf_ktime_get_ns() - start);
}
