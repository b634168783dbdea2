// SPDX-License-Identifier: GPL-2.0
/*
 * klockstat: kernel lock contention. The time each task waits for a
 * contended kernel lock (lock:contention_begin to lock:contention_end,
 * Linux 5.19 on), in a histogram per lock and caller stack.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/histogram.bpf.h"
#include "bpfkit/stacks.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "klockstat.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool by_lock; /* --by-lock: no stacks, one key per lock */
const volatile __u64 target_lock; /* --lock: this address only; 0: all */

/* A wait in progress: its lock, start and caller. */
struct wait {
	__u64 start_ns;
	struct klockstat_key key;
};

BPFKIT_STAGING(struct wait);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct klockstat_key);
	__type(value, struct bpfkit_hist);
} klockstat_hists SEC(".maps");

SEC("tracepoint/lock/contention_begin")
int contention_begin(struct trace_event_raw_contention_begin *ctx)
{
	struct wait w = {};

	w.key.lock = (__u64)ctx->lock_addr;
	if (target_lock && w.key.lock != target_lock)
		return 0;
	/*
	 * A wait already begun goes on: a mutex's optimistic spin before it
	 * sleeps, or a lock taken inside the wait for another (its own
	 * wait_lock), is part of it.
	 */
	if (bpfkit_staged(&bpfkit_staging))
		return 0;
	w.key.flags = ctx->flags;
	w.key.kernel_stack = by_lock ? BPFKIT_STACK_NONE : stack_id(ctx, 0);
	w.start_ns = bpf_ktime_get_ns();
	bpfkit_stage(&bpfkit_staging, &w, sizeof(w));
	return 0;
}

SEC("tracepoint/lock/contention_end")
int contention_end(struct trace_event_raw_contention_end *ctx)
{
	struct bpfkit_hist *h;
	struct wait *w;
	__u64 delta;

	w = bpfkit_staged(&bpfkit_staging);
	if (!w || w->key.lock != (__u64)ctx->lock_addr)
		return 0;
	delta = bpf_ktime_get_ns() - w->start_ns;
	h = bpfkit_hist_get(&klockstat_hists, &w->key);
	if (h)
		bpfkit_hist_add(h, delta);
	bpfkit_unstage(&bpfkit_staging, w);
	return 0;
}
