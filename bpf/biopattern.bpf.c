// SPDX-License-Identifier: GPL-2.0
/*
 * biopattern: per disk, how many block I/O requests begin where the one
 * before ended (sequential) and how many elsewhere (random), counted as
 * they complete: at block:block_rq_complete alone, or, when filters pick
 * the tasks that made them, from their start (blockio.bpf.h), so that
 * only those tasks' requests count.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/blockio.bpf.h"
#include "biopattern.h"

char LICENSE[] SEC("license") = "GPL";

/* Requests not counted: the in-flight or the disks map was full. */
__u64 biopattern_missed;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOPATTERN_MAX_DISKS);
	__type(key, __u32); /* the disk's dev_t */
	__type(value, struct biopattern_disk);
} biopattern_disks SEC(".maps");

static __always_inline void rq_unstaged(void)
{
	__sync_fetch_and_add(&biopattern_missed, 1);
}

/* A completed request of DEV from SECTOR on, SECTORS long. */
static __always_inline void count(__u32 dev, __u64 sector, __u32 sectors)
{
	static const struct biopattern_disk zero;
	struct biopattern_disk *d;

	/* A flush has no place on the disk. */
	if (!sectors)
		return;
	d = rq_counts(&biopattern_disks, &dev, &zero);
	if (!d)
		return;
	if (d->next_sector) {
		if (d->next_sector == sector)
			__sync_fetch_and_add(&d->sequential, 1);
		else
			__sync_fetch_and_add(&d->random, 1);
		__sync_fetch_and_add(&d->bytes, (__u64)sectors << 9);
	}
	d->next_sector = sector + sectors;
}

/* With filters: the requests their tasks started. */
static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s)
{
	count(bpfkit_rq_dev(rq), BPF_CORE_READ(rq, __sector),
	      BPF_CORE_READ(rq, __data_len) >> 9);
}

/* Without: every completion, from the tracepoint's record. */
SEC("tracepoint/block/block_rq_complete")
int completed(void *ctx)
{
	__u64 sector;
	__u32 dev, sectors;

	bpfkit_rq_completed(ctx, &dev, &sector, &sectors);
	if (bpfkit_rq_dev_filter && dev != bpfkit_rq_dev_filter)
		return 0;
	count(dev, sector, sectors);
	return 0;
}
