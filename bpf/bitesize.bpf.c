// SPDX-License-Identifier: GPL-2.0
/*
 * bitesize: the sizes of block I/O requests as a histogram per process,
 * the process that made (else issued) each request, counted as it
 * completes.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/blockio.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "bitesize.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, bitesize_key);
	__type(value, struct bpfkit_hist);
} bitesize_hists SEC(".maps");

static __always_inline void rq_unstaged(void)
{
	bpfkit_hist_miss();
}

static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s)
{
	bitesize_key key = s->pid;
	struct bpfkit_hist *h;

	h = bpfkit_hist_get(&bitesize_hists, &key);
	if (!h)
		return;
	/* Its latest command: one that execs names its later requests. */
	__builtin_memcpy(h->name, s->comm, sizeof(h->name));
	/* Bytes, in Kbyte buckets (the reader's bpfkit_hist_io_sizes()). */
	bpfkit_hist_add(h, BPF_CORE_READ(rq, __data_len));
}
