/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record drsnoop sends for every direct reclaim a task ran. */
#ifndef DRSNOOP_H
#define DRSNOOP_H

#include "bpfkit/channel.h"

/* Which reclaim: the page allocator's, or a memory cgroup's over its limit. */
enum drsnoop_kind {
	DRSNOOP_GLOBAL, /* mm_vmscan_direct_reclaim_begin/end */
	DRSNOOP_MEMCG, /* mm_vmscan_memcg_reclaim_begin/end */
};

struct drsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u64 latency_ns; /* from begin to end */
	__u64 nr_reclaimed; /* pages */
	__u64 gfp_flags; /* the allocation's */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 order; /* the allocation's: 2^order pages */
	__u32 kind; /* enum drsnoop_kind */
	__u32 pad;
	char comm[BPFKIT_COMM_LEN];
};

#endif /* DRSNOOP_H */
