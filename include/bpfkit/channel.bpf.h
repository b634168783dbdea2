/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the event channel, included by every BPF object that
 * sends events (one that only filters includes bpfkit/filter.bpf.h alone).
 *
 * A tool calls bpfkit_emit() to send a record. Both transports are compiled
 * in; user space picks one at load time by setting bpfkit_channel_cfg.ringbuf
 * and retyping the unused map, and the verifier prunes the branch not taken.
 */
#ifndef BPFKIT_CHANNEL_BPF_H
#define BPFKIT_CHANNEL_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.h"

const volatile struct bpfkit_channel_cfg bpfkit_channel_cfg = {
	.wakeup = 1,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} bpfkit_perf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} bpfkit_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_stats);
} bpfkit_stats SEC(".maps");

/*
 * Send one record to user space. Every attempt is counted as produced and
 * every failure as dropped, so user space can account for each record.
 * Wakeups are batched: the reader is woken once bpfkit_channel_cfg.wakeup records
 * are pending, and flushes whatever is left on its poll timeout.
 */
static __always_inline long bpfkit_emit(void *ctx, const void *data, __u64 size)
{
	struct bpfkit_stats *stats;
	__u32 zero = 0;
	__u64 pending, flags;
	long err;

	stats = bpf_map_lookup_elem(&bpfkit_stats, &zero);
	if (!stats)
		return -1;
	__sync_fetch_and_add(&stats->produced, 1);

	if (bpfkit_channel_cfg.ringbuf) {
		pending = bpf_ringbuf_query(&bpfkit_ring, BPF_RB_AVAIL_DATA);
		flags = pending + size >= bpfkit_channel_cfg.wakeup * size ||
					pending >= bpfkit_channel_cfg
							   .ring_wakeup_max ?
				BPF_RB_FORCE_WAKEUP :
				BPF_RB_NO_WAKEUP;
		err = bpf_ringbuf_output(&bpfkit_ring, (void *)data, size,
					 flags);
	} else {
		err = bpf_perf_event_output(ctx, &bpfkit_perf,
					    BPF_F_CURRENT_CPU, (void *)data,
					    size);
	}
	if (err)
		__sync_fetch_and_add(&stats->dropped, 1);
	return err;
}

/* Why an event was given up before it reached bpfkit_emit(). */
enum bpfkit_drop_reason {
	BPFKIT_STAGING_FULL, /* a map update failed: full, or no memory */
	BPFKIT_READ_FAILED, /* a lookup that should find its entry did not */
};

/*
 * Count an event the BPF side gives up on the way to the channel, say when
 * its staging map is full: it is produced and lost, so that user space
 * accounts for it like a record that found no room.
 */
static __always_inline void bpfkit_drop(enum bpfkit_drop_reason reason)
{
	struct bpfkit_stats *stats;
	__u32 zero = 0;

	stats = bpf_map_lookup_elem(&bpfkit_stats, &zero);
	if (!stats)
		return;
	__sync_fetch_and_add(&stats->produced, 1);
	if (reason == BPFKIT_STAGING_FULL)
		__sync_fetch_and_add(&stats->staging_full, 1);
	else
		__sync_fetch_and_add(&stats->read_failed, 1);
}

#endif /* BPFKIT_CHANNEL_BPF_H */
