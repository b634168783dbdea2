// SPDX-License-Identifier: GPL-2.0
/*
 * fsdist: the latency of reads, writes, opens and fsyncs of regular
 * files, in a histogram per file system type and operation.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/fsops.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "fsdist.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct fsdist_key);
	__type(value, struct bpfkit_hist);
} fsdist_hists SEC(".maps");

static __always_inline void fs_done(void *ctx, const struct bpfkit_fs_call *c,
				    __u64 ns, long ret)
{
	struct fsdist_key key = { .op = c->op };
	struct bpfkit_hist *h;

	if (!bpfkit_fs_file(c, key.fstype))
		return;
	h = bpfkit_hist_get(&fsdist_hists, &key);
	if (h)
		bpfkit_hist_add(h, ns);
}
