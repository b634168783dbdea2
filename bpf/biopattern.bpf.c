// SPDX-License-Identifier: GPL-2.0
/*
 * biopattern: per disk, how many block I/O requests begin where the one
 * before ended (sequential) and how many elsewhere (random), counted as
 * they complete.
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

static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s)
{
	static const struct biopattern_disk zero;
	__u32 bytes = BPF_CORE_READ(rq, __data_len);
	__u64 sector = BPF_CORE_READ(rq, __sector);
	__u32 dev = bpfkit_rq_dev(rq);
	struct biopattern_disk *d;

	/* A flush has no place on the disk. */
	if (!bytes)
		return;
	d = rq_counts(&biopattern_disks, &dev, &zero);
	if (!d)
		return;
	if (d->next_sector) {
		if (d->next_sector == sector)
			__sync_fetch_and_add(&d->sequential, 1);
		else
			__sync_fetch_and_add(&d->random, 1);
		__sync_fetch_and_add(&d->bytes, bytes);
	}
	d->next_sector = sector + (bytes >> 9);
}
